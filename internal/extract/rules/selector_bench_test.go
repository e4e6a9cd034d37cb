package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// newsPage returns a page shaped as a news site's: a header of links, an
// article of paragraphs with links and a figure, a box of related links, a
// thread of nested comments and a footer.
func newsPage() *html.Node {
	var b strings.Builder
	b.WriteString(`<html><head><title>Port council votes on the harbour plan</title></head><body>`)
	b.WriteString(`<header class="site"><nav><ul>`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `<li class="nav-item"><a href="/s%d">Section %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav><div class="share"><a href="#">Share</a></div></header><main><article class="story">`)
	b.WriteString(`<h1>Port council votes on the harbour plan</h1><p class="byline">By A. Writer</p><div class="story-body">`)
	for i := 0; i < 40; i++ {
		if i%8 == 4 {
			fmt.Fprintf(&b, `<h2>Part %d</h2><figure><img src="/i%d.jpg"><figcaption>A view of the harbour</figcaption></figure>`, i, i)
		}
		fmt.Fprintf(&b, `<p>The council met on Tuesday to discuss the <a href="/p%d">harbour plan</a>, which <em>residents</em> `+
			`have opposed for <strong>three years</strong>, and voted %d to 4.</p>`, i, i)
		if i%10 == 9 {
			b.WriteString(`<aside class="promo"><p>Subscribe to our newsletter</p></aside>`)
		}
	}
	b.WriteString(`</div></article><aside class="related"><h2>Related</h2><ul>`)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, `<li><a href="/r%d">Another story %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></aside><section class="comments">`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `<div class="comment"><div class="meta"><span>Reader %d</span></div><p>I think it is fine.</p>`, i)
		if i%3 == 0 {
			b.WriteString(`<div class="comment reply"><p>I disagree.</p></div>`)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</section></main><footer><p>© Port News</p><ul><li><a href="/about">About</a></li></ul></footer></body></html>`)
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		panic(err)
	}
	return doc
}

// benchSelectors are selectors site rules are written with.
var benchSelectors = []string{
	"article .story-body", ".share", "aside.promo, .related", "h2 ~ p", "h2 + figure",
	"section.comments div p", "ul > li + li", "div.comment:has(.reply)", "article p:not(.byline)",
}

// BenchmarkSelector asks each selector of each node of a news page, each
// node in a query of its own as Rule.Drops asks, here and with cascadia.
func BenchmarkSelector(b *testing.B) {
	doc := newsPage()
	nodes := allNodes(doc)
	for _, src := range benchSelectors {
		g := cascadia.MustCompile(src) // parses as ParseGroup
		group, _ := cascadia.ParseGroup(src)
		sel := newSelector(group)
		b.Run("cascadia/"+src, func(b *testing.B) {
			for b.Loop() {
				for _, n := range nodes {
					g.Match(n)
				}
			}
		})
		b.Run("rules/"+src, func(b *testing.B) {
			for b.Loop() {
				for _, n := range nodes {
					sel.Match(n)
				}
			}
		})
	}
}

// BenchmarkBody walks a news page for the body, as Rule.Body does, here
// and with cascadia.
func BenchmarkBody(b *testing.B) {
	doc := newsPage()
	for _, src := range []string{"article .story-body", "main > article div.story-body", "section.comments div p"} {
		set, err := Parse([]byte(fmt.Sprintf("rules:\n  - body: '%s'\n", src)), "rules.yaml")
		if err != nil {
			b.Fatal(err)
		}
		r := set.rules[0]
		b.Run("cascadia/"+src, func(b *testing.B) {
			for b.Loop() {
				outermost(doc, r.body.group)
			}
		})
		b.Run("rules/"+src, func(b *testing.B) {
			for b.Loop() {
				r.Body(doc)
			}
		})
	}
}

// outermost is Rule.Body with cascadia: the outermost elements g matches.
func outermost(root *html.Node, g cascadia.SelectorGroup) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && g.Match(n) {
			out = append(out, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}
