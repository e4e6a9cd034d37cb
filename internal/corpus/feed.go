package corpus

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/webfeed"
)

// feedItem is one item of a web feed, as its feedSource read it.
type feedItem struct {
	id, url, title, text, author, source string
	date                                 time.Time
	// unreadDate is the item's date as the feed writes it when it is
	// not read (its document undated), "" when it is read or blank.
	unreadDate string
	// bad says why the item, of a JSON Feed, does not decode; the
	// fields hold what of it does. nil for an item read.
	bad *webfeed.ItemError
}

// feedSource reads a web feed file (RSS, Atom or RDF, saved as .rss, .atom
// or .xml, or recognised by its root element; a JSON Feed, by its version):
// each item is a record,
// named "file#n" (its place in the feed, from 1). An item's id is its GUID,
// else its link; its text the longer of its content and its description,
// as text (their HTML rendered as extraction renders pages); its source
// the feed's title; its date, published else updated, as extract.FeedDate
// reads it, in UTC, or in core.NoZone when it names no zone or offset
// (none for a placeholder: core.NoDate; a date written but not read is
// noted as a field's is: Record.UnreadDate). The file is
// parsed whole: one over the record limit is a too-large record. A JSON
// Feed's item that does not decode (null, or a member of the wrong type:
// see webfeed.Parse) is a malformed record naming the member; the others
// are read. An RSS, RDF or Atom feed whose XML breaks gives the items
// complete before the break, then one malformed record, "file:line" of
// the first item not read (webfeed.BrokenError).
type feedSource struct {
	rd     io.Reader
	origin string
	limit  int
	items  []Raw
	read   bool
}

func (s *feedSource) close() {}

func (s *feedSource) next() (Raw, error) {
	if !s.read {
		s.read = true
		if err := s.parse(); err != nil {
			return Raw{}, err
		}
	}
	if len(s.items) == 0 {
		return Raw{}, io.EOF
	}
	raw := s.items[0]
	s.items = s.items[1:]
	return raw, nil
}

// parse reads the whole feed into items, or into one record saying why it
// cannot be read.
func (s *feedSource) parse() error {
	data, err := io.ReadAll(io.LimitReader(s.rd, min(int64(s.limit), math.MaxInt64-1)+1))
	if err != nil {
		return fmt.Errorf("reading %s: %w", s.origin, err)
	}
	if len(data) > s.limit {
		n, _ := io.Copy(io.Discard, s.rd)
		s.items = []Raw{{Origin: s.origin, kind: rawTooLarge, size: int64(len(data)) + n}}
		return nil
	}
	f, bad, err := webfeed.Parse(data, gofeed.NewParser())
	var broken *webfeed.BrokenError
	switch {
	case errors.As(err, &broken):
		// The items before the break are read; the rest is one record.
		defer func() {
			s.items = append(s.items, Raw{Origin: s.origin + ":" + strconv.Itoa(broken.Line), kind: rawMalformed, note: broken.Error()})
		}()
		if f == nil {
			return nil
		}
	case err != nil:
		s.items = []Raw{{Origin: s.origin, kind: rawMalformed, note: "not a web feed (RSS, Atom, RDF or JSON Feed): " + err.Error()}}
		return nil
	}
	base, _ := url.Parse(strings.TrimSpace(f.Link))
	for i, it := range f.Items {
		origin := s.origin + "#" + strconv.Itoa(i+1)
		item := &feedItem{url: resolve(base, it.Link), title: html.UnescapeString(strings.TrimSpace(it.Title)),
			text: itemText(it), source: strings.TrimSpace(f.Title)}
		item.id = strings.TrimSpace(it.GUID)
		if item.id == "" {
			item.id = item.url
		}
		if item.id == "" {
			item.id = origin
		}
		if it.Author != nil {
			item.author = strings.TrimSpace(it.Author.Name)
		}
		// As watch reads a feed's: gofeed keeps the clock of "GMT+3" as
		// UTC's and reads "MSK" as UTC and "MSK+1" as nothing, and it
		// reads placeholders (the Unix epoch, year 1) as dates.
		switch d := extract.FeedDate(it.Published, it.PublishedParsed, it.Updated, it.UpdatedParsed); {
		case d.IsZero() || core.NoDate(d):
			item.unreadDate = strings.TrimSpace(itemDateText(it))
		case d.Location() != core.NoZone:
			item.date = d.UTC()
		default:
			item.date = d
		}
		if len(bad) > 0 && bad[0].Index == i {
			item.bad, bad = &bad[0], bad[1:]
		}
		s.items = append(s.items, Raw{Origin: origin, kind: rawItem, item: item})
	}
	return nil
}

// itemDateText returns the text of the date extract.FeedDate reads of an
// item: its published date's, unless only its updated date was parsed or
// it has none.
func itemDateText(it *gofeed.Item) string {
	if it.PublishedParsed == nil && (it.UpdatedParsed != nil || strings.TrimSpace(it.Published) == "") {
		return it.Updated
	}
	return it.Published
}

// resolve returns an item's link made absolute against the feed's, or ""
// when it is not a link.
func resolve(base *url.URL, link string) string {
	link = strings.TrimSpace(link)
	ref, err := url.Parse(link)
	if err != nil || link == "" {
		return ""
	}
	if base != nil {
		ref = base.ResolveReference(ref)
	}
	return ref.String()
}

// itemText returns the longer of an item's content and description, as
// text.
func itemText(it *gofeed.Item) string {
	body := it.Description
	if len(it.Content) > len(body) {
		body = it.Content
	}
	nodes, err := html.ParseFragment(strings.NewReader(body), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return body
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(extract.Text(n))
		b.WriteString("\n\n")
	}
	return strings.TrimSpace(b.String())
}

// decodeItem makes the record of a feed item; its Raw is
// {"id","url","title","text","date","author","source"}. A date the item
// writes and no reader reads is noted as a field's (Record.UnreadDate). An
// item that does not decode is skipped as malformed, its error naming
// the member at fault.
func (r *Reader) decodeItem(raw Raw) Record {
	it := raw.item
	if it.bad != nil {
		return skip(core.Document{ID: r.idOf(it.id), Origin: raw.Origin}, core.SkipMalformed, it.bad.Field, it.bad.Msg)
	}
	doc := core.Document{ID: r.idOf(it.id), Origin: raw.Origin, URL: strings.ToValidUTF8(it.url, "\uFFFD"),
		Title: it.title, Text: it.text, Source: strings.ToValidUTF8(it.source, "\uFFFD"), Date: it.date}
	var unread string
	if it.unreadDate != "" {
		unread = r.unreadDate(it.unreadDate, raw.Origin, raw.seq)
	}
	rec := r.finish(doc)
	if rec.Skip == core.SkipNone {
		rec.Doc.Raw, rec.built = itemJSON(rec.Doc, it.author), true
	}
	rec.UnreadDate = unread
	return rec
}

func itemJSON(doc core.Document, author string) []byte {
	b := make([]byte, 0, len(doc.ID)+len(doc.URL)+len(doc.Title)+len(doc.Text)+len(author)+len(doc.Source)+96)
	return appendJSONObject(b, itemKeys, []string{doc.ID, doc.URL, doc.Title, doc.Text, jsonDate(doc.Date), author, doc.Source})
}

// itemKeys are the keys of a feed item's Raw.
var itemKeys = encodedKeys("id", "url", "title", "text", "date", "author", "source")
