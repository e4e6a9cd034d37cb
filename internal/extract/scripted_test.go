package extract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
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
// stream of server components (a row of text, or markup inside a JSON row),
// a preloaded state; its placeholders go, and the page's own text, when it
// has some, stays.
func TestPageScripted(t *testing.T) {
	story := storyMarkup(5)
	row := `5:["$","div",null,{"className":"body","dangerouslySetInnerHTML":{"__html":` + jsString(t, story) + `}}]` + "\n"
	other := strings.NewReplacer("council", "harbour board", "budget", "ferry timetable", "Council", "Harbour board").Replace(story)
	for _, tc := range []struct {
		name     string
		page     string
		want     bool   // the article's paragraphs are the text
		wantText string // a text to hold instead, when not
		not      []string
	}{
		{"server components' text row",
			scriptedPage(`<script>self.__next_f.push([1,"24:T1b7b,"])</script>`,
				`<script>self.__next_f.push([1,`+jsString(t, `<div class="editor">$$ARTICLEAD$$`+story+`</div>`)+`])</script>`),
			true, "", []string{"ARTICLEAD", "Loading"}},
		{"markup inside a JSON row",
			scriptedPage(`<script>self.__next_f.push([1,` + jsString(t, row) + `])</script>`),
			true, "", []string{"dangerouslySetInnerHTML", "className", `"$"`}},
		{"preloaded state",
			scriptedPage(`<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"teaser":"<p>Read more</p>","story":{"title":"Council passes budget","body":` + jsString(t, story) + `}}}}</script>`),
			true, "", []string{"Read more"}},
		{"the page's own text stays",
			strings.Replace(newsPage(6), "</body>", `<script>window.__STATE__ = {"related":`+jsString(t, other)+`};</script></body>`, 1),
			true, "", []string{"harbour", "ferry"}},
		{"another story's markup is not the page's",
			scriptedPage(`<script>window.__STATE__ = {"related":` + jsString(t, other) + `};</script>`),
			false, "Loading…", []string{"harbour", "ferry"}},
		{"a teaser of two paragraphs is no article",
			scriptedPage(`<script>window.__STATE__ = {"story":` + jsString(t, storyMarkup(2)) + `};</script>`),
			false, "Loading…", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := extractPage(t, tc.page, Options{MinChars: -1})
			for i := range 5 {
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
		{"The harbour board changed the ferry timetable.", "Council passes budget | Example Media", false},
		{"장동혁 국민의힘 대표가 한동훈 전 대표를 제명했지만 어깨는 무거워졌다.", "장동혁, 한동훈 제명했지만… 부담 커졌다", true},
		{"国务院常务会议今天研究部署了经济工作。", "国务院常务会议研究部署经济工作_新闻", true},
		{"东京的天气今天很好。", "国务院常务会议研究部署经济工作", false},
		{"anything", "", true},
	} {
		if got := aboutTitle(tc.text, tc.title); got != tc.want {
			t.Errorf("aboutTitle(%q, %q) = %v, want %v", tc.text, tc.title, got, tc.want)
		}
	}
}

// FuzzScriptedBody reads any script text for markup: the markup found is
// decoded from the script and holds enough paragraphs.
func FuzzScriptedBody(f *testing.F) {
	f.Add(`self.__next_f.push([1,"\u003cp\u003ea\u003c/p\u003e\u003cp\u003eb\u003c/p\u003e\u003cp\u003ec"])`)
	f.Add(`{"a":"5:[\"$\",{\"__html\":\"\\u003cp\\u003e1\\u003cp\\u003e2\\u003cp\\u003e3\"}]"}`)
	f.Add(`x = "\ud83d\u"; y = "\x3cp>\x3cp>\x3cp>`)
	f.Fuzz(func(t *testing.T, script string) {
		script = strings.Repeat(script, max(1, minScriptedBytes/max(1, len(script))+1))
		got := scriptedBody([]string{script})
		if got != "" && paragraphTags(got, minScriptedParagraphs) < minScriptedParagraphs {
			t.Fatalf("scriptedBody = %q: too few paragraphs", got)
		}
		if !strings.Contains(script, `\`) && got != "" && !strings.Contains(script, got) {
			t.Fatalf("scriptedBody = %q, not in the script", got)
		}
		if utf8.ValidString(script) && !utf8.ValidString(got) {
			t.Fatalf("scriptedBody = %q: not UTF-8", got)
		}
	})
}
