package extract

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// cueModel is a block model that keeps every block but those holding a
// phrase of boilerplate (feature 30).
func cueModel() *BlockModel {
	m := &BlockModel{Threshold: 0.5}
	m.Weights[0] = 3
	m.Weights[30] = -6
	return m
}

// articleWith is an article of four paragraphs with insert between the
// second and the third.
func articleWith(insert string) string {
	var b strings.Builder
	b.WriteString(`<html><head><title>Council passes budget</title></head><body><article><h1>Council passes budget</h1>`)
	for i := range 4 {
		b.WriteString("<p>" + paragraph(i) + "</p>")
		if i == 1 {
			b.WriteString(insert)
		}
	}
	b.WriteString(`</article></body></html>`)
	return b.String()
}

// promoPage is an article whose container holds a newsletter box between
// its paragraphs.
func promoPage() string {
	return articleWith(`<div class="promo-box"><p>Sign up for our newsletter</p></div>`)
}

func TestBlockModelPrunesContent(t *testing.T) {
	a, _ := extractPage(t, promoPage(), Options{MinChars: -1, BlockModel: cueModel()})
	if strings.Contains(a.Text, "newsletter") {
		t.Errorf("the block the model scores under its threshold stayed:\n%s", a.Text)
	}
	for i := range 4 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d lost:\n%s", i, a.Text)
		}
	}
	kept, _ := extractPage(t, promoPage(), Options{MinChars: -1, BlockModel: cueModel(), KeepBlocks: true})
	if !strings.Contains(kept.Text, "Sign up for our newsletter") {
		t.Errorf("KeepBlocks removed a block:\n%s", kept.Text)
	}
}

// pointerPage is an article whose paragraphs are broken by a labelled link
// to another story and hold a labelled paragraph and a labelled heading
// linking to its own section.
func pointerPage() string {
	return articleWith(`<p><strong>Read more:</strong> <a href="/2024/05/mayor-resigns">Mayor resigns after two terms in office</a></p>` +
		`<p>Update: the council said on Friday that the vote would stand.</p>` +
		`<h3 id="vote"><a href="#vote">Part two: the vote and what comes next</a></h3>`)
}

func TestPointerLinesLeave(t *testing.T) {
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	a, _ := extractPage(t, pointerPage(), Options{MinChars: -1, BlockModel: keepAll})
	if strings.Contains(a.Text, "Mayor resigns") {
		t.Errorf("the labelled link stayed:\n%s", a.Text)
	}
	for _, want := range []string{"Update: the council said", "Part two: the vote", paragraph(0), paragraph(3)} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q lost:\n%s", want, a.Text)
		}
	}
	kept, _ := extractPage(t, pointerPage(), Options{MinChars: -1, BlockModel: keepAll, KeepBlocks: true})
	if !strings.Contains(kept.Text, "Mayor resigns") {
		t.Errorf("KeepBlocks removed the labelled link:\n%s", kept.Text)
	}
}

func TestNewsletterCallsLeave(t *testing.T) {
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	page := articleWith(`<p>Ground Game: <a href="/newsletters">Sign up for our weekly politics newsletter</a> to get it in your inbox every Monday.</p>` +
		`<p>Abonnieren Sie unseren <a href="/nl">Newsletter</a>.</p>` +
		`<p>The paper added 680,000 <a href="/report">newsletter subscribers</a> in a year, and few unsubscribe.</p>` +
		// Regression (reviewer's finding): without a link, an article's own
		// paragraphs about newsletters that say "in your inbox", "join the"
		// or "sign up" were removed as calls.
		`<p>Her newsletter, which lands in your inbox every night, has more than a million subscribers.</p>` +
		`<p>Readers who join the newsletter pay about $5 a month, the company said.</p>` +
		`<p>“People sign up for a newsletter because they want a relationship with a person,” he said.</p>`)
	a, _ := extractPage(t, page, Options{MinChars: -1, BlockModel: keepAll})
	for _, gone := range []string{"Sign up for our weekly", "Abonnieren Sie"} {
		if strings.Contains(a.Text, gone) {
			t.Errorf("%q stayed:\n%s", gone, a.Text)
		}
	}
	for _, want := range []string{"680,000 newsletter subscribers", "lands in your inbox every night", "join the newsletter pay", "People sign up for a newsletter", paragraph(0), paragraph(3)} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q lost:\n%s", want, a.Text)
		}
	}
}

func TestBlockModelLeavesRuleBody(t *testing.T) {
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: news\n    hosts: [news.example]\n    body: article\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := extractPage(t, promoPage(), Options{MinChars: -1, BlockModel: cueModel(), Rules: rs})
	if !strings.Contains(a.Text, "Sign up for our newsletter") {
		t.Errorf("a site rule's body was pruned:\n%s", a.Text)
	}
}

func TestBlockModelKeep(t *testing.T) {
	m := cueModel()
	block := func(text string, cue bool) Block {
		b := Block{Text: text}
		b.Features[30] = boolf(cue)
		return b
	}
	long := strings.Repeat("word ", 80)
	for _, tc := range []struct {
		name   string
		blocks []Block
		want   []bool
	}{
		{"low scores leave", []Block{block(long, false), block("Share this", true), block("more text here", false)}, []bool{true, false, true}},
		{"the longest block stays", []Block{block(long, true), block("x", false)}, []bool{true, true}},
		{"most of the text scored low: all stay", []Block{block(long, false), block(long, true), block(long, true), block(long, true)}, []bool{true, true, true, true}},
		{"none", nil, []bool{}},
		{"fewer runes than minPrunable: all stay", []Block{block("A short notice of two lines.", false), block("Share this", true)}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, m.Keep(tc.blocks)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestLeafBlocks(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<div><p>One <a href="/x">link</a></p><div>mixed<p>Two</p></div><ul><li><a href="/a">All linked</a></li></ul><table><tr><td>Cell</td></tr></table><div><pre>code()</pre></div></div>`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range leafBlocks(doc) {
		got = append(got, b.text+"|"+strings.Repeat("L", b.linked))
	}
	want := []string{"One link|LLLL", "Two|", "All linked|LLLLLLLLL", "Cell|"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestNameKind(t *testing.T) {
	for _, tc := range []struct{ id, class, want string }{
		{"", "social-share", "neg"},
		{"newsletterSignup", "", "neg"},
		{"", "article-body", "pos"},
		{"main", "author-box", "neg"},
		{"", "wrapper", ""},
		{"post-9", "post-9 post type-post hentry tag-budget", "pos"},
		{"", "teaser tag-budget", "neg"},
		{"entry-6a00", "entry-category-travel entry-author-jane_roe entry-type-post entry", "pos"},
		{"", "entry-author-jane_roe entry", "neg"},
	} {
		n := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: "id", Val: tc.id}, {Key: "class", Val: tc.class}}}
		if got := nameKind(n); got != tc.want {
			t.Errorf("id %q class %q: %q, want %q", tc.id, tc.class, got, tc.want)
		}
	}
}

func TestPageBlocks(t *testing.T) {
	blocks, err := PageBlocks(Input{URL: "https://news.example/a", Body: []byte(promoPage())}, Options{MinChars: -1})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, b := range blocks {
		texts = append(texts, b.Text)
		if b.Features[0] != 1 {
			t.Errorf("block %q: bias feature %v, want 1", b.Text, b.Features[0])
		}
	}
	if !strings.Contains(strings.Join(texts, "\n"), "Sign up for our newsletter") || len(blocks) < 5 {
		t.Errorf("PageBlocks gave %q, want every block of the content, the newsletter box among them", texts)
	}
}

func TestBoilerplateCue(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Share this story", true},
		{"Lea también: Impiden ingreso a Nicaragua a reportero", true},
		{"CZYTAJ TEŻ: Były dowódca wojsk USA", true},
		{"Читайте также: новости дня", true},
		{"(Foto: Getty)", true},
		{"The council approved the budget on Tuesday after a long debate.", false},
		{strings.Repeat("The council approved the budget. ", 12) + "Share this", false}, // over 400 bytes: not a line of boilerplate
		{"", false},
	} {
		if got := boilerplateCue(tc.text); got != tc.want {
			t.Errorf("boilerplateCue(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestBlockFeaturesCaptionsAndTail(t *testing.T) {
	long := strings.Repeat("The council approved the budget after a long debate. ", 4)
	doc := parse(t, `<div><p>`+long+`</p><img src="a.jpg"><p>Photo: Jane Roe</p><p>`+long+`</p><p>Read more stories</p></div>`)
	leaves := leafBlocks(doc)
	if len(leaves) != 4 {
		t.Fatalf("%d blocks, want 4", len(leaves))
	}
	f := blockFeatures(leaves)
	for i, want := range []struct {
		image   bool
		toProse int
	}{
		{false, 0}, {true, 1}, {false, 0}, {false, 1},
	} {
		if got := f[i][33] == 1; got != want.image {
			t.Errorf("block %d %q: next to an image %v, want %v", i, leaves[i].text, got, want.image)
		}
		if got := int(math.Round(math.Expm1(f[i][34]))); got != want.toProse {
			t.Errorf("block %d %q: %d blocks to prose, want %d", i, leaves[i].text, got, want.toProse)
		}
	}
	if f[0][32] <= f[1][32] || f[1][32] <= f[2][32] || f[3][32] != 0 {
		t.Errorf("share of text after each block %v %v %v %v: want it falling to 0", f[0][32], f[1][32], f[2][32], f[3][32])
	}
}

func TestTextStatsWithoutSpaces(t *testing.T) {
	for _, tc := range []struct {
		text  string
		words int
	}{
		{"The ferry returned.", 3},
		{"フェリーが戻った。", 8},
		{"渡轮周一返回港口。", 8},
		{"Fähre kehrt zurück", 3},
	} {
		if words, _, _, _, _ := textStats(tc.text); words != tc.words {
			t.Errorf("textStats(%q): %d words, want %d", tc.text, words, tc.words)
		}
	}
}

func TestBlockTreeValue(t *testing.T) {
	// f[1] < 2 ? (f[2] < 0.5 ? -1 : 1) : 3
	tree := BlockTree{{Feature: 1, Split: 2, Left: 1, Right: 4}, {Feature: 2, Split: 0.5, Left: 2, Right: 3}, {Value: -1}, {Value: 1}, {Value: 3}}
	for _, tc := range []struct {
		f1, f2, want float64
	}{{1, 0, -1}, {1, 0.5, 1}, {2, 0, 3}, {5, 9, 3}} {
		var f [NumBlockFeatures]float64
		f[1], f[2] = tc.f1, tc.f2
		if got := tree.Value(&f); got != tc.want {
			t.Errorf("f1=%v f2=%v: value %v, want %v", tc.f1, tc.f2, got, tc.want)
		}
	}
	m := BlockModel{Trees: []BlockTree{tree, {{Value: 0.5}}}}
	m.Weights[0] = 1
	var f [NumBlockFeatures]float64
	f[0], f[1] = 1, 9
	if got := m.Margin(&f); got != 4.5 {
		t.Errorf("margin %v, want 1 (linear) + 3 + 0.5 (trees)", got)
	}
	if got, want := m.Prob(f), 1/(1+math.Exp(-4.5)); got != want {
		t.Errorf("probability %v, want %v", got, want)
	}
}

func TestPreformattedTextStays(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>Council passes budget</title></head><body><article><h1>Council passes budget</h1>`)
	for i := range 4 {
		b.WriteString("<p>" + paragraph(i) + "</p>")
	}
	b.WriteString("<pre>Sign up for our newsletter</pre></article></body></html>")
	a, _ := extractPage(t, b.String(), Options{MinChars: -1, BlockModel: cueModel()})
	if !strings.Contains(a.Text, "Sign up for our newsletter") {
		t.Errorf("the block model removed preformatted text:\n%s", a.Text)
	}
}

func TestLineCues(t *testing.T) {
	for _, tc := range []struct {
		text string
		want lineCues
	}{
		{"Publiziert: 03.04.2020, 12:35", lineCues{year: true, clock: true, label: true}},
		{"opublikowano: 2021-04-29", lineCues{year: true, label: true}},
		{"Lea también: Impiden ingreso a reportero", lineCues{label: true}},
		{"Read more：Council passes budget", lineCues{label: true}},
		{"Top 10 picks: what to buy", lineCues{}},
		{"The court, which met on a Monday in the old town: a ruling", lineCues{}},
		{"Mehr zum Thema:", lineCues{colon: true}},
		{"Folgen Sie uns auf www.example.org", lineCues{address: true}},
		{"Permalink https://p.example/p/RPYx", lineCues{address: true, slash: true}},
		{"Schreiben Sie an @redaktion", lineCues{address: true}},
		{"Judy Eddy / Agency", lineCues{slash: true}},
		{"Er zahlte 12345 Euro, 3:1 gewann das Team, 1850 Menschen kamen.", lineCues{}},
		{"Um 9:30 Uhr", lineCues{clock: true}},
		{"user@example.org", lineCues{address: true}},
	} {
		if got := lineCuesOf(tc.text); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

// asidePage is an article with a photo and its caption, a second photo
// whose caption is named so, a third whose caption holds its credit in a
// block of its own, a breadcrumb trail and a table with a caption of its
// own between its paragraphs.
func asidePage() string {
	return articleWith(`<nav><p>You are here: <a href="/">Home</a> › Local news › Council passes budget</p></nav><figure><img src="/p.jpg" alt=""><figcaption><p>The mayor at the council meeting on Tuesday. Photo: Jane Roe / Agency</p></figcaption></figure>` +
		`<div class="image"><img src="/q.jpg" alt=""><p class="caption">Residents waited outside the town hall for the result of the vote.</p></div>` +
		`<figure><img src="/r.jpg" alt=""></figure><figcaption><span>Protesters gathered in the square before the vote</span> (<div class="camera">Image:</div>Jane Roe via Agency)</figcaption>` +
		`<table><caption>Budget by department, 2024</caption><tr><td>Roads and bridges</td><td>4.2 million</td></tr></table>`)
}

func TestCaptionsAndNavigationLeave(t *testing.T) {
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	a, _ := extractPage(t, asidePage(), Options{MinChars: -1, BlockModel: keepAll})
	for _, gone := range []string{"The mayor at the council meeting", "You are here", "Residents waited outside", "Protesters gathered", "via Agency"} {
		if strings.Contains(a.Text, gone) {
			t.Errorf("%q stayed:\n%s", gone, a.Text)
		}
	}
	for _, want := range []string{"Budget by department", "Roads and bridges", paragraph(0), paragraph(3)} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q lost:\n%s", want, a.Text)
		}
	}
	kept, _ := extractPage(t, asidePage(), Options{MinChars: -1, BlockModel: keepAll, KeepBlocks: true})
	for _, want := range []string{"The mayor at the council meeting", "You are here"} {
		if !strings.Contains(kept.Text, want) {
			t.Errorf("KeepBlocks removed %q:\n%s", want, kept.Text)
		}
	}
}

func TestNamedCaptionsAwayFromPicturesStay(t *testing.T) {
	// A block named a caption stays when no picture is beside it, or when
	// it is as long as prose (maxCaption).
	long, longest := paragraph(5)+" "+paragraph(6), paragraph(7)+" "+paragraph(8)+" "+paragraph(9)
	page := articleWith(`<p class="caption">The council will publish the full budget on its website next week.</p>` +
		`<div class="caption"><img src="/p.jpg" alt=""><p>` + long + `</p></div><p>` + longest + `</p>`)
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	a, _ := extractPage(t, page, Options{MinChars: -1, BlockModel: keepAll})
	for _, want := range []string{"The council will publish the full budget", long} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q lost:\n%s", want, a.Text)
		}
	}
}

func TestFigureCaptionsOfAGalleryStay(t *testing.T) {
	// A page told in captions: they are most of its text, so the keep-all
	// guard holds them.
	var b strings.Builder
	b.WriteString(`<html><head><title>The flood in pictures</title></head><body><article><h1>The flood in pictures</h1><p>` + paragraph(0) + `</p>`)
	for i := 1; i < 4; i++ {
		b.WriteString(`<figure><img src="/p.jpg" alt=""><figcaption>` + paragraph(i) + `</figcaption></figure>`)
	}
	b.WriteString(`</article></body></html>`)
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	a, _ := extractPage(t, b.String(), Options{MinChars: -1, BlockModel: keepAll})
	for i := range 4 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d lost:\n%s", i, a.Text)
		}
	}
}

func TestAuthorBoxesLeave(t *testing.T) {
	keepAll := &BlockModel{Threshold: 0.5}
	keepAll.Weights[0] = 3
	bio := "Jane Roe is a national affairs correspondent. She has written or edited a dozen books on the history of local government, and her latest, on city budgets, was a bestseller."
	for _, tc := range []struct {
		name, box string
		gone      bool
	}{
		// The engine puts the paragraph in the place of a box that holds
		// only it: the mark goes with the paragraph.
		{"bio", `<div class="article-end__author-bio"><p>` + bio + `</p></div>`, true},
		{"nested", `<div class="author"><div class="author__role">Editor at large</div><div class="author__biography"><p>` + bio + `</p><p>Follow her for more.</p></div></div>`, true},
		{"byline", `<p>By <span class="author">` + bio + `</span></p>`, false},
		{"long", `<div class="author-bio"><p>` + strings.Repeat(bio+" ", 8) + `</p></div>`, false},
	} {
		page := strings.Replace(articleWith(""), "</article>", tc.box+"</article>", 1)
		a, _ := extractPage(t, page, Options{MinChars: -1, BlockModel: keepAll})
		if got := strings.Contains(a.Text, "national affairs correspondent"); got == tc.gone {
			t.Errorf("%s: bio kept %v, want %v:\n%s", tc.name, got, !tc.gone, a.Text)
		}
		if !strings.Contains(a.Text, paragraph(3)) {
			t.Errorf("%s: the article's last paragraph lost:\n%s", tc.name, a.Text)
		}
	}
}

// TestPruneBlocksNews checks that on a news story the short blocks the
// model scores between its threshold and newsThreshold go, subheadings
// and labelled lines aside, and that on other pages they stay. The model
// scores blocks under 200 characters 0.5, longer ones 0.95.
func TestPruneBlocksNews(t *testing.T) {
	m := BlockModel{Threshold: 0.34, Trees: []BlockTree{{
		{Feature: 1, Split: math.Log1p(200), Left: 1, Right: 2}, {Value: 0}, {Value: 3},
	}}}
	para := strings.Repeat("The council met on Tuesday and agreed on the budget for the coming year. ", 3)
	page := `<div><p>` + para + `</p><p>Fans outside the town hall on Tuesday night REUTERS</p><h2>What comes next</h2><p>` + para +
		`</p><p><strong>A vote in spring</strong></p><p>Where to vote: the town hall</p><p>Morning briefing: the news you need before breakfast, every weekday, in your inbox at six, free for readers who sign up on this page</p><p>` + para + `</p><h3>Also of interest</h3><p><strong>Ferry fares</strong></p></div>`
	p := strings.TrimSpace(para)
	for _, tc := range []struct {
		name string
		news bool
		want string
	}{
		{"a news story loses the caption and the pitch", true,
			p + "\n\nWhat comes next\n\n" + p + "\n\nA vote in spring\n\nWhere to vote: the town hall\n\n" + p}, // and the headings after the story
		{"another page keeps them", false,
			p + "\n\nFans outside the town hall on Tuesday night REUTERS\n\nWhat comes next\n\n" + p + "\n\nA vote in spring\n\nWhere to vote: the town hall\n\nMorning briefing: the news you need before breakfast, every weekday, in your inbox at six, free for readers who sign up on this page\n\n" + p + "\n\nAlso of interest\n\nFerry fares"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, page)
			leaves, blocks := contentBlocks(doc)
			pruneBlocks(leaves, blocks, &m, tc.news)
			if diff := cmp.Diff(tc.want, Text(doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestStoryKind(t *testing.T) {
	for _, tc := range []struct {
		ld   string
		want storyKind
	}{
		{`{"@type":"NewsArticle","headline":"A"}`, newsStory},
		{`{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"ReportageNewsArticle"}]}`, newsStory},
		{`[{"@type":["Article","OpinionNewsArticle"]}]`, newsStory},
		{`[{"@type":"BlogPosting"},{"@type":"NewsArticle"}]`, newsStory},
		{`{"@type":"Article","headline":"A"}`, someStory},
		{`{"@type":"BlogPosting","headline":"A"}`, someStory},
		{`{"@graph":[{"@type":"WebPage"},{"@type":["Report"]}]}`, someStory},
		{`{"@type":"WebPage","about":{"name":"NewsArticle"}}`, noStory},
		{`{"@type":"Product","name":"Article"}`, noStory},
	} {
		doc := parse(t, `<html><head><script type="application/ld+json">`+tc.ld+`</script></head><body><p>Text</p></body></html>`)
		if got := readLinkedData(doc).kind; got != tc.want {
			t.Errorf("%s: kind %v, want %v", tc.ld, got, tc.want)
		}
	}
}

// TestDataTablesKeptWhole is the regression test of a table of fares in a
// story: the model scored its cells one by one and the text lost a row
// ("Adult ticket 4.50") and a price without its item ("Car" without
// "12.00"). A data table's cells now stay or go together.
func TestDataTablesKeptWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html lang="en"><head><title>Ferry returns to the island</title></head><body><article><h1>Ferry returns to the island</h1>`)
	for i := range 4 {
		b.WriteString("<p>" + paragraph(i) + "</p>")
	}
	b.WriteString(`<table><tr><td>Adult ticket</td><td>4.50</td></tr><tr><td>Child ticket</td><td>2.00</td></tr>` +
		`<tr><td>Car</td><td>12.00</td></tr><tr><td>Bicycle</td><td>1.00</td></tr></table>`)
	b.WriteString("<p>" + paragraph(4) + "</p></article></body></html>")
	a, _ := extractPage(t, b.String(), Options{MinChars: -1})
	for _, want := range []string{"Adult ticket\n4.50", "Child ticket\n2.00", "Car\n12.00", "Bicycle\n1.00", paragraph(0), paragraph(4)} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q lost:\n%s", want, a.Text)
		}
	}
}

// TestWholeTables checks which tables keep or lose their cells together
// (cueModel removes the cells holding a phrase of boilerplate): a data
// table most of whose text the model keeps keeps its cell of boilerplate;
// one most of whose text it removes goes whole; a table of rows of one
// cell, and one whose cells hold paragraphs, are left to the cells' scores.
func TestWholeTables(t *testing.T) {
	for _, tc := range []struct {
		name, table string
		gone, kept  []string
	}{
		{"most kept", `<table><tr><td>Adult ticket, one way</td><td>4.50 pounds</td></tr><tr><td>Share this story</td><td>2.00 pounds</td></tr></table>`,
			nil, []string{"Adult ticket, one way", "Share this story", "2.00 pounds"}},
		{"most removed", `<table><tr><td>Share this story</td><td>(Foto: Getty)</td></tr><tr><td>Lea también: otra nota</td><td>Fares</td></tr></table>`,
			[]string{"Share this story", "Fares"}, nil},
		{"rows of one cell", `<table><tr><td>Adult ticket, one way</td></tr><tr><td>Share this story</td></tr></table>`,
			[]string{"Share this story"}, []string{"Adult ticket, one way"}},
		{"cells of paragraphs", `<table><tr><td><p>Adult ticket, one way</p></td><td>4.50 pounds</td></tr><tr><td>Share this story</td><td>2.00 pounds</td></tr></table>`,
			[]string{"Share this story"}, []string{"Adult ticket, one way", "2.00 pounds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := extractPage(t, articleWith(tc.table), Options{MinChars: -1, BlockModel: cueModel()})
			for _, s := range tc.gone {
				if strings.Contains(a.Text, s) {
					t.Errorf("%q stayed:\n%s", s, a.Text)
				}
			}
			for _, s := range tc.kept {
				if !strings.Contains(a.Text, s) {
					t.Errorf("%q lost:\n%s", s, a.Text)
				}
			}
		})
	}
}
