package extract

import (
	"log/slog"
	nurl "net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	readeck "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/neardup/neardup/core"
)

// Engine finds the main content of a parsed page. It may modify doc as it
// readies it, but the page must stay whole: when the engine chose
// navigation or a list for the article, Page copies doc and calls the
// engine again on the copy without that part (readeck works on copies of
// doc and returns content of its own). A page without main content gives a
// Found with a nil Node and empty Text; an Engine returns no error.
// Engines are called from several goroutines at once, each with its own
// doc.
type Engine func(doc *html.Node, pageURL *nurl.URL) Found

// Found is what an engine found.
type Found struct {
	// Node is the content tree; Text renders it when fixes are on.
	Node *html.Node
	// Text is the engine's own rendering, used with Options.LibraryOnly.
	Text string
	// Render, when set, renders the engine's own text on demand, in place
	// of Text: an engine whose rendering costs time leaves it to
	// Options.LibraryOnly, the one mode that reads it.
	Render func() string
	// Meta holds the title, author, date and language the engine read from
	// the page; its Text is ignored.
	Meta Article
}

// Readeck is the default engine: readeck's go-readability v2, a port of
// Readability.js 0.6. Compared by shingle F1 on the Dragnet and CleanEval
// gold sets with go-trafilatura, go-domdistiller and go-shiori's
// go-readability (lab/internal/engines), it measured best on both and
// fastest.
func Readeck(doc *html.Node, pageURL *nurl.URL) Found {
	p := readeck.NewParser()
	p.Logger = discardLog
	if pageURL == nil {
		pageURL = &nurl.URL{}
	}
	art, err := p.ParseAndMutate(doc, pageURL)
	if err != nil || art.Node == nil {
		return Found{Meta: Article{Lang: htmlLang(doc)}}
	}
	date, _ := art.PublishedTime()
	if core.NoDate(date) {
		date = time.Time{} // a placeholder (year 1, the Unix epoch): the page's other dates are read instead
	}
	date = WithZoneOffset(date) // read in UTC: "01:00 EST" as 01:00Z
	return Found{
		Node: art.Node,
		Render: func() string {
			var text strings.Builder
			_ = art.RenderText(&text)
			return text.String()
		},
		Meta: Article{Title: art.Title(), Author: art.Byline(), Date: date, Lang: art.Language()},
	}
}

// discardLog is the engine's logger: it logs at Info level on every page
// (the container it chose, with the container's XPath), and formatting
// those records for a logger that writes nowhere cost about 1 % of
// extraction.
var discardLog = slog.New(slog.DiscardHandler)

// htmlLang returns the primary language subtag of <html lang>, if any.
func htmlLang(doc *html.Node) string {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Html {
			lang, _, _ := strings.Cut(strings.ToLower(attr(c, "lang")), "-")
			return strings.TrimSpace(lang)
		}
	}
	return ""
}

// keepBylines returns engine e, but for the author's name its byline step
// cuts out of a line. Readability takes the first element it finds named a
// byline (bylineElement) for the page's byline, when the page's metadata
// gives none, and removes it from the content: of a line that names the
// author in such an element ("by <span class="author">Jane Roe</span> on
// July 17, 2012", "<span class="author">Von Hans Müller</span> | 3. Mai
// 2024") a remnant stays ("by on July 17, 2012", "| 3. Mai 2024"). Such an
// element, no block, with words or figures beside it in its parent, is put
// back where it stood when its text holds the engine's byline and the
// content holds its parent's other children as the page does, and not it
// (putBylineBack). A byline that is a line of its own leaves the content
// as the engine removes it.
//
// The page is read after the engine has readied it (its comments and
// styles out, runs of <br> made paragraphs), as the engine's copies of it
// were made.
func keepBylines(e Engine) Engine {
	return func(doc *html.Node, pageURL *nurl.URL) Found {
		f := e(doc, pageURL)
		author := strings.Join(strings.Fields(f.Meta.Author), " ")
		if f.Node == nil || author == "" {
			return f
		}
		for n := range doc.Descendants() {
			if inlineByline(n) && strings.Contains(strings.Join(strings.Fields(textOf(n)), " "), author) && putBylineBack(f.Node, n) {
				break
			}
		}
		return f
	}
}

// inlineByline reports whether n is an element named a byline
// (bylineElement) that is no block, holds none, and has words or figures
// beside it in its parent.
func inlineByline(n *html.Node) bool {
	return n.Type == html.ElementNode && bylineElement(n) && !block[tag(n)] && !lineBreak[tag(n)] &&
		n.Parent != nil && n.Parent.Type == html.ElementNode && !holdsBlock(n) && textBeside(n.Parent, n)
}

// putBylineBack puts a copy of n, the page's element named a byline, back
// into the engine's content: into the first element of it whose children
// are n's siblings (the same elements and texts in the same order, white
// space aside), where n stands among them. The copy is without its
// classes, as the engine leaves the content. It reports whether it found
// such an element.
func putBylineBack(content, n *html.Node) bool {
	var want []*html.Node // n's siblings
	at := 0               // how many of them come before n
	for k := n.Parent.FirstChild; k != nil; k = k.NextSibling {
		switch {
		case k == n:
			at = len(want)
		case significant(k):
			want = append(want, k)
		}
	}
	for c := range content.Descendants() {
		if c.Type != html.ElementNode {
			continue
		}
		kids := make([]*html.Node, 0, len(want))
		for k := c.FirstChild; k != nil && len(kids) <= len(want); k = k.NextSibling {
			if significant(k) {
				kids = append(kids, k)
			}
		}
		if !sameNodes(kids, want) {
			continue
		}
		back := cloneTree(n)
		dropClasses(back)
		if at < len(kids) {
			c.InsertBefore(back, kids[at])
		} else {
			c.AppendChild(back)
		}
		return true
	}
	return false
}

// significant reports whether n is an element or a text that is not only
// white space.
func significant(n *html.Node) bool {
	return n.Type == html.ElementNode || n.Type == html.TextNode && strings.TrimSpace(n.Data) != ""
}

// sameNodes reports whether a and b are the same nodes one by one: texts
// of the same data, elements of the same tag and the same text, white
// space aside.
func sameNodes(a, b []*html.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Data != b[i].Data {
			return false
		}
		if a[i].Type == html.ElementNode && strings.Join(strings.Fields(textOf(a[i])), " ") != strings.Join(strings.Fields(textOf(b[i])), " ") {
			return false
		}
	}
	return true
}

// bylineElement reports whether Readability takes n for a byline: its
// rel is "author", its itemprop names an author, or its class or id holds
// "byline", "author", "dateline" or "writtenby", in any case.
func bylineElement(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "rel":
			if a.Val == "author" {
				return true
			}
		case "itemprop":
			if strings.Contains(a.Val, "author") {
				return true
			}
		case "class", "id":
			v := a.Val
			if strings.ContainsFunc(v, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
				v = strings.ToLower(v) // few names: most are lower case already
			}
			for _, w := range [...]string{"author", "byline", "dateline", "writtenby"} {
				if strings.Contains(v, w) {
					return true
				}
			}
		}
	}
	return false
}

// holdsBlock reports whether an element under n is a block.
func holdsBlock(n *html.Node) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && block[tag(d)] {
			return true
		}
	}
	return false
}

// textBeside reports whether a text under p but not under n holds a letter
// or a digit.
func textBeside(p, n *html.Node) bool {
	for d := range p.Descendants() {
		if d.Type == html.TextNode && !isAncestor(n, d) && strings.ContainsFunc(d.Data, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return true
		}
	}
	return false
}

// dropClasses removes the class attribute of n and of every element under
// it.
func dropClasses(n *html.Node) {
	for d := range n.Descendants() {
		removeAttr(d, "class")
	}
	removeAttr(n, "class")
}

// removeAttr removes n's attribute key, if any.
func removeAttr(n *html.Node, key string) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key && a.Namespace == "" })
}
