package webfeed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mmcdole/gofeed"
)

// BrokenError reports an RSS, RDF or Atom feed whose root is a feed's but
// whose XML breaks further on: an error in it, or a download cut short.
// Parse returns with it the feed of the items (Atom entries) complete
// before the break, or a nil feed when none is.
type BrokenError struct {
	Items int   // the items complete before the break, read
	Line  int   // the line the first item not read starts on, else the line of the break
	Err   error // the parser's error
}

func (e *BrokenError) Error() string {
	if e.Items == 0 {
		return fmt.Sprintf("malformed feed: %v; no item of it is read", e.Err)
	}
	if e.Items == 1 {
		return fmt.Sprintf("malformed feed: %v; its item before line %d is read, the rest of it is not", e.Err, e.Line)
	}
	return fmt.Sprintf("malformed feed: %v; its %d items before line %d are read, the rest of it is not",
		e.Err, e.Items, e.Line)
}

// Unwrap returns the parser's error.
func (e *BrokenError) Unwrap() error { return e.Err }

// salvage reads what can be read of body, an RSS, RDF or Atom feed (of
// type ft) that p failed to parse with err: the items complete before the
// XML breaks, parsed as the feed they would make if it closed there. It
// returns nil and no error when the XML does not break (p failed for
// another reason). The scan reads the bytes as UTF-8, so that its offsets
// are the body's: a feed in another charset breaks, to it, at its first
// byte that is not UTF-8 too.
func salvage(body []byte, ft gofeed.FeedType, p *gofeed.Parser, err error) (*gofeed.Feed, *BrokenError) {
	item := "item"
	if ft == gofeed.FeedTypeAtom {
		item = "entry"
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var open []string // the elements open, as written (prefix:local)
	var closing string
	keep, items, itemDepth, itemAt := int64(-1), 0, -1, int64(-1)
	var broke error
	for broke == nil {
		at := d.InputOffset()
		tok, terr := d.RawToken()
		switch t := tok.(type) {
		case nil:
			broke = terr
			if terr == io.EOF && len(open) > 0 {
				broke = io.ErrUnexpectedEOF
			}
		case xml.StartElement:
			open = append(open, qname(t.Name))
			if itemDepth < 0 && strings.EqualFold(t.Name.Local, item) {
				itemDepth, itemAt = len(open), at
			}
		case xml.EndElement:
			if len(open) == 0 || open[len(open)-1] != qname(t.Name) {
				broke = errors.New("an element closed by another")
				break
			}
			open = open[:len(open)-1]
			if len(open) < itemDepth {
				items, itemDepth, itemAt, keep = items+1, -1, -1, d.InputOffset()
				closing = closeAll(open)
			}
		}
	}
	if broke == io.EOF {
		return nil, nil
	}
	where := d.InputOffset()
	if itemAt >= 0 {
		where = itemAt
	}
	be := &BrokenError{Line: bytes.Count(body[:min(where, int64(len(body)))], []byte("\n")) + 1, Err: err}
	if items == 0 {
		return nil, be
	}
	kept := append(append([]byte(nil), body[:keep]...), closing...)
	f, perr := p.Parse(bytes.NewReader(kept))
	if perr != nil || len(f.Items) != items {
		return nil, be
	}
	be.Items = items
	return f, be
}

// qname is the name as written: "prefix:local", or "local".
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// closeAll returns the end tags of the elements open, innermost first.
func closeAll(open []string) string {
	var b strings.Builder
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString("</" + open[i] + ">")
	}
	return b.String()
}
