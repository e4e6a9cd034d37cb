package extracteval

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// commentSeparator starts the user comments in a Dragnet gold file; the
// article body is what comes before it.
const commentSeparator = "!@#$%^&*()"

// CleanGold turns a gold file into the plain text it grades: it decodes the
// bytes (UTF-16 with a byte-order mark, UTF-8, or else Windows-1252), cuts
// Dragnet's comment section, drops CleanEval's leading "URL:" line and its
// <p>, <h> and <l> block markers. A gold file that is HTML (the expected
// output of the Readability.js tests, `<div id="readability-page-1"`) is
// reduced to its text, a block element a paragraph.
func CleanGold(raw []byte) string {
	text := decodeText(raw)
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "<div") || strings.HasPrefix(t, "<html") || strings.HasPrefix(t, "<article") {
		return htmlText(t)
	}
	if i := strings.Index(text, commentSeparator); i >= 0 {
		text = text[:i]
	}
	if strings.HasPrefix(text, "URL:") {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		} else {
			text = ""
		}
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " \t")
		for _, m := range []string{"<p>", "<h>", "<l>"} {
			if strings.HasPrefix(trimmed, m) {
				lines[i] = trimmed[len(m):]
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

// htmlText returns the text of an HTML fragment, a blank line after each
// block element and a line break for <br>; scripts and styles are left out.
func htmlText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return src
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			return
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style):
			return
		case n.Type == html.ElementNode && n.DataAtom == atom.Br:
			b.WriteString("\n")
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockElement[n.DataAtom] {
			b.WriteString("\n\n")
		}
	}
	walk(doc)
	return b.String()
}

// blockElement are the elements whose end ends a paragraph of gold text.
var blockElement = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
	atom.H6: true, atom.Li: true, atom.Tr: true, atom.Blockquote: true, atom.Pre: true, atom.Table: true,
	atom.Section: true, atom.Article: true, atom.Figcaption: true, atom.Dd: true, atom.Dt: true,
}

// decodeText reads text files whose encoding is not declared.
func decodeText(raw []byte) string {
	switch {
	case bytes.HasPrefix(raw, []byte{0xff, 0xfe}), bytes.HasPrefix(raw, []byte{0xfe, 0xff}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		if out, err := dec.Bytes(raw); err == nil {
			return string(out)
		}
	case bytes.HasPrefix(raw, []byte{0xef, 0xbb, 0xbf}):
		raw = raw[3:]
	}
	if utf8.Valid(raw) {
		return string(raw)
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(raw)
	if err != nil {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	return string(out)
}
