package watch

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"
	jsonfeed "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"
	"golang.org/x/net/html/charset"
)

// parseFeed reads a feed's body, sent with the Content-Type contentType:
// RSS, Atom or JSON Feed; anything else is ErrNotFeed. An XML feed must
// be well-formed (the parser alone would recover from a truncated or
// mangled one and report what it guessed): one root element, every
// element closed in order, nothing but comments after the root, elements
// nested no deeper than maxFeedDepth; the named entities of HTML (&nbsp;)
// are taken, as feeds use them. Its characters are in the encoding its
// XML declaration names, else in the Content-Type's charset (see
// xmlUTF8), else UTF-8.
func parseFeed(body []byte, contentType string) (*gofeed.Feed, error) {
	body, err := xmlUTF8(body, contentType)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotFeed, err)
	}
	if len(body) > 0 && body[0] == '<' {
		if err := wellFormed(body); err != nil {
			return nil, fmt.Errorf("%w: not well-formed XML: %w", ErrNotFeed, err)
		}
	}
	p := gofeed.NewParser()
	p.RSSTranslator = permalinks{}
	p.JSONTranslator = externalLinks{}
	f, err := p.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotFeed, err)
	}
	return f, nil
}

// permalinks translates RSS as gofeed does, and gives an item without a
// <link> its GUID for one when the GUID is a permalink (isPermaLink
// "true", the default): RSS 2.0 lets such an item leave its link out, as
// many feeds do, and it was stored as no-link, its article never fetched.
type permalinks struct{ gofeed.DefaultRSSTranslator }

// Translate is gofeed.DefaultRSSTranslator's, with the links of items
// whose GUID is their permalink.
func (t permalinks) Translate(feed any) (*gofeed.Feed, error) {
	f, err := t.DefaultRSSTranslator.Translate(feed)
	rf, ok := feed.(*rss.Feed)
	if err != nil || !ok || len(rf.Items) != len(f.Items) {
		return f, err
	}
	for i, it := range rf.Items {
		if g := it.GUID; f.Items[i].Link == "" && g != nil && strings.EqualFold(strings.TrimSpace(g.IsPermalink), "true") && absoluteWebURL(g.Value) {
			f.Items[i].Link = g.Value
		}
	}
	return f, nil
}

// absoluteWebURL reports whether s is an absolute http or https URL. A
// permalink GUID must be one: many feeds leave isPermaLink out of GUIDs
// that are ids ("12345", "urn:uuid:..."), which resolved against the
// feed's URL named another page.
func absoluteWebURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// externalLinks translates JSON Feed as gofeed does, and gives an item
// without a url its external_url for a link: a link blog's item names
// only the page it is about, and was stored as no-link.
type externalLinks struct{ gofeed.DefaultJSONTranslator }

// Translate is gofeed.DefaultJSONTranslator's, with the links of items
// that have only an external_url.
func (t externalLinks) Translate(feed any) (*gofeed.Feed, error) {
	f, err := t.DefaultJSONTranslator.Translate(feed)
	jf, ok := feed.(*jsonfeed.Feed)
	if err != nil || !ok || len(jf.Items) != len(f.Items) {
		return f, err
	}
	for i, it := range jf.Items {
		if f.Items[i].Link == "" && it.ExternalURL != "" {
			f.Items[i].Link = it.ExternalURL
		}
	}
	return f, nil
}

// xmlUTF8 returns an XML body as the XML parsers read it: without a UTF-8
// byte order mark (which the well-formedness check took for text before
// the root element, failing every feed of a server that writes one), and
// in UTF-8 when the body has no XML declaration naming its encoding and
// the Content-Type's charset names another: a feed served as "text/xml;
// charset=windows-1251" without an encoding="..." of its own, which the
// parsers read as UTF-8 and refused; a body that is valid UTF-8 is left
// as it is, whatever the header says. A declared encoding is left to the
// parsers, and a body that is not XML (JSON Feed) is returned as it is,
// without its mark.
func xmlUTF8(body []byte, contentType string) ([]byte, error) {
	bom := bytes.HasPrefix(body, utf8BOM)
	body = bytes.TrimPrefix(body, utf8BOM)
	body = bytes.TrimLeft(body, " \t\r\n")
	if bom || len(body) == 0 || body[0] != '<' || declaredEncoding(body) != "" {
		return body, nil
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["charset"] == "" {
		return body, nil
	}
	if utf8.Valid(body) {
		// Valid UTF-8 is UTF-8, whatever the header says: a server's
		// default charset (Apache's AddDefaultCharset ISO-8859-1) on a
		// UTF-8 feed, which decoding would make mojibake; text in another
		// encoding is seldom valid UTF-8 beyond ASCII, the same in both.
		return body, nil
	}
	enc, name := charset.Lookup(params["charset"])
	switch {
	case enc == nil:
		return nil, fmt.Errorf("the Content-Type's charset %q is not known", params["charset"])
	case name == "utf-8":
		return body, nil
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", name, err)
	}
	return out, nil
}

var utf8BOM = []byte("\ufeff")

// declaredEncoding returns the encoding an XML declaration at the start of
// body names, "" when there is none.
func declaredEncoding(body []byte) string {
	if !bytes.HasPrefix(body, []byte("<?xml")) {
		return ""
	}
	decl, _, ok := bytes.Cut(body, []byte("?>"))
	if !ok {
		return ""
	}
	m := encodingAttr.FindSubmatch(decl)
	if m == nil {
		return ""
	}
	return string(m[2])
}

var encodingAttr = regexp.MustCompile(`\sencoding\s*=\s*(["'])([^"']*)(["'])`)

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
