package extract

// Pages nested deeper than the HTML parser allows: x/net/html refuses a
// page whole once 512 elements are open at once, which a browser renders
// (a comment template that never closes its <div>s).

import (
	"bytes"
	"errors"
	"fmt"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxNesting is how deep flattenNesting lets elements nest, counting every
// start tag without its end tag as open: half the parser's limit of 512,
// so the elements the parser opens of itself (<html>, <body>, <tbody>, a
// formatting element it reopens) stay under it.
const maxNesting = 256

// errTooDeep says a page is nested too deep to parse even when flattened.
var errTooDeep = errors.New("extract: elements nested too deep to parse")

// parsePage parses a page's UTF-8 bytes. A page the parser refuses (its
// only error on bytes in memory: more than 512 open elements) is parsed
// again flattened (flattenNesting): its text is all kept, in place, and
// the article before or around the excess is read as a browser shows it.
// When that fails too it returns errTooDeep.
func parsePage(b []byte) (*html.Node, error) {
	doc, err := html.Parse(bytes.NewReader(b))
	if err == nil {
		return doc, nil
	}
	if doc, err = html.Parse(bytes.NewReader(flattenNesting(b, maxNesting))); err != nil {
		return nil, fmt.Errorf("%w: %w", errTooDeep, err)
	}
	return doc, nil
}

// flattenNesting returns b without the start and end tags of the elements
// that open past depth max: their text, comments and the elements of raw
// text (scripts, styles, titles, text areas) stay where they were, and so
// do paragraphs, headings, list items and preformatted text up to
// maxLeafNesting deeper, so an article set past the depth keeps its
// paragraphs apart. A start tag of an element the parser closes of itself
// (a <p>, <li>, <td>, <option> followed by another) closes the one open
// before it when that is the innermost. An end tag closes the innermost
// element of its name dropped, else one open (and those opened inside
// it); another end tag is kept as it is. It holds at most max +
// maxLeafNesting names open and a count of dropped ones for each name,
// and writes at most len(b) bytes.
func flattenNesting(b []byte, max int) []byte {
	type element struct {
		name   string
		inside int // the dropped elements open when it opened
	}
	var (
		out     bytes.Buffer
		open    []element          // the elements kept and open, outermost first
		count   = map[string]int{} // how many of each name are in open
		dropped = map[string]int{} // the start tags dropped, by name, not yet closed
		inside  int                // the dropped elements not yet closed
	)
	out.Grow(len(b))
	z := html.NewTokenizer(bytes.NewReader(b))
	pop := func() {
		count[open[len(open)-1].name]--
		open = open[:len(open)-1]
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out.Bytes() // io.EOF: the reader is in memory
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if voidElement[a] {
				break
			}
			if n := len(open); n > 0 && open[n-1].inside == inside && closesOpen(a, atom.Lookup([]byte(open[n-1].name))) {
				pop()
			}
			if len(open) >= max && !rawTextElement[a] && !(leafBlock[a] && len(open) < max+maxLeafNesting) {
				dropped[string(name)]++
				inside++
				continue
			}
			open = append(open, element{string(name), inside})
			count[string(name)]++
		case html.EndTagToken:
			name, _ := z.TagName()
			if n := len(open); n > 0 && open[n-1].inside == inside && open[n-1].name == string(name) {
				pop() // the innermost: a paragraph kept past the depth
			} else if dropped[string(name)] > 0 {
				dropped[string(name)]--
				inside--
				continue
			} else if count[string(name)] > 0 {
				for open[len(open)-1].name != string(name) {
					pop()
				}
				pop()
			}
		}
		out.Write(raw)
	}
}

// maxLeafNesting is how much deeper than flattenNesting's depth it keeps
// paragraphs, headings and list items (leafBlock) open.
const maxLeafNesting = 64

// closesOpen reports whether a start tag of a closes an element of top
// that is open before it, as the parser does: a <p> (of any block), and
// a list item, a definition's term, a table's cell or row, or an option
// another of its kind.
func closesOpen(a, top atom.Atom) bool {
	switch top {
	case atom.P:
		return blockStart[a]
	case atom.Li, atom.Option, atom.Tr:
		return a == top
	case atom.Dt, atom.Dd:
		return a == atom.Dt || a == atom.Dd
	case atom.Td, atom.Th:
		return a == atom.Td || a == atom.Th || a == atom.Tr
	}
	return false
}

var (
	// voidElement are the elements that have no end tag.
	voidElement = map[atom.Atom]bool{
		atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true,
		atom.Img: true, atom.Input: true, atom.Keygen: true, atom.Link: true, atom.Meta: true,
		atom.Param: true, atom.Source: true, atom.Track: true, atom.Wbr: true,
	}
	// rawTextElement are the elements whose content the tokenizer reads
	// as text: dropping their start tag would make it the page's text.
	rawTextElement = map[atom.Atom]bool{
		atom.Script: true, atom.Style: true, atom.Textarea: true, atom.Title: true, atom.Xmp: true,
		atom.Iframe: true, atom.Noembed: true, atom.Noframes: true, atom.Noscript: true, atom.Plaintext: true,
	}
	// leafBlock are the blocks of text flattenNesting keeps past its
	// depth.
	leafBlock = map[atom.Atom]bool{
		atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
		atom.H6: true, atom.Li: true, atom.Dt: true, atom.Dd: true, atom.Pre: true,
	}
	// blockStart are the start tags that close an open <p>.
	blockStart = map[atom.Atom]bool{
		atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Details: true,
		atom.Div: true, atom.Dl: true, atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true,
		atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
		atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true, atom.Main: true, atom.Nav: true,
		atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Table: true, atom.Ul: true,
	}
)
