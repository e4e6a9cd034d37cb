package extract

import (
	"strings"
	"testing"

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
