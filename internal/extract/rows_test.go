package extract

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestClassStem(t *testing.T) {
	for in, want := range map[string]string{
		"et_pb_row et_pb_row_3 et_pb_gutters2": "et_pb_row et_pb_row_ et_pb_gutters2",
		"row-fluid-wrapper row-number-6":       "row-fluid-wrapper row-number-",
		"sect1":                                "sect1",
		"mid_box2":                             "mid_box2",
		"Col-MD-8":                             "col-md-",
		"":                                     "",
	} {
		if got := classStem(in); got != want {
			t.Errorf("classStem(%q) = %q, want %q", in, got, want)
		}
	}
}

// rowsPage is an article laid out by a page builder: sections, each a row
// of its own, its heading and paragraphs in a text module; the first
// section is long, the others a paragraph each.
func rowsPage() string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><title>How the harbour works</title></head><body>` +
		`<header><a href="/">Home</a> <a href="/guides">Guides</a></header><div id="page-container"><div class="builder-content">`)
	topics := []string{"tides", "ferries", "cargo", "pilots", "storms"}
	for i, topic := range topics {
		fmt.Fprintf(&b, `<div class="builder_row builder_row_%d gutters2"><div class="builder_column builder_column_%d"><div class="builder_text builder_text_%d">`, i, i, i)
		fmt.Fprintf(&b, `<h2>The %s</h2><p>%s</p>`, topic, paragraph(i))
		if i == 0 {
			for j := 5; j < 10; j++ {
				fmt.Fprintf(&b, `<p>%s</p>`, paragraph(j))
			}
		}
		b.WriteString(`</div></div></div>`)
	}
	b.WriteString(`</div></div><footer><p>Privacy policy and terms of use for the site.</p></footer></body></html>`)
	return b.String()
}

// Regression: on a page laid out in a builder's rows, the engine took one
// row for the article and the others were lost.
func TestPageRowsOfOneArticle(t *testing.T) {
	a, _ := extractPage(t, rowsPage(), Options{MinChars: -1})
	for i := range 10 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d missing:\n%s", i, a.Text)
		}
	}
}

func TestWidenToRows(t *testing.T) {
	page := `<html><body><main><div class="intro"><p>` + paragraph(9) + `</p></div><div class="rows">`
	for i := range 4 {
		page += fmt.Sprintf(`<div class="row row-%d"><h2>Part %d</h2><p>%s</p></div>`, i, i, paragraph(i))
	}
	page += `</div></main></body></html>`
	doc := parse(t, page)
	markRegions(doc, nil)
	runs := markRows(doc)
	fresh := func() *html.Node { return cloneTree(doc) }
	content := func(text string) *html.Node {
		return parse(t, `<div><p>`+text+`</p></div>`)
	}
	w := widenToRows(runs, content(paragraph(2)), fresh)
	if w == nil || attr(w, "class") != "rows" {
		t.Fatalf("one row taken: widened to %v, want the rows' parent", w)
	}
	if w := widenToRows(runs, content(paragraph(9)), fresh); w != nil {
		t.Errorf("content beside the rows: widened to <%s class=%q>, want nothing", w.Data, attr(w, "class"))
	}
	if w := widenToRows(nil, content(paragraph(2)), fresh); w != nil {
		t.Errorf("no runs: widened")
	}
}

func TestMarkRows(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		runs       int
	}{
		{"a builder's rows", rowsPage(), 1},
		{"a list article's entries", `<html><body><main><ol>` + strings.Repeat(`<li><h2>A car</h2><p>`+paragraph(1)+`</p></li>`, 4) + `</ol></main></body></html>`, 1},
		{"a blog's index of posts", `<html><body><main>` + strings.Repeat(`<article class="post"><p>`+paragraph(1)+`</p></article>`, 4) + `</main></body></html>`, 0},
		{"rows without a class", `<html><body><main>` + strings.Repeat(`<div><p>`+paragraph(1)+`</p></div>`, 4) + `</main></body></html>`, 0},
		{"two rows", `<html><body><main>` + strings.Repeat(`<div class="row"><p>`+paragraph(1)+`</p></div>`, 2) + `</main></body></html>`, 0},
		{"short rows", `<html><body><main>` + strings.Repeat(`<div class="row"><p>A short line.</p></div>`, 5) + `</main></body></html>`, 0},
		{"rows under the body", `<html><body>` + strings.Repeat(`<div class="modal-box"><p>`+paragraph(1)+`</p></div>`, 4) + `</body></html>`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			markRegions(doc, nil)
			if got := len(markRows(doc)); got != tc.runs {
				t.Errorf("%d runs, want %d", got, tc.runs)
			}
		})
	}
}
