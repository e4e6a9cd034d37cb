// Package engines holds the main-text detectors that package extract was
// compared against: go-trafilatura (with and without its fallbacks),
// go-domdistiller and go-shiori's go-readability. They are kept for
// measurement runs only: they are not linked into the neardup command,
// whose start-up go-trafilatura's date parser would slow by a second.
package engines

import (
	"fmt"
	nurl "net/url"
	"sort"
	"strings"
	"time"

	"github.com/go-shiori/go-readability"
	distiller "github.com/markusmobius/go-domdistiller"
	"github.com/markusmobius/go-trafilatura"
	"github.com/neardup/neardup/internal/extract"
	"golang.org/x/net/html"
)

// All maps each engine's name to the engine, package extract's default
// included.
var All = map[string]extract.Engine{
	"readeck":              extract.Readeck,
	"readability":          Readability,
	"trafilatura":          Trafilatura,
	"trafilatura-fallback": TrafilaturaFallback,
	"domdistiller":         DomDistiller,
}

// Names lists the engines' names in order.
func Names() []string {
	names := make([]string, 0, len(All))
	for n := range All {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the engine called name.
func Lookup(name string) (extract.Engine, error) {
	if e, ok := All[name]; ok {
		return e, nil
	}
	return nil, fmt.Errorf("engines: unknown engine %q (want one of %s)", name, strings.Join(Names(), ", "))
}

// Trafilatura is go-trafilatura without fallbacks.
func Trafilatura(doc *html.Node, u *nurl.URL) extract.Found {
	return trafilaturaRun(doc, u, false)
}

// TrafilaturaFallback is go-trafilatura comparing its result with
// go-readability's and go-domdistiller's.
func TrafilaturaFallback(doc *html.Node, u *nurl.URL) extract.Found {
	return trafilaturaRun(doc, u, true)
}

func trafilaturaRun(doc *html.Node, u *nurl.URL, fallback bool) extract.Found {
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{
		OriginalURL:    u,
		EnableFallback: fallback,
		HtmlDateMode:   trafilatura.Fast,
	})
	if err != nil || res == nil {
		return extract.Found{}
	}
	m := res.Metadata
	return extract.Found{
		Node: res.ContentNode,
		Text: res.ContentText,
		Meta: extract.Article{Title: m.Title, Author: m.Author, Date: m.Date, Lang: m.Language},
	}
}

// Readability is go-shiori's go-readability (Readability.js 0.5).
func Readability(doc *html.Node, u *nurl.URL) extract.Found {
	p := readability.NewParser()
	if u == nil {
		u = &nurl.URL{}
	}
	art, err := p.ParseDocument(doc, u)
	if err != nil {
		return extract.Found{}
	}
	var date time.Time
	if art.PublishedTime != nil {
		date = *art.PublishedTime
	}
	return extract.Found{
		Node: art.Node,
		Text: art.TextContent,
		Meta: extract.Article{Title: art.Title, Author: art.Byline, Date: date, Lang: art.Language},
	}
}

// DomDistiller is go-domdistiller without pagination.
func DomDistiller(doc *html.Node, u *nurl.URL) extract.Found {
	res, err := distiller.Apply(doc, &distiller.Options{OriginalURL: u, SkipPagination: true})
	if err != nil || res == nil {
		return extract.Found{}
	}
	return extract.Found{
		Node: res.Node,
		Text: res.Text,
		Meta: extract.Article{Title: res.Title, Author: res.MarkupInfo.Author},
	}
}
