package extract

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestPageOtherStoryTakenForTheArticle(t *testing.T) {
	const own = `<div class="scroll"><h1>Ferry returns to the harbour</h1><p id="own">The ferry returned to the harbour on Monday, a week late, after the storm had kept it in port for seven days and nights. Its crew of twelve were greeted on the quay by their families and by the mayor, who thanked them for their patience.</p></div>`
	const taken = `<div class="scroll" id="taken"><h1>Storm closes the bridge</h1><p>The bridge was closed on Sunday night as the storm reached the coast, and it stays closed until engineers have checked every cable. Drivers are asked to take the road by the lake, which adds an hour to the journey to town, and buses will run every half hour instead.</p></div>`
	const other = `<div class="scroll"><h1>Market opens on Sunday</h1><p>The market opens on Sunday with forty stalls.</p></div>`
	for _, tc := range []struct {
		name, body string
		calls      int // 2 when the engine chooses again
		want       string
	}{
		{"two other stories", own + taken + other, 2, "The ferry returned"},
		{"one other story", own + taken, 1, "The bridge was closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls int // the longer story, classed like the page's own
			engine := takesWhileThere("taken", "own", &calls)
			page := `<!DOCTYPE html><html><head><title>Ferry returns to the harbour | Harbour News</title></head><body>` + tc.body + `</body></html>`
			a, _ := extractPage(t, page, Options{MinChars: -1, Engine: engine})
			if !strings.Contains(a.Text, tc.want) {
				t.Errorf("text %q, want %q in it", a.Text, tc.want)
			}
			if calls != tc.calls {
				t.Errorf("engine called %d times, want %d", calls, tc.calls)
			}
		})
	}
}

func TestPageReplyTakenForTheArticle(t *testing.T) {
	post := func(id, class, text string) string {
		return `<div id="` + id + `" class="` + class + `"><p>` + text + `</p></div>`
	}
	const question = "Our cat loses a lot of fur every night, more than ever before, and we brush him twice a day. What else can we do about it, apart from brushing him more often?"
	const reply = "Brushing helps, but so does the right food: ours lost much less fur once we changed it, after about four weeks. Ask your vet which food suits an old cat, and keep brushing him every evening as you do now; it calms him too."
	thread := func(class string, ids ...string) string {
		return `<div id="thread">` + post(ids[0], class, question) + post(ids[1], class, "Same here, every spring.") + post(ids[2], class, reply) + `</div>`
	}
	for _, tc := range []struct {
		name, body, taken string
		calls             int // 2 when the engine chooses again
		want              string
	}{
		{"one reply", thread("message post", "post-101", "post-102", "post-103"), "post-103", 2, "Our cat loses"},
		{"the thread", thread("message post", "post-101", "post-102", "post-103"), "thread", 1, "Our cat loses"},
		{"posts without numbered ids", thread("message post", "question", "answer", "reply"), "reply", 1, "Brushing helps"},
		{"boxes not named posts", thread("box", "box-101", "box-102", "box-103"), "box-103", 1, "Brushing helps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls int
			engine := takesWhileThere(tc.taken, "thread", &calls)
			page := `<!DOCTYPE html><html><head><title>Fur everywhere</title></head><body>` + tc.body + `</body></html>`
			a, _ := extractPage(t, page, Options{MinChars: -1, Engine: engine})
			if !strings.Contains(a.Text, tc.want) {
				t.Errorf("text %q, want %q in it", a.Text, tc.want)
			}
			if calls != tc.calls {
				t.Errorf("engine called %d times, want %d", calls, tc.calls)
			}
			if tc.calls == 2 && strings.Contains(a.Text, "Brushing helps") {
				t.Errorf("text %q holds the reply", a.Text)
			}
		})
	}
}

func TestPageTeasersLeave(t *testing.T) {
	// Two or more sibling <article>s that link to other pages by a title
	// and hold an excerpt are teasers, dropped from the content; the
	// page's own <article>, however short, holds its heading and stays.
	// So does the next story an endless scroll appends (markNextStories).
	teaser := func(slug, title, excerpt string) string {
		return `<article class="card"><div class="title"><a href="/news/` + slug + `">` + title + `</a></div><div class="body">` + excerpt + `</div></article>`
	}
	teasers := teaser("hampers", "1,500 families get Christmas hampers", "THE SALVATION ARMY continued its tradition of community outreach with the distribution of hampers on Tuesday, December 1...") +
		teaser("clerk", "Clerk recalled to the House of Assembly", "A CLERK who served the House for 25 years has been called out of retirement for active service. A notice dated Decembe...")
	brief := `<article><h1><a href="/news/spanish-classes">Spanish classes open for enrolment</a></h1><p>The institute opened enrolment for its Spanish classes on Wednesday. Classes for beginners and advanced learners start in January, and places are limited to twenty a class.</p></article>`
	own := `<article class="main-article"><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p></article>`
	next := `<article class="article-entity"><h1>Ferry returns to the island after the storm</h1><p>FERRY ` + paragraph(2) + `</p><p>` + paragraph(3) + `</p><p>` + paragraph(4) + `</p></article>`
	for _, tc := range []struct {
		name, body string
		want, gone []string
	}{
		{"teasers after the story", `<main><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p><p>` + paragraph(2) + `</p><p>` + paragraph(3) + `</p><section class="latest">` + teasers + `</section></main>`,
			[]string{paragraph(0), paragraph(3)}, []string{"THE SALVATION ARMY", "A CLERK who served"}},
		{"a brief beside teasers", `<main><div class="stories">` + brief + teasers + `</div></main>`,
			[]string{"The institute opened enrolment"}, []string{"THE SALVATION ARMY"}},
		// A news site's endless scroll appends the next story whole, in an
		// <article> of its own with its own <h1>: it leaves the text, even
		// when it is longer than the page's own story. Without the page's
		// heading in an <article>, nothing is marked.
		{"the next story after the page's", `<main>` + own + next + `</main>`, []string{paragraph(0), paragraph(1)}, []string{"FERRY"}},
		{"no article holds the page's heading", `<main><div><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p></div>` + next + `</main>`, []string{"FERRY"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!DOCTYPE html><html><head><title>Spanish classes open for enrolment | Island News</title></head><body>` + tc.body + `</body></html>`
			a, _ := extractPage(t, page, Options{MinChars: -1})
			keptAndGone(t, a.Text, tc.want, tc.gone)
		})
	}
}

func TestPageTeaserCardsLeave(t *testing.T) {
	// A list of the site's other stories after the article ("Popular
	// Stories"): three or more sibling cards of one class, each a heading
	// that is all a link to another page of the site and an excerpt. They
	// leave the text; a roundup's cards among the article's paragraphs, a
	// listicle's items linking other sites, a gallery's slides and cards on
	// a page whose heading is not found (a blog's front page) stay.
	excerpts := []string{
		"THE SALVATION ARMY continued its tradition of community outreach with the distribution of hampers on Tuesday. Volunteers packed food, toys and clothing for families across the parish, and the army thanked the businesses that gave.",
		"A CLERK who served the House for 25 years has been called out of retirement for active service this winter. The notice, dated Monday, says she will return until a successor is appointed, and members welcomed her back.",
		"FERRY services to the island resumed on Monday after the storm that closed the harbour for three days. The operator said extra sailings will run this week to clear the backlog of freight and passengers left waiting.",
		"THE COUNCIL voted to keep the market open on Sundays through the summer, after a petition of traders. Stallholders said the extra day doubled their takings last year, and residents asked for more parking nearby.",
	}
	titles := []string{"1,500 families get Christmas hampers", "Clerk recalled to the House of Assembly",
		"Ferry returns to the island after the storm", "Sunday market stays open for the summer"}
	cards := func(tag, class string, n int, href func(i int) string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(`<` + tag + ` class="` + class + `"><img src="/p` + strconv.Itoa(i) + `.jpg" alt=""><div class="body"><h3 class="title"><a href="` +
				href(i) + `">` + titles[i] + `</a></h3><div class="meta">December 1, 2024</div><div class="excerpt">` + excerpts[i] + `</div></div></` + tag + `>`)
		}
		return b.String()
	}
	local := func(i int) string { return "/2024/12/01/story-" + strconv.Itoa(i) + "/" }
	absolute := func(host string) func(i int) string {
		return func(i int) string { return "https://" + host + "/2024/12/01/story-" + strconv.Itoa(i) + "/" }
	}
	other := func(i int) string { return "https://shop" + strconv.Itoa(i) + ".example/item" }
	story := `<h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p><p>` + paragraph(2) + `</p>`
	gone := []string{"THE SALVATION ARMY", "A CLERK who served", "FERRY services"}
	for _, tc := range []struct {
		name, title, body string
		want, gone        []string
	}{
		{"popular stories after the story", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + `</article><div><div><h2>Popular Stories</h2></div>` + cards("div", "block--2_Rl", 4, local) + `</div></main>`,
			[]string{paragraph(0), paragraph(2)}, gone},
		{"the site's address in full", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + `</article><div class="popular">` + cards("li", "card", 3, absolute("WWW.News.example")) + `</div></main>`,
			[]string{paragraph(0)}, gone},
		{"the address the page declares", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + `</article><div class="popular">` + cards("li", "card", 3, absolute("www.islandnews.example")) + `</div></main>`,
			[]string{paragraph(0)}, gone},
		{"another site's address", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + `</article><div class="popular">` + cards("li", "card", 3, absolute("islandnews.example")) + `</div></main>`,
			append([]string{paragraph(0)}, gone...), nil},
		{"a roundup of the site's posts among its paragraphs", "Spanish classes open for enrolment | Island News",
			`<main><article class="post"><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p>` + cards("div", "roundup-item", 2, local) +
				`<p>` + paragraph(1) + `</p>` + cards("div", "roundup-item", 4, local) + `</article></main>`,
			append([]string{paragraph(0), paragraph(1)}, gone...), nil},
		// A short story beside a longer box of cards: the engine takes the
		// box, chooses again without it, and finds the story; cards a name
		// already marks as related stories stay marked.
		{"a short story beside a longer box", "Spanish classes open for enrolment | Island News",
			`<main><article class="post"><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p></article></main><div class="more"><h2>Popular Stories</h2><ul>` +
				cards("li", "card", 4, local) + `</ul></div>`,
			[]string{paragraph(0)}, gone},
		{"a short story beside a box named related", "Spanish classes open for enrolment | Island News",
			`<main><article class="post"><h1>Spanish classes open for enrolment</h1><p>` + paragraph(0) + `</p></article></main><div class="more"><h2>Popular Stories</h2><ul>` +
				cards("li", "related-story", 4, local) + `</ul></div>`,
			[]string{paragraph(0)}, gone},
		{"a roundup without an introduction", "Spanish classes open for enrolment | Island News",
			`<main><article class="post"><h1>Spanish classes open for enrolment</h1><div class="list">` + cards("div", "roundup-item", 4, local) + `</div></article></main>`,
			gone, nil},
		{"a roundup without an introduction in unnamed containers", "Spanish classes open for enrolment | Island News",
			`<div id="wrap"><div class="col"><h1>Spanish classes open for enrolment</h1><div class="list">` + cards("div", "roundup-item", 4, local) +
				`</div></div><div class="side"><p>About Island News: the paper of the island since 1901, every week.</p></div></div>`,
			gone, nil},
		{"a listicle's items linking other sites", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + cards("section", "listicle-block", 4, other) + `</article></main>`,
			append([]string{paragraph(0)}, gone...), nil},
		{"a gallery's slides", "Spanish classes open for enrolment | Island News",
			`<main><article class="post">` + story + cards("figure", "slide", 4, local) + `</article></main>`,
			append([]string{paragraph(0)}, gone...), nil},
		{"a blog's front page", "Island News",
			`<main><div class="posts">` + cards("div", "post-item", 4, local) + `</div></main>`,
			gone, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!DOCTYPE html><html><head><title>` + tc.title + `</title>` +
				`<link rel="canonical" href="https://islandnews.example/2024/12/01/spanish-classes/"></head><body>` + tc.body + `</body></html>`
			// The page's own URL names its site; a page without one, the
			// URL it declares of itself.
			in := Input{URL: "https://news.example/2024/12/01/spanish-classes/", Body: []byte(page)}
			if tc.name == "the address the page declares" {
				in.URL = ""
			}
			a, _, err := Page(context.Background(), in, Options{MinChars: -1})
			if err != nil {
				t.Fatal(err)
			}
			keptAndGone(t, a.Text, tc.want, tc.gone)
		})
	}
}

// keptAndGone checks that text holds each of want and none of gone.
func keptAndGone(t *testing.T, text string, want, gone []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%q lost:\n%s", w, text)
		}
	}
	for _, g := range gone {
		if strings.Contains(text, g) {
			t.Errorf("%q stayed:\n%s", g, text)
		}
	}
}

func TestMarkTeaserCards(t *testing.T) {
	// Cards are marked when three or more of one tag and class, each a
	// heading all one link to another page of the site and a short excerpt,
	// stand apart from the article's paragraphs, on a page whose heading is
	// found; each guard of card, sameSite and markTeasers has a case.
	card := func(class, slug string) string {
		return `<div class="` + class + `"><h3><a href="/news/` + slug + `">A headline of some length ` + slug + `</a></h3><p>Short excerpt.</p></div>`
	}
	three := func(class string) string { return card(class, "a") + card(class, "b") + card(class, "d") }
	page := func(list string) string {
		return `<html><head><title>The page's own headline</title></head><body><article><h1>The page's own headline</h1><p>` +
			paragraph(0) + `</p></article><div><h2>Most read</h2>` + list + `</div></body></html>`
	}
	for _, tc := range []struct {
		name, page string
		marked     int
	}{
		{"three", page(three("c")), 3},
		{"beside a paragraph", page(`<p>` + paragraph(1) + `</p>` + three("c")), 0},
		{"inside a list beside a paragraph", `<html><head><title>The page's own headline</title></head><body><article><h1>The page's own headline</h1><p>` +
			paragraph(0) + `</p><div class="list">` + three("c") + `</div></article></body></html>`, 0},
		{"two", page(card("c", "a") + card("c", "b")), 0},
		{"three of two classes", page(card("c", "a") + card("c", "b") + card("d", "d")), 0},
		{"no class", page(three("")), 0},
		{"a heading beside the link", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline of some length</a> and more</h3></div>`, 3)), 0},
		{"a link too short", page(strings.Repeat(`<div class="c"><h3><a href="/x">Short one</a></h3></div>`, 3)), 0},
		{"two headings a card", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline of some length</a></h3><h4><a href="/y">Another headline of length</a></h4></div>`, 3)), 0},
		{"an <h1> a card", page(strings.Repeat(`<div class="c"><h1>Its own title</h1><h3><a href="/x">A headline of some length</a></h3></div>`, 3)), 0},
		{"an excerpt too long", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline of some length</a></h3><p>`+paragraph(1)+` `+paragraph(2)+` `+paragraph(3)+`</p></div>`, 3)), 0},
		{"too many nodes", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline of some length</a></h3>`+strings.Repeat(`<span>x</span>`, 70)+`</div>`, 3)), 0},
		{"a title of too many bytes", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline `+strings.Repeat("x", 1000)+`</a></h3></div>`, 3)), 0},
		{"a title of too many nodes", page(strings.Repeat(`<div class="c"><h3><a href="/x">A headline`+strings.Repeat(`<b>x</b>`, 70)+`</a></h3></div>`, 3)), 0},
		{"the page's heading in a card", `<html><head><title>The page's own headline</title></head><body><div><div class="c"><h2><a href="/news/own">The page's own headline</a></h2><p>Its excerpt.</p></div>` +
			card("c", "b") + card("c", "d") + `</div></body></html>`, 0},
		{"no heading found", `<html><head><title>Another title</title></head><body><h1>The page's own headline</h1>` +
			three("c") + `</body></html>`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.page)
			markTeasers(doc, pageHeading(doc), nil)
			if marked := countRelated(doc); marked != tc.marked {
				t.Errorf("%d marked, want %d", marked, tc.marked)
			}
		})
	}
}

func TestSameSite(t *testing.T) {
	// A card's link leads to another page of the page's site: relative,
	// or of the page's host with or without "www.", over HTTP, not the page
	// itself (its path and query; an anchor of it).
	page, _ := url.Parse("https://www.news.example/2024/12/01/story/")
	query, _ := url.Parse("https://news.example/article.php?id=1")
	for _, tc := range []struct {
		href string
		page *url.URL
		want bool
	}{
		{"/2024/12/02/other/", page, true},
		{"other/", page, true},
		{"https://NEWS.example/2024/12/02/other/", page, true},
		{"//www.news.example/2024/12/02/other/", page, true},
		{"https://shop.news.example/item", page, false},
		{"https://other.example/2024/12/02/other/", page, false},
		{"/2024/12/01/story/#comments", page, false},
		{"https://news.example/2024/12/01/story/#top", page, false},
		{"ftp://www.news.example/2024/12/02/other/", page, false},
		{"/article.php?id=2", query, true},
		{"/article.php?id=1#c", query, false},
		{"mailto:desk@news.example", page, false},
		{"javascript:void(0)", page, false},
		{"/2024/12/02/other/", nil, true},
		{"https://news.example/2024/12/02/other/", nil, false},
	} {
		link := &html.Node{Type: html.ElementNode, Data: "a", DataAtom: atom.A, Attr: []html.Attribute{{Key: "href", Val: tc.href}}}
		if got := sameSite(link, tc.page); got != tc.want {
			t.Errorf("sameSite(%q, %v) = %v, want %v", tc.href, tc.page, got, tc.want)
		}
	}
}

// countRelated returns how many elements under n are marked as related
// stories.
func countRelated(n *html.Node) int {
	k := 0
	if n.Type == html.ElementNode && attr(n, regionAttr) == "related" {
		k++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k += countRelated(c)
	}
	return k
}

func TestMarkTeasers(t *testing.T) {
	// One teaser alone is not a run, and an <article> of more prose than an
	// excerpt is a story.
	long := paragraph(1) + " " + paragraph(2) + " " + paragraph(3)
	for _, tc := range []struct {
		name, body string
		marked     int
	}{
		{"a run", `<article><a href="/a">A headline of some length</a><p>Short excerpt.</p></article><article><a href="/b">Another headline of length</a><p>Excerpt.</p></article>`, 2},
		{"one alone", `<article><a href="/a">A headline of some length</a><p>Short excerpt.</p></article><div>x</div>`, 0},
		{"stories", `<article><a href="/a">A headline of some length</a><p>` + long + `</p></article><article><a href="/b">Another headline of length</a><p>` + long + `</p></article>`, 0},
		{"links to this page", `<article><a href="#top">A headline of some length</a><p>Excerpt.</p></article><article><a href="#top">Another headline of length</a><p>Excerpt.</p></article>`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, `<html><body>`+tc.body+`</body></html>`)
			markTeasers(doc, nil, nil)
			if marked := countRelated(doc); marked != tc.marked {
				t.Errorf("%d marked, want %d", marked, tc.marked)
			}
		})
	}
}
