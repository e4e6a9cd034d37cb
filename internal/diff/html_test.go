package diff

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// parseHTML writes d with WriteHTML and parses the page as a browser would.
func parseHTML(t *testing.T, d *Diff) *html.Node {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, d); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Every text cell takes its direction from its own text, so that Arabic
// and Hebrew are laid out from the right. Regression: cells were laid out
// left to right, a sentence's full stop drawn at its start.
func TestWriteHTMLCellDirection(t *testing.T) {
	d := Compare("رفع البنك المركزي سعر الفائدة اليوم.\nوقال المتحدث إن القرار مؤقت.",
		"رفع البنك المركزي سعر الفائدة أمس.\nوقال المتحدث إن القرار مؤقت.", Options{})
	cells := 0
	for n := range parseHTML(t, d).Descendants() {
		if n.Type != html.ElementNode || n.Data != "td" || attr(n, "class") == "nd-none" {
			continue
		}
		cells++
		if got := attr(n, "dir"); got != "auto" {
			t.Errorf("a text cell has dir=%q, want auto", got)
		}
	}
	if cells == 0 {
		t.Fatal("the table has no text cells")
	}
}

// The ids and titles in the table's header and the page's title are
// isolated, so that a right-to-left override in one cannot turn the text
// around it. Regression: nothing was isolated.
func TestWriteHTMLIsolatesDocumentText(t *testing.T) {
	d := Compare("one two three.", "one two four.", Options{})
	d.A.ID, d.A.Title = "a-\u202e1", "Checked \u202eRLO title"
	d.B.ID = "b-2"
	isolated := map[string]bool{}
	var title string
	for n := range parseHTML(t, d).Descendants() {
		if n.Type != html.TextNode || n.Parent == nil {
			continue
		}
		switch n.Parent.Data {
		case "bdi":
			isolated[n.Data] = true
		case "title":
			title = n.Data
		}
	}
	for _, s := range []string{d.A.ID, d.A.Title, d.B.ID} {
		if !isolated[s] {
			t.Errorf("%q is not in a <bdi>", s)
		}
	}
	if want := "neardup diff: \u2068a-\u202e1\u2069 ↔ \u2068b-2\u2069"; title != want {
		t.Errorf("page title %q, want %q", title, want)
	}
}

// An id's isolate controls are shown, not obeyed, in the page's title and
// heading: a POP DIRECTIONAL ISOLATE in A's id closed its isolate early,
// and the heading read "reportsummary.txt ↔ txt." with B's name inside A's.
func TestWriteHTMLIdCannotCloseItsIsolate(t *testing.T) {
	d := Compare("one two three.", "one two four.", Options{})
	d.A.ID, d.B.ID = "report\u2069\u202e.txt", "summary.txt"
	var title string
	var heading []string
	for n := range parseHTML(t, d).Descendants() {
		if n.Type != html.TextNode || n.Parent == nil {
			continue
		}
		switch {
		case n.Parent.Data == "title":
			title = n.Data
		case n.Parent.Data == "bdi" && n.Parent.Parent != nil && n.Parent.Parent.Data == "h1":
			heading = append(heading, n.Data)
		}
	}
	if want := "neardup diff: \u2068report\\u2069\u202e.txt\u2069 ↔ \u2068summary.txt\u2069"; title != want {
		t.Errorf("page title %q, want %q", title, want)
	}
	if want := []string{"report\\u2069\u202e.txt", "summary.txt"}; !slices.Equal(heading, want) {
		t.Errorf("heading's isolated ids %q, want %q", heading, want)
	}
}

// TestWriteHTMLMarksOtherSpellings: by word, a word both texts hold but
// spell otherwise is marked in each column in the milder style of its
// side, a run of them as one mark, and text only one side holds as before;
// by sentence, nothing shared is marked. Regression: such words were
// plain, as shared text spelt alike is, so that PRESIDENT facing president
// or 34 facing ３４ read as no change.
func TestWriteHTMLMarksOtherSpellings(t *testing.T) {
	a := "The PRESIDENT WILL visit Paris; turnout was 34 percent, we don't know. The caf\u00e9 opened."
	b := "The president will visit Paris; turnout was \uff13\uff14 percent, we don\u2019t know. The cafe\u0301 opened today."
	marks := func(by By) map[string][]string {
		out := map[string][]string{}
		for n := range parseHTML(t, Compare(a, b, Options{By: by})).Descendants() {
			if n.Type == html.ElementNode && n.Data == "span" && n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
				if class := attr(n, "class"); class == "nd-a" || class == "nd-b" || strings.HasSuffix(class, "-spelt") {
					out[class] = append(out[class], n.FirstChild.Data)
				}
			}
		}
		return out
	}
	want := map[string][]string{
		"nd-a":       {"Red"}, // the legend's
		"nd-b":       {"Green", "today"},
		"nd-a-spelt": {"Pale red", "PRESIDENT WILL", "34", "don't", "caf\u00e9"},
		"nd-b-spelt": {"pale green", "president will", "\uff13\uff14", "don\u2019t", "cafe\u0301"},
	}
	if diff := cmp.Diff(want, marks(ByWord)); diff != "" {
		t.Errorf("by word, marks (-want +got):\n%s", diff)
	}
	want = map[string][]string{"nd-a": {"Red", "The caf\u00e9 opened."}, "nd-b": {"Green", "The cafe\u0301 opened today."},
		"nd-a-spelt": {"Pale red"}, "nd-b-spelt": {"pale green"}}
	if diff := cmp.Diff(want, marks(BySentence)); diff != "" {
		t.Errorf("by sentence, marks (-want +got):\n%s", diff)
	}
}

// TestWriteHTMLShowsInvisibleMarks: a mark holds a format character, which
// shows as nothing, written as a Go escape as the text output writes it;
// the shared text keeps those that writing uses. Regression: a right-to-left
// mark only one text held was an empty-looking span.
func TestWriteHTMLShowsInvisibleMarks(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       [][2]string // class and text of each mark, in order
	}{
		{"a mark alone", "The minister said \u200fnothing today.", "The minister said nothing today.",
			[][2]string{{"nd-a", `\u200f`}}},
		{"a word only one holds", "The minister said wi\u200bdth today.", "The minister said nothing today.",
			[][2]string{{"nd-a", `wi\u200bdth`}, {"nd-b", "nothing"}}},
		{"a word spelt otherwise", "a co\u00adoperative bank", "a cooperative bank",
			[][2]string{{"nd-a-spelt", `co\u00adoperative`}, {"nd-b-spelt", "cooperative"}}},
		{"shared text keeps it", "a \u200fco\u00adoperative bank", "a \u200fco\u00adoperative farm",
			[][2]string{{"nd-a", "bank"}, {"nd-b", "farm"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [][2]string
			for n := range parseHTML(t, Compare(tc.a, tc.b, Options{})).Descendants() {
				if n.Type == html.ElementNode && n.Data == "span" && n.Parent.Data == "td" {
					got = append(got, [2]string{attr(n, "class"), n.FirstChild.Data})
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("marks (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteHTMLMarksEditsAcrossLines: an edit that spans lines is marked
// whole on each, the punctuation between its words too. Regression: the
// ")," that ends a line inside a replacement was left unmarked, where the
// text output marks it.
func TestWriteHTMLMarksEditsAcrossLines(t *testing.T) {
	d := Compare("We will meet on Monday at noon.", "We will meet on Tuesday ($5 entry),\nFriday at noon.", Options{})
	var got [][2]string
	for n := range parseHTML(t, d).Descendants() {
		if n.Type == html.ElementNode && n.Data == "span" && n.Parent.Data == "td" {
			got = append(got, [2]string{attr(n, "class"), n.FirstChild.Data})
		}
	}
	want := [][2]string{{"nd-a", "Monday"}, {"nd-b", "Tuesday ($5 entry),"}, {"nd-b", "Friday"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("marks (-want +got):\n%s", diff)
	}
}
