package extract

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// Regression: a page that opens a <div> for each paragraph and closes none
// kept only the last eight paragraphs (the engine scored the chain the
// parser nests them in level by level).
func TestPageUnclosedParagraphDivs(t *testing.T) {
	for _, class := range []string{`class="para"`, ""} {
		var b strings.Builder
		for i := range 14 {
			b.WriteString("<div " + class + ">" + paragraph(i) + "\n")
		}
		page := strings.Replace(newsPage(0), "</article>", b.String()+"</article>", 1)
		a, _ := extractPage(t, page, Options{})
		for i := range 14 {
			if !strings.Contains("\n\n"+a.Text+"\n\n", "\n\n"+paragraph(i)+"\n\n") {
				t.Errorf("divs %s: paragraph %d missing from text, or not apart:\n%s", class, i, a.Text)
			}
		}
	}
}

func TestUnnestChains(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a chain", `<div class=p>a<div class=p>b<div class=p>c<div class=p>d</div></div></div></div>`,
			`<div class="p">a</div><div class="p">b</div><div class="p">c</div><div class="p">d</div>`},
		{"inline elements and white space", `<div>a <b>x</b><div>b <a href=/>y</a><div>c<div>d</div> </div></div></div>`,
			`<div>a <b>x</b></div><div>b <a href="/">y</a></div><div>c </div><div>d</div>`},
		{"too short a chain", `<div>a<div>b<div>c</div></div></div>`, `<div>a<div>b<div>c</div></div></div>`},
		{"another class", `<div class=p>a<div class=q>b<div class=q>c<div class=q>d<div class=q>e</div></div></div></div></div>`,
			`<div class="p">a<div class="q">b</div><div class="q">c</div><div class="q">d</div><div class="q">e</div></div>`},
		{"blocks before", `<div><p>a</p><div><p>b</p><div><p>c</p><div>d</div></div></div></div>`,
			`<div><p>a</p><div><p>b</p><div><p>c</p><div>d</div></div></div></div>`},
		{"text after", `<div>a<div>b<div>c<div>d</div></div>e</div></div>`, `<div>a<div>b<div>c<div>d</div></div>e</div></div>`},
		{"images and labels", `<div>a<img src=x><div>b<label>l</label><div>c<svg><text>t</text></svg><div>d</div></div></div></div>`,
			`<div>a<img src="x"/></div><div>b<label>l</label></div><div>c<svg><text>t</text></svg></div><div>d</div>`},
		{"an id marks its own", `<div>a<div id=x>b<div>c<div>d</div></div></div></div>`, `<div>a<div id="x">b<div>c<div>d</div></div></div></div>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			unnestChains(doc)
			var b strings.Builder
			body := doc.FirstChild.LastChild // <html><head/><body>
			for c := body.FirstChild; c != nil; c = c.NextSibling {
				if err := html.Render(&b, c); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tc.want {
				t.Errorf("unnestChains(%q) = %q, want %q", tc.in, b.String(), tc.want)
			}
		})
	}
}

// chainOf returns a chain of unclosed <div>s, the first opened by open, the
// others of class "c", each holding one of texts.
func chainOf(open string, texts []string) string {
	var b strings.Builder
	for i, text := range texts {
		if i == 0 {
			b.WriteString(open)
		} else {
			b.WriteString(`<div class="c">`)
		}
		b.WriteString(text)
	}
	return b.String() + strings.Repeat("</div>", len(texts))
}

// Regression (reviewer's finding): the chains were set side by side
// before the page was cleaned and its rule's body chosen, so that the
// paragraphs of a hidden <div>, or of the comments, came out of it into
// the article, and a rule's body ("#story") kept its first paragraph
// alone.
func TestUnnestChainsAfterCleaning(t *testing.T) {
	hidden := []string{"SECRETA lorem ipsum text here.", "SECRETB more words.", "SECRETC yet more words.", "SECRETD last words."}
	for _, open := range []string{`<div class="c" style="display:none">`, `<div class="c" hidden>`, `<div class="c" id="comments">`} {
		page := strings.Replace(newsPage(8), "</article>", chainOf(open, hidden)+"</article>", 1)
		a, _ := extractPage(t, page, Options{})
		if strings.Contains(a.Text, "SECRET") {
			t.Errorf("%s: its chain's text is in the article:\n%s", open, a.Text)
		}
	}
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: news\n    hosts: [news.example]\n    body: '#story'\n"), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	story := []string{paragraph(0), paragraph(1), paragraph(2), paragraph(3), paragraph(4)}
	page := "<html><head><title>T</title></head><body>" + chainOf(`<div class="c" id="story">`, story) + "</body></html>"
	a, _ := extractPage(t, page, Options{Rules: rs})
	for i, p := range story {
		if !strings.Contains(a.Text, p) {
			t.Errorf("the rule's body lost paragraph %d:\n%s", i, a.Text)
		}
	}
}
