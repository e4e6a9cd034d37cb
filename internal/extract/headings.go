package extract

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// slotAttr names, on the page and so on the engine's copies of it, the
// elements around a subheading of the page (subheadingSlots), so that
// restoreSubheadings can tell which of them the engine kept.
const slotAttr = "data-neardup-slot"

// maxSubheading is the longest subheading (runes) restoreSubheadings puts
// back.
const maxSubheading = 200

// subheading is a subheading of the page and the slots of its wrapper and
// of the siblings around that wrapper.
type subheading struct {
	heading         *html.Node
	own, prev, next string
}

// subheadingSlots finds, before the engine runs, the subheadings (<h2>–<h6>
// of at most maxSubheading runes, outside marked regions) that sit in a
// wrapper of their own (the ancestor holding no other text; the heading
// itself when it has none) between two siblings of the wrapper's tag that
// hold text: a site that sets its article in a run of sections, one of them
// holding only a subheading. It marks the wrapper and the two siblings with
// slotAttr and returns them.
func subheadingSlots(root *html.Node) []subheading {
	var subs []subheading
	k := 0
	mark := func(n *html.Node) string {
		if v := attr(n, slotAttr); v != "" {
			return v
		}
		k++
		v := strconv.Itoa(k)
		n.Attr = append(n.Attr, html.Attribute{Key: slotAttr, Val: v})
		return v
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || hasAttr(c, regionAttr) || hasAttr(c, inAttr) {
				continue
			}
			switch c.DataAtom {
			case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				if s, ok := subheadingAt(c); ok {
					subs = append(subs, subheading{heading: c, own: mark(s.own), prev: mark(s.prev), next: mark(s.next)})
				}
				continue
			}
			walk(c)
		}
	}
	walk(root)
	return subs
}

// wrapped is a subheading's wrapper and the siblings around it.
type wrapped struct{ own, prev, next *html.Node }

// subheadingAt returns the wrapper of the heading h and the siblings of the
// wrapper's tag around it, and whether h is a subheading set so.
func subheadingAt(h *html.Node) (wrapped, bool) {
	if n := utf8.RuneCountInString(strings.TrimSpace(Text(h))); n == 0 || n > maxSubheading {
		return wrapped{}, false
	}
	u := h
	for u.Parent != nil && u.Parent.Type == html.ElementNode && !siblingText(u) {
		u = u.Parent
	}
	prev, next := textSibling(u, -1), textSibling(u, 1)
	if prev == nil || next == nil || prev.DataAtom != u.DataAtom || next.DataAtom != u.DataAtom {
		return wrapped{}, false
	}
	return wrapped{u, prev, next}, true
}

// droppedSubheadings returns the subheadings of subs (from
// subheadingSlots) that the engine dropped from between two parts of the
// article it kept: its content holds both siblings around the heading's
// wrapper and not the wrapper. The engine scores a wrapper by its
// paragraphs, and a wrapper of one heading has none.
func droppedSubheadings(content *html.Node, subs []subheading) []subheading {
	if len(subs) == 0 {
		return nil
	}
	kept := slots(content)
	var dropped []subheading
	for _, s := range subs {
		if kept[s.own] == nil && kept[s.prev] != nil && kept[s.next] != nil {
			dropped = append(dropped, s)
		}
	}
	return dropped
}

// restoreSubheadings puts a copy of each subheading of dropped (from
// droppedSubheadings) back into the content tree, before the second
// sibling around its wrapper, when the content still holds both siblings.
// It runs on what the block classifier kept, so the blocks the classifier
// learns from are those the engine gave.
func restoreSubheadings(content *html.Node, dropped []subheading) {
	if len(dropped) == 0 {
		return
	}
	kept := slots(content)
	for _, s := range dropped {
		if next := kept[s.next]; kept[s.prev] != nil && next != nil && next.Parent != nil {
			next.Parent.InsertBefore(cloneTree(s.heading), next)
		}
	}
}

// slots returns the elements under n that carry a slotAttr, by slot.
func slots(n *html.Node) map[string]*html.Node {
	m := map[string]*html.Node{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if v := attr(c, slotAttr); v != "" {
				m[v] = c
			}
			walk(c)
		}
	}
	walk(n)
	return m
}

// siblingText reports whether a sibling of n holds text.
func siblingText(n *html.Node) bool {
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c != n && hasText(c) {
			return true
		}
	}
	return false
}

// hasText reports whether n holds a character other than a space, outside
// the elements that are never text.
func hasText(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		return strings.ContainsFunc(n.Data, func(r rune) bool { return !unicode.IsSpace(r) })
	case html.ElementNode:
		if neverText[n.DataAtom] {
			return false
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasText(c) {
			return true
		}
	}
	return false
}

// textSibling returns the nearest element sibling of n before it (dir -1)
// or after it (dir 1) that holds text, nil when a text node with text comes
// first or there is none.
func textSibling(n *html.Node, dir int) *html.Node {
	step := func(n *html.Node) *html.Node {
		if dir < 0 {
			return n.PrevSibling
		}
		return n.NextSibling
	}
	for s := step(n); s != nil; s = step(s) {
		if hasText(s) {
			if s.Type != html.ElementNode {
				return nil
			}
			return s
		}
	}
	return nil
}
