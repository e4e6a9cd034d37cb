package extract

// Declarative shadow DOM: a <template shadowrootmode="open"> is no inert
// template but the shadow root of the element that holds it, which a
// browser renders in place of that element's children.

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// revealShadowRoots puts the content of each declarative shadow root (a
// <template> whose shadowrootmode, or the older shadowroot, is "open" or
// "closed") in place of its host's children, as a browser renders it: the
// host's children fill the root's <slot>s (those with a slot attribute the
// slot of that name, the others the slot without a name), a slot that none
// fills shows its own content, and a child that no slot takes is not shown.
// Only a host's first such template is its shadow root; a second, and
// every other <template>, stays inert (clean removes it).
func revealShadowRoots(doc *html.Node) {
	var roots []*html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Template && isShadowRoot(c) {
				roots = append(roots, c)
			}
			find(c)
		}
	}
	find(doc)
	if len(roots) == 0 {
		return
	}
	hosts := map[*html.Node]bool{}
	for _, root := range roots { // outer roots first: an inner one moves with its host
		host := root.Parent
		if host == nil || host.Type != html.ElementNode || hosts[host] {
			continue
		}
		hosts[host] = true
		attachShadow(host, root)
	}
}

// isShadowRoot reports whether a <template> declares a shadow root.
func isShadowRoot(n *html.Node) bool {
	for _, key := range [...]string{"shadowrootmode", "shadowroot"} {
		switch strings.ToLower(strings.TrimSpace(attr(n, key))) {
		case "open", "closed":
			return true
		}
	}
	return false
}

// attachShadow replaces host's children by the content of root, one of
// them, with the others in its slots (revealShadowRoots).
func attachShadow(host, root *html.Node) {
	var light []*html.Node
	for c := host.FirstChild; c != nil; {
		next := c.NextSibling
		host.RemoveChild(c)
		if c != root {
			light = append(light, c)
		}
		c = next
	}
	for c := root.FirstChild; c != nil; {
		next := c.NextSibling
		root.RemoveChild(c)
		host.AppendChild(c)
		c = next
	}
	// The light children by the slot they name, in order, indexed once: a
	// slot takes its name's children and the next slot of that name none
	// (linear; each slot scanning every child was quadratic).
	byName := map[string][]*html.Node{}
	for _, c := range light {
		name := slotName(c)
		byName[name] = append(byName[name], c)
	}
	for _, slot := range shadowSlots(host) {
		name := attr(slot, "name")
		fill := byName[name]
		delete(byName, name)
		if len(fill) == 0 { // the slot's own content
			for c := slot.FirstChild; c != nil; c = c.NextSibling {
				fill = append(fill, c)
			}
			for _, c := range fill {
				slot.RemoveChild(c)
			}
		}
		for _, c := range fill {
			slot.Parent.InsertBefore(c, slot)
		}
		slot.Parent.RemoveChild(slot)
	}
}

// shadowSlots returns the <slot> elements under n, in the page's order, but not
// those of another shadow root (inside a <template>) or inside a slot.
func shadowSlots(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type != html.ElementNode || c.DataAtom == atom.Template:
		case c.DataAtom == atom.Slot:
			out = append(out, c)
		default:
			out = append(out, shadowSlots(c)...)
		}
	}
	return out
}

// slotName returns the name of the slot a host's child goes in: its slot
// attribute, "" (the slot without a name) for text and elements without
// one.
func slotName(n *html.Node) string {
	if n.Type != html.ElementNode {
		return ""
	}
	return attr(n, "slot")
}
