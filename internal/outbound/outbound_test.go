package outbound

import (
	"errors"
	"net/netip"
	"testing"
)

// The class of each range, decided on an address as a dialer has it after
// resolution; nothing is connected to.
func TestClass(t *testing.T) {
	for _, tc := range []struct{ ip, class string }{
		{"127.0.0.1", "loopback"}, {"127.255.255.254", "loopback"}, {"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.0.0.1", "private"}, {"172.16.0.1", "private"}, {"172.31.255.255", "private"},
		{"192.168.1.1", "private"}, {"fc00::1", "private"}, {"fd12:3456::1", "private"},
		{"169.254.169.254", "link-local"}, {"fe80::1", "link-local"}, {"::ffff:169.254.169.254", "link-local"},
		{"100.64.0.1", "carrier-grade NAT"}, {"100.127.255.255", "carrier-grade NAT"},
		{"0.0.0.0", "unspecified"}, {"0.1.2.3", "unspecified"}, {"::", "unspecified"},
		{"224.0.0.1", "multicast"}, {"239.255.255.250", "multicast"}, {"255.255.255.255", "multicast"}, {"ff02::1", "multicast"},
		{"8.8.8.8", ""}, {"172.32.0.1", ""}, {"100.128.0.1", ""}, {"192.169.0.1", ""}, {"2001:4860:4860::8888", ""},
		{"203.0.113.10", ""},
		// IPv6 addresses that a translator or a tunnel delivers to an IPv4
		// address are that address's class: they were let through.
		{"64:ff9b::7f00:1", "loopback"}, {"64:ff9b::169.254.169.254", "link-local"}, {"64:ff9b::a00:5", "private"},
		{"64:ff9b::c0a8:101", "private"},
		{"2002:7f00:1::1", "loopback"}, {"2002:a9fe:a9fe::1", "link-local"}, {"2002:ac10:1::", "private"},
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"}, {"2001:0:4136:e378:8000:63bf:f5ff:fffa", "private"},
		{"::127.0.0.1", "loopback"}, {"::10.0.0.5", "private"}, {"::2", "unspecified"},
		// SIIT's IPv4-translated addresses (::ffff:0:0:0/96, RFC 2765).
		{"::ffff:0:7f00:1", "loopback"}, {"::ffff:0:10.0.0.5", "private"}, {"::ffff:0:169.254.169.254", "link-local"},
		// The local-use NAT64 prefix (64:ff9b:1::/48, RFC 8215) is refused
		// whatever it carries: its network chooses where in the address
		// the IPv4 one is (RFC 6052). Read as a /96, the /64 layout's
		// 10.0.0.5 (64:ff9b:1:0:a:0:500:0) was 5.0.0.0, and let through.
		{"64:ff9b:1::a00:5", "local-use NAT64"}, {"64:ff9b:1:2:3:4:a00:5", "local-use NAT64"},
		{"64:ff9b:1:0:a:0:500:0", "local-use NAT64"}, {"64:ff9b:1::808:808", "local-use NAT64"},
		{"64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "local-use NAT64"},
		{"fec0::1", "private"}, {"fefe::1", "private"},
		{"64:ff9b::808:808", ""}, {"2002:808:808::1", ""}, {"2001:0:4136:e378:8000:63bf:f7f7:f7f7", ""}, {"::8.8.8.8", ""},
		{"64:ff9b:2::a00:5", ""}, {"2001:1::a00:5", ""}, {"::ffff:0:8.8.8.8", ""}, {"::ffff:1:a00:5", ""},
	} {
		if got := Class(netip.MustParseAddr(tc.ip)); got != tc.class {
			t.Errorf("Class(%s) = %q, want %q", tc.ip, got, tc.class)
		}
	}
}

// The dialer's decision on the address it is about to connect to, with
// ranges allowed.
func TestControl(t *testing.T) {
	allow, err := ParseAllow("10.1.0.0/16, 127.0.0.2, fd00::/8, 64:ff9b:1:5::/64")
	if err != nil {
		t.Fatal(err)
	}
	g := &guard{p: &Policy{Allow: allow}}
	for _, tc := range []struct {
		addr  string
		class string // "" allowed
	}{
		{"10.1.2.3:80", ""}, {"10.2.0.1:80", "private"}, {"127.0.0.2:8080", ""}, {"127.0.0.3:8080", "loopback"},
		{"[fd00::5]:443", ""}, {"[fc00::5]:443", "private"}, {"169.254.169.254:80", "link-local"},
		{"[fe80::1%eth0]:80", "link-local"}, {"[fd00::1%eth0]:80", ""}, {"[::ffff:10.1.0.9]:80", ""}, {"100.64.1.1:80", "carrier-grade NAT"},
		{"93.184.215.14:443", ""}, {"[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443", ""},
		// through NAT64 or 6to4: allowed when the IPv4 address is
		{"[64:ff9b::a01:203]:80", ""}, {"[64:ff9b::a02:1]:80", "private"}, {"[2002:a01:203::1]:80", ""},
		{"[64:ff9b::7f00:2]:80", ""}, {"[64:ff9b::7f00:1]:80", "loopback"},
		{"[::ffff:0:a01:203]:80", ""}, {"[::ffff:0:a02:1]:80", "private"},
		// local-use NAT64: only by a range of its own
		{"[64:ff9b:1:5::a00:5]:80", ""}, {"[64:ff9b:1::a01:203]:80", "local-use NAT64"},
	} {
		err := g.control(t.Context(), "tcp", tc.addr, nil)
		var re *RefusedError
		switch {
		case tc.class == "" && err != nil:
			t.Errorf("%s: %v, want allowed", tc.addr, err)
		case tc.class != "" && (!errors.As(err, &re) || re.Class != tc.class || !errors.Is(err, ErrRefused)):
			t.Errorf("%s: %v, want refused as %s", tc.addr, err, tc.class)
		}
	}
}

func TestParseAllow(t *testing.T) {
	got, err := ParseAllow("192.168.0.0/16,,::ffff:10.0.0.0/104, 10.9.8.7/8")
	want := []netip.Prefix{netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")}
	if err != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("ParseAllow = %v, %v; want %v", got, err, want)
	}
	if _, err := ParseAllow("10.0.0.0/8,intranet"); err == nil {
		t.Error("ParseAllow took a name")
	}
}

// The message names the class with its article.
func TestRefusedErrorMessage(t *testing.T) {
	for class, want := range map[string]string{
		"unspecified": "refused: the destination is an unspecified address (see --allow-private)",
		"loopback":    "refused: the destination is a loopback address (see --allow-private)",
	} {
		if got := (&RefusedError{Class: class}).Error(); got != want {
			t.Errorf("%s: %q, want %q", class, got, want)
		}
	}
}

// TestAllowIPv4LeavesIPv6Alone: an allow list of IPv4 ranges lets through
// the IPv6 addresses that carry an allowed IPv4 address, not IPv6's own
// loopback and unspecified addresses, which ::/96 also holds, nor the
// local-use NAT64 range, whose IPv4 address is not read.
func TestAllowIPv4LeavesIPv6Alone(t *testing.T) {
	allow, err := ParseAllow("0.0.0.0/0")
	if err != nil {
		t.Fatal(err)
	}
	p := Policy{Allow: allow}
	for _, s := range []string{"::1", "::", "64:ff9b:1::7f00:1"} {
		if err := p.Check(netip.MustParseAddr(s)); err == nil {
			t.Errorf("%s allowed by an allow list of IPv4 ranges", s)
		}
	}
	for _, s := range []string{"::ffff:127.0.0.1", "64:ff9b::7f00:1", "::10.0.0.5", "::ffff:0:7f00:1"} {
		if err := p.Check(netip.MustParseAddr(s)); err != nil {
			t.Errorf("%s refused though the IPv4 address it carries is allowed: %v", s, err)
		}
	}
}
