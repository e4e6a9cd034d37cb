package outbound

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"syscall"
	"time"
)

// ProxyFunc chooses the proxy of a request, as http.Transport.Proxy does:
// nil for none.
type ProxyFunc func(*http.Request) (*url.URL, error)

// Transport returns an http.Transport whose connections go only where p
// allows. A direct connection is checked on the address dialled, after
// resolution, so a name resolving to an internal address and a redirect
// to one are refused alike (every hop is a connection of its own). A
// request that proxy sends through a proxy is checked on its
// destination, which is resolved here first (a name that does not resolve
// is refused), and the connection to the proxy itself is let through:
// the rule is about where a request goes, and a proxy on a private
// network is the usual case. The proxy resolves the name again; a proxy
// that itself refuses internal destinations closes the gap between the
// two resolutions. proxy nil means no proxy.
func (p *Policy) Transport(connectTimeout time.Duration, proxy ProxyFunc) *http.Transport {
	g := &guard{p: p, proxy: proxy, proxies: map[string]bool{}, resolver: net.DefaultResolver}
	g.direct = net.Dialer{Timeout: connectTimeout}
	g.checked = net.Dialer{Timeout: connectTimeout, ControlContext: g.control}
	t := &http.Transport{DialContext: g.dial, TLSHandshakeTimeout: connectTimeout}
	if proxy != nil {
		t.Proxy = g.proxyFor
	}
	return t
}

// guard holds a Transport's checks.
type guard struct {
	p        *Policy
	proxy    ProxyFunc
	resolver *net.Resolver
	direct   net.Dialer // to proxies
	checked  net.Dialer // to everything else

	mu      sync.Mutex
	proxies map[string]bool // host:port of the proxies proxy chose
}

// control checks the address a socket is about to connect to.
func (g *guard) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("outbound: checking %q: %w", address, err)
	}
	return g.p.Check(ap.Addr())
}

// dial connects to a proxy as it is, and to anything else checked.
func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	g.mu.Lock()
	proxy := g.proxies[addr]
	g.mu.Unlock()
	if proxy {
		return g.direct.DialContext(ctx, network, addr)
	}
	return g.checked.DialContext(ctx, network, addr)
}

// proxyFor chooses req's proxy; when there is one, it checks the
// destination's addresses and lets the proxy's address be dialled.
func (g *guard) proxyFor(req *http.Request) (*url.URL, error) {
	u, err := g.proxy(req)
	if err != nil || u == nil {
		return u, err
	}
	if err := g.checkHost(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.proxies[proxyAddr(u)] = true
	g.mu.Unlock()
	return u, nil
}

// checkHost checks every address of host, a name or an address.
func (g *guard) checkHost(ctx context.Context, host string) error {
	if ip, err := netip.ParseAddr(host); err == nil {
		return g.p.Check(ip)
	}
	ips, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("outbound: checking the destination %s: %w", host, err)
	}
	for _, ip := range ips {
		if err := g.p.Check(ip); err != nil {
			return err
		}
	}
	return nil
}

// proxyAddr is the host:port a Transport dials for the proxy u.
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
	}
	return net.JoinHostPort(u.Hostname(), port)
}
