package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An embedded post, video or chart that a reader has not agreed to load is
// drawn as a placeholder: a line or two on what would be sent to whom, and a
// switch or a button to load it ("An dieser Stelle findest du einen
// externen Inhalt von YouTube … Ich bin damit einverstanden, dass mir
// Inhalte von YouTube angezeigt werden."). It sits among the paragraphs,
// its classes are a site's own or a build tool's ("Nbr", "bpl5ibi"), and it
// is never the article.

// maxPlaceholder is the most text (bytes, without spaces) of a consent
// placeholder: a box, not the article around it.
const maxPlaceholder = 800

// consentTerms are words a consent placeholder says in the languages of the
// development sets, lower-cased; dropPlaceholders wants two of them.
var consentTerms = [...]string{"datenschutz", "einwilligung", "einverstanden", "zustimmung",
	"personenbezogen", "drittanbieter", "drittplattform", "externe inhalte", "externen inhalt",
	"externer inhalt", "privacy", "consent", "cookies", "third-party", "third party",
	"données personnelles", "consentement", "confidentialité", "privacidad", "consentimiento",
	"terceros", "consenso", "toestemming"}

// dropPlaceholders removes the consent placeholders of embedded content
// under root: from each control (a button, a check box, a switch, a label
// for one; not in a <nav>, <header> or <footer>), the outermost ancestor holding at most maxPlaceholder bytes of
// text, when its parent holds more (the box sits among the article's
// paragraphs) and its text says two of consentTerms. The climb stops below
// the article's own containers (<article>, <main>, an element holding an
// <h1>): a short story about privacy with a share button is no box among
// paragraphs, and keeps its text.
func dropPlaceholders(root *html.Node) {
	var controls []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Nav, atom.Header, atom.Footer, atom.Head:
				continue // menus' buttons: no placeholder sits there
			}
			if consentControl(c) {
				controls = append(controls, c)
			}
			walk(c)
		}
	}
	walk(root)
	// Controls share their ancestors (a menu's buttons, a carousel's):
	// each ancestor's text is counted once, and a box read once.
	const (
		small = 1 + iota // at most maxPlaceholder bytes, on an earlier climb
		large            // more
	)
	seen := map[*html.Node]int{}
	for _, c := range controls {
		var box *html.Node
		among := false // the box sits in more text than its own
		for p := c.Parent; p != nil && p.Type == html.ElementNode; p = p.Parent {
			size := seen[p]
			if size == small {
				box = nil // an earlier climb read this box
				break
			}
			if size == 0 {
				size = small
				if textBytes(p, maxPlaceholder) > maxPlaceholder {
					size = large
				}
				seen[p] = size
			}
			if size == large {
				among = true
				break
			}
			if articleBound(p) {
				break
			}
			box = p
		}
		if box != nil && among && box.Parent != nil && saysConsent(rawText(box)) {
			box.Parent.RemoveChild(box)
		}
	}
}

// consentControl reports whether n is a control a placeholder loads its
// content with: a button, a check box, a switch, or a label for one.
func consentControl(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Button:
		return true
	case atom.Input:
		t := strings.ToLower(attr(n, "type"))
		return t == "checkbox" || t == "button" || t == "submit"
	case atom.Label:
		return attr(n, "for") != ""
	}
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "switch", "button", "checkbox":
		return true
	}
	return false
}

// articleBound reports whether n is a container the climb from a control
// must not reach: the page, the article, or an element holding its heading.
// (An element named the article is no bound: sites put their sign-up and
// consent boxes in them, and the size bound keeps the climb to a box.)
func articleBound(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Html, atom.Body, atom.Main, atom.Article, atom.H1:
		return true
	}
	return holdsH1(n)
}

// rawText returns the text under n (a box: at most maxPlaceholder bytes),
// its words joined by single spaces, without the layout Text gives: enough
// to look words up in.
func rawText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				for w := range strings.FieldsSeq(c.Data) {
					b.WriteString(w)
					b.WriteByte(' ')
				}
			case c.Type == html.ElementNode && !neverText[c.DataAtom]:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// saysConsent reports whether text says two of consentTerms.
func saysConsent(text string) bool {
	l := strings.ToLower(text)
	k := 0
	for _, t := range consentTerms {
		if strings.Contains(l, t) {
			k++
		}
	}
	return k >= 2
}
