package watch

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html/charset"
)

// parseFeed reads a feed's body: RSS, Atom or JSON Feed; anything else is
// ErrNotFeed. An XML feed must
// be well-formed (the parser alone would recover from a truncated or
// mangled one and report what it guessed): one root element, every
// element closed in order, nothing but comments after the root, elements
// nested no deeper than maxFeedDepth; the named entities of HTML (&nbsp;)
// are taken, as feeds use them.
func parseFeed(body []byte) (*gofeed.Feed, error) {
	if t := bytes.TrimLeft(body, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '<' {
		if err := wellFormed(body); err != nil {
			return nil, fmt.Errorf("%w: not well-formed XML: %w", ErrNotFeed, err)
		}
	}
	f, err := gofeed.NewParser().Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotFeed, err)
	}
	return f, nil
}

// maxFeedDepth is how deep an XML feed's elements may nest, as deep as
// golang.org/x/net/html lets a page's: a feed is a few levels, with the
// XHTML of its items' content a few dozen. Ten megabytes of open elements
// took the decoder's stack and then the feed parser's 640 MB.
const maxFeedDepth = 512

// wellFormed checks that an XML body is one well-formed element, nested
// no deeper than maxFeedDepth.
func wellFormed(body []byte) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		rd, err := charset.NewReaderLabel(label, r)
		if err != nil {
			return nil, fmt.Errorf("encoding %q: %w", label, err)
		}
		return rd, nil
	}
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if roots++; roots > 1 {
					return fmt.Errorf("line %d: a second root element <%s> after the feed's", line(d, body), t.Name.Local)
				}
			}
			if depth++; depth > maxFeedDepth {
				return fmt.Errorf("line %d: elements nested deeper than %d", line(d, body), maxFeedDepth)
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return fmt.Errorf("line %d: text outside the feed's root element", line(d, body))
			}
		}
	}
	if roots == 0 {
		return errors.New("no XML element")
	}
	return nil
}

// line is the line of the decoder's offset in body.
func line(d *xml.Decoder, body []byte) int {
	off := min(int(d.InputOffset()), len(body))
	return 1 + bytes.Count(body[:off], []byte("\n"))
}
