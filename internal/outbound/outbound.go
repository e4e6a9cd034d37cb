// Package outbound owns the rule for where neardup's own requests may go
// (the feed watcher, feeds test, the web UI's rule trial): not to this
// machine, a private network, link-local addresses (cloud metadata
// included), carrier-grade NAT, unspecified or multicast addresses, or
// the local-use NAT64 range, unless the operator allows a range. The rule is checked on the address a
// connection is made to, after name resolution, so that neither a name
// that resolves to an internal address nor a redirect to one gets through.
package outbound

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// ErrRefused is the error of a destination the rule refuses; errors.Is
// finds it in a *RefusedError.
var ErrRefused = errors.New("outbound: destination refused")

// RefusedError is a refused destination. Its message names the class of
// the address, not the address: an item's stored detail tells a reader of
// the index that the link was internal, nothing of what is there.
type RefusedError struct {
	// Class is the address's class: "loopback", "private",
	// "link-local", "carrier-grade NAT", "unspecified", "multicast" or
	// "local-use NAT64"; or NoAddress, for a destination that is no
	// address at all, which Err then says why.
	Class string
	// Err is why a destination of the class NoAddress is none (ErrNoHost,
	// a host ending in a number that is no IPv4 address, ...); nil for
	// the other classes.
	Err error
}

// NoAddress is the class of a destination that names no address a
// connection could be made to, whatever the operator allows: a URL
// without a host (http://:8080/x, which Go would dial on this machine),
// or a host that ends in a number but is no IPv4 address (256.1.1.1),
// which URL parsers refuse and no resolver answers. It can never be
// fetched, so it is refused, not tried again as a failure that may pass.
const NoAddress = "no address"

// ErrNoHost is why a URL without a host (http://:8080/x) is NoAddress.
var ErrNoHost = errors.New("the URL names no host")

func (e *RefusedError) Error() string {
	if e.Class == NoAddress {
		return fmt.Sprintf("refused: the destination is no address: %v", e.Err)
	}
	article := "a"
	if strings.ContainsRune("aeiou", rune(e.Class[0])) {
		article = "an" // an unspecified address
	}
	return fmt.Sprintf("refused: the destination is %s %s address (see --allow-private)", article, e.Class)
}

// Is makes a RefusedError ErrRefused.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// Unwrap returns why a destination of the class NoAddress is none.
func (e *RefusedError) Unwrap() error { return e.Err }

// The classes of address refused, each with its ranges.
var classes = []struct {
	name     string
	prefixes []netip.Prefix
}{
	{"unspecified", prefixes("0.0.0.0/8", "::/128")},
	{"loopback", prefixes("127.0.0.0/8", "::1/128")},
	{"private", prefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10")},
	{"link-local", prefixes("169.254.0.0/16", "fe80::/10")},
	{"carrier-grade NAT", prefixes("100.64.0.0/10")},
	{"multicast", prefixes("224.0.0.0/4", "255.255.255.255/32", "ff00::/8")},
	// RFC 8215's local-use NAT64 prefix. Its network chooses where in the
	// address the IPv4 address sits (RFC 6052's layouts, after a prefix of
	// 48 to 96 bits), so which one an address carries cannot be read here:
	// read as a /96, the /64 layout's 10.0.0.5 (64:ff9b:1:0:a:0:500:0)
	// was 5.0.0.0. The whole range is refused, unless allowed itself.
	{"local-use NAT64", prefixes("64:ff9b:1::/48")},
}

func prefixes(ps ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ps))
	for i, p := range ps {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

// Class returns the class of ip that the rule refuses ("loopback",
// "private", ...), or "" for an address it lets through. An IPv4 address
// written as IPv6 (::ffff:127.0.0.1) is classed as the IPv4 address; an
// IPv6 address's zone (fe80::1%eth0) is left out. An IPv6 address that
// carries an IPv4 address a translator or a tunnel delivers to (see
// embedded) is classed as that IPv4 address when the IPv6 one is in no
// class: 64:ff9b::10.0.0.5 is private, as 10.0.0.5 is.
func Class(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if c := ownClass(ip); c != "" {
		return c
	}
	if v4, ok := embedded(ip); ok {
		return ownClass(v4)
	}
	if !ip.IsValid() {
		return "unspecified"
	}
	return ""
}

// ownClass is the class of ip's own ranges.
func ownClass(ip netip.Addr) string {
	for _, c := range classes {
		for _, p := range c.prefixes {
			if p.Contains(ip) {
				return c.name
			}
		}
	}
	return ""
}

// The IPv6 ranges whose addresses carry an IPv4 address where it can be
// read (the local-use NAT64 prefix is a class of its own).
var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")    // RFC 6052's well-known prefix
	sixToFour  = netip.MustParsePrefix("2002::/16")       // RFC 3056
	teredo     = netip.MustParsePrefix("2001::/32")       // RFC 4380
	compatible = netip.MustParsePrefix("::/96")           // RFC 4291's deprecated IPv4-compatible addresses
	translated = netip.MustParsePrefix("::ffff:0:0:0/96") // RFC 2765's IPv4-translated addresses (SIIT)
)

// embedded returns the IPv4 address an IPv6 address carries, where a
// packet to it is delivered through a translator or a tunnel: the last 32
// bits of a NAT64 address (64:ff9b::/96), of an IPv4-compatible one
// (::/96) and of an IPv4-translated one (::ffff:0:0:0/96, a stateless
// translator's), bits 16-47 of a 6to4 address (2002::/16), the client's
// address of a Teredo one (2001::/32, its last 32 bits inverted). A network with a NAT64
// gateway (an IPv6-only cloud network: AWS's reaches the private addresses
// of its VPC) or a 6to4 relay takes 64:ff9b::a00:5 to 10.0.0.5.
func embedded(ip netip.Addr) (netip.Addr, bool) {
	ip = ip.WithZone("")
	if !ip.Is6() || ip.Is4In6() {
		return netip.Addr{}, false
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip), compatible.Contains(ip), translated.Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	case teredo.Contains(ip):
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

// Policy is the rule with the operator's exceptions. The zero value
// refuses every class; it is safe for concurrent use once made.
type Policy struct {
	// Allow are ranges let through though their class is refused (a site
	// on a private network).
	Allow []netip.Prefix
}

// Check returns nil when a connection to ip is allowed, else a
// *RefusedError. An address that carries an IPv4 address (see embedded)
// is allowed when that IPv4 address is: the same destination reached
// through a translator.
func (p *Policy) Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("") // a prefix never contains a zoned address
	class := Class(ip)
	if class == "" {
		return nil
	}
	// The IPv4 address carried decides only when the IPv6 address is
	// refused for it: ::1 is IPv6's loopback, whatever ::/96 carries.
	v4, carries := embedded(ip)
	carries = carries && ownClass(ip) == ""
	for _, a := range p.Allow {
		if a.Contains(ip) || carries && a.Contains(v4) {
			return nil
		}
	}
	return &RefusedError{Class: class}
}

// ParseAllow reads a comma-separated list of ranges, CIDR[,CIDR...]; a
// bare address stands for itself alone. An empty list is none.
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if ip, err := netip.ParseAddr(f); err == nil {
			out = append(out, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a range such as 10.0.0.0/8 or fd00::/8", f)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(p.Bits()-96, 0))
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
