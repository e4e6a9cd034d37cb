package extract

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func parse(t testing.TB, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{"paragraphs never glue", "<p>One ends.</p><p>Two starts.</p>", "One ends.\n\nTwo starts."},
		{"divs are blocks", "<div>alpha</div><div>beta</div>", "alpha\n\nbeta"},
		{"heading then paragraph", "<h2>Head</h2>Body text", "Head\n\nBody text"},
		{"list items", "<ul><li>one</li><li>two</li></ul>after", "one\n\ntwo\n\nafter"},
		{"br is a line break", "<p>line one<br>line two</p>", "line one\nline two"},
		{"two br are a paragraph break", "<td>para one<br><br>para two<br>line</td>", "para one\n\npara two\nline"},
		{"table cells and rows", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a\nb\n\nc"},
		{"inline markup joins letters", "<p><b>W</b>ord and <i>more</i>.</p>", "Word and more."},
		{"a capital after a small letter across an element starts a word",
			"<p><span>20:42</span><span>KEY EVENT</span> <b>Ber</b>lin, <span>Alternatives</span><b>Top</b> i<b>Phone</b></p>",
			"20:42 KEY EVENT Berlin, Alternatives Top iPhone"},
		{"whitespace collapses", "<p>  a \n\t b\u00a0 c  </p>", "a b c"},
		{"pre keeps spacing", "<pre>x  =  1\n  y</pre>", "x  =  1\n  y"},
		{"script never leaks", "<p>Text<script>var x = 1;</script> more</p>", "Text more"},
		{"style never leaks", "<style>p{color:red}</style><p>Text</p>", "Text"},
		{"noscript never leaks", "<p>Text</p><noscript>Enable JavaScript</noscript>", "Text"},
		{"template never leaks", "<template><p>hidden</p></template><p>Text</p>", "Text"},
		{"hidden element skipped", "<p>Shown</p><p style=\"display:none\">Hidden</p>", "Shown"},
		{"empty blocks vanish", "<div><div> </div><p></p></div><p>x</p>", "x"},
		{"title and head are blocks", "<title>T</title><p>x</p>", "T\n\nx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Text(parse(t, tc.html))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// Regression: libraries build elements with Data set but DataAtom zero;
// their block boundaries must still break paragraphs.
func TestTextLibraryBuiltElements(t *testing.T) {
	root := &html.Node{Type: html.ElementNode, Data: "div"}
	for _, s := range []string{"INTRODUCTION", "4.1 There are"} {
		p := &html.Node{Type: html.ElementNode, Data: "p"}
		p.AppendChild(&html.Node{Type: html.TextNode, Data: s})
		root.AppendChild(p)
	}
	if diff := cmp.Diff("INTRODUCTION\n\n4.1 There are", Text(root)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func BenchmarkText(b *testing.B) {
	doc := parse(b, newsPage(40))
	for b.Loop() {
		Text(doc)
	}
}

// TestSpaceScans checks the byte-wise white-space scans against ranging
// over the string with unicode.IsSpace, as the code they replace did.
func TestSpaceScans(t *testing.T) {
	texts := []string{"", " ", "word", " two  words\t", "a\u00a0b", "x\u0085y", "em\u2003space",
		"ideographic\u3000space", "bad \xff\xfe bytes", "\xe2\x80", "tail\u2028", "\u00a0\u00a0", "日本語 テキスト"}
	for r := rune(0); r < 0x3100; r++ {
		texts = append(texts, "a"+string(r)+"b")
	}
	for _, s := range texts {
		want := 0
		for _, r := range s {
			if !unicode.IsSpace(r) {
				want++
			}
		}
		if got := nonSpaceRunes(s); got != want {
			t.Errorf("nonSpaceRunes(%q) = %d, want %d", s, got, want)
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		if got := wordEnd(s); got != end {
			t.Errorf("wordEnd(%q) = %d, want %d", s, got, end)
		}
		size := 0
		if r, n := utf8.DecodeRuneInString(s); s != "" && unicode.IsSpace(r) {
			size = n
		}
		if got := spaceAt(s); got != size {
			t.Errorf("spaceAt(%q) = %d, want %d", s, got, size)
		}
	}
}
