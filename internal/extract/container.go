package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The engine scores containers by their paragraphs and picks one; on some
// pages it picks a wrong one (the reader reviews under a product, the list
// of signatories under a letter, one section of an article in several)
// where the page names its article's container itself: <article>, <main>,
// role="main", itemprop="articleBody", or an id or class naming the
// article (nameKind "pos"). When such a container holds much more prose
// than the engine's choice, it is taken instead.

// containerGain is how many times more prose the page's named article
// container must hold than the engine's content for it to replace the
// engine's choice; containerMinProse is the least prose (runes) it must
// hold at all.
const (
	containerGain     = 2.0
	containerMinProse = 400
)

// containerDescend is the share of a container's prose a named container
// inside it must hold to be chosen instead (the article body inside an
// <article> that also holds its header and footer).
const containerDescend = 0.8

// prose counts the runes of text under n outside links and never-text
// elements, without spaces.
func prose(n *html.Node) int {
	k := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			k += nonSpaceRunes(n.Data)
			return
		case html.ElementNode:
			if neverText[tag(n)] || tag(n) == atom.A {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return k
}

// namedArticle reports whether n's tag, role, itemprop, id or class names
// it the article's container. It reads the marks of markRegions.
func namedArticle(n *html.Node) bool {
	if n.Type != html.ElementNode || hasAttr(n, regionAttr) {
		return false
	}
	switch tag(n) {
	case atom.Article, atom.Main:
		return true
	case atom.Body, atom.Html, atom.Head:
		return false
	}
	if strings.EqualFold(attr(n, "role"), "main") || strings.EqualFold(attr(n, "itemprop"), "articleBody") {
		return true
	}
	return attr(n, nameAttr) == "pos"
}

// articleContainer returns the page's named article container with the
// most prose, and that prose; nil when it names none. Inside the chosen
// one, a named container holding containerDescend of its prose is chosen
// instead, down to the innermost. Containers inside a region marked by its
// tag or role are not looked at; inside a region named navigation only by
// its id or class (a wrapper "above-footer" round a whole post), they are.
// It runs on a marked tree (markRegions).
func articleContainer(doc *html.Node) (*html.Node, int) {
	var best *html.Node
	bestProse := 0
	var find func(n *html.Node) // the outermost named containers compete
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode || neverText[tag(c)]:
			case hasAttr(c, regionAttr):
				if attr(c, regionAttr) == "nav" && !structuralNav(c) {
					find(c)
				}
			case namedArticle(c):
				if p := prose(c); p > bestProse {
					best, bestProse = c, p
				}
			default:
				find(c)
			}
		}
	}
	find(doc)
	if best == nil {
		return nil, 0
	}
	memo := map[*html.Node]int{}
	proseUnder(best, memo)
	for {
		inner, innerProse := innermost(best, bestProse, memo)
		if inner == nil {
			return best, bestProse
		}
		best, bestProse = inner, innerProse
	}
}

// proseUnder returns prose(n) and records in memo the prose of every
// element under n, in one walk.
func proseUnder(n *html.Node, memo map[*html.Node]int) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			k += nonSpaceRunes(c.Data)
		case html.ElementNode:
			if neverText[tag(c)] {
				continue
			}
			p := proseUnder(c, memo)
			memo[c] = p
			if tag(c) != atom.A {
				k += p
			}
		}
	}
	return k
}

// innermost returns the named container under n, nearest to it, that
// holds at least containerDescend of its prose (of); memo holds the prose
// of every element under n (proseUnder).
func innermost(n *html.Node, of int, memo map[*html.Node]int) (*html.Node, int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || neverText[tag(c)] {
			continue
		}
		p := memo[c]
		if tag(c) == atom.A || float64(p) < containerDescend*float64(of) {
			continue // no descendant of c can hold it either
		}
		if namedArticle(c) {
			return c, p
		}
		if d, dp := innermost(c, of, memo); d != nil {
			return d, dp
		}
	}
	return nil, 0
}

// betterContainer reports whether a named container with prose cand should
// replace the engine's content node (nil when it found none).
func betterContainer(cand int, engine *html.Node) bool {
	if cand < containerMinProse {
		return false
	}
	if engine == nil {
		return true
	}
	return float64(cand) >= containerGain*float64(prose(engine))
}

// holdsCore reports whether the text of the container c holds the longest
// leaf block of the engine's content (false when the engine found none).
func holdsCore(c, engine *html.Node) bool {
	if engine == nil {
		return false
	}
	core := longestBlock(engine)
	if core == "" { // the engine's content is one block
		if core = strings.TrimSpace(Text(engine)); core == "" {
			return false
		}
	}
	return strings.Contains(squash(Text(c)), squash(core))
}

// longestBlock returns the text of the longest leaf block under n (the
// engine's core); "" when n has no block.
func longestBlock(n *html.Node) string {
	core := ""
	for _, b := range leafBlocks(n) {
		if len(b.text) > len(core) {
			core = b.text
		}
	}
	return core
}

// squash joins a text's words with single spaces.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// namedChoice reports whether the engine's content n is itself named the
// article: n, or the element under it that holds containerDescend of its
// prose, down to the innermost such element, is an <article> or named one
// (namedArticle). Two named containers then compete, and the engine's
// scoring, not the length, chooses: the longer one is most often the
// readers' comments or a list of other articles.
func namedChoice(n *html.Node) bool {
	if n == nil {
		return false
	}
	memo := map[*html.Node]int{}
	total := proseUnder(n, memo)
	for n != nil {
		if namedArticle(n) {
			return true
		}
		var inner *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && tag(c) != atom.A && float64(memo[c]) >= containerDescend*float64(total) {
				inner = c
				break
			}
		}
		n = inner
	}
	return false
}
