package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/neardup/neardup/internal/conntest"
)

// fakeResolver answers every name's A and AAAA queries with the addresses
// answer gives it (the name without its final dot, search domains
// included), as a DNS server of the test's.
func fakeResolver(t *testing.T, answer func(name string) []netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if msg := dnsAnswer(buf[:n], answer); msg != nil {
				pc.WriteTo(msg, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// dnsAnswer is the answer to the query q.
func dnsAnswer(q []byte, answer func(name string) []netip.Addr) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil {
		return nil
	}
	question, err := p.Question()
	if err != nil {
		return nil
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true})
	b.StartQuestions()
	b.Question(question)
	b.StartAnswers()
	rh := dnsmessage.ResourceHeader{Name: question.Name, Class: dnsmessage.ClassINET, TTL: 60}
	for _, ip := range answer(strings.TrimSuffix(question.Name.String(), ".")) {
		switch {
		case ip.Is4() && question.Type == dnsmessage.TypeA:
			b.AResource(rh, dnsmessage.AResource{A: ip.As4()})
		case ip.Is6() && question.Type == dnsmessage.TypeAAAA:
			b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: ip.As16()})
		}
	}
	msg, err := b.Finish()
	if err != nil {
		return nil
	}
	return msg
}

// A host written as a number (decimal, octal, hexadecimal, fewer than four
// parts, a trailing dot) is the IPv4 address a URL parser and the proxy
// read in it, not a name to resolve here: a resolver that answers every
// name (some do, for names that do not exist) gave 2130706433 a public
// address, and the request went to the proxy, which connects to
// 127.0.0.1. localhost and the names under it are loopback whatever a
// resolver says.
func TestCheckHostNumericIPv4(t *testing.T) {
	public := netip.MustParseAddr("203.0.113.10")
	g := &guard{p: &Policy{}, resolver: fakeResolver(t, func(string) []netip.Addr { return []netip.Addr{public} })}
	for _, tc := range []struct {
		host  string
		class string // "" allowed; "-" refused as no address
	}{
		{"2130706433", "loopback"}, {"0x7f000001", "loopback"}, {"017700000001", "loopback"},
		{"127.1", "loopback"}, {"127.0.1", "loopback"}, {"0x7f.1", "loopback"}, {"0177.0.0.1", "loopback"},
		{"0x7F.0X0.0.01", "loopback"}, {"127.0.0.1.", "loopback"}, {"2130706433.", "loopback"},
		{"169.254.169.254.", "link-local"}, {"0xa9fea9fe", "link-local"}, {"2852039166", "link-local"},
		{"10.1", "private"}, {"0", "unspecified"}, {"0x", "unspecified"},
		{"localhost", "loopback"}, {"LOCALHOST.", "loopback"}, {"db.localhost", "loopback"},
		{"256.1.1.1", "-"}, {"1.2.3.4.5", "-"}, {"127.0.0.256", "-"}, {"1.16777216", "-"},
		{"a.b.09", "-"}, {"99999999999999999999999", "-"},
		{"134744072", ""}, {"8.8.8.8.", ""}, {"0x08.010.8.8", ""},
		{"news.example", ""}, {"1.example", ""}, {"0x1g", ""}, {"0x7f.example", ""}, {"localhost.example", ""},
	} {
		err := g.checkHost(t.Context(), tc.host)
		var re *RefusedError
		switch {
		case tc.class == "" && err != nil:
			t.Errorf("%s: %v, want allowed", tc.host, err)
		case tc.class == "-" && (!errors.Is(err, errNotIPv4) || !errors.As(err, &re) || re.Class != NoAddress):
			t.Errorf("%s: %v, want refused as no IPv4 address", tc.host, err)
		case tc.class != "" && tc.class != "-" && (!errors.As(err, &re) || re.Class != tc.class):
			t.Errorf("%s: %v, want refused as %s", tc.host, err, tc.class)
		}
	}
}

// The dialer checks every address a name resolves to as it connects to
// it: a name with an internal address and a public one (here an allowed
// one) connects to the allowed one only; a name with internal addresses
// alone is refused; no connection reaches the internal address. Through
// a proxy, every address of the name must be allowed.
func TestResolvedAddresses(t *testing.T) {
	var hits atomic.Int64
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(allowed.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(allowed.URL, "http://"))
	internal, err := net.Listen("tcp", net.JoinHostPort("127.0.0.3", port))
	if err != nil {
		t.Skipf("listening on 127.0.0.3:%s: %v", port, err)
	}
	t.Cleanup(func() { internal.Close() })
	go func() {
		for {
			c, err := internal.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	names := map[string][]netip.Addr{
		"mixed.test":    {netip.MustParseAddr("127.0.0.3"), netip.MustParseAddr("127.0.0.1")},
		"internal.test": {netip.MustParseAddr("127.0.0.3"), netip.MustParseAddr("10.0.0.5")},
	}
	resolver := fakeResolver(t, func(name string) []netip.Addr {
		for n, ips := range names {
			if name == n || strings.HasPrefix(name, n+".") {
				return ips
			}
		}
		return nil
	})
	p := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	get := func(proxy ProxyFunc, name string) error {
		c := &http.Client{Transport: p.transport(time.Second, proxy, resolver), Timeout: 5 * time.Second}
		resp, err := c.Get("http://" + net.JoinHostPort(name, port) + "/")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get(nil, "mixed.test"); err != nil {
		t.Errorf("mixed.test: %v, want its allowed address", err)
	}
	if err := get(nil, "internal.test"); !errors.Is(err, ErrRefused) {
		t.Errorf("internal.test: %v, want refused", err)
	}
	pu, _ := url.Parse(allowed.URL)
	toProxy := func(*http.Request) (*url.URL, error) { return pu, nil }
	if err := get(toProxy, "mixed.test"); !errors.Is(err, ErrRefused) {
		t.Errorf("mixed.test through a proxy: %v, want refused", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the internal address got %d connections", n)
	}
}

// The Transport keeps few idle connections, and none for long: one to
// each of 300 hosts (names of one server, as a wildcard DNS name gives any
// number of) is not kept open. It kept every one for as long as the
// server did, so that a feed linking each item to a new host name of a
// server that never closes an idle connection held a socket and two
// goroutines a link, pass after pass.
func TestIdleConnections(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	conns := conntest.Track(srv)
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	resolver := fakeResolver(t, func(string) []netip.Addr { return []netip.Addr{netip.MustParseAddr("127.0.0.1")} })
	p := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	tr := p.transport(time.Second, nil, resolver)
	c := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	const hosts = 300
	for i := range hosts {
		resp, err := c.Get(fmt.Sprintf("http://h%d.test:%s/", i, port))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if n := conns.Settle(maxIdleConns, 5*time.Second); n > maxIdleConns {
		t.Errorf("%d connections left open to %d hosts, want at most %d", n, hosts, maxIdleConns)
	}
	if tr.IdleConnTimeout <= 0 || tr.IdleConnTimeout > 2*time.Minute {
		t.Errorf("idle connections kept %s", tr.IdleConnTimeout)
	}
}

// A destination that names no address can never be fetched, whatever the
// operator allows: a URL without a host (http://:PORT/x, which Go dials
// on this machine) and a host ending in a number that is no IPv4 address
// (256.1.1.1) are refused, of the class NoAddress, direct or through a
// proxy, before a lookup or a connection. They failed with a plain error
// ("outbound: checking \":18081\": no IP" in the dialer's hook, a lookup
// through the proxy's check), which the watcher took for a failure that
// may pass and tried again. A name that does not resolve is no refusal:
// a resolver's failure may pass, and it stays the lookup's error.
func TestNoAddressRefused(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	// A resolver that answers every name but nowhere.test with the
	// server's address, as some answer names that do not exist.
	resolver := fakeResolver(t, func(name string) []netip.Addr {
		if strings.HasPrefix(name, "nowhere.test") {
			return nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	// Every address allowed: nothing the operator allows lets these through.
	p := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}}
	pu, _ := url.Parse(srv.URL)
	toProxy := func(*http.Request) (*url.URL, error) { return pu, nil }
	for _, tc := range []struct {
		name  string
		proxy ProxyFunc
		url   string
		why   error // the refusal's reason; nil: an error that is no refusal
	}{
		{"no host", nil, "http://:" + port + "/x", ErrNoHost},
		{"no host through a proxy", toProxy, "http://:" + port + "/x", ErrNoHost},
		{"no IPv4 address", nil, "http://256.1.1.1:" + port + "/x", errNotIPv4},
		{"no IPv4 address through a proxy", toProxy, "http://256.1.1.1/x", errNotIPv4},
		{"no IPv4 address with a dot", toProxy, "http://1.2.3.4.5./x", errNotIPv4},
		{"a name that does not resolve", nil, "http://nowhere.test:" + port + "/x", nil},
		{"a name that does not resolve through a proxy", toProxy, "http://nowhere.test/x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			c := &http.Client{Transport: p.transport(time.Second, tc.proxy, resolver), Timeout: 5 * time.Second}
			resp, err := c.Get(tc.url)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("fetched, want an error")
			}
			var re *RefusedError
			switch {
			case tc.why == nil && errors.Is(err, ErrRefused):
				t.Errorf("%v, want the lookup's error, no refusal", err)
			case tc.why != nil && (!errors.As(err, &re) || re.Class != NoAddress || !errors.Is(err, tc.why)):
				t.Errorf("%v, want refused as %s: %v", err, NoAddress, tc.why)
			case tc.why != nil && !strings.Contains(err.Error(), "refused: the destination is no address: "+tc.why.Error()):
				t.Errorf("%v, want the message to say why it is no address", err)
			}
			if n := hits.Load() - before; n != 0 {
				t.Errorf("the server (or the proxy) was asked %d times", n)
			}
		})
	}
}

// A request addressed to the proxy's own host:port is checked as any
// other: only the connection made for a request sent through the proxy
// skips the check. Once one request had gone through the proxy, its
// address was let through for every request, and a link straight to it
// (which Go sends directly: it is loopback) fetched the proxy's own pages,
// as a cache manager's status page. The proxy here forwards requests in
// absolute form to their destination, a site the rule allows, and
// answers a request in origin form with its own page.
func TestProxyAddressChecked(t *testing.T) {
	site := startAt(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("site")) }))
	var own atomic.Int64
	proxy := startAt(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.IsAbs() {
			own.Add(1)
			w.Write([]byte("proxy status page"))
			return
		}
		resp, err := http.DefaultTransport.RoundTrip(r.Clone(r.Context()))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	pu, _ := url.Parse(proxy)
	// As http.ProxyFromEnvironment: no proxy for a loopback destination
	// other than the allowed site.
	proxyFn := func(r *http.Request) (*url.URL, error) {
		if r.URL.Hostname() == "127.0.0.2" {
			return pu, nil
		}
		return nil, nil
	}
	resolver := fakeResolver(t, func(string) []netip.Addr { return []netip.Addr{netip.MustParseAddr("127.0.0.1")} })
	p := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}}
	c := &http.Client{Transport: p.transport(time.Second, proxyFn, resolver), Timeout: 5 * time.Second}
	get := func(u string) (string, error) {
		resp, err := c.Get(u)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if body, err := get(site + "/a"); err != nil || body != "site" {
		t.Fatalf("the site through the proxy: %q, %v", body, err)
	}
	_, port, _ := net.SplitHostPort(pu.Host)
	for _, u := range []string{proxy + "/squid-internal-mgr/info", "http://localhost:" + port + "/status"} {
		if body, err := get(u); !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %q, %v, want refused", u, body, err)
		}
	}
	if body, err := get(site + "/b"); err != nil || body != "site" {
		t.Errorf("the site through the proxy again: %q, %v", body, err)
	}
	if n := own.Load(); n != 0 {
		t.Errorf("the proxy answered %d requests of its own, want none", n)
	}
}

// startAt serves h on host (an address of this machine) at a port of the
// system's choice, and returns its URL; it skips the test when host
// cannot be listened on.
func startAt(t *testing.T, host string, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Skipf("listening on %s: %v", host, err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}

// TestUnresolvedHostSaidPlainly pins the error of a host name that does
// not resolve: Go's own, which named the resolver's address ("dial tcp:
// lookup nowhere.test on 10.255.255.53:53: no such host"), direct, and a
// wrapped one through a proxy. Both are an *UnresolvedError saying "the
// host name does not resolve", and no refusal.
func TestUnresolvedHostSaidPlainly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	resolver := fakeResolver(t, func(string) []netip.Addr { return nil })
	p := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}}
	pu, _ := url.Parse(srv.URL)
	for name, proxy := range map[string]ProxyFunc{"direct": nil, "through a proxy": func(*http.Request) (*url.URL, error) { return pu, nil }} {
		t.Run(name, func(t *testing.T) {
			c := &http.Client{Transport: p.transport(time.Second, proxy, resolver), Timeout: 5 * time.Second}
			resp, err := c.Get("http://nowhere.test:" + port + "/x")
			if err == nil {
				resp.Body.Close()
				t.Fatal("fetched, want an error")
			}
			var ue *UnresolvedError
			var de *net.DNSError
			if !errors.As(err, &ue) || !errors.As(err, &de) || !de.IsNotFound || errors.Is(err, ErrRefused) {
				t.Fatalf("%v (%T), want an *UnresolvedError of a name not found, no refusal", err, errors.Unwrap(err))
			}
			if msg := err.Error(); !strings.HasSuffix(msg, ": the host name does not resolve") || strings.Contains(msg, "lookup") {
				t.Errorf("%q, want it to end \"the host name does not resolve\", without the lookup", msg)
			}
		})
	}
}

// TestNumericHostDirect pins a host that URL parsers read as an IPv4
// address (0x7f.1, 2130706433: 127.0.0.1) sent directly: it was looked up
// as a name (no such host here, or whatever a resolver answers), where through
// a proxy it is read as the address. It is that address either way:
// refused as loopback, and fetched from it when the operator allows it.
// So are localhost and the names under it (localhost., db.localhost), read
// as loopback through a proxy: sent directly they were looked up, and a
// resolver answering every name sent localhost. to a public address.
func TestNumericHostDirect(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	// Every name resolves to a public address (TEST-NET-3), as a resolver
	// answering names that do not exist gives.
	resolver := fakeResolver(t, func(string) []netip.Addr { return []netip.Addr{netip.MustParseAddr("203.0.113.10")} })
	for _, host := range []string{"0x7f.1", "2130706433", "127.1", "0177.0.0.1",
		"localhost", "localhost.", "LOCALHOST.", "db.localhost", "db.localhost."} {
		t.Run(host, func(t *testing.T) {
			u := "http://" + host + ":" + port + "/x"
			c := &http.Client{Transport: (&Policy{}).transport(time.Second, nil, resolver), Timeout: 5 * time.Second}
			resp, err := c.Get(u)
			var re *RefusedError
			if err == nil {
				resp.Body.Close()
			}
			if !errors.As(err, &re) || re.Class != "loopback" {
				t.Errorf("%s: %v, want refused as loopback", u, err)
			}
			allowed := &Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
			c = &http.Client{Transport: allowed.transport(time.Second, nil, resolver), Timeout: 5 * time.Second}
			before := hits.Load()
			resp, err = c.Get(u)
			if err != nil {
				t.Fatalf("%s allowed: %v, want it fetched from 127.0.0.1", u, err)
			}
			resp.Body.Close()
			if hits.Load() != before+1 {
				t.Errorf("%s allowed: the server at 127.0.0.1 was not asked", u)
			}
		})
	}
}

// TestIDNHostThroughProxy pins a host that is not ASCII sent through a
// proxy: it was looked up as written, which Go's resolver refuses, and
// bücher.example failed "the host name does not resolve". It is checked
// in its ASCII forms: bücher.example as xn--bcher-kva.example, and sent;
// a full-width ０x7f．1 as 0x7f.1, refused as loopback; ｅvil.example both as
// evil.example and as xn--vil-376s.example, the name net/http writes to
// the proxy, which the proxy resolves, here to a private address.
func TestIDNHostThroughProxy(t *testing.T) {
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		w.Write([]byte("proxied"))
	}))
	t.Cleanup(proxy.Close)
	pu, _ := url.Parse(proxy.URL)
	resolver := fakeResolver(t, func(name string) []netip.Addr {
		if name == "xn--vil-376s.example" {
			return []netip.Addr{netip.MustParseAddr("10.0.0.5")}
		}
		return []netip.Addr{netip.MustParseAddr("203.0.113.10")}
	})
	c := &http.Client{Transport: (&Policy{}).transport(time.Second, func(*http.Request) (*url.URL, error) { return pu, nil }, resolver),
		Timeout: 5 * time.Second}
	for _, tc := range []struct {
		host  string
		class string // "" fetched through the proxy
	}{
		{"bücher.example", ""}, {"BÜCHER.example", ""}, {"０x7f．1", "loopback"}, {"ｌｏｃａｌｈｏｓｔ", "loopback"},
		{"ｅvil.example", "private"},
	} {
		t.Run(tc.host, func(t *testing.T) {
			before := proxied.Load()
			resp, err := c.Get("http://" + tc.host + "/x")
			if err == nil {
				resp.Body.Close()
			}
			var re *RefusedError
			switch {
			case tc.class == "" && err != nil:
				t.Errorf("%v, want it fetched through the proxy", err)
			case tc.class == "" && proxied.Load() != before+1:
				t.Errorf("the proxy was not asked")
			case tc.class != "" && (!errors.As(err, &re) || re.Class != tc.class):
				t.Errorf("%v, want refused as %s", err, tc.class)
			case tc.class != "" && proxied.Load() != before:
				t.Errorf("the proxy was asked")
			}
		})
	}
}
