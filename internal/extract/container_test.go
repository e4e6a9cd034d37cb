package extract

import (
	"fmt"
	nurl "net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// reviewsPage is a product page whose description sits in a named article
// container and whose reader reviews, shorter, sit in a plain division.
func reviewsPage(paragraphs int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Sidamo beans</title></head><body><div class="entry-content">`)
	for i := range paragraphs {
		fmt.Fprintf(&b, "<p>%s</p>", paragraph(i))
	}
	b.WriteString(`</div><div id="reviews"><p>Great coffee, would buy again.</p><p>Too dear for me.</p></div></body></html>`)
	return b.String()
}

// firstWith returns an engine that takes the first element whose id or
// class holds name for the article (nil when none does).
func firstWith(name string) Engine {
	return func(doc *html.Node, _ *nurl.URL) Found {
		var found *html.Node
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode && found == nil && name != "" &&
				strings.Contains(attr(n, "id")+" "+attr(n, "class"), name) {
				found = n
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		return Found{Node: found}
	}
}

// takesWhileThere returns an engine that takes the first element named
// taken while one is on the page, else the first named fallback, as readeck
// takes a sidebar or another story on some pages; *calls counts its calls,
// two when the extractor chose again without the element.
func takesWhileThere(taken, fallback string, calls *int) Engine {
	return func(doc *html.Node, u *nurl.URL) Found {
		*calls++
		if f := firstWith(taken)(doc, u); f.Node != nil {
			return f
		}
		return firstWith(fallback)(doc, u)
	}
}

func TestPageNamedContainer(t *testing.T) {
	var article strings.Builder
	article.WriteString(`<article><h1>Ferry returns</h1>`)
	for i := range 6 {
		fmt.Fprintf(&article, `<p class="p%d">%s</p>`, i, paragraph(i))
	}
	article.WriteString(`</article>`)
	var forum strings.Builder
	forum.WriteString(`<html><body><div class="article-text"><p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p></div><div class="community"><div class="body">`)
	for i := range 8 {
		fmt.Fprintf(&forum, `<div class="reader"><p>Reader %d wrote: %s</p></div>`, i, strings.Repeat("I read this twice and still disagree with the council's reasoning. ", 4))
	}
	forum.WriteString(`</div></div></body></html>`)
	for _, tc := range []struct {
		name, page, engine string
		want, notWant      string
	}{
		{"the engine chose the reviews: the description is taken", reviewsPage(6), "reviews", paragraph(5), "Great coffee"},
		{"the engine found nothing: the named container is taken", reviewsPage(6), "", paragraph(5), "Great coffee"},
		{"the named container holds too little prose: the engine's choice stays", reviewsPage(1), "reviews", "Great coffee", paragraph(0)},
		{"the engine chose a part of the named container: it stays",
			`<html><body>` + article.String() + `</body></html>`, "p2", paragraph(2), paragraph(3)},
		// Regression: the readers' posts under an article, in a container
		// classed "body", replaced the article the engine had chosen.
		// Regression: a named container inside a wrapper whose name
		// says navigation ("above-footer") was never looked at.
		{"the named container is inside a region by name: it is taken",
			`<html><body><section class="disclosure"><p>We may earn a fee from the offers on this page.</p></section><div class="above-footer">` +
				article.String() + `</div></body></html>`, "disclosure", paragraph(4), "earn a fee"},
		{"the engine chose a named container: a longer one elsewhere does not replace it",
			forum.String(), "article-text", paragraph(1), "Reader 3 wrote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := extractPage(t, tc.page, Options{MinChars: -1, Engine: firstWith(tc.engine), KeepBlocks: true})
			if !strings.Contains(a.Text, tc.want) || strings.Contains(a.Text, tc.notWant) {
				t.Errorf("text %q: want %q in it, %q not", a.Text, tc.want, tc.notWant)
			}
		})
	}
}

func TestArticleContainer(t *testing.T) {
	long := strings.Repeat("word ", 100)
	for _, tc := range []struct{ name, body, want string }{
		{"none named", `<div><p>` + long + `</p></div>`, ""},
		{"the one with the most prose", `<article id="a"><p>short</p></article><main id="b"><p>` + long + `</p></main>`, "b"},
		{"the innermost holding most of the prose", `<article id="a"><h1>Title</h1><div itemprop="articleBody" id="b"><p>` + long + `</p></div></article>`, "b"},
		{"not one holding a small share", `<article id="a"><p>` + long + `</p><div class="entry-content" id="b"><p>` + long + `</p></div></article>`, "a"},
		{"links are not prose", `<article id="a"><p>` + long[:100] + `</p></article><main id="b"><p><a href="/x">` + long + `</a></p></main>`, "a"},
		{"never inside a navigation region", `<nav><div role="main" id="a"><p>` + long + `</p></div></nav><article id="b"><p>short</p></article>`, "b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<html><body>" + tc.body + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			markRegions(doc, nil)
			got := ""
			if n, _ := articleContainer(doc); n != nil {
				got = attr(n, "id")
			}
			if got != tc.want {
				t.Errorf("container %q, want %q", got, tc.want)
			}
		})
	}
}
