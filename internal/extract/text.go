package extract

import (
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

// textWriter accumulates rendered text as paragraphs of lines.
type textWriter struct {
	paras []string
	cur   strings.Builder
	space bool // a space is owed before the next word
	pre   int  // depth of <pre> elements
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
	case a == atom.Br && endsWithNewline(w.cur.String()):
		// A second <br> in a row separates paragraphs, as on pages laid
		// out without <p>.
		w.breakPara()
	case lineBreak[a]:
		defer w.breakLine()
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
		w.cur.WriteString(s)
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
		if w.space && w.cur.Len() > 0 && !endsWithNewline(w.cur.String()) {
			w.cur.WriteByte(' ')
		}
		w.space = false
		w.cur.WriteString(s[:end])
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

func endsWithNewline(s string) bool { return strings.HasSuffix(s, "\n") }

// breakLine ends the current line.
func (w *textWriter) breakLine() {
	if w.cur.Len() > 0 && !endsWithNewline(w.cur.String()) {
		w.cur.WriteByte('\n')
	}
	w.space = false
}

// breakPara ends the current paragraph.
func (w *textWriter) breakPara() {
	if p := strings.TrimSpace(w.cur.String()); p != "" {
		w.paras = append(w.paras, p)
	}
	w.cur.Reset()
	w.space = false
}

// String returns the paragraphs joined by blank lines.
func (w *textWriter) String() string {
	w.breakPara()
	return strings.Join(w.paras, "\n\n")
}
