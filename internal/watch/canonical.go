package watch

import (
	"net/url"
	"slices"
	"strings"
)

// trackingParams are query parameters that say how a reader came to a page,
// not which page it is: a canonical URL leaves them out.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "msclkid": true, "yclid": true, "mc_cid": true, "mc_eid": true,
	"igshid": true, "_ga": true, "_gl": true, "ref_src": true, "cmpid": true, "ocid": true, "ito": true,
}

// Canonical returns the form of a page's URL that two fetches of one page
// share: scheme and host lower-cased, default ports, fragments and tracking
// parameters (utm_*, fbclid, gclid, ...) left out, the other parameters
// sorted (see canonicalQuery). An unparsable URL is returned as it is. It
// is a key, never a URL to fetch: an item's page is fetched at its link as
// the feed gives it.
func Canonical(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	normalHost(u)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	u.RawQuery = canonicalQuery(u.RawQuery)
	return u.String()
}

// normalHost lower-cases u's scheme and host and writes its port as a
// number, left out when it is the scheme's default, in place: what no
// server reads otherwise.
func normalHost(u *url.URL) {
	u.Scheme = strings.ToLower(u.Scheme)
	if host := hostKey(u); host != "" {
		u.Host = host
	} // else a host of a colon alone ("//:"): kept, so that the URL still names one, which the fetch refuses
}

// hostKey is u's host as a connection reads it: lower-cased, an IPv6
// address in brackets, and its port written as a number (:080 and :0080
// are :80), left out when it is the scheme's default; "" when u names
// neither host nor port. It is the key of the host gate and of the
// canonical URLs: with the port as written, http://example.com:080/feed
// was a feed of its own, and a link's :018080 another host to the gate.
func hostKey(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") { // an IPv6 address keeps its brackets
		host = "[" + host + "]"
	}
	p := u.Port()
	if p != "" {
		p = strings.TrimLeft(p, "0")
		if p == "" {
			p = "0"
		}
	}
	scheme := strings.ToLower(u.Scheme)
	if p != "" && !(p == "80" && scheme == "http" || p == "443" && scheme == "https") {
		host += ":" + p
	}
	return host
}

// canonicalQuery returns a raw query made canonical: its parameters, split
// at '&', sorted by name (those of one name in their order), tracking
// parameters left out. A name=value pair is written as url.QueryEscape
// writes its name and value (a=1&b=x%2Fy, as it always was, so that
// stored keys stay the same); anything else is kept as written: a bare
// name (index.php?/archives/101-story.html, which was rewritten
// %2Farchives%2F101-story.html=), a pair holding ';' (id=7;s=1, which
// url.ParseQuery drops, so that links differing in it were one key) and a
// pair with a malformed escape. Two queries that name different pages
// never become one.
func canonicalQuery(raw string) string {
	type param struct{ name, text string }
	var ps []param
	for _, p := range strings.Split(raw, "&") {
		if p == "" {
			continue
		}
		k, v, pair := strings.Cut(p, "=")
		name, kerr := url.QueryUnescape(k)
		if kerr != nil {
			name = k
		}
		semi := strings.Contains(p, ";")
		if !semi && (trackingParams[strings.ToLower(name)] || strings.HasPrefix(strings.ToLower(name), "utm_")) {
			continue
		}
		text := p
		if value, verr := url.QueryUnescape(v); pair && !semi && kerr == nil && verr == nil {
			text = url.QueryEscape(name) + "=" + url.QueryEscape(value)
		}
		// A raw space, which a lax feed leaves in a link, is written as
		// browsers send it: one at the end would otherwise be trimmed by
		// the next Canonical, which would then give another key.
		ps = append(ps, param{name, strings.ReplaceAll(text, " ", "%20")})
	}
	slices.SortStableFunc(ps, func(a, b param) int { return strings.Compare(a.name, b.name) })
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.text
	}
	return strings.Join(texts, "&")
}

// withoutUser returns the URL raw without its user name and password, as
// the index stores an article's URL; an unparsable URL is returned as it is.
func withoutUser(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}
