package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/idna"
)

// ProxyFunc chooses the proxy of a request, as http.Transport.Proxy does:
// nil for none.
type ProxyFunc func(*http.Request) (*url.URL, error)

// Transport is an http.Transport whose connections go only where its
// Policy allows (see Policy.Transport). Its RoundTrip chooses a request's
// proxy and marks the request with it; the embedded http.Transport's own
// RoundTrip, used alone, sends every request directly, checked.
type Transport struct {
	*http.Transport
	g *guard
}

// Transport returns a Transport whose connections go only where p
// allows. A direct connection is checked on the address dialled, after
// resolution, so a name resolving to an internal address and a redirect
// to one are refused alike (every hop is a connection of its own); a host
// that is no address (none, or 256.1.1.1) is refused, direct or not, and
// one that URL parsers read as an IPv4 address (0x7f.1, 2130706433) is
// that address, and localhost and the names under it (localhost.,
// db.localhost) are 127.0.0.1, direct or not. A host name that does not resolve is an
// *UnresolvedError, direct or not. A
// request that proxy sends through a proxy is checked on its
// destination, which is resolved here first (a name that does not resolve
// is not sent, an *UnresolvedError), and that request's connection
// to the proxy is let through:
// the rule is about where a request goes, and a proxy on a private
// network is the usual case. Only the connection made for a request sent
// through the proxy is: a request addressed to the proxy's own host:port
// (one proxy does not send, as Go sends none to a loopback address) is
// checked as any other. The proxy resolves the name again; a proxy
// that itself refuses internal destinations closes the gap between the
// two resolutions. proxy nil means no proxy.
func (p *Policy) Transport(connectTimeout time.Duration, proxy ProxyFunc) *Transport {
	return p.transport(connectTimeout, proxy, net.DefaultResolver)
}

// transport is Transport with the resolver of destinations' names (tests
// give one that answers what they choose).
func (p *Policy) transport(connectTimeout time.Duration, proxy ProxyFunc, resolver *net.Resolver) *Transport {
	g := &guard{p: p, proxy: proxy, resolver: resolver}
	g.direct = net.Dialer{Timeout: connectTimeout}
	g.checked = net.Dialer{Timeout: connectTimeout, ControlContext: g.control, Resolver: resolver}
	t := &http.Transport{DialContext: g.dial, TLSHandshakeTimeout: connectTimeout,
		MaxIdleConns: maxIdleConns, IdleConnTimeout: idleConnTimeout}
	if proxy != nil {
		t.Proxy = chosenProxy
	}
	return &Transport{Transport: t, g: g}
}

// RoundTrip sends req: through the proxy the ProxyFunc chooses, its
// destination checked first, or directly. A request sent through a proxy
// carries the proxy in its context, for chosenProxy and guard.dial.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.g.proxy != nil {
		u, err := t.g.proxyFor(req)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
		if u != nil {
			req = req.WithContext(context.WithValue(req.Context(), viaProxy{}, u))
		}
	}
	return t.Transport.RoundTrip(req)
}

// viaProxy is the key of the proxy (a *url.URL) in the context of a
// request Transport.RoundTrip sends through it.
type viaProxy struct{}

// chosenProxy is the http.Transport's Proxy: the proxy RoundTrip chose
// for req, nil for none.
func chosenProxy(req *http.Request) (*url.URL, error) {
	u, _ := req.Context().Value(viaProxy{}).(*url.URL)
	return u, nil
}

// The idle connections a Transport keeps, as http.DefaultTransport does:
// at most 100, for 90 s each. An http.Transport made whole keeps every one
// for as long as the server does, and the hosts are whatever links a feed
// holds: a feed linking each item to a new name of a server that never
// closes a connection held a socket and two goroutines a link.
const (
	maxIdleConns    = 100
	idleConnTimeout = 90 * time.Second
)

// guard holds a Transport's checks.
type guard struct {
	p        *Policy
	proxy    ProxyFunc
	resolver *net.Resolver
	direct   net.Dialer // to a request's proxy
	checked  net.Dialer // to everything else
}

// control checks the address a socket is about to connect to. One that
// does not read as an address and a port (the dialer's for a host left
// empty, ":8080", which it connects to on this machine) cannot be
// checked, and is refused.
func (g *guard) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Class: NoAddress, Err: errors.New("the address connected to does not read as one")}
	}
	return g.p.Check(ap.Addr())
}

// dial connects to the proxy of the request it dials for (the context's
// viaProxy) as it is, and to anything else checked: a host that is no
// address (see noAddress) is refused before it is looked up, and the
// addresses connected to by control. The proxy's address is no pass of
// its own: a feed's link to http://PROXY:PORT/ is checked as any other,
// so that the proxy's own pages (a cache manager's status) stay out of
// reach.
func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if u, ok := ctx.Value(viaProxy{}).(*url.URL); ok && strings.EqualFold(proxyAddr(u), addr) {
		return g.direct.DialContext(ctx, network, addr)
	}
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if err := noAddress(host); err != nil {
			return nil, err
		}
		if _, err := netip.ParseAddr(host); err != nil {
			// A host that URL parsers read as an IPv4 address (0x7f.1,
			// 2130706433) is connected to at that address, and localhost
			// and the names under it (localhost., db.localhost) at
			// 127.0.0.1, as checkHost reads them for a proxy: the
			// resolver would look them up as names, and one that answers
			// every name gave localhost. a public address.
			name := strings.TrimSuffix(host, ".")
			if ip, numeric, _ := parseIPv4(name); numeric {
				addr = net.JoinHostPort(ip.String(), port)
			} else if isLocalhost(name) {
				addr = net.JoinHostPort("127.0.0.1", port)
			}
		}
	}
	conn, err := g.checked.DialContext(ctx, network, addr)
	return conn, unresolved(ctx, err)
}

// UnresolvedError is the error of a destination whose host name the
// resolver did not resolve. Its message says so without the resolver's
// address or anything else of the lookup but its failure: a name that
// does not exist, or the resolver's own failure, which may pass (no
// answer, "server misbehaving"). It unwraps to the *net.DNSError.
type UnresolvedError struct {
	Err *net.DNSError
}

func (e *UnresolvedError) Error() string {
	if e.Err.IsNotFound {
		return "the host name does not resolve"
	}
	return "the host name could not be looked up: " + e.Err.Err
}

// Unwrap returns the resolver's error.
func (e *UnresolvedError) Unwrap() error { return e.Err }

// unresolved is err, or when it is a failed lookup of a host name, an
// *UnresolvedError of it. A lookup cut short by ctx (a request cancelled,
// its time run out) is left as it is: its cause is the context's.
func unresolved(ctx context.Context, err error) error {
	var de *net.DNSError
	if err == nil || ctx.Err() != nil || !errors.As(err, &de) {
		return err
	}
	return &UnresolvedError{Err: de}
}

// noAddress returns a *RefusedError of the class NoAddress when host
// names no address: it is empty (a URL such as http://:8080/x, which Go
// dials on this machine), or it ends in a number but is no IPv4 address
// (256.1.1.1, which Go's resolver would look up as a name, and a URL
// parser or a proxy refuses). Else it returns nil.
func noAddress(host string) error {
	name := strings.TrimSuffix(host, ".")
	if name == "" {
		return &RefusedError{Class: NoAddress, Err: ErrNoHost}
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return nil
	}
	if _, numeric, err := parseIPv4(name); numeric && err != nil {
		return &RefusedError{Class: NoAddress, Err: err}
	}
	return nil
}

// proxyFor chooses req's proxy; when there is one, it checks the
// destination's addresses first.
func (g *guard) proxyFor(req *http.Request) (*url.URL, error) {
	u, err := g.proxy(req)
	if err != nil || u == nil {
		return u, err
	}
	if err := g.checkHost(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	return u, nil
}

// checkHost checks every address of host, a name or an address, as a
// proxy will read it: the proxy, not this process, connects. A host that
// URL parsers and inet_aton read as an IPv4 address is that address, not a
// name to look up here (2130706433, 0x7f.1, 127.1, 0177.0.0.1, 127.0.0.1.:
// a resolver that answers every name, as some do for names that do not
// exist, gave it a public address, and the proxy connected to 127.0.0.1);
// localhost and the names under it are loopback (RFC 6761), whatever a
// resolver says. A host that is not ASCII is read in its ASCII forms:
// the one net/http dials and URL parsers read (see asciiHost:
// bücher.example is xn--bcher-kva.example, a full-width ０x7f．1 is 0x7f.1,
// loopback), and, when it differs, the one net/http writes in the request
// to the proxy, which the proxy resolves (Punycode alone: ｅvil.example is
// xn--vil-376s.example there); both are checked. A host that is no address
// (see noAddress) is refused. A name that does not resolve here is an
// *UnresolvedError, not a refusal: the request is not sent, and a caller
// tries it again as it does a direct request's failed lookup, since a
// resolver's failure may pass.
func (g *guard) checkHost(ctx context.Context, host string) error {
	if err := g.checkName(ctx, asciiHost(host)); err != nil {
		return err
	}
	if sent, err := idna.ToASCII(host); err == nil && sent != asciiHost(host) {
		return g.checkName(ctx, sent)
	}
	return nil
}

// checkName is checkHost of an ASCII host.
func (g *guard) checkName(ctx context.Context, host string) error {
	if err := noAddress(host); err != nil {
		return err
	}
	name := strings.TrimSuffix(host, ".")
	if ip, err := netip.ParseAddr(name); err == nil {
		return g.p.Check(ip)
	}
	if ip, numeric, _ := parseIPv4(name); numeric {
		return g.p.Check(ip)
	}
	if isLocalhost(name) {
		return g.p.Check(netip.AddrFrom4([4]byte{127, 0, 0, 1}))
	}
	ips, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return unresolved(ctx, err)
	}
	for _, ip := range ips {
		if err := g.p.Check(ip); err != nil {
			return err
		}
	}
	return nil
}

// asciiHost is host in the ASCII form net/http sends and dials, as its
// own conversion does: a host that is not ASCII is converted with
// idna.Lookup (mapped: full-width characters to their ASCII ones, upper
// case to lower, characters ignored dropped; then Punycode), and one that
// does not convert is left as it is (net/http does not send it).
func asciiHost(host string) string {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			if a, err := idna.Lookup.ToASCII(host); err == nil {
				return a
			}
			return host
		}
	}
	return host
}

// isLocalhost reports whether name (without a final dot) is localhost or
// a name under it, loopback whatever a resolver says (RFC 6761).
func isLocalhost(name string) bool {
	lower := strings.ToLower(name)
	return lower == "localhost" || strings.HasSuffix(lower, ".localhost")
}

// proxyAddr is the host:port a Transport dials for the proxy u.
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// errNotIPv4 is the error of a host that ends in a number but is no IPv4
// address (256.1.1.1, 1.2.3.4.5): URL parsers refuse it, and so does the
// rule. A host that ends in something else (0x1g) is a name.
var errNotIPv4 = errors.New("a host ending in a number is no IPv4 address")

// parseIPv4 reads host as the WHATWG URL standard's IPv4 parser (and
// inet_aton) does: one to four dot-separated numbers, each decimal, octal
// with a leading 0 or hexadecimal with 0x, the last filling the bytes the
// others leave (127.1 is 127.0.0.1, 2130706433 is 127.0.0.1). numeric is
// false for a name, a host whose last label is neither a number nor
// digits alone (09 is no octal number, yet a URL parser takes it for one);
// a numeric host that is no address is errNotIPv4.
func parseIPv4(host string) (ip netip.Addr, numeric bool, err error) {
	parts := strings.Split(host, ".")
	end := parts[len(parts)-1]
	if _, ok := ipv4Number(end); !ok && (end == "" || strings.Trim(end, "0123456789") != "") {
		return netip.Addr{}, false, nil
	}
	if len(parts) > 4 {
		return netip.Addr{}, true, errNotIPv4
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		last := i == len(parts)-1
		if !ok || !last && n > 255 || last && n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, true, errNotIPv4
		}
		if last {
			v += n
		} else {
			v += n << (8 * (3 - i))
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// ipv4Number reads one part of an IPv4 host: decimal, octal with a
// leading 0, hexadecimal with 0x or 0X ("0x" alone is 0).
func ipv4Number(s string) (uint64, bool) {
	base := 10
	switch {
	case s == "":
		return 0, false
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	if err != nil {
		n = 1 << 40 // out of every part's range
	}
	return n, true
}
