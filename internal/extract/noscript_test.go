package extract

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// noscriptArticle is an article's four paragraphs, over noscriptMinProse
// runes together.
const noscriptArticle = `<p>The ferry returned to the harbour on Monday, a week late, after the storm had kept it in port for seven days and nights.</p>` +
	`<p>Its crew said the crossing was calm, and the first passengers were on board within an hour of its arrival at the quay.</p>` +
	`<p>The harbour master said the timetable would be back to normal by the weekend, with two extra sailings on Saturday.</p>` +
	`<p>Islanders who had waited all week for supplies lined the pier, and the shop reopened the same evening.</p>`

func TestRevealNoscript(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		revealed   bool
	}{
		{"the article only in a noscript", `<div class="post-body"><script type="text/template">` + noscriptArticle +
			`</script><noscript>` + noscriptArticle + `</noscript></div>`, true},
		{"a notice", `<div><noscript><p>Please enable JavaScript to view this page.</p></noscript></div>`, false},
		{"a short text", `<div><noscript><p>The ferry returned to the harbour on Monday.</p><p>Its crew said the crossing was calm.</p></noscript></div>`, false},
		{"text the page shows too", `<div>` + noscriptArticle + `<noscript>` + noscriptArticle + `</noscript></div>`, false},
		{"no paragraphs", `<div><noscript><img src="/pixel.gif">` + strings.Repeat(`<img src="/a.jpg" alt="A photo of the harbour">`, 20) + `</noscript></div>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, `<html><body>`+tc.html+`</body></html>`)
			revealNoscript(doc)
			var b strings.Builder
			if err := html.Render(&b, doc); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if got := !strings.Contains(out, "<noscript>"); got != tc.revealed {
				t.Errorf("revealed = %v, want %v:\n%s", got, tc.revealed, out)
			}
			if ps := paragraphTexts(doc); tc.revealed && (len(ps) != 4 || !strings.HasPrefix(ps[0], "The ferry returned")) {
				t.Errorf("the article's paragraphs are not elements in place: %q", ps)
			}
		})
	}
}

// Regression: a blog whose template renders the post from a script and
// gives it to readers without scripts in a <noscript> gave the blog's
// header for the article.
func TestPageNoscriptArticle(t *testing.T) {
	body := `<!DOCTYPE html><html lang="en"><head><title>Ferry returns</title>` +
		`<noscript><img src="/pixel.gif"></noscript></head><body>` +
		`<header><h1>Harbour Blog</h1><p>The latest news and insights from the harbour and its ferries.</p></header>` +
		`<div class="post"><h2>Ferry returns</h2><div class="post-body"><script type="text/template">` + noscriptArticle +
		`</script><noscript>` + noscriptArticle + `</noscript></div></div>` +
		`<footer><p>Privacy policy and terms of use for the site.</p></footer></body></html>`
	a, _ := extractPage(t, body, Options{MinChars: -1})
	if !strings.Contains(a.Text, "The ferry returned to the harbour") || strings.Contains(a.Text, "latest news and insights") {
		t.Errorf("text %q, want the article given in the noscript", a.Text)
	}
}

// A page of many noscripts that might hold an article has the first
// noscriptMax looked into, each compared with the page's text once; the
// rest stay.
func TestRevealNoscriptMany(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body>`)
	for i := range noscriptMax + 4 {
		fmt.Fprintf(&b, `<div><noscript><p>Part %d. %s</p></noscript></div>`, i, strings.Repeat(paragraph(i)+" ", 3))
	}
	b.WriteString(`</body></html>`)
	doc := parse(t, b.String())
	revealNoscript(doc)
	var out strings.Builder
	if err := html.Render(&out, doc); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "<noscript>"); got != 4 {
		t.Errorf("%d noscripts left, want 4 (past the first %d)", got, noscriptMax)
	}
}
