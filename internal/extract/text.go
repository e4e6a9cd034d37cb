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
		r, size := utf8.DecodeRuneInString(s)
		if unicode.IsSpace(r) || r == '\u00a0' {
			w.space = true
			s = s[size:]
			continue
		}
		end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\u00a0' })
		if end < 0 {
			end = len(s)
		}
		if w.space && w.cur.Len() > 0 && !endsWithNewline(w.cur.String()) {
			w.cur.WriteByte(' ')
		}
		w.space = false
		w.cur.WriteString(s[:end])
		s = s[end:]
	}
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
