package watch

import (
	"net"
	"net/url"
	"testing"

	"github.com/neardup/neardup/internal/outbound"
)

// TestUnresolvedHostSaidPlainly pins the error of a feed or page whose
// host name does not resolve: Go's own, which named the resolver's address
// (`Get "http://x.invalid/a": dial tcp: lookup x.invalid on
// 10.255.255.53:53: no such host`), in the stored item's detail, feeds add
// and the feed's page. It is said as a refusal is, the URL asked and, after
// a redirect, its target, and stays a failure that may pass.
func TestUnresolvedHostSaidPlainly(t *testing.T) {
	lookup := func(name string) error {
		return &net.OpError{Op: "dial", Net: "tcp", Err: &outbound.UnresolvedError{Err: &net.DNSError{
			Err: "no such host", Name: name, Server: "10.255.255.53:53", IsNotFound: true}}}
	}
	for _, tc := range []struct {
		name, asked string
		err         error
		want        string
	}{
		{"direct", "http://x.invalid/a", &url.Error{Op: "Get", URL: "http://x.invalid/a", Err: lookup("x.invalid")},
			"http://x.invalid/a: the host name does not resolve"},
		{"redirected", "http://a.example/x", &url.Error{Op: "Get", URL: "http://x.invalid/b", Err: lookup("x.invalid")},
			"http://a.example/x: redirected to http://x.invalid/b: the host name does not resolve"},
		{"a password", "http://u:secret@x.invalid/a", &url.Error{Op: "Get", URL: "http://u:xxxxx@x.invalid/a", Err: lookup("x.invalid")},
			"http://u:xxxxx@x.invalid/a: the host name does not resolve"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := refused(tc.err, tc.asked)
			if got := err.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !transient(err) {
				t.Errorf("%v: not a failure that may pass", err)
			}
		})
	}
}
