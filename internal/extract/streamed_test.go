package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestRevealStreamed(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{
			"a segment replaces its placeholder and fallback",
			`<main><!--$?--><template id="B:0"></template><div class="skeleton">Loading</div><!--/$--></main>` +
				`<div hidden id="S:0"><p>The ferry returned.</p></div>`,
			`<main><!--$?--><p>The ferry returned.</p><!--/$--></main>`,
		},
		{
			"a part placeholder inside a segment, no fallback",
			`<main><!--$?--><template id="B:0"></template><!--/$--></main>` +
				`<div hidden id="S:0"><p>One.</p><template id="P:1"></template><p>Three.</p></div>` +
				`<div hidden id="S:1"><p>Two.</p></div>`,
			`<main><!--$?--><p>One.</p><p>Two.</p><p>Three.</p><!--/$--></main>`,
		},
		{
			"a nested boundary inside the fallback",
			`<main><!--$?--><template id="B:0"></template><!--$--><i>a</i><!--/$--><b>b</b><!--/$--><p>After.</p></main>` +
				`<div hidden id="S:0"><p>Text.</p></div>`,
			`<main><!--$?--><p>Text.</p><!--/$--><p>After.</p></main>`,
		},
		{
			"no closing comment: the fallback stays",
			`<main><template id="B:0"></template><p>Stays.</p></main><div hidden id="S:0"><p>Text.</p></div>`,
			`<main><p>Text.</p><p>Stays.</p></main>`,
		},
		{
			"a segment without its placeholder stays hidden",
			`<main><p>Body.</p></main><div hidden id="S:7"><p>Elsewhere.</p></div>`,
			`<main><p>Body.</p></main><div hidden="" id="S:7"><p>Elsewhere.</p></div>`,
		},
		{
			"a hidden element that is no segment is left alone",
			`<main><template id="B:0"></template></main><div hidden id="menu"><p>Menu.</p></div>`,
			`<main><template id="B:0"></template></main><div hidden="" id="menu"><p>Menu.</p></div>`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, `<html><body>`+tc.html+`</body></html>`)
			revealStreamed(doc)
			var b strings.Builder
			body := doc.FirstChild.LastChild
			for c := body.FirstChild; c != nil; c = c.NextSibling {
				if err := html.Render(&b, c); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPageStreamedArticle(t *testing.T) {
	body := `<!DOCTYPE html><html lang="en"><head><title>Ferry returns</title></head><body>` +
		`<header><a href="/">Home</a> <a href="/news">News</a></header>` +
		`<main><!--$?--><template id="B:0"></template><div class="animate-pulse"></div><!--/$--></main>` +
		`<footer><p>© 2025 Harbour News. All rights reserved.</p><p>Privacy policy and terms of use for the site.</p></footer>` +
		`<div hidden id="S:0"><article><h1>Ferry returns</h1>` +
		`<p>The ferry returned to the harbour on Monday, a week late, after the storm had kept it in port for seven days and nights.</p>` +
		`<p>Its crew said the crossing was calm, and the first passengers were on board within an hour of its arrival at the quay.</p>` +
		`<p>The harbour master said the timetable would be back to normal by the weekend, with two extra sailings on Saturday.</p>` +
		`</article></div><script>$RC("B:0","S:0")</script></body></html>`
	a, _ := extractPage(t, body, Options{MinChars: -1})
	if !strings.Contains(a.Text, "The ferry returned to the harbour") || strings.Contains(a.Text, "All rights reserved") {
		t.Errorf("text %q, want the streamed article", a.Text)
	}
}

func TestRevealStreamedMany(t *testing.T) {
	// Many segments, each holding the next one's placeholder: every one is
	// filled in one pass, whatever the order they arrive in.
	const n = 2000
	var b strings.Builder
	b.WriteString(`<html><body><main><template id="B:0"></template><!--/$--></main>`)
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, `<div hidden id="S:%d"><p>Part %d.</p>`, i, i)
		if i+1 < n {
			fmt.Fprintf(&b, `<template id="P:%d"></template>`, i+1)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</body></html>`)
	doc := parse(t, b.String())
	revealStreamed(doc)
	body := doc.FirstChild.LastChild
	if body.LastChild.Data != "main" {
		t.Fatalf("a segment is left after <main>: <%s %v>", body.LastChild.Data, body.LastChild.Attr)
	}
	text := Text(body.LastChild)
	for _, i := range []int{0, 1, n / 2, n - 1} {
		if !strings.Contains(text, fmt.Sprintf("Part %d.", i)) {
			t.Fatalf("part %d missing", i)
		}
	}
	if strings.Index(text, "Part 0.") > strings.Index(text, "Part 1.") {
		t.Error("parts out of order")
	}
}
