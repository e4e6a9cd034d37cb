// Package outbound owns the rule for where neardup's own requests may go
// (the feed watcher, feeds test, the web UI's rule trial): not to this
// machine, a private network, link-local addresses (cloud metadata
// included), carrier-grade NAT, unspecified or multicast addresses,
// unless the operator allows a range. The rule is checked on the address a
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
	// "link-local", "carrier-grade NAT", "unspecified" or "multicast".
	Class string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: the destination is a %s address (see --allow-private)", e.Class)
}

// Is makes a RefusedError ErrRefused.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// The classes of address refused, each with its ranges.
var classes = []struct {
	name     string
	prefixes []netip.Prefix
}{
	{"unspecified", prefixes("0.0.0.0/8", "::/128")},
	{"loopback", prefixes("127.0.0.0/8", "::1/128")},
	{"private", prefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")},
	{"link-local", prefixes("169.254.0.0/16", "fe80::/10")},
	{"carrier-grade NAT", prefixes("100.64.0.0/10")},
	{"multicast", prefixes("224.0.0.0/4", "255.255.255.255/32", "ff00::/8")},
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
// IPv6 address's zone (fe80::1%eth0) is left out.
func Class(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	for _, c := range classes {
		for _, p := range c.prefixes {
			if p.Contains(ip) {
				return c.name
			}
		}
	}
	if !ip.IsValid() {
		return "unspecified"
	}
	return ""
}

// Policy is the rule with the operator's exceptions. The zero value
// refuses every class; it is safe for concurrent use once made.
type Policy struct {
	// Allow are ranges let through though their class is refused (a site
	// on a private network).
	Allow []netip.Prefix
}

// Check returns nil when a connection to ip is allowed, else a
// *RefusedError.
func (p *Policy) Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("") // a prefix never contains a zoned address
	class := Class(ip)
	if class == "" {
		return nil
	}
	for _, a := range p.Allow {
		if a.Contains(ip) {
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
