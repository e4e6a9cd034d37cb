package extract

import (
	"fmt"
	nurl "net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// letterPage is an open letter of paragraphs with, in another division, a
// list of signatories: a name and a place on each line, no sentence.
func letterPage(paragraphs, names int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>A letter</title></head><body><div id="letter">`)
	for i := range paragraphs {
		fmt.Fprintf(&b, "<p>%s</p>", paragraph(i))
	}
	b.WriteString(`</div><div id="names">`)
	for i := range names {
		fmt.Fprintf(&b, "<p>Signatory Number%d, University of Somewhere</p>", i)
	}
	b.WriteString(`</div></body></html>`)
	return b.String()
}

func TestPageListTakenForTheArticle(t *testing.T) {
	for _, tc := range []struct {
		name          string
		page          string
		want, notWant string
	}{
		{"a long list without sentences: the engine chooses again", letterPage(4, 60), paragraph(3), "Signatory Number7"},
		{"a short list stays (it may be the article)", letterPage(4, 10), "Signatory Number7", paragraph(3)},
		{"a second choice with little prose is not taken", letterPage(1, 60), "Signatory Number7", paragraph(0)},
		{"long lines without full stops (verse) are not a list", versePage(), "Line 12 of the verse", paragraph(3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The engine takes the list while it is on the page, the
			// letter otherwise.
			engine := firstWith("names")
			second := firstWith("letter")
			e := func(doc *html.Node, u *nurl.URL) Found {
				if f := engine(doc, u); f.Node != nil && strings.TrimSpace(Text(f.Node)) != "" {
					return f
				}
				return second(doc, u)
			}
			a, _ := extractPage(t, tc.page, Options{MinChars: -1, Engine: e, KeepBlocks: true})
			if !strings.Contains(a.Text, tc.want) || strings.Contains(a.Text, tc.notWant) {
				t.Errorf("text %q: want %q in it, %q not", a.Text, tc.want, tc.notWant)
			}
		})
	}
}

func TestSentenceProse(t *testing.T) {
	for _, tc := range []struct {
		body        string
		prose, text int
	}{
		{`<p>One two three four five six seven eight.</p>`, 40, 40},
		{`<p>One two three four five six seven.</p>`, 0, 34},                // too few words
		{`<p>One two three four five six seven eight nine</p>`, 0, 44},      // no full stop
		{`<p>A, b<br>One two three four five six seven eight.</p>`, 40, 44}, // lines apart
	} {
		doc, err := html.Parse(strings.NewReader("<html><body>" + tc.body + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if p, n, _ := sentenceProse(doc); p != tc.prose || n != tc.text {
			t.Errorf("%s: prose %d of %d, want %d of %d", tc.body, p, n, tc.prose, tc.text)
		}
	}
}

// versePage is letterPage with verse in place of the names: long lines
// that do not end like sentences.
func versePage() string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>A poem</title></head><body><div id="names"><p>`)
	for i := range 60 {
		fmt.Fprintf(&b, "Line %d of the verse that walks along the quiet harbour wall<br>", i)
	}
	b.WriteString(`</p></div><div id="letter">`)
	for i := range 4 {
		fmt.Fprintf(&b, "<p>%s</p>", paragraph(i))
	}
	b.WriteString(`</div></body></html>`)
	return b.String()
}

func TestManySentenceEnds(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`<p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p>`, true},
		{`<p>渡轮周一返回港口。天气很好。</p>`, true},
		{`<table><tr><td>Aldershot</td><td>jane.roe@parliament.example</td></tr><tr><td>Bath</td><td>john.doe@parliament.example</td></tr></table>`, false},
		{`<ul><li>Jane Roe, University of Somewhere</li><li>John Doe, writer</li></ul>`, false},
	} {
		doc, err := html.Parse(strings.NewReader("<html><body>" + tc.body + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if got := manySentenceEnds(doc); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.body, got, tc.want)
		}
	}
}
