package extract

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
)

// Regression (reviewer's finding): a page nested deeper than 512 open
// elements failed whole ("html: open stack of elements exceeds 512
// nodes"), its article lost.
func TestPageDeepNesting(t *testing.T) {
	article := newsPage(6)
	for _, tc := range []struct {
		name, page string
		want       string // the skip reason
	}{
		{"600 comments left open", strings.Replace(article, "</article>",
			`</article><section class="comments">`+strings.Repeat(`<div class="comment"><p>Nice.</p>`, 600)+`</section>`, 1), ""},
		{"200,000 divs left open", strings.Replace(article, "</article>", "</article>"+strings.Repeat("<div>", 200_000)+"x", 1), ""},
		{"the article inside 1,000 divs", strings.Replace(strings.Replace(article, "<article>", strings.Repeat("<div>", 1000)+"<article>", 1),
			"</article>", "</article>"+strings.Repeat("</div>", 1000), 1), ""},
		{"60,000 tables in cells", strings.Replace(article, "</article>", "</article>"+strings.Repeat("<table><tr><td>", 60_000)+"x", 1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, skip := extractPage(t, tc.page, Options{})
			if skip != core.SkipReason(tc.want) {
				t.Fatalf("skip %q, want %q", skip, tc.want)
			}
			for i := range 6 {
				if !strings.Contains("\n\n"+a.Text+"\n\n", "\n\n"+paragraph(i)+"\n\n") {
					t.Errorf("paragraph %d missing from text, or not apart:\n%s", i, a.Text)
				}
			}
			if strings.Contains(a.Text, "Nice.") {
				t.Errorf("comments in the text:\n%s", a.Text)
			}
		})
	}
}

func TestFlattenNesting(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"past the depth", `<div><div><div id=x><span>a</span>b</div></div></div>`, `<div><div>ab</div></div>`},
		{"paragraphs kept past the depth", `<div><div><div id=x><p>a</p><p>b<p>c</div></div></div>`, `<div><div><p>a</p><p>b<p>c</div></div>`},
		{"end tags close dropped ones first", `<div><section><div><div>a</div></div></section>c</div>`, `<div><section>a</section>c</div>`},
		{"raw text kept", `<div><div><script>if (a<b) x()</script><div>t</div></div></div>`, `<div><div><script>if (a<b) x()</script>t</div></div>`},
		{"void elements do not nest", `<div><br><img src=a.png><p>a<p>b</div>`, `<div><br><img src=a.png><p>a<p>b</div>`},
		{"stray end tags kept", `</span><div>a</em></div>`, `</span><div>a</em></div>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(flattenNesting([]byte(tc.in), 2)); got != tc.want {
				t.Errorf("flattenNesting(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
