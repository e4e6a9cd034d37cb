package extract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/extract/rules"
)

// jsString returns s as a script's string literal, the markup escaped as
// Next.js escapes it ("<" as \u003c).
func jsString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s) // escapes <, > and & as \u003c, \u003e, \u0026
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// storyMarkup returns n paragraphs of the test article as markup.
func storyMarkup(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<p>%s</p>", paragraph(i))
	}
	return b.String()
}

// scriptedPage returns a page whose body shows only a loading skeleton and
// whose scripts hold what a browser's script would render.
func scriptedPage(scripts ...string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Council passes budget | Example Media</title></head>
<body><div id="__next"><div class="skeleton">Loading…</div></div>` + strings.Join(scripts, "\n") + `</body></html>`
}

// A page its scripts render has its article read from their data: Next.js's
// stream of server components (a text row, a row split between pushes,
// markup inside a JSON row, a block editor's paragraph a string each), a
// preloaded state; its placeholders go, and the page's own text, when it
// has some, stays, as a brief does beside a longer story of its topic.
func TestPageScripted(t *testing.T) {
	story := storyMarkup(5)
	row := `5:["$","div",null,{"className":"body","dangerouslySetInnerHTML":{"__html":` + jsString(t, story) + `}}]` + "\n"
	var blocks []string
	for i := range 5 {
		blocks = append(blocks, `["$","div","b`+fmt.Sprint(i)+`",{"dangerouslySetInnerHTML":{"__html":`+jsString(t, "<p>"+paragraph(i)+"</p>")+`}}]`)
	}
	blockRow := `7:["$","article",null,{"children":[` + strings.Join(blocks, ",") + `]}]` + "\n"
	textRow := fmt.Sprintf("24:T%x,%s25:[\"$\",\"div\",null,{\"className\":\"related\",\"children\":\"More\"}]\n", len(`<div class="editor">`+story+`</div>`), `<div class="editor">`+story+`</div>`)
	other := strings.NewReplacer("council", "harbour board", "budget", "ferry timetable", "Council", "Harbour board").Replace(story)
	lastYear := "<p>Last year the council passed a budget that cut transit spending, and the fight over those cuts shaped this year's debate from the start.</p>" +
		"<p>Council members who voted against last year's budget campaigned on restoring the bus routes, and two of them won seats on the finance committee.</p>" +
		"<p>The budget of last year also froze hiring in the fire department, a freeze the union said left stations short of staff through the summer.</p>" +
		"<p>Analysts expect the next budget to face the same pressures, with pension costs rising faster than the city's tax base.</p>"
	briefText := "The city council passed the budget on Tuesday by seven votes to four. The mayor will sign it on Friday. Property taxes rise by two percent. More details will follow when the final figures are published by the finance office later this week."
	brief := `<article><h1>Council passes budget</h1><p>` + briefText + `</p></article>`
	privacy := "<p>Example Media and its partners use cookies and similar technologies to store and access information on your device.</p>" +
		"<p>We use this information to personalise content and advertising, to provide social media features and to analyse our traffic at Example Media.</p>" +
		"<p>You can change your choices at any time by visiting the privacy settings page, where you can also withdraw your consent.</p>" +
		"<p>For more information about how Example Media processes personal data, see our privacy policy and cookie policy.</p>"
	half := len(story) / 2
	for _, tc := range []struct {
		name     string
		page     string
		opts     Options
		want     bool   // the article's paragraphs are the text
		wantText string // the text instead, when not
		not      []string
	}{
		{"server components' text row",
			scriptedPage(`<script>self.__next_f.push([1,"24:T1b7b,"])</script>`,
				`<script>self.__next_f.push([1,`+jsString(t, `<div class="editor">$$ARTICLEAD$$`+story+`</div>`)+`])</script>`),
			Options{}, true, "", []string{"ARTICLEAD", "Loading"}},
		{"a text row and the next row in one push",
			scriptedPage(`<script>self.__next_f.push([1,` + jsString(t, textRow) + `])</script>`),
			Options{}, true, "", []string{"24:T", "25:", "className", "More"}},
		{"a row split between two pushes",
			scriptedPage(`<script>self.__next_f.push([1,`+jsString(t, "24:T1b7b,"+story[:half])+`])</script>`,
				`<script>self.__next_f.push([1,`+jsString(t, story[half:])+`])</script>`),
			Options{}, true, "", []string{"24:T"}},
		{"markup inside a JSON row",
			scriptedPage(`<script>self.__next_f.push([1,` + jsString(t, row) + `])</script>`),
			Options{}, true, "", []string{"dangerouslySetInnerHTML", "className", `"$"`}},
		{"a block editor's paragraphs, a string each",
			scriptedPage(`<script>self.__next_f.push([1,` + jsString(t, blockRow) + `])</script>`),
			Options{}, true, "", []string{"dangerouslySetInnerHTML", "children", `"$"`}},
		{"preloaded state",
			scriptedPage(`<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"teaser":"<p>Read more</p>","story":{"title":"Council passes budget","body":` + jsString(t, story) + `}}}}</script>`),
			Options{}, true, "", []string{"Read more"}},
		{"the longest string another story's, the article the next",
			scriptedPage(`<script>window.__STATE__ = {"mostRead":` + jsString(t, strings.Repeat(other, 2)) + `,"story":` + jsString(t, story) + `};</script>`),
			Options{}, true, "", []string{"harbour", "ferry"}},
		{"a teaser read in full",
			strings.Replace(scriptedPage(`<script>window.__STATE__ = {"story":`+jsString(t, storyMarkup(12))+`};</script>`),
				`<div class="skeleton">Loading…</div>`, "<article><h1>Council passes budget</h1><p>"+paragraph(0)+"</p><p>"+paragraph(1)+"</p><p>"+paragraph(2)+"</p></article>", 1),
			Options{MinChars: 1000}, true, "", nil},
		{"the page's own text stays",
			strings.Replace(newsPage(6), "</body>", `<script>window.__STATE__ = {"related":`+jsString(t, other)+`};</script></body>`, 1),
			Options{}, true, "", []string{"harbour", "ferry"}},
		{"a brief stays beside a longer story of its topic",
			strings.Replace(scriptedPage(`<script>window.__STATE__ = {"related":[{"title":"A year ago","body":`+jsString(t, lastYear)+`}]};</script>`),
				`<div class="skeleton">Loading…</div>`, brief, 1),
			Options{}, false, briefText, []string{"last year"}},
		{"another story's markup is not the page's",
			scriptedPage(`<script>window.__STATE__ = {"related":` + jsString(t, other) + `};</script>`),
			Options{}, false, "Loading…", []string{"harbour", "ferry"}},
		{"a notice naming the site is not the article",
			scriptedPage(`<script>window.__I18N__ = {"cookie.body":` + jsString(t, privacy) + `};</script>`),
			Options{}, false, "Loading…", nil},
		{"a page without a title has no article in its scripts",
			strings.Replace(scriptedPage(`<script>window.__STATE__ = {"story":`+jsString(t, story)+`};</script>`), "<title>Council passes budget | Example Media</title>", "", 1),
			Options{}, false, "Loading…", nil},
		{"a template is no data",
			scriptedPage(`<script type="text/x-handlebars-template">` + story + `</script>`),
			Options{}, false, "Loading…", nil},
		{"a teaser of two paragraphs is no article",
			scriptedPage(`<script>window.__STATE__ = {"story":` + jsString(t, storyMarkup(2)) + `};</script>`),
			Options{}, false, "Loading…", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if opts.MinChars == 0 {
				opts.MinChars = -1
			}
			a, _ := extractPage(t, tc.page, opts)
			for i := range 5 {
				if tc.wantText != "" {
					break // a text of its own
				}
				if got := strings.Contains(a.Text, paragraph(i)); got != tc.want {
					t.Errorf("paragraph %d in text: %v, want %v; text:\n%s", i, got, tc.want, a.Text)
					break
				}
			}
			if !tc.want && a.Text != tc.wantText {
				t.Errorf("text = %q, want %q", a.Text, tc.wantText)
			}
			for _, junk := range tc.not {
				if strings.Contains(a.Text, junk) {
					t.Errorf("text holds %q:\n%s", junk, a.Text)
				}
			}
		})
	}
}

// A site rule's drops apply to the article read from the page's scripts
// as they do to the page.
func TestPageScriptedRule(t *testing.T) {
	set, err := rules.Parse([]byte("rules:\n  - name: n\n    hosts: [news.example]\n    drop: ['.promo']\n"), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	story := storyMarkup(3) + `<div class="promo"><p>Subscribe to the Daily Budget newsletter for council news every morning.</p></div>` + storyMarkup(5)[len(storyMarkup(3)):]
	a, _ := extractPage(t, scriptedPage(`<script>window.__STATE__ = {"story":`+jsString(t, story)+`};</script>`), Options{MinChars: -1, Rules: set})
	if !strings.Contains(a.Text, paragraph(4)) || strings.Contains(a.Text, "Subscribe") {
		t.Errorf("text:\n%s", a.Text)
	}
}

func TestDecodeLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, `plain`},
		{`\u003cp\u003eA \"quote\"\u003c/p\u003e`, `<p>A "quote"</p>`},
		{`a\nb\tc\\d\/e`, "a\nb\tc\\d/e"},
		{`\x3cp\x3E`, `<p>`},
		{`\ud83d\ude00 and \u00e9`, "😀 and é"},
		{`\ud83d alone`, "\uFFFD alone"},
		{`\u12 cut`, `\u12 cut`},
		{`\xZZ`, `\xZZ`},
		{`\'single\'`, `'single'`},
		{`end\`, `end\`},
	} {
		if got := decodeLiteral(tc.in); got != tc.want {
			t.Errorf("decodeLiteral(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLooksData(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{`{"a":1}`, true}, {` [1,2]`, true}, {`5:["$","div"]`, true}, {`1f:I[123]`, true},
		{`<p>text</p>`, false}, {`Time: 10:00`, false}, {``, false}, {`abc`, false},
	} {
		if got := looksData(tc.s); got != tc.want {
			t.Errorf("looksData(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestAboutTitle(t *testing.T) {
	for _, tc := range []struct {
		text, title string
		want        bool
	}{
		{"The council approved the budget on Tuesday.", "Council passes budget | Example Media", true},
		{"The councils approved the budgets on Tuesday.", "Council passes budget | Example Media", true},
		{"The harbour board changed the ferry timetable.", "Council passes budget | Example Media", false},
		{"Example Media and its partners use cookies.", "Council passes budget | Example Media", false},
		{"You can change it at any time to do so in the settings.", "How to do it in Go", false},
		{"장동혁 국민의힘 대표가 한동훈 전 대표를 제명했지만 어깨는 무거워졌다.", "장동혁, 한동훈 제명했지만… 부담 커졌다", true},
		{"国务院常务会议今天研究部署了经济工作。", "国务院常务会议研究部署经济工作_新闻", true},
		{"东京的天气今天很好。", "国务院常务会议研究部署经济工作", false},
		{"anything", "", false},
	} {
		if got := aboutTitle(tc.text, tc.title); got != tc.want {
			t.Errorf("aboutTitle(%q, %q) = %v, want %v", tc.text, tc.title, got, tc.want)
		}
	}
}

// FuzzScriptedBodies reads any script text for markup: the markup found
// holds enough paragraphs and is UTF-8 when the script is.
func FuzzScriptedBodies(f *testing.F) {
	f.Add(`self.__next_f.push([1,"\u003cp\u003ea\u003c/p\u003e\u003cp\u003eb\u003c/p\u003e\u003cp\u003ec"])`)
	f.Add(`self.__next_f.push([1,"24:T1f,\u003cp\u003ea\u003cp\u003eb\u003cp\u003ec25:[\"$\"]\n3:T,"])`)
	f.Add(`{"a":"5:[\"$\",{\"__html\":\"\\u003cp\\u003e1\\u003cp\\u003e2\\u003cp\\u003e3\"}]"}`)
	f.Add(`x = "\ud83d\u"; y = "\x3cp>\x3cp>\x3cp>`)
	f.Fuzz(func(t *testing.T, script string) {
		script = strings.Repeat(script, max(1, minScriptedBytes/max(1, len(script))+1))
		got := scriptedBodies([]string{script})
		if len(got) > maxScriptedTries {
			t.Fatalf("%d bodies", len(got))
		}
		for i, b := range got {
			if paragraphTags(b, minScriptedParagraphs) < minScriptedParagraphs {
				t.Fatalf("body %q: too few paragraphs", b)
			}
			if i > 0 && len(b) > len(got[i-1]) {
				t.Fatalf("bodies not longest first")
			}
			if utf8.ValidString(script) && !utf8.ValidString(b) {
				t.Fatalf("body %q: not UTF-8", b)
			}
		}
	})
}
