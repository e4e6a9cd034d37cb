package extract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// declaredPage is an article of n paragraphs with a lead, a photo credit
// and a sign-up box between its paragraphs, and JSON-LD declaring the
// paragraphs given as its articleBody and the lead as its description.
func declaredPage(n int, body []string) string {
	ld, err := json.Marshal(map[string]any{
		"@context": "https://schema.org",
		"@graph": []any{
			map[string]any{"@type": "WebPage", "name": "Council passes budget"},
			map[string]any{"@type": "NewsArticle", "headline": "Council passes budget",
				"description": "The council agreed on the city's budget after a long night of talks.",
				"articleBody": strings.Join(body, " ")},
		},
	})
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><title>Council passes budget</title><script type="application/ld+json">%s</script></head><body><article><h1>Council passes budget</h1>`, ld)
	b.WriteString(`<p class="lead">The council agreed on the city's budget after a long night of talks.</p>`)
	for i := range n {
		fmt.Fprintf(&b, "<p>%s</p>", distinct(i))
		if i == 1 {
			b.WriteString(`<div><p>Get the morning briefing in your inbox every weekday</p></div><p>Picture: Town hall archive</p>`)
		}
	}
	b.WriteString(`</article></body></html>`)
	return b.String()
}

// distinct returns the i-th paragraph of declaredPage: 30 words, none in
// another paragraph.
func distinct(i int) string {
	words := strings.Fields("council budget mayor repairs bridge schools roads taxes water parks library harbour")
	var b strings.Builder
	for k := range 30 {
		fmt.Fprintf(&b, "%s%d ", words[k%len(words)], i)
	}
	return strings.TrimSpace(b.String()) + "."
}

func paragraphs(n int) []string {
	var out []string
	for i := range n {
		out = append(out, distinct(i))
	}
	return out
}

func TestDeclaredBodyPrunesUndeclaredBlocks(t *testing.T) {
	keepAll := &BlockModel{} // scores every block 0.5: the classifier removes nothing
	keepAll.Threshold = 0.5
	a, _ := extractPage(t, declaredPage(6, paragraphs(6)), Options{MinChars: -1, BlockModel: keepAll})
	for _, gone := range []string{"morning briefing", "Town hall archive"} {
		if strings.Contains(a.Text, gone) {
			t.Errorf("%q stayed though the declared body does not hold it:\n%s", gone, a.Text)
		}
	}
	if !strings.Contains(a.Text, "after a long night of talks") {
		t.Errorf("the lead (the declared description) was removed:\n%s", a.Text)
	}
	for i := range 6 {
		if !strings.Contains(a.Text, distinct(i)) {
			t.Errorf("paragraph %d lost:\n%s", i, a.Text)
		}
	}
}

func TestDeclaredBodyGuards(t *testing.T) {
	keepAll := &BlockModel{Threshold: 0.5}
	for _, tc := range []struct {
		name string
		body []string
	}{
		{"too short to trust", []string{distinct(0)}},
		{"another article's", []string{strings.Repeat("The harbour authority opened a new ferry line to the islands on Monday. ", 12)}},
		{"cut short after two paragraphs", paragraphs(2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := extractPage(t, declaredPage(6, tc.body), Options{MinChars: -1, BlockModel: keepAll})
			for _, kept := range []string{"morning briefing", "Town hall archive", distinct(5)} {
				if !strings.Contains(a.Text, kept) {
					t.Errorf("%q removed:\n%s", kept, a.Text)
				}
			}
		})
	}
}

func TestDeclaredBodyText(t *testing.T) {
	doc := parse(t, `<html><head><script type="application/ld+json">{"@type":"NewsArticle","articleBody":"<p>First &amp; second</p><p>Third</p>"}</script>`+
		`<script type="application/ld+json">[{"articleBody":"short"}]</script><script type="application/ld+json">{not json</script></head><body></body></html>`)
	d := readLinkedData(doc).body
	got := d.all()
	for _, want := range []string{"First & second", "Third"} {
		if !strings.Contains(got, want) {
			t.Errorf("declared body %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "<p>") || strings.Contains(got, "short") {
		t.Errorf("declared body %q: want the longest body, as text", got)
	}
	if ld := readLinkedData(parse(t, `<html><body><p>No metadata</p></body></html>`)); ld.body != (declaredBody{}) || ld.kind != noStory || ld.published != nil || ld.author != "" {
		t.Errorf("page without JSON-LD: %+v", ld)
	}
}

// teaserPage is a story page that shows the first shown of the declared
// paragraphs, then a paywall's call, and declares in its JSON-LD an
// article of headline and the paragraphs declared.
func teaserPage(headline string, shown int, declared []string) string {
	obj := map[string]any{"@type": "NewsArticle", "description": "The council agreed on the city's budget after a long night of talks.",
		"articleBody": strings.Join(declared, "\n\n")}
	if headline != "" {
		obj["headline"] = headline
	}
	ld, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><title>Council passes budget | City News</title><script type="application/ld+json">%s</script></head><body>`, ld)
	b.WriteString(`<nav><a href="/">Home</a> <a href="/city">City</a></nav><article><h1>Council passes budget</h1>`)
	for i := range shown {
		fmt.Fprintf(&b, "<p>%s</p>", distinct(i))
	}
	b.WriteString(`<div class="paywall"><p>Subscribe to continue reading: the whole story is for members only.</p></div></article>`)
	b.WriteString(`<footer><p>City News, 1 Harbour Street. All rights reserved.</p></footer></body></html>`)
	return b.String()
}

func TestPreferDeclared(t *testing.T) {
	for _, tc := range []struct {
		name     string
		headline string
		shown    int
		declared bool // the text is the declared article's
	}{
		{"a paywall's first lines", "Council passes budget", 1, true},
		{"the headline in other words", "Budget passed by the council after long talks", 1, false},
		{"no headline declared", "", 1, false},
		{"half the article shown", "Council passes budget", 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip := extractPage(t, teaserPage(tc.headline, tc.shown, paragraphs(6)), Options{MinChars: -1})
			if skip != "" {
				t.Fatalf("skipped: %s", skip)
			}
			got := strings.Contains(a.Text, distinct(5))
			if got != tc.declared {
				t.Fatalf("declared article taken: %v, want %v:\n%s", got, tc.declared, a.Text)
			}
			if !strings.Contains(a.Text, distinct(0)) {
				t.Errorf("first paragraph lost:\n%s", a.Text)
			}
			if tc.declared {
				if !strings.HasPrefix(a.Text, "The council agreed on the city's budget") {
					t.Errorf("want the description, then the body, without the headline:\n%s", a.Text)
				}
				if strings.Contains(a.Text, "Subscribe") {
					t.Errorf("the paywall's call stayed:\n%s", a.Text)
				}
			}
		})
	}
}

// TestDeclaredBodyOfAnEmptyPage: a page that renders its article in a
// script (an application's empty root) and declares it in JSON-LD gives
// the declared article, and its <title>: the engine found no content and
// said nothing of the page, so the declared headline had no title to
// match and the page was skipped as no-article.
func TestDeclaredBodyOfAnEmptyPage(t *testing.T) {
	ld, err := json.Marshal(map[string]any{"@type": "NewsArticle", "headline": "Council passes budget",
		"articleBody": strings.Join(paragraphs(6), "\n\n")})
	if err != nil {
		t.Fatal(err)
	}
	page := `<!DOCTYPE html><html><head><title>Council passes budget | City News</title><script type="application/ld+json">` + string(ld) +
		`</script></head><body><div id="root"></div><script src="/app.js"></script></body></html>`
	a, skip := extractPage(t, page, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if !strings.Contains(a.Text, distinct(0)) || !strings.Contains(a.Text, distinct(5)) || a.Title != "Council passes budget" {
		t.Errorf("title %q, text:\n%s\nwant the declared article", a.Title, a.Text)
	}
}

// TestDeclaredHeadlineCutsTheTitle is the regression test of a page its
// scripts draw, with no heading and no og:site_name: its title kept the
// site's name ("Council passes budget | City News"), though its JSON-LD
// states the headline. A title that is a declared headline and a few words
// past a separator is now that headline (of an object in @graph too); a
// title that is not, or has more words past it than a site's name, stays.
func TestDeclaredHeadlineCutsTheTitle(t *testing.T) {
	body := strings.Join(paragraphs(6), "\n\n")
	for _, tc := range []struct {
		name, title string
		ld          any
		want        string
	}{
		{"article", "Council passes budget | City News",
			map[string]any{"@type": "NewsArticle", "headline": "Council passes budget", "articleBody": body}, "Council passes budget"},
		{"site first", "City News - Council passes budget",
			map[string]any{"@type": "NewsArticle", "headline": "Council passes budget", "articleBody": body}, "Council passes budget"},
		{"in a graph", "Council passes budget – City News Daily",
			map[string]any{"@graph": []any{map[string]any{"@type": "WebSite", "name": "City News"},
				map[string]any{"@type": "NewsArticle", "headline": "Council passes budget", "articleBody": body}}}, "Council passes budget"},
		{"another title", "Council passes budget at last | City News",
			map[string]any{"@type": "NewsArticle", "headline": "Council passes budget", "articleBody": body}, "Council passes budget at last | City News"},
		{"many words past it", "Council passes budget | after a night of talks the mayor thanks the members of every party",
			map[string]any{"@type": "NewsArticle", "headline": "Council passes budget", "articleBody": body},
			"Council passes budget | after a night of talks the mayor thanks the members of every party"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ld, err := json.Marshal(tc.ld)
			if err != nil {
				t.Fatal(err)
			}
			page := `<!DOCTYPE html><html><head><title>` + tc.title + `</title><script type="application/ld+json">` + string(ld) +
				`</script></head><body><div id="root"></div></body></html>`
			a, skip := extractPage(t, page, Options{})
			if skip != "" {
				t.Fatalf("skipped: %s", skip)
			}
			if a.Title != tc.want {
				t.Errorf("title %q, want %q", a.Title, tc.want)
			}
		})
	}
}

func TestSameHeadline(t *testing.T) {
	for _, tc := range []struct {
		headline, title string
		want            bool
	}{
		{"Council passes budget", "Council passes budget | City News", true},
		{"Council passes budget", "COUNCIL PASSES BUDGET", true},
		{"Council passes the budget for 2025", "Council passes budget", true},
		{"Ferry line opens to the islands", "Council passes budget", false},
		{"", "Council passes budget", false},
		{"Council passes budget", "", false},
	} {
		if got := sameHeadline(tc.headline, tc.title); got != tc.want {
			t.Errorf("sameHeadline(%q, %q) = %v, want %v", tc.headline, tc.title, got, tc.want)
		}
	}
}
