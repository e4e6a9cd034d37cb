package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page read from a file, a directory or an archive comes without a URL,
// so site rules keyed on a host or a URL would never apply to it. Such a
// page often says where it was published: its <link rel="canonical"> or
// og:url. Site rules are matched by that URL, and only rules are: the page
// keeps no URL of its own (a page may declare any address, so an id, the
// watcher's identity or the title's site name never rest on it).

// declaredURL returns the absolute http or https URL the page under doc
// declares of itself in its <head>: its first <link rel="canonical">, else
// its first og:url <meta>; "" when it declares none. One in the body (a
// comment's or an embedded post's markup) is not the page's, as browsers
// and search engines read it. A URL starting "//" is read as https.
func declaredURL(doc *html.Node) string {
	head := findHead(doc)
	if head == nil {
		return ""
	}
	var canon, og string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if canon != "" {
			return
		}
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Link && hasToken(attr(n, "rel"), "canonical"):
				canon = AbsoluteURL(attr(n, "href"))
			case n.DataAtom == atom.Meta && og == "" &&
				(strings.EqualFold(attr(n, "property"), "og:url") || strings.EqualFold(attr(n, "name"), "og:url")):
				og = AbsoluteURL(attr(n, "content"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(head)
	if canon != "" {
		return canon
	}
	return og
}

// hasToken reports whether the space-separated list s holds tok, in any
// case (rel="Canonical", rel="canonical alternate").
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// AbsoluteURL returns s, trimmed, when it is an absolute http or https URL
// with a host, one starting "//" made https; else "" (a relative URL, a
// javascript: or mailto: one). The URL a page declares of itself and a
// Markdown file's front-matter url: are kept only as it returns them.
func AbsoluteURL(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "//") {
		s = "https:" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return ""
	}
	return s
}

// findHead returns the <head> element under doc, nil when there is none.
func findHead(doc *html.Node) *html.Node { return htmlChild(doc, atom.Head) }

// findBody returns the <body> element under doc, nil when there is none.
func findBody(doc *html.Node) *html.Node { return htmlChild(doc, atom.Body) }

// htmlChild returns the first element a of the <html> element under doc,
// nil when there is none.
func htmlChild(doc *html.Node, a atom.Atom) *html.Node {
	for n := doc.FirstChild; n != nil; n = n.NextSibling {
		if n.Type != html.ElementNode || n.DataAtom != atom.Html {
			continue
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == a {
				return c
			}
		}
	}
	return nil
}
