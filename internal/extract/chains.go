package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// unnestChains sets side by side the paragraphs of a page that opens a
// <div> for each paragraph and never closes one: the parser nests each in
// the one before, which a browser shows as paragraphs one under another,
// but which left the engine a chain it scored level by level, and the
// article lost all but its last paragraphs. A <div> (or <section>) whose
// last child is a <div> (<section>) of the same class and no other
// attribute, after text and inline elements of its own (a paragraph),
// gives that child up to be its next sibling, and so on down the chain; a
// <div> holding other blocks (a comment with its author and its replies)
// keeps its children. It runs on the page cleaned: hidden and dropped
// elements are out, and their text with them.
func unnestChains(root *html.Node) {
	for n := root; n != nil; n = nextInTree(n) {
		var chain []*html.Node
		for link := n; ; {
			next := chained(link)
			if next == nil {
				break
			}
			chain = append(chain, next)
			link = next
		}
		if len(chain) < minChain {
			continue
		}
		at := n
		for _, link := range chain {
			link.Parent.RemoveChild(link)
			at.Parent.InsertBefore(link, at.NextSibling)
			at = link
		}
	}
}

// minChain is how many <div>s a chain nests in its first for
// unnestChains to set them side by side: two paragraphs in a <div> after a
// line of text in one of the same class are a page's layout as often as
// unclosed tags.
const minChain = 3

// chained returns the next link of a chain of unclosed <div>s after n: n's
// last child when it is of n's name and class and follows a paragraph of
// n's own (inlineBefore); else nil.
func chained(n *html.Node) *html.Node {
	if n.Type != html.ElementNode || n.DataAtom != atom.Div && n.DataAtom != atom.Section {
		return nil
	}
	last := lastElementChild(n)
	if last == nil || last.DataAtom != n.DataAtom || attr(last, "class") != attr(n, "class") || !onlyClass(last) || !inlineBefore(n, last) {
		return nil
	}
	return last
}

// onlyClass reports whether n has no attribute but its class: an id or
// another attribute marks an element of its own, not one more paragraph.
func onlyClass(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key != "class" {
			return false
		}
	}
	return true
}

// nextInTree returns the node after n in document order.
func nextInTree(n *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != nil; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// lastElementChild returns n's last child when it is an element with only
// white space after it, else nil.
func lastElementChild(n *html.Node) *html.Node {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		switch {
		case c.Type == html.ElementNode:
			return c
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "", c.Type == html.CommentNode:
		default:
			return nil
		}
	}
	return nil
}

// inlineBefore reports whether the children of n before last are text and
// inline elements holding some text: a paragraph, not a box of blocks.
func inlineBefore(n, last *html.Node) bool {
	text := false
	for c := n.FirstChild; c != last; c = c.NextSibling {
		if c.Type == html.ElementNode && !inlineTree(c) {
			return false
		}
		text = text || hasText(c)
	}
	return text
}

// inlineTree reports whether n and everything under it are phrasing
// content: links, emphasis, spans, line breaks, images.
func inlineTree(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Br, atom.Wbr, atom.Img, atom.Picture, atom.Svg:
		return true // what they hold is no text of the paragraph's
	case atom.A, atom.Abbr, atom.B, atom.Bdi, atom.Bdo, atom.Big, atom.Cite, atom.Code, atom.Data, atom.Del, atom.Dfn,
		atom.Em, atom.Font, atom.I, atom.Ins, atom.Kbd, atom.Label, atom.Mark, atom.Nobr, atom.Q, atom.S, atom.Samp,
		atom.Small, atom.Span, atom.Strike, atom.Strong, atom.Sub, atom.Sup, atom.Time, atom.Tt, atom.U, atom.Var:
	default:
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !inlineTree(c) {
			return false
		}
	}
	return true
}
