package watch

import (
	"bytes"
	"net/url"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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
// sorted. An unparsable URL is returned as it is.
func Canonical(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") { // an IPv6 address keeps its brackets
		host = "[" + host + "]"
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http" || p == "443" && u.Scheme == "https") {
		host += ":" + p
	}
	u.Host, u.Fragment, u.RawFragment = host, "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	q := u.Query()
	for k := range q {
		if trackingParams[strings.ToLower(k)] || strings.HasPrefix(strings.ToLower(k), "utm_") {
			q.Del(k)
		}
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v))
		}
	}
	u.RawQuery = b.String()
	return u.String()
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

// isRoot reports whether u is a site's home page: no path but "/", no query.
func isRoot(u *url.URL) bool { return (u.Path == "" || u.Path == "/") && u.RawQuery == "" }

// pageCanonical returns the URL a page names as its own, by
// <link rel="canonical"> or <meta property="og:url">, resolved against
// base and made canonical; "" when it names none, or names its site's home
// page while it is another page. It reads the page's head only.
func pageCanonical(page []byte, base string) string {
	z := html.NewTokenizer(bytes.NewReader(page))
	var canonical, og string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		if a == atom.Body {
			break
		}
		if !hasAttr || (a != atom.Link && a != atom.Meta) {
			continue
		}
		attrs := map[string]string{}
		for {
			k, v, more := z.TagAttr()
			attrs[strings.ToLower(string(k))] = string(v)
			if !more {
				break
			}
		}
		switch {
		case a == atom.Link && canonical == "" && strings.EqualFold(strings.TrimSpace(attrs["rel"]), "canonical"):
			canonical = attrs["href"]
		case a == atom.Meta && og == "" && strings.EqualFold(attrs["property"], "og:url"):
			og = attrs["content"]
		}
	}
	found := canonical
	if found == "" {
		found = og
	}
	if found == "" {
		return ""
	}
	b, err := url.Parse(base)
	ref, err2 := url.Parse(strings.TrimSpace(found))
	if err != nil || err2 != nil {
		return ""
	}
	abs := b.ResolveReference(ref)
	if abs.Scheme != "http" && abs.Scheme != "https" {
		return ""
	}
	c := Canonical(abs.String())
	if cu, err := url.Parse(c); err == nil && isRoot(cu) && !isRoot(b) {
		// A site's home page named by a page of its own: a template's
		// fault, which every article of the site shares, not the
		// article's address. It is judged made canonical, its tracking
		// parameters left out (https://site.example/?utm_source=site).
		return ""
	}
	return c
}
