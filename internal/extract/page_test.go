package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	nurl "net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// sentences are the article text the test pages are made of.
var sentences = []string{
	"The city council approved the new budget on Tuesday after a long debate.",
	"Officials said the plan would fund road repairs and two new libraries.",
	"Opposition members argued that the tax increase was larger than promised.",
	"The mayor defended the proposal, saying the repairs could not wait.",
	"Residents will see the changes in their bills from the first of March.",
}

// paragraph returns the i-th test paragraph: three sentences.
func paragraph(i int) string {
	var b strings.Builder
	for j := range 3 {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentences[(i+j)%len(sentences)])
	}
	return fmt.Sprintf("Paragraph %d. %s", i, b.String())
}

// newsPage returns a news page with navigation, an article of n paragraphs
// and a footer.
func newsPage(n int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Council passes budget</title>
<meta name="author" content="Jane Reporter"><meta property="article:published_time" content="2024-03-05T10:00:00Z">
<style>body{font-family:serif}</style><script>window.ads = [];</script></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<article><h1>Council passes budget</h1>`)
	for i := range n {
		fmt.Fprintf(&b, "<p>%s</p>\n", paragraph(i))
	}
	b.WriteString(`</article><footer><p>Copyright 2024 Example Media. All rights reserved.</p></footer></body></html>`)
	return b.String()
}

func extractPage(t *testing.T, body string, opts Options) (Article, core.SkipReason) {
	t.Helper()
	a, skip, err := Page(context.Background(), Input{URL: "https://news.example/2024/03/05/budget", Body: []byte(body)}, opts)
	if err != nil {
		t.Fatalf("Page: %v", err)
	}
	return a, skip
}

func TestPageArticle(t *testing.T) {
	a, skip := extractPage(t, newsPage(6), Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	want := Article{
		Title:  "Council passes budget",
		Author: "Jane Reporter",
		Date:   time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC),
		Lang:   "en",
	}
	got := a
	got.Text = ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metadata (-want +got)\n%s", diff)
	}
	for i := range 6 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d missing from text:\n%s", i, a.Text)
		}
	}
	for _, junk := range []string{"Sport", "window.ads", "font-family", "All rights reserved"} {
		if strings.Contains(a.Text, junk) {
			t.Errorf("text contains %q:\n%s", junk, a.Text)
		}
	}
}

// A title is the headline without the site's name beside it, and a page
// that declares no date is dated by the line under its headline.
func TestPageHeadlineAndShownDate(t *testing.T) {
	page := newsPage(6)
	page = strings.Replace(page, "<title>Council passes budget</title>", "<title>Council passes budget | Example Media</title>", 1)
	page = strings.Replace(page, `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", 1)
	page = strings.Replace(page, "<h1>Council passes budget</h1>", `<header><h1>Council passes budget</h1><p class="meta">March 4, 2024</p></header>`, 1)
	a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Council passes budget" {
		t.Errorf("Title = %q, want the headline alone", a.Title)
	}
	if want := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC); !a.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", a.Date, want)
	}
}

// Regression: a Chinese or Japanese headline under 15 characters was never
// the page's heading: its title kept the site's name and the date line
// under it was not read.
func TestPageShortCJKHeadline(t *testing.T) {
	zh := "<p>议员们表示，这一决定是在票务销售连续三年下滑、结构检查发现码头需要耗资约一千二百万元维修之后做出的，结束了两个城区之间一百多年的客运服务。</p>"
	ja := "<p>市議会は火曜日、川の北岸にある古いフェリー乗り場を閉鎖することを決めた。乗船券の販売が三年続けて落ち込み、桟橋の修理に多額の費用がかかるためだという。</p>"
	for _, tc := range []struct{ name, lang, headline, site, para string }{
		{"Chinese", "zh-CN", "市议会决定关闭渡轮码头", "_新浪网", zh},
		{"Japanese", "ja", "フェリー乗り場閉鎖へ", "：朝日新聞デジタル", ja},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!doctype html><html lang="` + tc.lang + `"><head><meta charset="utf-8"><title>` + tc.headline + tc.site +
				`</title></head><body><article><h1>` + tc.headline + `</h1><p>2024年03月05日 10:15</p>` + strings.Repeat(tc.para, 4) + `</article></body></html>`
			a, _, err := Page(context.Background(), Input{Body: []byte(page)}, Options{MinChars: 1})
			if err != nil {
				t.Fatal(err)
			}
			if a.Title != tc.headline {
				t.Errorf("Title = %q, want %q", a.Title, tc.headline)
			}
			if want := time.Date(2024, 3, 5, 10, 15, 0, 0, time.UTC); !a.Date.Equal(want) {
				t.Errorf("Date = %v, want %v", a.Date, want)
			}
			if strings.HasPrefix(a.Text, tc.headline) {
				t.Errorf("Text starts with the headline: %.80q", a.Text)
			}
		})
	}
}

// A page whose <title> is another wording than its only headline is titled
// by the headline it shows, and dated and bylined by the lines around it.
func TestPageTitleShown(t *testing.T) {
	page := strings.Replace(newsPage(6), "<title>Council passes budget</title>", `<title>Budget 2024: what the council decided</title><meta property="og:title" content="Budget 2024: what the council decided">`, 1)
	page = strings.Replace(page, `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", 1)
	page = strings.Replace(page, `<meta name="author" content="Jane Reporter">`, "", 1)
	page = strings.Replace(page, "<h1>Council passes budget</h1>", `<div><h1>Council passes budget after long debate</h1></div><section><p>By John Roe</p><p>March 4, 2024</p></section>`, 1)
	a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Council passes budget after long debate" {
		t.Errorf("Title = %q, want the headline the page shows", a.Title)
	}
	if want := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC); !a.Date.Equal(want) {
		t.Errorf("Date = %v, want the date under the headline, %v", a.Date, want)
	}
	if a.Author != "John Roe" {
		t.Errorf("Author = %q, want the byline under the headline", a.Author)
	}
}

// A page whose author field holds the site's own name is given the person
// its byline names.
func TestPageAuthorNotTheSite(t *testing.T) {
	page := strings.Replace(newsPage(6), `<meta name="author" content="Jane Reporter">`, `<meta name="author" content="Example Media"><meta property="og:site_name" content="Example Media">`, 1)
	page = strings.Replace(page, "<h1>Council passes budget</h1>", `<header><h1>Council passes budget</h1><p class="byline">By John Roe</p></header>`, 1)
	a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Author != "John Roe" {
		t.Errorf("Author = %q, want the byline's person, not the site", a.Author)
	}
}

// TestPageAuthorNames is the regression test of the tester's bylines: a
// <meta> author "By Jane Roe, Staff Writer" gave "Jane Roe, Staff Writer",
// and "By JANE ROE and JOHN DOE" stayed in capitals and joined by "and",
// where a JSON-LD list of the same people gives "Jane Roe, John Doe". Now
// the title is cut, and every source gives the names alike.
func TestPageAuthorNames(t *testing.T) {
	for _, tc := range []struct{ name, meta, want string }{
		{"a title after a comma", "By Jane Roe, Staff Writer", "Jane Roe"},
		{"names in capitals joined by and", "By JANE ROE and JOHN DOE", "Jane Roe, John Doe"},
		{"a JSON-LD list", "", "Jane Roe, John Doe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := `<script type="application/ld+json">{"@type":"NewsArticle","author":[{"@type":"Person","name":"Jane Roe"},{"@type":"Person","name":"John Doe"}]}</script>`
			if tc.meta != "" {
				meta = `<meta name="author" content="` + tc.meta + `">`
			}
			page := strings.Replace(newsPage(6), `<meta name="author" content="Jane Reporter">`, meta, 1)
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Author != tc.want {
				t.Errorf("Author = %q, want %q", a.Author, tc.want)
			}
		})
	}
}

// TestPageAuthorFieldsAreNoBylines is the regression test of names a page
// gives in fields of their own cut as bylines: the word that opens a
// byline ("von", "contributors", "authors") opens these names, and "Von
// Miller" gave "Miller", "Contributors to Wikimedia projects" "to
// Wikimedia projects", "Authors Guild" "Guild". Now such a field loses a
// label only when a colon follows it, and a byline in the text still loses
// its "Von".
func TestPageAuthorFieldsAreNoBylines(t *testing.T) {
	const ld = `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Council passes budget","author":{"@type":"%s","name":"%s"}}</script>`
	const ldCDATA = "<script type=\"application/ld+json\">\n<![CDATA[\n" +
		`{"@context":"https://schema.org","@type":"NewsArticle","headline":"Council passes budget","author":{"@type":"%s","name":"%s"}}` + "\n]]>\n</script>"
	for _, tc := range []struct{ name, head, byline, want string }{
		{"a person in JSON-LD", fmt.Sprintf(ld, "Person", "Von Miller"), "", "Von Miller"},
		{"an organisation in JSON-LD", fmt.Sprintf(ld, "Organization", "Contributors to Wikimedia projects"), "", "Contributors to Wikimedia projects"},
		{"a meta author", `<meta name="author" content="Authors Guild">`, "", "Authors Guild"},
		{"an itemprop name", "", `<p itemprop="author" itemscope><span itemprop="name">Von Miller</span></p>`, "Von Miller"},
		{"a meta author's label", `<meta name="author" content="Author: Jane Roe">`, "", "Jane Roe"},
		{"a byline in the text", "", `<p class="byline">Von Anna Schmidt</p>`, "Anna Schmidt"},
		// Regression (tester's finding): JSON-LD in a CDATA section, as
		// Wikipedia writes it, went unread, and the engine's reading of it
		// was cut as a byline ("Guild", "to Wikimedia projects").
		{"an organisation in JSON-LD in CDATA", fmt.Sprintf(ldCDATA, "Organization", "Contributors to Wikimedia projects"), "", "Contributors to Wikimedia projects"},
		{"a guild in JSON-LD in CDATA", fmt.Sprintf(ldCDATA, "Organization", "Authors Guild"), "", "Authors Guild"},
		{"a person in JSON-LD in CDATA", fmt.Sprintf(ldCDATA, "Person", "Von Miller"), "", "Von Miller"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := strings.Replace(newsPage(6), `<meta name="author" content="Jane Reporter">`, tc.head, 1)
			page = strings.Replace(page, `<h1>Council passes budget</h1>`, `<h1>Council passes budget</h1>`+tc.byline, 1)
			a, _ := extractPage(t, page, Options{})
			if a.Author != tc.want {
				t.Errorf("Author = %q, want %q", a.Author, tc.want)
			}
		})
	}
}

// A story the page declares (JSON-LD NewsArticle) loses the biography of
// its author after it; a page that declares nothing keeps it.
func TestPageAuthorBio(t *testing.T) {
	bio := "Jane Reporter is a senior correspondent who covers the city council and its budgets."
	page := strings.Replace(newsPage(6), "</article>", "<p>"+bio+"</p></article>", 1)
	declared := strings.Replace(page, "</head>", `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Council passes budget"}</script></head>`, 1)
	for _, tc := range []struct {
		name, page string
		kept       bool
	}{
		{"declared story", declared, false},
		{"nothing declared", page, true},
	} {
		a, _ := extractPage(t, tc.page, Options{})
		if !strings.Contains(a.Text, paragraph(5)) || strings.Contains(a.Text, bio) != tc.kept {
			t.Errorf("%s: the story's end or the bio (kept %v, want %v):\n%s", tc.name, strings.Contains(a.Text, bio), tc.kept, a.Text)
		}
	}
}

// Regression: a byline whose name stands in an element classed an author
// ("By <span class="author">Jane Roe</span>, 5 March 2024") gave no date:
// the element was marked as navigation, and the dates of a line holding
// navigation are another story's.
func TestPageBylineAuthorElementDate(t *testing.T) {
	for _, byline := range []string{
		`By <span class="author">Jane Roe</span>, 5 March 2024`,
		`By <a class="author" href="/people/jane-roe">Jane Roe</a> and <a class="author" href="/people/john-doe">John Doe</a>, March 5, 2024`,
	} {
		page := strings.Replace(newsPage(6), `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", 1)
		page = strings.Replace(page, "<h1>Council passes budget</h1>", `<h1>Council passes budget</h1><p class="meta">`+byline+`</p>`, 1)
		a, _, err := Page(context.Background(), Input{Body: []byte(page)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC); !a.Date.Equal(want) {
			t.Errorf("%s: Date = %v, want %v", byline, a.Date, want)
		}
	}
}

// Regression: the engine's byline step cut an author's name out of its
// line when the name stood in an element named a byline or a dateline
// ("by <span class="author">Jane Roe</span> on …" gave "by on …"). The
// line stays whole. A byline that is a line of its own leaves the text as
// the engine removes it.
func TestPageBylineNameStaysInItsLine(t *testing.T) {
	for _, tc := range []struct {
		name, line, text string
		kept             bool
	}{
		{"a name and a date", `<p class="headline_meta">by <span class="author vcard fn">Jane Roe</span> on <abbr class="published" title="2012-07-17">July 17, 2012</abbr></p>`,
			"by Jane Roe on July 17, 2012", true},
		{"a name and a date set apart by a bar", `<div class="meta"><span class="author">Von Hans Müller</span> | <span class="date">3. Mai 2024, 17:47 Uhr</span></div>`,
			"Von Hans Müller | 3. Mai 2024, 17:47 Uhr", true},
		{"a dateline", `<p><span class="dateline">BERLIN —</span> ` + paragraph(7) + `</p>`, "BERLIN — " + paragraph(7), true},
		{"a line of its own", `<div><span class="author">Jane Roe</span></div>`, "Jane Roe", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := strings.Replace(newsPage(6), `<meta name="author" content="Jane Reporter">`, "", 1)
			page = strings.Replace(page, "<h1>Council passes budget</h1>", "<h1>Council passes budget</h1>"+tc.line, 1)
			a, _ := extractPage(t, page, Options{})
			if strings.Contains(a.Text, tc.text) != tc.kept {
				t.Errorf("text holds %q: %v, want %v:\n%s", tc.text, !tc.kept, tc.kept, a.Text)
			}
		})
	}
}

// The fixes the issue asks for, end to end through the engine.
func TestPageFixes(t *testing.T) {
	inject := func(extra string) string {
		return strings.Replace(newsPage(6), "<p>Paragraph 2.", extra+"<p>Paragraph 2.", 1)
	}
	for _, tc := range []struct {
		name   string
		body   string
		absent []string
	}{
		{"display none", inject(`<p style="display: none ;">Secret teaser one.</p>`), []string{"Secret teaser"}},
		{"display none upper case", inject(`<div style="DISPLAY:NONE"><p>Secret teaser two.</p></div>`), []string{"Secret teaser"}},
		{"visibility hidden", inject(`<p style="visibility : hidden">Secret teaser three.</p>`), []string{"Secret teaser"}},
		{"hidden attribute", inject(`<p hidden>Secret teaser four.</p>`), []string{"Secret teaser"}},
		{"inline script", inject(`<script>var tracking = "leak";</script>`), []string{"tracking", "leak"}},
		{"inline style", inject(`<style>.leak{color:red}</style>`), []string{"leak", "color"}},
		{"noscript", inject(`<noscript>Please enable JavaScript leak</noscript>`), []string{"JavaScript", "leak"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip := extractPage(t, tc.body, Options{})
			if skip != "" {
				t.Fatalf("skipped: %s", skip)
			}
			for _, s := range tc.absent {
				if strings.Contains(a.Text, s) {
					t.Errorf("text contains %q:\n%s", s, a.Text)
				}
			}
		})
	}
}

// Regression: </p><p> must never glue the last word of one paragraph to the
// first of the next.
func TestPageParagraphsNeverGlue(t *testing.T) {
	body := strings.ReplaceAll(newsPage(6), "</p>\n<p>", "</p><p>")
	a, _ := extractPage(t, body, Options{})
	for i := range 5 {
		last := sentences[(i+2)%len(sentences)]
		next := fmt.Sprintf("Paragraph %d.", i+1)
		if !strings.Contains(a.Text, last+"\n\n"+next) {
			t.Errorf("paragraphs %d and %d not separated by a blank line:\n%s", i, i+1, a.Text)
		}
	}
}

func gz(t *testing.T, s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestPageSkips(t *testing.T) {
	rs, err := rules.Parse([]byte("rules:\n  - hosts: [news.example]\n    article_url: '/\\d{4}/\\d{2}/'\n"), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   Input
		opts Options
		want core.SkipReason
	}{
		{"article", Input{Body: []byte(newsPage(6))}, Options{}, ""},
		{"gzip body", Input{Body: []byte(gz(t, newsPage(6)))}, Options{}, ""},
		{"png", Input{Body: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")}, Options{}, SkipNotHTML},
		{"plain text", Input{Body: []byte("Just some words, no markup at all.")}, Options{}, SkipNotHTML},
		{"declared image", Input{ContentType: "image/jpeg", Body: []byte(newsPage(6))}, Options{}, SkipNotHTML},
		{"empty page", Input{Body: []byte("<html><body></body></html>")}, Options{}, SkipNoArticle},
		{"short page", Input{Body: []byte(newsPage(1))}, Options{}, SkipTooShort},
		{"short page allowed", Input{Body: []byte(newsPage(1))}, Options{MinChars: -1}, ""},
		{"over byte limit", Input{Body: []byte(newsPage(6))}, Options{MaxBytes: 1000}, SkipTooLarge},
		{"gzip over byte limit", Input{Body: []byte(gz(t, newsPage(60)))}, Options{MaxBytes: 5000}, SkipTooLarge},
		{"over element limit", Input{Body: []byte(newsPage(6))}, Options{MaxElements: 10}, SkipTooLarge},
		{"article url", Input{URL: "https://news.example/2024/03/x", Body: []byte(newsPage(6))}, Options{Rules: rs}, ""},
		{"not article url", Input{URL: "https://news.example/video/x", Body: []byte(newsPage(6))}, Options{Rules: rs}, SkipNotArticleURL},
		{"other host", Input{URL: "https://other.example/video/x", Body: []byte(newsPage(6))}, Options{Rules: rs}, ""},
		// Regression: a site's rss.xml and atom.xml, their items' HTML taken
		// for a page, gave articles of links run together with dates.
		{"rss feed", Input{Body: []byte(rssWithHTML)}, Options{MinChars: -1}, SkipFeed},
		{"rss feed served as html", Input{ContentType: "text/html", Body: []byte(rssWithHTML)}, Options{MinChars: -1}, SkipFeed},
		{"atom feed", Input{Body: []byte(`<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>` +
			`<entry><title>Ferry</title><content type="html">&lt;p&gt;The ferry line opens.&lt;/p&gt;</content></entry></feed>`)}, Options{MinChars: -1}, SkipFeed},
		{"json feed", Input{Body: []byte(`{"version": "https://jsonfeed.org/version/1.1", "items": [{"content_html": "<p>x</p>"}]}`)}, Options{MinChars: -1}, SkipFeed},
		{"gzipped feed", Input{Body: []byte(gz(t, rssWithHTML))}, Options{MinChars: -1}, SkipFeed},
		{"sitemap", Input{Body: []byte(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>https://news.example/2024/03/ferry</loc><lastmod>2024-03-01</lastmod></url></urlset>`)}, Options{MinChars: -1}, SkipSitemap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, skip, err := Page(context.Background(), tc.in, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if skip != tc.want {
				t.Errorf("skip %q, want %q", skip, tc.want)
			}
		})
	}
}

// TestMinCharsCountsWideCharactersThree: a Chinese news story of 300
// characters is an article, not too short: a character of Chinese,
// Japanese or Korean counts three against --min-chars, as those scripts say
// in one what alphabets say in three or four (a third of DAnIEL's Chinese
// reference articles are under 500 characters). A caption of 100 stays too
// short, and so does a Latin text of 300.
func TestMinCharsCountsWideCharactersThree(t *testing.T) {
	page := func(text string) Input {
		return Input{Body: []byte("<html><head><title>T</title></head><body><article><p>" + text + "</p></article></body></html>")}
	}
	story := strings.Repeat("市议会周二投票决定关闭河北岸的旧渡轮码头，结束了两个城区之间一百多年的客运服务。", 8)[:300*3] // 300 characters
	for _, tc := range []struct {
		name string
		text string
		want core.SkipReason
	}{
		{"Chinese story of 300", story, ""},
		{"Chinese caption of 100", story[:100*3], SkipTooShort},
		{"Latin text of 300", strings.Repeat("The ferry closes. ", 17)[:300], SkipTooShort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip, err := Page(context.Background(), page(tc.text), Options{})
			if err != nil || skip != tc.want {
				t.Errorf("skip %q, error %v (text %d characters, length %d); want %q", skip, err,
					utf8.RuneCountInString(a.Text), Length(a.Text), tc.want)
			}
		})
	}
	if n := Length("ab 市议会 カメラ 서울"); n != 3+9+1+9+1+6 {
		t.Errorf("Length = %d, want %d", n, 3+9+1+9+1+6)
	}
}

// TestPageTooLargeSaysWhichLimit: a page skipped as too large says which
// limit it passes (Article.Limit), for the log and the rejects to name;
// they said "over the page's size or element limit", and a page of 2 MB
// skipped for its 60,001 elements left the user guessing.
func TestPageTooLargeSaysWhichLimit(t *testing.T) {
	page := newsPage(6)
	for _, tc := range []struct {
		name string
		in   Input
		opts Options
		want string
	}{
		{"bytes", Input{Body: []byte(page)}, Options{MaxBytes: 1000}, fmt.Sprintf("%d bytes, over the limit of 1000 (--max-bytes)", len(page))},
		{"inflated", Input{Body: []byte(gz(t, newsPage(60)))}, Options{MaxBytes: 5000}, "over 5000 bytes once inflated (--max-bytes)"},
		{"elements", Input{Body: []byte(page)}, Options{MaxElements: 10}, "more than 10 HTML elements, the most a page may have (--max-elements of neardup extract)"},
		{"an article", Input{Body: []byte(page)}, Options{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, err := Page(context.Background(), tc.in, tc.opts)
			if err != nil || a.Limit != tc.want {
				t.Errorf("Limit %q, error %v; want %q", a.Limit, err, tc.want)
			}
		})
	}
}

// TestPageAttributesBounded: a page's attributes are bounded as its
// elements are; 59,000 paragraphs of 50 attributes each (9.3 MB, under
// --max-elements) held 850 MB at -j 1. Those of the tags are counted
// before the parse, those the parser copies (a formatting element opened
// again in each paragraph) in the tree after it.
func TestPageAttributesBounded(t *testing.T) {
	attrs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, " a%d", i)
		}
		return b.String()
	}
	var inTags, copied strings.Builder
	inTags.WriteString("<html><body><article>")
	for range 5000 {
		inTags.WriteString("<p" + attrs(50) + ">The ferry will return to service on March 12.</p>")
	}
	copied.WriteString("<html><body><article><p><b" + attrs(50) + ">The ferry")
	for range 60 {
		copied.WriteString("<p>will return to service on March 12.")
	}
	const limit = "more than %d HTML attributes, the most a page may have (--max-attributes of neardup extract)"
	for _, tc := range []struct {
		name string
		page string
		opts Options
		want string
	}{
		{"in the tags, by default", inTags.String(), Options{}, fmt.Sprintf(limit, DefaultMaxAttributes)},
		{"in the tags", inTags.String(), Options{MaxAttributes: 1000}, fmt.Sprintf(limit, 1000)},
		{"copied by the parser", copied.String(), Options{MaxAttributes: 500}, fmt.Sprintf(limit, 500)},
		{"copied, under the limit", copied.String(), Options{MaxAttributes: 5000, MinChars: -1}, ""},
		{"an article", newsPage(6), Options{MaxAttributes: 100}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip, err := Page(context.Background(), Input{Body: []byte(tc.page)}, tc.opts)
			if err != nil || a.Limit != tc.want || (tc.want != "") != (skip == SkipTooLarge) {
				t.Errorf("Limit %q, skip %q, error %v; want %q", a.Limit, skip, err, tc.want)
			}
		})
	}
	if n := tagAttributes([]byte(copied.String()), 1000); n != 50 {
		t.Errorf("tagAttributes = %d, want the 50 of the tags", n)
	}
}

// rssWithHTML is a feed whose items carry HTML, as a site's rss.xml does.
const rssWithHTML = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Port news</title><link>https://news.example/</link>
<item><title>Ferry line opens</title><link>https://news.example/2024/03/ferry</link><pubDate>Mon, 04 Mar 2024 10:00:00 GMT</pubDate>
<description><![CDATA[<p>The harbour authority said on Monday that the new ferry line would start in spring.</p>]]></description></item>
<item><title>Pier closes</title><link>https://news.example/2024/03/pier</link><pubDate>Tue, 05 Mar 2024 10:00:00 GMT</pubDate>
<description><![CDATA[<p>The old pier closes for repairs.</p> <a href="https://news.example/2024/03/pier">Read more</a>]]></description></item>
</channel></rss>`

// TestPageFailures: a page past its time, or whose engine panics, or
// whose context ends, fails. Its time is synctest's: the engine's hour
// passes once all else waits, long after the timeout.
func TestPageFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := func(*html.Node, *nurl.URL) Found { time.Sleep(time.Hour); return Found{} }
		for _, tc := range []struct {
			name   string
			engine Engine
			want   string
		}{
			{"timeout", slow, ErrTimeout.Error()},
			{"panic", func(*html.Node, *nurl.URL) Found { panic("engine bug") }, "panic: engine bug"},
		} {
			_, _, err := Page(context.Background(), Input{Body: []byte(newsPage(6))},
				Options{Engine: tc.engine, Timeout: 50 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := Page(ctx, Input{Body: []byte(newsPage(6))}, Options{Engine: slow}); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: err %v", err)
		}
		time.Sleep(time.Hour) // the slow pages' work, given up, ends before the bubble does
	})
}

func TestPageRules(t *testing.T) {
	const yaml = `rules:
  - name: example
    hosts: [news.example]
    body: 'article'
    drop: ['.share']
    drop_attr:
      - {tag: div, attr: class, match: '^author'}
    strip: ['Read more:']
    strip_regex: ['(?m)^Follow us .*$']
`
	rs, err := rules.Parse([]byte(yaml), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(newsPage(6), "<h1>", `<div class="share">Share on Facebook</div>
<div class="author-box">About the author: Jane writes about councils.</div><p>Read more: budget</p><p>Follow us on social media</p><h1>`, 1)
	a, skip := extractPage(t, body, Options{Rules: rs})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if !strings.HasPrefix(a.Text, "budget\n\nCouncil passes budget\n\nParagraph 0.") {
		t.Errorf("text does not start with the stripped article:\n%s", a.Text)
	}
	for _, s := range []string{"Share on", "About the author", "Read more", "Follow us"} {
		if strings.Contains(a.Text, s) {
			t.Errorf("text contains %q:\n%s", s, a.Text)
		}
	}
}

// TestPageRulesOfPageWithoutURL pins the bug where site rules keyed on a
// host never applied to a page read from a file (no URL), though it declares
// its URL, and a rule for every page with an article_url skipped every such
// page as not-article-url.
func TestPageRulesOfPageWithoutURL(t *testing.T) {
	const yaml = `rules:
  - name: news
    hosts: [news.example]
    article_url: '/\d{4}/'
    strip: ['Paragraph 0. ']
  - name: all
    article_url: '/\d{4}/'
`
	rs, err := rules.Parse([]byte(yaml), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	page := func(head string) string {
		return strings.Replace(newsPage(6), "<title>", head+"<title>", 1)
	}
	for _, tc := range []struct {
		name, body string
		skip       core.SkipReason
		stripped   bool   // the news rule's strip applied
		declared   string // Article.DeclaredURL, of an article and of a page skipped alike
	}{
		{"canonical", page(`<link rel="canonical" href="https://www.news.example/2024/03/budget">`), "", true, "https://www.news.example/2024/03/budget"},
		{"og:url", page(`<meta property="og:url" content="https://news.example/2024/03/budget">`), "", true, "https://news.example/2024/03/budget"},
		{"canonical first", page(`<meta property="og:url" content="https://other.example/2024/x"><link rel="Canonical" href="//news.example/2024/03/budget">`), "", true, "https://news.example/2024/03/budget"},
		{"declares none", page(""), "", false, ""},
		{"relative canonical", page(`<link rel="canonical" href="/2024/03/budget">`), "", false, ""},
		{"declared not an article", page(`<link rel="canonical" href="https://news.example/sport">`), SkipNotArticleURL, false, "https://news.example/sport"},
		{"other site not an article", page(`<link rel="canonical" href="https://other.example/tag/x">`), SkipNotArticleURL, false, "https://other.example/tag/x"},
		{"canonical in the body", strings.Replace(page(`<meta property="og:url" content="https://news.example/2024/03/budget">`),
			"</body>", `<div class="comments"><link rel="canonical" href="https://news.example/tag/x"></div></body>`, 1), "", true, "https://news.example/2024/03/budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip, err := Page(context.Background(), Input{Body: []byte(tc.body)}, Options{Rules: rs})
			if err != nil {
				t.Fatal(err)
			}
			if skip != tc.skip || a.DeclaredURL != tc.declared {
				t.Fatalf("skip %q, DeclaredURL %q; want %q, %q", skip, a.DeclaredURL, tc.skip, tc.declared)
			}
			if skip != "" {
				return
			}
			if got := !strings.Contains(a.Text, "Paragraph 0. "); got != tc.stripped {
				t.Errorf("news rule's strip applied: %v, want %v:\n%s", got, tc.stripped, a.Text)
			}
		})
	}
}

// TestPageSiteName: a page without a URL of its own gives the name of the
// site showing it, its first og:site_name in its head (white space
// squeezed), beside the URL it declares, of an article and of a page skipped
// alike; a page with a URL gives none.
func TestPageSiteName(t *testing.T) {
	rs, err := rules.Parse([]byte("rules:\n  - name: all\n    article_url: '/\\d{4}/'\n"), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	page := func(head string) string {
		return strings.Replace(newsPage(6), "<title>", head+"<title>", 1)
	}
	syndicated := page(`<link rel="canonical" href="https://origin.example/2024/x"><meta property="og:site_name" content=" Coast
  Gazette "><meta name="og:site_name" content="Second">`)
	for _, tc := range []struct {
		name, url, body string
		skip            core.SkipReason
		want            string
	}{
		{"syndicated copy", "", syndicated, "", "Coast Gazette"},
		{"skipped page", "", page(`<link rel="canonical" href="https://origin.example/tag/x"><meta property="og:site_name" content="Coast">`), SkipNotArticleURL, "Coast"},
		{"none", "", page(`<link rel="canonical" href="https://origin.example/2024/x">`), "", ""},
		// Regression: a name deep in the body (an embedded post's) was
		// the page's, and a tag naming it by both attributes was missed;
		// one the parser moved to the body after a stray element, or a
		// streamed page wrote there, is the page's.
		{"in an embedded post", "", strings.Replace(newsPage(6), "<body>", `<body><div><blockquote><meta property="og:site_name" content="InBody"></blockquote></div>`, 1), "", ""},
		{"a child of the body", "", strings.Replace(newsPage(6), "<body>", `<body><meta property="og:site_name" content="Streamed">`, 1), "", "Streamed"},
		{"after a stray element of the head", "", page(`<img src="x"><meta property="og:site_name" content="Coast Gazette">`), "", "Coast Gazette"},
		{"both attributes, after an empty one", "", page(`<meta property="og:site_name" content=" "><meta property="og:site_name" name="og:site_name" content="Both">`), "", "Both"},
		{"a page with a URL", "https://coast.example/2024/x", syndicated, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip, err := Page(context.Background(), Input{URL: tc.url, Body: []byte(tc.body)}, Options{Rules: rs})
			if err != nil {
				t.Fatal(err)
			}
			if skip != tc.skip || a.SiteName != tc.want {
				t.Errorf("skip %q, SiteName %q; want %q, %q", skip, a.SiteName, tc.skip, tc.want)
			}
		})
	}
}

func TestPageLibraryOnly(t *testing.T) {
	a, skip := extractPage(t, newsPage(6), Options{LibraryOnly: true})
	if skip != "" || !strings.Contains(a.Text, paragraph(3)) {
		t.Errorf("library-only: skip %q text:\n%s", skip, a.Text)
	}
}

// BenchmarkPageParallel reports pages/s with every core extracting, the
// figure the throughput target is stated in.
func BenchmarkPageParallel(b *testing.B) {
	in := Input{URL: "https://news.example/2024/03/05/budget", Body: []byte(newsPage(25))}
	b.SetBytes(int64(len(in.Body)))
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := Page(context.Background(), in, Options{}); err != nil {
				b.Error(err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pages/s")
}

func BenchmarkPage(b *testing.B) {
	in := Input{URL: "https://news.example/2024/03/05/budget", Body: []byte(newsPage(25))}
	b.SetBytes(int64(len(in.Body)))
	for b.Loop() {
		if _, _, err := Page(context.Background(), in, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPageDropsComments(t *testing.T) {
	body := strings.Replace(newsPage(6), "</article>", `<div id="comments"><h3>3 comments</h3>
<div class="comment"><p>Reader one says this budget is a scandal and everybody should protest at the town hall.</p></div>
<div class="comment"><p>Reader two thinks the roads needed repairs for years and the council finally acted.</p></div></div></article>`, 1)
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if strings.Contains(a.Text, "Reader one") || strings.Contains(a.Text, "Reader two") {
		t.Errorf("comments in text:\n%s", a.Text)
	}
	if !strings.Contains(a.Text, paragraph(5)) {
		t.Errorf("article lost:\n%s", a.Text)
	}
}

func TestPageDropsEmbeddedPosts(t *testing.T) {
	tweet := `<blockquote class="twitter-tweet" data-media-max-width="560"><p lang="en" dir="ltr">The ferry is back on the water at last, crews say the harbour reopens at noon today <a href="https://t.co/x">pic.twitter.com/x</a></p>&mdash; Harbour Watch (@harbourwatch) <a href="https://x.com/harbourwatch/status/1">March 5, 2024</a></blockquote>`
	card := `<blockquote class="wp-embedded-content" data-secret="a1"><a href="https://other.example/2024/ferry">Ferry strike ends after three weeks of talks</a></blockquote>`
	quote := `<blockquote><p>We will keep the harbour open through the winter, whatever the cost to the town.</p></blockquote>`
	body := strings.Replace(newsPage(6), "<p>Paragraph 2.", tweet+card+quote+"<p>Paragraph 2.", 1)
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	for _, s := range []string{"Harbour Watch", "crews say the harbour", "Ferry strike ends"} {
		if strings.Contains(a.Text, s) {
			t.Errorf("text holds the embedded post's %q:\n%s", s, a.Text)
		}
	}
	for _, s := range []string{"keep the harbour open", paragraph(1), paragraph(2)} {
		if !strings.Contains(a.Text, s) {
			t.Errorf("text lost %q:\n%s", s, a.Text)
		}
	}

	// A page about the posts it embeds keeps them.
	var b strings.Builder
	b.WriteString(`<html><head><title>Reactions</title></head><body><article><h1>Reactions</h1><p>Readers wrote in.</p>`)
	for i := range 5 {
		fmt.Fprintf(&b, `<blockquote class="instagram-media"><p>%s</p><p>A post shared by reader %d</p></blockquote>`, paragraph(i), i)
	}
	b.WriteString(`</article></body></html>`)
	a, _ = extractPage(t, b.String(), Options{})
	if !strings.Contains(a.Text, paragraph(3)) {
		t.Errorf("a page of posts lost them:\n%s", a.Text)
	}
}

// A story's headline is a field of its own (Title), not its body's first
// line; a page that does not declare itself a story keeps it.
func TestPageStoryHeadline(t *testing.T) {
	// The engine drops an <h1> or <h2> that repeats the title; a headline
	// set otherwise reaches the text.
	page := strings.Replace(newsPage(6), "<h1>Council passes budget</h1>", "<h3>Council passes budget for the harbour</h3>", 1)
	page = strings.Replace(page, "<title>Council passes budget</title>", "<title>Council passes budget for the harbour | Port News</title>", 1)
	news := strings.Replace(page, "</head>", `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Council passes budget for the harbour"}</script></head>`, 1)
	a, _ := extractPage(t, news, Options{})
	if strings.Contains(a.Text, "Council passes budget") || !strings.HasPrefix(a.Text, paragraph(0)) {
		t.Errorf("news story: text starts %q", a.Text[:min(len(a.Text), 80)])
	}
	blog := strings.Replace(page, "</head>", `<script type="application/ld+json">{"@type":"BlogPosting"}</script></head>`, 1)
	if a, _ = extractPage(t, blog, Options{}); strings.Contains(a.Text, "Council passes budget") {
		t.Errorf("blog post: text starts %q", a.Text[:min(len(a.Text), 80)])
	}
	a, _ = extractPage(t, page, Options{})
	if !strings.HasPrefix(a.Text, "Council passes budget for the harbour\n\n") {
		t.Errorf("other page: text starts %q", a.Text[:min(len(a.Text), 80)])
	}
}

func TestPageRelatedStoriesTakenForTheArticle(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Ferry returns</title></head><body><article><h1>Ferry returns</h1>`)
	b.WriteString(`<p>The ferry returned to the harbour on Monday, a week late, after the storm.</p></article>`)
	b.WriteString(`<div class="related-stories">`)
	for i := range 3 {
		fmt.Fprintf(&b, `<div><h3><a href="/s/%d">Other story %d</a></h3><p>%s</p></div>`, i, i, paragraph(i))
	}
	b.WriteString(`</div></body></html>`)
	// An engine that takes the related stories for the article while they
	// are on the page, as readeck does on some pages whose article is short.
	var calls int
	engine := func(doc *html.Node, _ *nurl.URL) Found {
		calls++
		var related, article *html.Node
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode && strings.Contains(attr(n, "class"), "related") && related == nil {
				related = n
			}
			if n.Type == html.ElementNode && n.Data == "article" {
				article = n
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		if related != nil {
			return Found{Node: related}
		}
		return Found{Node: article}
	}
	a, _ := extractPage(t, b.String(), Options{MinChars: -1, Engine: engine})
	// The article without its headline, the title.
	if want := "The ferry returned to the harbour on Monday, a week late, after the storm."; a.Text != want {
		t.Errorf("text %q, want %q", a.Text, want)
	}
	if calls != 2 {
		t.Errorf("engine called %d times, want 2 (a second choice without the related stories)", calls)
	}
}

func TestPageBlogPostWithTaxonomyClasses(t *testing.T) {
	// A short blog post whose container carries its category and tags as
	// classes, and a cookie notice as long as the post: the post is the
	// article.
	body := `<!DOCTYPE html><html lang="en"><head><title>A quiet week</title></head><body>
<div id="content"><div id="post-406" class="post-406 post type-post status-publish format-standard hentry category-diary tag-garden">
<h2>A quiet week</h2><div class="entry-content"><p>Nothing much happened in the garden this week, apart from the rain.</p>
<p>The tomatoes are ripening slowly and the beans have climbed past the fence.</p></div></div></div>
<div class="widget widget_eu_cookie_law_widget"><div class="cookie-banner"><p>Privacy and cookies: this site uses cookies. By continuing to use this website, you agree to their use.</p>
<p>To find out more, including how to control cookies, see here: our cookie policy and the rules that apply.</p></div></div>
</body></html>`
	a, _ := extractPage(t, body, Options{MinChars: -1})
	if !strings.Contains(a.Text, "The tomatoes are ripening") || strings.Contains(a.Text, "cookies") {
		t.Errorf("text %q, want the post without the cookie notice", a.Text)
	}
}

func TestPageNavigationTakenForTheArticle(t *testing.T) {
	const article = `<div class="main"><h1>Ferry returns</h1><p>The ferry returned to the harbour on Monday, a week late, after the storm had kept it in port for seven days and nights.</p></div>`
	const box = `<div class="box"><p>Sign up for our letters, sent every morning to thousands of readers who like the harbour news, and win a trip.</p></div>`
	for _, tc := range []struct {
		name, body string
		calls      int // 2 when the engine chooses again
		want       string
	}{
		{"a region by its tag", `<body>` + article + `<aside class="taken">` + box + `</aside></body>`, 2, "The ferry returned"},
		{"a region by its class", `<body>` + article + `<div class="sidebar taken">` + box + `</div></body>`, 2, "The ferry returned"},
		{"a region by its id", `<body>` + article + `<div id="footer" class="taken">` + box + `</div></body>`, 2, "The ferry returned"},
		{"a region's content named content", `<body>` + article + `<div class="sidebar"><div class="sidebar-content taken">` + box + `</div></div></body>`, 2, "The ferry returned"},
		// A region holding sixteen times the prose of the second choice
		// is the article, whatever its class says.
		{"a region sixteen times the second choice", `<body>` + article + `<div class="left-side-content taken">` + strings.Repeat(box, 25) + `</div></body>`, 2, "Sign up"},
		// A dialog is never the article, whatever its parts are named.
		{"a dialog by its id", `<body>` + article + `<div id="letters_small_dialog" class="taken"><div class="entry-text">` + box + `</div></div></body>`, 2, "The ferry returned"},
		{"a dialog by its class", `<body>` + article + `<div class="offer-modal taken"><div class="content">` + box + `</div></div></body>`, 2, "The ferry returned"},
		{"a dialog by its role", `<body>` + article + `<div role="dialog" class="taken"><div class="post-body">` + box + `</div></div></body>`, 2, "The ferry returned"},
		{"a dialog by aria-modal", `<body>` + article + `<div aria-modal="true" class="taken">` + box + `</div></body>`, 2, "The ferry returned"},
		{"a box opening with its close button", `<body>` + article + `<div id="terms" class="taken"><div class="close">Close [X]</div>` + box + `</div></body>`, 2, "The ferry returned"},
		{"a box with a close button at its end", `<body>` + article + `<div id="terms" class="taken">` + box + `<div class="close">Close [X]</div></div></body>`, 1, "Sign up"},
		{"an author's box", `<body>` + article + `<div class="author-bio"><div class="author-description taken">` + box + `</div></div></body>`, 2, "The ferry returned"},
		{"a box named by its author holding a post", `<body>` + article + `<div class="author-jane taken"><div class="entry-content">` + box + `</div></div></body>`, 1, "Sign up"},
		{"a canvas named after its dialogs", `<body>` + article + `<div class="dialog-off-canvas-main-canvas taken">` + box + `</div></body>`, 1, "Sign up"},
		// Regression: the words of a page builder's components, of
		// scripts' hooks and of a section's anchor marked articles as
		// navigation, and the engine chose something else.
		{"a page builder's widget", `<body>` + article + `<div class="elementor-widget-wrap taken">` + box + `</div></body>`, 1, "Sign up"},
		{"a script's hook", `<body>` + article + `<div class="js-external-links taken">` + box + `</div></body>`, 1, "Sign up"},
		{"a section's anchor", `<body>` + article + `<div id="sharing-with-two-developers" class="taken">` + box + `</div></body>`, 1, "Sign up"},
		{"paragraphs named like a menu", `<body>` + article + `<div class="taken"><p class="contextmenu body">Sign up for our letters, sent every morning to thousands of readers who like the harbour news.</p><p class="contextmenu body">And win a trip.</p></div></body>`, 1, "Sign up"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls int
			engine := takesWhileThere("taken", "main", &calls)
			a, _ := extractPage(t, `<!DOCTYPE html><html><head><title>Ferry returns</title></head>`+tc.body+`</html>`, Options{MinChars: -1, Engine: engine})
			if !strings.Contains(a.Text, tc.want) {
				t.Errorf("text %q, want %q in it", a.Text, tc.want)
			}
			if calls != tc.calls {
				t.Errorf("engine called %d times, want %d", calls, tc.calls)
			}
		})
	}
}

// TestPageGzipMaxBytesAtTheTop pins that a gzip body is inflated under the
// largest MaxBytes; the bound plus one used to overflow, inflating nothing.
func TestPageGzipMaxBytesAtTheTop(t *testing.T) {
	a, skip := extractPage(t, gz(t, newsPage(6)), Options{MaxBytes: math.MaxInt})
	if skip != "" || a.Title != "Council passes budget" {
		t.Errorf("skip %q, title %q", skip, a.Title)
	}
}

// CST is China Standard Time (UTC+8) on a page in Chinese and North
// America's Central Time (UTC−6) on one in English.
func TestPageChinaStandardTime(t *testing.T) {
	para := "<p>市议会周二通过了新的年度预算，将更多资金用于公共交通、学校维修和街道照明。议员们在长时间辩论后以多数票通过了该方案。</p>"
	for _, tc := range []struct {
		lang, body string
		want       time.Time
	}{
		{"zh-CN", strings.Repeat(para, 6), time.Date(2026, 3, 3, 2, 0, 0, 0, time.UTC)},
		{"en", englishBody(6), time.Date(2026, 3, 3, 16, 0, 0, 0, time.UTC)},
	} {
		page := `<html lang="` + tc.lang + `"><head><title>Budget</title><meta property="article:published_time" content="Tue, 03 Mar 2026 10:00:00 CST"></head><body><article><h1>Budget</h1>` + tc.body + `</article></body></html>`
		a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Date.Equal(tc.want) {
			t.Errorf("%s: Date = %v, want %v", tc.lang, a.Date.UTC(), tc.want)
		}
	}
}

// Regression (reviewer's finding): the engine reads a page's declared date
// with dateparse, which drops the zone after AM or PM: "10:00 AM EST" was
// 10:00Z.
func TestPageDateZoneAfterAMPM(t *testing.T) {
	for _, tc := range []struct {
		lang, date string
		want       time.Time
	}{
		{"en", "March 5, 2024 10:00 AM EST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("EST", -5*3600))},
		{"en", "March 5, 2024 10:00 PM EDT", time.Date(2024, 3, 5, 22, 0, 0, 0, time.FixedZone("EDT", -4*3600))},
		{"en", "March 5, 2024 10:00 PM +01:00", time.Date(2024, 3, 5, 22, 0, 0, 0, time.FixedZone("", 3600))},
		{"en", "5 March 2024, 10:00 CET", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("CET", 3600))},
		{"en", "March 5, 2024 10:00 AM", time.Date(2024, 3, 5, 10, 0, 0, 0, core.NoZone)},
		{"zh-CN", "Tue, 05 Mar 2024 10:00 AM CST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))},
		{"en", "March 5, 2024 10:00 AM IST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("IST", 5*3600+1800))},
		{"he", "March 5, 2024 10:00 AM IST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("IST", 2*3600))},
		{"bn", "March 5, 2024 10:00 AM BST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("BST", 6*3600))},
		{"en", "March 5, 2024 10:00 AM BST", time.Date(2024, 3, 5, 10, 0, 0, 0, time.FixedZone("BST", 3600))},
	} {
		body := englishBody(6)
		if tc.lang != "en" {
			body = strings.Repeat("<p>市议会周二通过了新的年度预算，将更多资金用于公共交通、学校维修和街道照明。议员们在长时间辩论后以多数票通过了该方案。</p>", 6)
		}
		page := `<html lang="` + tc.lang + `"><head><title>Budget</title><meta property="article:published_time" content="` + tc.date + `"></head><body><article><h1>Budget</h1>` + body + `</article></body></html>`
		a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, off := a.Date.Zone()
		if _, wantOff := tc.want.Zone(); !a.Date.Equal(tc.want) || off != wantOff {
			t.Errorf("%s: Date = %v, want %v", tc.date, a.Date, tc.want)
		}
	}
}

// Regression: a page's date of no zone or offset (a <meta> date the engine
// reads, "2024-03-05T10:00:00"; a date line by the headline, "03.04.2024,
// 14:23 Uhr") was read in UTC and written "2024-03-05T10:00:00Z" by
// neardup extract and in the article's JSON, as if the page said UTC. It is
// in core.NoZone and written without an offset; a date that names its zone
// or offset keeps it.
func TestPageDateOfNoZone(t *testing.T) {
	for _, tc := range []struct {
		name, lang, meta, shown string
		want                    string // the record's date
		noZone                  bool
	}{
		{"a meta date", "en", "2024-03-05T10:00:00", "", "2024-03-05T10:00:00", true},
		{"a meta date with a space", "en", "2024-03-05 10:00", "", "2024-03-05T10:00:00", true},
		{"a meta date of a day", "en", "2024-03-05", "", "2024-03-05T00:00:00", true},
		{"a meta date with a 12-hour clock", "en", "March 5, 2024 10:00 AM", "", "2024-03-05T10:00:00", true},
		{"a JSON-LD date", "en", "", "", "2024-03-05T10:00:00", true},
		{"a date line in German", "de", "", "03.04.2024, 14:23 Uhr", "2024-04-03T14:23:00", true},
		{"a date line in English", "en", "", "March 4, 2024", "2024-03-04T00:00:00", true},
		// As before: a zone or an offset named is kept.
		{"a meta date in UTC", "en", "2024-03-05T10:00:00Z", "", "2024-03-05T10:00:00Z", false},
		{"a meta date with an offset", "en", "2024-03-05T10:00:00+01:00", "", "2024-03-05T10:00:00+01:00", false},
		{"a date line in German and its zone", "de", "", "03.04.2024, 14:23 Uhr MESZ", "2024-04-03T14:23:00+02:00", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := ""
			if tc.meta != "" {
				head = `<meta property="article:published_time" content="` + tc.meta + `">`
			} else if tc.shown == "" {
				head = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Budget","datePublished":"2024-03-05T10:00:00"}</script>`
			}
			page := `<html lang="` + tc.lang + `"><head><title>Budget</title>` + head + `</head><body><article><h1>Budget</h1>` +
				`<div class="date">` + tc.shown + `</div>` + englishBody(6) + `</article></body></html>`
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Date.Location() == core.NoZone; got != tc.noZone {
				t.Errorf("Date = %v, in core.NoZone: %v, want %v", a.Date, got, tc.noZone)
			}
			if got := (Result{Article: a}).Record().Date; got != tc.want {
				t.Errorf("Record().Date = %q, want %q", got, tc.want)
			}
			var js struct{ Date string }
			if b, err := json.Marshal(a); err != nil || json.Unmarshal(b, &js) != nil || js.Date != tc.want {
				t.Errorf("the article's JSON date %q (%v), want %q", js.Date, err, tc.want)
			}
		})
	}
}

// Regression: the engine read an offset of hours after a zone's name in
// a page's declared date as the month ("10:30 MSK+1" on January 5), and
// what holds no day as a date ("01:02:03" January 2, 2003; "2019" its
// January 1); a date it reads so is the page's date no more, and the
// page's other dates are read. So in a <meta> of the page's body, which
// the engine reads as one of its head (regression: that reading was
// kept).
func TestPageDateEngineMisreads(t *testing.T) {
	for _, tc := range []struct {
		date, shown string // shown: a date line by the headline, or none
		want        time.Time
	}{
		{"March 5, 2024 10:30 MSK+1", "", time.Date(2024, 3, 5, 6, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 GMT+3", "", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"2024-03-05 10:30 +1", "", time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC)},
		{"March 5, 2024 10:30 EST+1", "", time.Time{}},
		{"01:02:03", "", time.Time{}},
		{"01:02:03", "March 4, 2024", time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"2019", "", time.Time{}},
		{"Tuesday 2024", "", time.Time{}},
	} {
		meta := `<meta property="article:published_time" content="` + tc.date + `">`
		for _, where := range []string{"head", "body"} {
			head, body := meta, ""
			if where == "body" {
				head, body = "", meta
			}
			page := `<html lang="en"><head><title>Budget</title>` + head + `</head><body>` + body +
				`<article><h1>Budget</h1><p class="date">` + tc.shown + `</p>` + englishBody(6) + `</article></body></html>`
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/budget", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Date.Equal(tc.want) {
				t.Errorf("%q in the %s, shown %q: Date = %v, want %v", tc.date, where, tc.shown, a.Date.UTC(), tc.want)
			}
		}
	}
}

// englishBody is n paragraphs of an English story.
func englishBody(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<p>%s</p>", paragraph(i))
	}
	return b.String()
}

// The headline is the title, not the text's first line, whatever the
// script it is written in: the engine's own check compares Latin words
// only, so a Cyrillic or Greek headline stayed in the text.
func TestPageHeadlineOutOfTextInAnyScript(t *testing.T) {
	para := "<p>Правительство объявило о новых мерах поддержки малого бизнеса, которые вступят в силу с первого числа следующего месяца. Министр экономики заявил, что программа охватит более ста тысяч предприятий по всей стране.</p>"
	page := `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Правительство объявило о мерах поддержки бизнеса — Новости</title></head><body><nav><a href="/">Главная</a></nav><article><h1>Правительство объявило о мерах поддержки бизнеса</h1>` + strings.Repeat(para, 5) + `</article></body></html>`
	a, _, err := Page(context.Background(), Input{URL: "https://news.example/biznes", Body: []byte(page)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Правительство объявило о мерах поддержки бизнеса" {
		t.Errorf("Title = %q, want the headline", a.Title)
	}
	if strings.HasPrefix(a.Text, a.Title) {
		t.Errorf("Text starts with the headline: %.80q", a.Text)
	}
}

// Regression: a Cyrillic or Chinese headline stayed at the start of the
// text when the <title> set a site's name beside it ("Совет закрывает
// паромный терминал - Вести", "…_新浪网"): it was compared with the
// engine's title, which keeps the site's name when cutting it leaves four
// words or fewer (or cuts nothing at "_"), not with the page's title
// without it; the engine's own check compares Latin words only.
func TestPageHeadlineOutOfTextBesideSiteName(t *testing.T) {
	for _, tc := range []struct{ name, lang, headline, site, para string }{
		{"Russian", "ru", "Совет закрывает паромный терминал", " - Вести",
			"Городской совет во вторник проголосовал за закрытие старого паромного терминала на северном берегу реки, завершив более чем столетнюю историю пассажирских перевозок между двумя районами города."},
		{"Chinese", "zh-CN", "市议会周二投票决定关闭河北岸的旧渡轮码头", "_新浪网",
			"议员们表示，这一决定是在票务销售连续三年下滑、结构检查发现码头需要耗资约一千二百万元维修之后做出的，结束了两个城区之间一百多年的客运服务。"},
		{"English", "en", "Ferry terminal to close", " - Courier", paragraph(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!doctype html><html lang="` + tc.lang + `"><head><meta charset="utf-8"><title>` + tc.headline + tc.site +
				`</title></head><body><article><h1>` + tc.headline + `</h1>` + strings.Repeat("<p>"+tc.para+"</p>", 4) + `</article></body></html>`
			a, _ := extractPage(t, page, Options{MinChars: 1})
			if a.Title != tc.headline {
				t.Errorf("Title = %q, want %q", a.Title, tc.headline)
			}
			if strings.HasPrefix(a.Text, tc.headline) {
				t.Errorf("Text starts with the headline: %.80q", a.Text)
			}
		})
	}
}

// A page whose published time is a placeholder, year 1 or the Unix epoch,
// is undated (or dated by the page's other dates), not dated before every
// real page. Regression: "0001-01-01T00:00:00+01:00" made a page the
// original of its copies, in dedup and the index.
func TestPagePlaceholderDate(t *testing.T) {
	for _, placeholder := range []string{"0001-01-01T00:00:00+01:00", "1970-01-01T00:00:00Z"} {
		page := strings.Replace(newsPage(6), "2024-03-05T10:00:00Z", placeholder, 1)
		a, skip := extractPage(t, page, Options{})
		if skip != "" {
			t.Fatalf("%s: skipped: %s", placeholder, skip)
		}
		// The page's other date, its URL's day (/2024/03/05/).
		if want := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC); !a.Date.Equal(want) {
			t.Errorf("%s: date %v, want the URL's %v", placeholder, a.Date, want)
		}
	}
}

// A blog's banner heading is its name, which its <title> sets beside the
// post's headline, and comes first; and a site may give every page one
// og:title, its own label. Either way the page's title is the post's
// headline, and the name is not taken for it. Regression: "Malaria returns
// to Greece « Healthcare Economist" titled the page "Healthcare Economist"
// (the first heading in the <title>), and og:title "Official Blog of the
// National Football League" titled every post of that blog, so that
// posts of one blog were similar by their titles.
func TestPageTitleNotTheSitesName(t *testing.T) {
	para := "<p>The regional health authority confirmed on Tuesday that three cases of the disease were found in villages near the river delta, the first such cases reported there in decades.</p>"
	for _, tc := range []struct{ name, head, body, want, tail string }{
		{"a banner heading first", `<title>Malaria returns to Greece &laquo; Healthcare Economist</title>`,
			`<div id="header"><h2><a href="/">Healthcare Economist</a></h2></div><div class="post"><h2>Malaria returns to Greece</h2>`,
			"Malaria returns to Greece", ""},
		{"the site's label as og:title", `<title>Fantasy Post Mortem: Andrew Luck is the man - NFL.com</title>` +
			`<meta property="og:title" content="Official Blog of the National Football League"><meta property="og:site_name" content="NFL.com">`,
			`<div class="post"><h2>Fantasy Post Mortem: Andrew Luck is the man</h2>`,
			"Fantasy Post Mortem: Andrew Luck is the man", ""},
		{"og:title another wording of the headline", `<title>Fantasy Post Mortem: Andrew Luck is the man - NFL.com</title>` +
			`<meta property="og:title" content="Luck leads the week's fantasy scoring">`,
			`<div class="post"><h2>Fantasy Post Mortem: Andrew Luck is the man</h2>`,
			"Luck leads the week's fantasy scoring", ""},
		// Regressions (reviewer's pages): the <title> and the banner the
		// site's name alone, or a section's name in the <title>, took the
		// place of an og:title that is the headline.
		{"a title of the site's name alone", `<title>The Daily Courier Online Newsroom</title><meta property="og:title" content="Malaria returns to Greece">`,
			`<header><h1><a href="/">The Daily Courier Online Newsroom</a></h1></header><div class="post"><p class="headline">Malaria returns to Greece</p>`,
			"Malaria returns to Greece", ""},
		{"the site's name alone, and og:site_name", `<title>The Daily Courier Online Newsroom</title><meta property="og:site_name" content="The Daily Courier Online Newsroom">` +
			`<meta property="og:title" content="Malaria returns to Greece">`,
			`<header><h1><a href="/">The Daily Courier Online Newsroom</a></h1></header><div class="post"><p class="headline">Malaria returns to Greece</p>`,
			"Malaria returns to Greece", ""},
		{"a section's name in the <title>", `<title>Science and Environment | Daily Courier</title><meta property="og:title" content="Malaria returns to Greece after forty years">`,
			`<div id="nav"><h2>Science and Environment</h2></div><div class="post"><h1>Malaria is back: Greek villages report cases</h1>`,
			"Malaria returns to Greece after forty years", ""},
		// The site's name in a heading wider than the headline, or a
		// banner wider than it, in the <title> past its last separator.
		{"a sidebar's heading, the site's name", `<title>Malaria returns to Greece &laquo; The Healthcare Economist Journal</title>`,
			`<div class="post"><h1>Malaria returns to Greece</h1>`, "Malaria returns to Greece",
			`<div id="sidebar"><h2>The Healthcare Economist Journal</h2><p>About this blog.</p></div>`},
		{"a footer's heading and a section", `<title>Malaria returns to Greece - World News - The Daily Planet of Metropolis</title>`,
			`<div class="post"><h1>Malaria returns to Greece</h1>`, "Malaria returns to Greece",
			`<footer><h2>The Daily Planet of Metropolis</h2></footer>`},
		{"a banner wider than the headline", `<title>Malaria in Greece &laquo; Healthcare Economist</title>`,
			`<div id="header"><h2><a href="/">Healthcare Economist</a></h2></div><div class="post"><h2>Malaria in Greece</h2>`,
			"Malaria in Greece", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!doctype html><html><head><meta charset="utf-8">` + tc.head + `</head><body>` + tc.body +
				strings.Repeat(para, 5) + `</div>` + tc.tail + `</body></html>`
			a, _, err := Page(context.Background(), Input{Body: []byte(page)}, Options{MinChars: 1})
			if err != nil {
				t.Fatal(err)
			}
			if a.Title != tc.want {
				t.Errorf("Title = %q, want %q", a.Title, tc.want)
			}
		})
	}
}
