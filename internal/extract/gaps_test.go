package extract

import (
	"context"
	"strings"
	"testing"

	"net/url"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// sectioned is an article set in a run of sections, one of them holding
// only a subheading.
const sectioned = `<section class="c"><p>Ferry crews reached the island at dawn, the council said on Monday evening.</p></section>` +
	`<section class="c"><div class="inline"><h3><strong>Fares will rise</strong></h3></div></section>` +
	`<section class="c"><p>Tickets will cost more from June, the operator said in a statement.</p></section>`

func TestRestoreGaps(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		drop       func(content *html.Node) // what the engine left out
		prune      func(content *html.Node) // what the classifier removed
		want       string
	}{
		{"a heading's section the engine dropped comes back", `<article>` + sectioned + `</article>`,
			func(c *html.Node) { removeText(c, "Fares will rise") }, nil,
			"Ferry crews reached the island at dawn, the council said on Monday evening.\n\nFares will rise\n\nTickets will cost more from June, the operator said in a statement."},
		{"kept, it is not doubled", `<article>` + sectioned + `</article>`,
			func(*html.Node) {}, nil,
			"Ferry crews reached the island at dawn, the council said on Monday evening.\n\nFares will rise\n\nTickets will cost more from June, the operator said in a statement."},
		{"not without the section after it", `<article>` + sectioned + `</article>`,
			func(c *html.Node) { removeText(c, "Fares will rise"); removeText(c, "Tickets will cost") }, nil,
			"Ferry crews reached the island at dawn, the council said on Monday evening."},
		{"a heading between siblings of another tag stays out",
			`<article><div><p>Ferry crews reached the island at dawn, the council said.</p></div><h2>Fares</h2><div><p>Tickets will cost more from June.</p></div></article>`,
			func(c *html.Node) { removeText(c, "Fares") }, nil,
			"Ferry crews reached the island at dawn, the council said.\n\nTickets will cost more from June."},
		{"a heading between two paragraphs comes back",
			`<article><p>Ferry crews reached the island at dawn, the council said.</p><h2>Fares</h2><p>Tickets will cost more from June.</p></article>`,
			func(c *html.Node) { removeText(c, "Fares") }, nil,
			"Ferry crews reached the island at dawn, the council said.\n\nFares\n\nTickets will cost more from June."},
		{"a section with more than the heading stays out",
			`<article><section><p>Ferry crews reached the island.</p></section><section><h3>Related</h3><a href="/x">Other story</a></section><section><p>Tickets will cost more.</p></section></article>`,
			func(c *html.Node) { removeText(c, "Related") }, nil,
			"Ferry crews reached the island.\n\nTickets will cost more."},
		{"a heading the classifier removed stays out", `<article>` + sectioned + `</article>`,
			func(*html.Node) {}, func(c *html.Node) { removeText(c, "Fares will rise") },
			"Ferry crews reached the island at dawn, the council said on Monday evening.\n\nTickets will cost more from June, the operator said in a statement."},
		{"a list between two paragraphs comes back",
			`<article><p>The council listed the works for the summer.</p><ul><li>A new berth</li><li>A longer quay</li></ul><p>They start in June.</p></article>`,
			func(c *html.Node) { removeText(c, "A new berth") }, nil,
			"The council listed the works for the summer.\n\nA new berth\n\nA longer quay\n\nThey start in June."},
		{"a list of links stays out",
			`<article><p>The council listed the works for the summer.</p><ul><li><a href="/a">A new berth</a></li><li><a href="/b">A longer quay</a></li></ul><p>They start in June.</p></article>`,
			func(c *html.Node) { removeText(c, "A new berth") }, nil,
			"The council listed the works for the summer.\n\nThey start in June."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			gaps := gapSlots(doc)
			content := cloneTree(doc) // the engine's copy
			tc.drop(content)
			dropped := droppedGaps(content, gaps)
			pruned := cloneTree(content) // the classifier's turn
			if tc.prune != nil {
				tc.prune(pruned)
			}
			restoreGaps(pruned, dropped)
			content = pruned
			if diff := cmp.Diff(tc.want, Text(content)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// removeText removes from under n the outermost element below <article>
// whose text starts with prefix.
func removeText(n *html.Node, prefix string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Parent.Data == "article" && strings.HasPrefix(strings.TrimSpace(Text(c)), prefix) {
			n.RemoveChild(c)
			return
		}
		removeText(c, prefix)
	}
}

// removeHolding removes from under n the outermost element whose text is
// text.
func removeHolding(n *html.Node, text string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && strings.TrimSpace(Text(c)) == text {
			n.RemoveChild(c)
			return
		}
		removeHolding(c, text)
	}
}

func TestPageRestoresSubheadings(t *testing.T) {
	// The layout of a chain of news sites: each paragraph in a section of
	// its own, a screen reader's label in each, a subheading alone in one.
	section := func(inner string) string {
		return `<section class="story-content-element content-group"><div class="visually-hidden">Article content</div><div class="story-content-element-inline">` + inner + `</div></section>`
	}
	var b strings.Builder
	b.WriteString(`<html><head><title>Ferry fares rise</title></head><body><nav><a href="/">Home</a></nav><article><h1>Ferry fares rise</h1>`)
	paras := []string{
		"The ferry between the island and the mainland, which runs six times a day in summer, four times in winter, and twice on holidays, " +
			"carried more passengers this summer than in any year before, the operator said, with families, walkers, cyclists, day-trippers, " +
			"builders and nurses filling its two boats, and with queues at the harbour, on the quay, and on the road to it, on most mornings.",
		"Its boats are full on most days of the week, and the company has asked the council for a second berth at the harbour.",
		"Fares will rise by a tenth from June, the first rise in four years, to pay for the new boat the company ordered in spring.",
		"The council said on Monday that it would decide on the berth before the end of the year, after hearing from residents.",
		"Residents of the island said the ferry was the only way to reach the hospital, the schools and most of the shops.",
	}
	for i, p := range paras {
		b.WriteString(section("<p>" + p + "</p>"))
		if i == 2 {
			b.WriteString(section(`<h3><strong>What the council said</strong></h3>`))
		}
	}
	b.WriteString(`</article><footer>Contact us</footer></body></html>`)
	// The engine leaves the subheading's section out, as readeck does
	// when it takes the sections one by one by their paragraphs' scores.
	engine := func(doc *html.Node, u *url.URL) Found {
		f := Readeck(doc, u)
		if f.Node != nil {
			removeHolding(f.Node, "What the council said")
		}
		return f
	}
	a, _, err := Page(context.Background(), Input{URL: "https://example.com/ferry", Body: []byte(b.String())}, Options{MinChars: -1, Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, paras[4]) || strings.Count(a.Text, "What the council said") != 1 {
		t.Errorf("want the subheading once among the paragraphs:\n%s", a.Text)
	}
}
