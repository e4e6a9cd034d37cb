package extract

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// block are the elements whose start and end break a paragraph.
var block = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Body: true, atom.Caption: true, atom.Center: true, atom.Dd: true,
	atom.Details: true, atom.Dialog: true, atom.Dir: true, atom.Div: true,
	atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Header: true, atom.Hgroup: true, atom.Hr: true, atom.Html: true,
	atom.Legend: true, atom.Li: true, atom.Main: true, atom.Menu: true,
	atom.Nav: true, atom.Ol: true, atom.Option: true, atom.P: true,
	atom.Pre: true, atom.Section: true, atom.Summary: true, atom.Table: true,
	atom.Tbody: true, atom.Tfoot: true, atom.Thead: true, atom.Tr: true,
	atom.Ul: true, atom.Title: true, atom.Head: true,
}

// lineBreak are the elements that end a line but not a paragraph.
var lineBreak = map[atom.Atom]bool{atom.Br: true, atom.Td: true, atom.Th: true}

// Text renders the text under n. Every block boundary (paragraphs,
// headings, list items, table rows, divisions …) becomes a paragraph break
// ("\n\n"), <br> and table cells a line break (two <br> in a row a
// paragraph break); other whitespace collapses
// to one space except inside <pre>. Script, style and the other elements
// that are never text are skipped, as are hidden elements.
func Text(n *html.Node) string {
	var w textWriter
	w.node(n)
	return w.String()
}

// tag returns n's element atom. Libraries build elements with only Data
// set, so a zero DataAtom is looked up from the name.
func tag(n *html.Node) atom.Atom {
	if n.DataAtom != 0 || n.Type != html.ElementNode {
		return n.DataAtom
	}
	return atom.Lookup([]byte(strings.ToLower(n.Data)))
}

// textWriter accumulates rendered text as paragraphs of lines. The
// current paragraph's buffer is reused from one paragraph to the next, and
// finished paragraphs go straight into the output: a leaf block's text is
// rendered once for each of the content's blocks, and a buffer for each
// paragraph and a join at the end cost about 1 % of extraction.
type textWriter struct {
	out   strings.Builder // finished paragraphs, separated by blank lines
	cur   []byte          // the current paragraph
	space bool            // a space is owed before the next word
	edge  bool            // an inline element began or ended since the last text
	pre   int             // depth of <pre> elements
}

func (w *textWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		if neverText[tag(n)] || Hidden(n) {
			return
		}
	case html.DocumentNode:
	default:
		return
	}
	a := tag(n)
	switch {
	case block[a]:
		w.breakPara()
		defer w.breakPara()
	case a == atom.Br && w.endsLine():
		// A second <br> in a row separates paragraphs, as on pages laid
		// out without <p>.
		w.breakPara()
	case lineBreak[a]:
		defer w.breakLine()
	default:
		w.edge = true
		defer func() { w.edge = true }()
	}
	if a == atom.Pre {
		w.pre++
		defer func() { w.pre-- }()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// text appends a text node's content.
func (w *textWriter) text(s string) {
	if w.pre > 0 {
		w.cur = append(w.cur, s...)
		w.space = false
		return
	}
	for len(s) > 0 {
		if size := spaceAt(s); size > 0 {
			w.space = true
			s = s[size:]
			continue
		}
		end := wordEnd(s)
		if w.edge && !w.space && len(w.cur) > 0 && gluedAtEdge(w.cur, s) {
			w.space = true
		}
		w.edge = false
		if w.space && len(w.cur) > 0 && !w.endsLine() {
			w.cur = append(w.cur, ' ')
		}
		w.space = false
		w.cur = append(w.cur, s[:end]...)
		s = s[end:]
	}
}

// asciiSpace marks the ASCII bytes unicode.IsSpace takes for white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// spaceAt returns the size of the white-space rune (unicode.IsSpace) that
// s starts with, 0 when it starts with another rune or is empty.
func spaceAt(s string) int {
	if len(s) == 0 {
		return 0
	}
	if s[0] < utf8.RuneSelf {
		if asciiSpace[s[0]] {
			return 1
		}
		return 0
	}
	r, size := utf8.DecodeRuneInString(s)
	if unicode.IsSpace(r) {
		return size
	}
	return 0
}

// wordEnd returns the index of the first white-space rune of s
// (unicode.IsSpace), len(s) when it has none.
func wordEnd(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			if asciiSpace[s[i]] {
				return i
			}
			i++
			continue
		}
		if size := spaceAt(s[i:]); size > 0 {
			return i
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return len(s)
}

// nonSpaceRunes counts the runes of s that are not white space
// (unicode.IsSpace), a byte that is not UTF-8 as one rune, as ranging over
// s does. It reads ASCII a byte at a time without decoding: the prose and
// link counts of every tree walk go through it.
func nonSpaceRunes(s string) int {
	k := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				k++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			k++
		}
		i += size
	}
	return k
}

// nonSpace returns the number of bytes of s that are not ASCII white space
// (asciiSpace).
func nonSpace(s string) int {
	k := 0
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= utf8.RuneSelf || !asciiSpace[b] {
			k++
		}
	}
	return k
}

// endsLine reports whether the current paragraph ends with a line break.
func (w *textWriter) endsLine() bool { return len(w.cur) > 0 && w.cur[len(w.cur)-1] == '\n' }

// breakLine ends the current line.
func (w *textWriter) breakLine() {
	if len(w.cur) > 0 && !w.endsLine() {
		w.cur = append(w.cur, '\n')
	}
	w.space = false
}

// breakPara ends the current paragraph.
func (w *textWriter) breakPara() {
	if p := bytes.TrimSpace(w.cur); len(p) > 0 {
		if w.out.Len() > 0 {
			w.out.WriteString("\n\n")
		}
		w.out.Write(p)
	}
	w.cur = w.cur[:0]
	w.space = false
}

// String returns the paragraphs joined by blank lines.
func (w *textWriter) String() string {
	w.breakPara()
	return w.out.String()
}

// gluedAtEdge reports whether the text s, written right after an inline
// element began or ended with no space between, starts a word of its own:
// the text before ends in a word of two or more small letters or digits
// and s starts with a capital ("20:42<span>KEY EVENT</span>",
// "Alternatives<span>Top</span>"). Such elements are laid out apart by the
// page's style sheet; within one word a capital after small letters is
// rare, and a drop cap ("<span>T</span>he"), a split word
// ("<b>Ber</b>lin") or a brand ("i<b>Phone</b>") joins as before.
func gluedAtEdge(before []byte, s string) bool {
	if r, _ := utf8.DecodeRuneInString(s); !unicode.IsUpper(r) {
		return false
	}
	n := 0
	for len(before) > 0 && n < 2 {
		l, size := utf8.DecodeLastRune(before)
		if !unicode.IsLower(l) && !unicode.IsDigit(l) {
			break
		}
		n++
		before = before[:len(before)-size]
	}
	return n == 2
}
