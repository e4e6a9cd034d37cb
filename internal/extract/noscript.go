package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// noscriptMinProse is the least text (runes, in paragraphs) a <noscript>
// must hold for revealNoscript to take it for the page's text rather than
// a notice ("Please enable JavaScript") or a tracking image.
const noscriptMinProse = 400

// noscriptMax is the most noscripts revealNoscript looks into on a page:
// an article is given in one or a few; a hostile page could hold
// thousands, each compared with the whole page's text.
const noscriptMax = 16

// revealNoscript puts in place of each <noscript> that holds an article's
// text, and whose text the page shows nowhere else, the elements it holds.
// Some pages render their article with a script and give it, for readers
// without scripts, only in a <noscript> (a blog template that fills a post
// from `<script type="text/template">`); parsed as a browser that runs
// scripts parses it, the <noscript> is one run of raw text, which cleaning
// removes with the article. A <noscript> whose paragraphs hold under
// noscriptMinProse runes, or whose longest paragraph the page shows outside
// its noscripts (a lazy-loading gallery's fallback), stays as it is; past
// the first noscriptMax that might hold an article, none is looked into.
func revealNoscript(root *html.Node) {
	var found []*html.Node
	for _, c := range outermost(root, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Head, atom.Script, atom.Style, atom.Template, atom.Noscript:
			return true // not looked into
		}
		return false
	}) {
		if t := c.FirstChild; c.DataAtom == atom.Noscript && len(found) < noscriptMax && t != nil && t.Type == html.TextNode && t.NextSibling == nil &&
			len(t.Data) >= noscriptMinProse && strings.Contains(strings.ToLower(t.Data), "<p") {
			found = append(found, c)
		}
	}
	if len(found) == 0 {
		return
	}
	shown := squash(Text(root)) // the page's text outside its noscripts
	for _, ns := range found {
		parent := ns.Parent
		if parent == nil || parent.Type != html.ElementNode {
			continue
		}
		nodes, err := html.ParseFragment(strings.NewReader(ns.FirstChild.Data), parent)
		if err != nil {
			continue
		}
		prose, longest := 0, ""
		for _, n := range nodes {
			for _, p := range paragraphTexts(n) {
				prose += utf8.RuneCountInString(p)
				if len(p) > len(longest) {
					longest = p
				}
			}
		}
		if prose < noscriptMinProse || strings.Contains(shown, longest) {
			continue
		}
		for _, n := range nodes {
			parent.InsertBefore(n, ns)
		}
		parent.RemoveChild(ns)
	}
}

// paragraphTexts returns the text of each <p> under n (n included), its words
// joined by single spaces.
func paragraphTexts(n *html.Node) []string {
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.P {
			if t := squash(Text(n)); t != "" {
				out = append(out, t)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}
