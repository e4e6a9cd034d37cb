package extract

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The engine keeps a page's parts by the score of their paragraphs. A part
// without paragraphs between two it keeps falls out: a subheading a site
// sets in a section of its own (each paragraph in a section, as Postmedia's
// papers do), a list between two paragraphs. gapSlots finds such parts
// before the engine runs, droppedGaps tells which the engine left out, and
// restoreGaps puts them back once the classifier has pruned the content.

// slotAttr names, on the page and so on the engine's copies of it, the
// parts gapSlots found and the siblings around them, so that droppedGaps
// can tell which of them the engine kept.
const slotAttr = "data-neardup-slot"

// maxSubheading is the longest subheading (runes) restoreGaps puts back.
const maxSubheading = 200

// maxGapList is the longest list (runes without spaces) restoreGaps puts
// back.
const maxGapList = 2000

// gapListProse is the least share of a list's text outside links for
// restoreGaps to put it back: a list of links is a menu or related stories.
const gapListProse = 0.7

// gap is a part of the page that may fall out of the engine's content: the
// part, and the slots of its wrapper and of the siblings around that.
type gap struct {
	part            *html.Node
	own, prev, next string
}

// wrapped is a part's wrapper and the siblings around it.
type wrapped struct{ own, prev, next *html.Node }

// gapSlots finds, before the engine runs, the parts outside marked regions
// that sit in a wrapper of their own (the ancestor holding no other text;
// the part itself when there is none) between two siblings that hold text:
// a subheading (<h2>–<h6> of at most maxSubheading runes) between two
// siblings of its wrapper's tag (a run of sections) or two paragraphs, or a
// list (<ul>, <ol>
// of at most maxGapList runes, gapListProse of them outside links) between
// paragraphs or siblings of its wrapper's tag. It marks each wrapper and
// its two siblings with slotAttr and returns them.
func gapSlots(root *html.Node) []gap {
	var gaps []gap
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
			var w wrapped
			var ok bool
			switch c.DataAtom {
			case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				w, ok = subheadingAt(c)
			case atom.Ul, atom.Ol:
				w, ok = listAt(c)
			default:
				walk(c)
				continue
			}
			if ok {
				gaps = append(gaps, gap{part: c, own: mark(w.own), prev: mark(w.prev), next: mark(w.next)})
			}
		}
	}
	walk(root)
	return gaps
}

// subheadingAt returns the wrapper of the heading h and the siblings around
// it, and whether h is a subheading set so: between two siblings of its
// wrapper's tag (a run of sections), or between two paragraphs. A heading
// between two <div>s stays out: Readability.js's test pages expect the
// engine to drop it.
func subheadingAt(h *html.Node) (wrapped, bool) {
	if n := utf8.RuneCountInString(strings.TrimSpace(Text(h))); n == 0 || n > maxSubheading {
		return wrapped{}, false
	}
	w := wrapperOf(h)
	if w.prev == nil || w.next == nil {
		return wrapped{}, false
	}
	if w.prev.DataAtom == w.own.DataAtom && w.next.DataAtom == w.own.DataAtom || w.prev.DataAtom == atom.P && w.next.DataAtom == atom.P {
		return w, true
	}
	return wrapped{}, false
}

// listAt returns the wrapper of the list l and the paragraphs, or siblings
// of the wrapper's tag, around it, and whether l is a list of prose set
// so.
func listAt(l *html.Node) (wrapped, bool) {
	p := prose(l)
	if p == 0 {
		return wrapped{}, false // a menu: all links
	}
	all := nonSpaceRunes(Text(l))
	if all == 0 || all > maxGapList || float64(p) < gapListProse*float64(all) {
		return wrapped{}, false
	}
	w := wrapperOf(l)
	around := func(s *html.Node) bool { return s != nil && (s.DataAtom == atom.P || s.DataAtom == w.own.DataAtom) }
	if !around(w.prev) || !around(w.next) {
		return wrapped{}, false
	}
	return w, true
}

// wrapperOf returns n's wrapper, the highest ancestor holding no text but
// n's (n itself when its siblings hold some), and the nearest siblings of
// the wrapper that hold text.
func wrapperOf(n *html.Node) wrapped {
	u := n
	for u.Parent != nil && u.Parent.Type == html.ElementNode && !siblingText(u) {
		u = u.Parent
	}
	return wrapped{u, textSibling(u, -1), textSibling(u, 1)}
}

// droppedGaps returns the gaps of gaps (from gapSlots) that the engine left
// out of its content from between two parts it kept: the content holds
// both siblings around the gap's wrapper and not the wrapper.
func droppedGaps(content *html.Node, gaps []gap) []gap {
	if len(gaps) == 0 {
		return nil
	}
	kept := slots(content)
	var dropped []gap
	for _, g := range gaps {
		if kept[g.own] == nil && kept[g.prev] != nil && kept[g.next] != nil {
			dropped = append(dropped, g)
		}
	}
	return dropped
}

// restoreGaps puts a copy of the part of each gap of dropped (from
// droppedGaps) back into the content tree, before the second sibling
// around its wrapper, when the content still holds both siblings. It runs
// on what the block classifier kept, so the blocks the classifier learns
// from are those the engine gave.
func restoreGaps(content *html.Node, dropped []gap) {
	if len(dropped) == 0 {
		return
	}
	kept := slots(content)
	for _, g := range dropped {
		if next := kept[g.next]; kept[g.prev] != nil && next != nil && next.Parent != nil {
			next.Parent.InsertBefore(cloneTree(g.part), next)
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
