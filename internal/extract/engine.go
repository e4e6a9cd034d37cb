package extract

import (
	"log/slog"
	nurl "net/url"
	"strings"
	"time"

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
