package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minStandfirst is the fewest runes of a standfirst: shorter descriptions
// are a site's tag line or a label.
const minStandfirst = 60

// standfirst returns, of the page's descriptions descs (descriptions), the
// one its standfirst gives and the standfirst's text: the block after the
// page's heading h (pageHeading), under one of its standfirstUp nearest
// ancestors (of the outermost region markRegions marked that holds it,
// when one does: a breadcrumb trail's <h1>) and outside marked regions, whose text is a
// description, whole or cut short with an ellipsis, after a dateline or not
// (describing). The summary under a headline is laid out apart from the
// article's body, in the header beside the <h1>, so the engine leaves it
// out; the page declaring it as its description says it is the article's
// own. "", "" when there is none. It runs on a marked tree, before the
// engine.
func standfirst(h *html.Node, descs []string) (desc, text string) {
	if len(descs) == 0 || h == nil {
		return "", ""
	}
	scope := h
	for p := h; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if hasAttr(p, inAttr) || hasAttr(p, regionAttr) {
			scope = p // the heading of a breadcrumb trail: its header is around the trail
		}
	}
	for up := 0; up < standfirstUp && scope.Parent != nil && scope.Parent.DataAtom != atom.Body; up++ {
		scope = scope.Parent
	}
	return described(scope, h, descs, foldAll(descs))
}

// descriptions returns the page's descriptions (<meta name="description">,
// og:description, twitter:description) of minStandfirst runes or more,
// without a closing ellipsis.
func descriptions(doc *html.Node) []string {
	var descs []string
	headTags(doc, func(n *html.Node) bool {
		if n.DataAtom != atom.Meta {
			return false
		}
		switch strings.ToLower(attr(n, "name") + attr(n, "property")) {
		case "description", "og:description", "twitter:description":
			d := squash(attr(n, "content"))
			if i := strings.LastIndex(d, " | "); i >= 0 && utf8.RuneCountInString(d[i:]) <= maxSiteSuffix {
				d = d[:i] // "… açıkladı. | Anadolu Ajansı": the site's name after the description
			}
			if utf8.RuneCountInString(d) >= minStandfirst {
				descs = append(descs, strings.TrimRight(d, ".…"))
			}
			return true
		}
		return false
	})
	return descs
}

// described returns the first block (<p>, <h2>–<h4>, <div>, <span>) under
// scope, after the element from, outside marked regions but the one from is
// in (a site may name its article's header so: "category-detail"), whose
// text is one of descs (describing), and that description.
func described(scope, from *html.Node, descs, folded []string) (desc, text string) {
	after := false
	mark := attr(from, inAttr) // the region the heading is in, if any
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && text == ""; c = c.NextSibling {
			if c == from {
				after = true
				continue
			}
			if c.Type != html.ElementNode || neverText[c.DataAtom] {
				continue
			}
			if in := attr(c, inAttr); (in != "" || hasAttr(c, regionAttr)) && (mark == "" || in != mark) && !isAncestor(c, from) {
				continue // a marked region, but the one the heading is in
			}
			switch c.DataAtom {
			case atom.P, atom.H2, atom.H3, atom.H4, atom.Div, atom.Span:
				if !after {
					break
				}
				if k := textBytes(c, 4*maxStandfirst); k < minStandfirst/2 || k > 4*maxStandfirst {
					break // fewer than minStandfirst runes, or more than maxStandfirst
				}
				t := squash(Text(c))
				if d := describing(t, descs, folded); d != "" {
					desc, text = d, t
					return
				}
			}
			walk(c)
		}
	}
	walk(scope)
	return desc, text
}

// describedLead returns, of the content's leaf blocks, the first whose
// text is one of descs (after a dateline or not), and that description:
// the content's own lead, which comes back when pruning took it
// (withStandfirst). "", "" when there is none.
func describedLead(leaves []textBlock, descs []string) (desc, text string) {
	if len(descs) == 0 {
		return "", ""
	}
	folded := foldAll(descs)
	for _, b := range leaves {
		t := squash(b.text)
		if d := describing(t, descs, folded); d != "" {
			return d, t
		}
	}
	return "", ""
}

// describing returns the description of descs that text t (squashed) is,
// after a dateline or not, in its words (fold: quotes and case aside), or t when a description opens with it (a
// description that goes on with the article's lead); "" when it is none of
// them.
func describing(t string, descs, folded []string) string {
	n := utf8.RuneCountInString(t)
	if n < minStandfirst || n > maxStandfirst {
		return ""
	}
	ft := fold(t)
	for k, fd := range folded {
		if i := strings.Index(ft, fd); fd != "" && i >= 0 && i <= maxDateline && len(ft)-len(fd) < minStandfirst {
			return descs[k]
		}
	}
	for _, fd := range folded {
		if strings.HasPrefix(fd, ft) {
			return t // a description of the standfirst and the lead after it
		}
	}
	return ""
}

// foldAll returns the descriptions descs folded (fold), for describing.
func foldAll(descs []string) []string {
	folded := make([]string, len(descs))
	for i, d := range descs {
		folded[i] = fold(d)
	}
	return folded
}

// maxSiteSuffix is the most runes of a site's name that a description
// may end with after " | ".
const maxSiteSuffix = 40

// maxDateline is the most bytes before the description in a standfirst:
// a dateline ("Berlin. ") that the description leaves out.
const maxDateline = 40

// standfirstUp is how many ancestors above the page's heading standfirst
// looks under: a headline and its summary share a header, four wrappers
// up on the Guardian's pages (three missed it; the text must still be the
// page's description).
const standfirstUp = 4

// maxStandfirst is the most runes of a standfirst: a paragraph, not a
// section.
const maxStandfirst = 1000

// withStandfirst returns text with the standfirst s before it when text
// does not hold the description desc it was found by already (the first
// paragraph of many articles is their description).
func withStandfirst(text, desc, s string) string {
	if s == "" || text == "" || strings.Contains(fold(text), fold(desc)) {
		return text
	}
	return s + "\n\n" + text
}
