package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// revealStreamed puts the segments of a page streamed by React's server
// renderer (Next.js and others) where a browser's script puts them. Such a
// page sends a placeholder first, `<!--$?--><template id="B:0"></template>`
// and a fallback (a loading skeleton) closed by `<!--/$-->`, and the
// content later in the body as `<div hidden id="S:0">…</div>`; a script
// then swaps them; a part of a segment sent apart has a placeholder of its
// own, `<template id="P:2">`, with no fallback. Read as sent, the article
// sits in a hidden element that cleaning removes. Each segment whose
// placeholder is found replaces it and its fallback; a segment without one
// stays hidden. Segments may hold the
// placeholders of others: every placeholder found in the page as sent is
// filled once, in document order, wherever moving its segment has put it.
func revealStreamed(root *html.Node) {
	segments := map[string]*html.Node{}
	var templates []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			id := attr(n, "id")
			switch {
			case n.DataAtom == atom.Div && hasAttr(n, "hidden") && strings.HasPrefix(id, "S:"):
				segments[id[len("S:"):]] = n
			case n.DataAtom == atom.Template && (strings.HasPrefix(id, "B:") || strings.HasPrefix(id, "P:")):
				templates = append(templates, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if len(segments) == 0 {
		return
	}
	for _, t := range templates {
		id := attr(t, "id")
		seg := segments[id[len("B:"):]]
		if seg == nil || seg.Parent == nil || t.Parent == nil || isAncestor(seg, t) {
			continue
		}
		if strings.HasPrefix(id, "B:") {
			dropFallback(t)
		}
		for c := seg.FirstChild; c != nil; c = seg.FirstChild {
			seg.RemoveChild(c)
			t.Parent.InsertBefore(c, t)
		}
		t.Parent.RemoveChild(t)
		seg.Parent.RemoveChild(seg)
	}
}

// dropFallback removes the siblings after a streamed placeholder up to the
// comment that closes its boundary (`<!--/$-->`), skipping nested
// boundaries: the fallback shown until the content arrives. Without that
// comment nothing is removed.
func dropFallback(t *html.Node) {
	depth := 0
	var end *html.Node
	for n := t.NextSibling; n != nil && end == nil; n = n.NextSibling {
		if n.Type != html.CommentNode {
			continue
		}
		switch n.Data {
		case "$", "$?", "$!":
			depth++
		case "/$":
			if depth == 0 {
				end = n
			}
			depth--
		}
	}
	for n := t.NextSibling; end != nil && n != end; n = t.NextSibling {
		t.Parent.RemoveChild(n)
	}
}

// isAncestor reports whether a is n or one of its ancestors.
func isAncestor(a, n *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}
