package watch

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// isXML reports whether a feeds file is XML (an OPML file) rather than
// YAML: after a byte-order mark and blanks it starts with "<", which no
// feeds file in YAML does.
func isXML(data []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(t) > 0 && t[0] == '<'
}

// fromUTF16 returns data, a feeds file or a feed, in UTF-8 when it starts
// with the byte order mark of UTF-16 (as Windows programs save "Unicode"
// text), and whether it did; other data as it is.
func fromUTF16(data []byte) ([]byte, bool) {
	if !bytes.HasPrefix(data, []byte{0xfe, 0xff}) && !bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return data, false
	}
	dec := unicode.BOMOverride(unicode.UTF8.NewDecoder()) // the mark chooses the byte order
	out, _, err := transform.Bytes(dec, data)
	if err != nil {
		return data, false
	}
	return out, true
}

// outline is an OPML outline: a feed when it has an xmlUrl, else a folder
// of outlines (feed readers export categories so). Its attributes are
// read whatever their case (xmlurl, XMLURL), as some programs write them.
type outline struct {
	Text     string
	Title    string
	Type     string
	XMLURL   string
	Outlines []outline

	// end is the offset just past the outline's start tag in the text
	// read, line the line it ends on.
	end  int64
	line int
}

// UnmarshalXML reads an outline's attributes, whatever their case, and
// its outlines.
func (o *outline) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	o.end = d.InputOffset()
	o.line, _ = d.InputPos()
	for _, a := range start.Attr {
		var field *string
		switch strings.ToLower(a.Name.Local) {
		case "text":
			field = &o.Text
		case "title":
			field = &o.Title
		case "type":
			field = &o.Type
		case "xmlurl":
			field = &o.XMLURL
		default:
			continue
		}
		if *field == "" {
			*field = a.Value
		}
	}
	var body struct {
		Outlines []outline `xml:"outline"`
	}
	if err := d.DecodeElement(&body, &start); err != nil {
		return err
	}
	o.Outlines = body.Outlines
	return nil
}

// isFeed reports whether the outline says it is a feed, by its type (rss
// or atom), whether or not it gives an xmlUrl.
func (o *outline) isFeed() bool {
	t := strings.ToLower(strings.TrimSpace(o.Type))
	return t == "rss" || t == "atom"
}

// name is what a message calls the outline.
func (o *outline) name() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Text
}

// toUTF8 returns an XML file's data in UTF-8: converted from the encoding
// its XML declaration names, the declaration kept as it is, or the data
// itself when the declaration names none or UTF-8.
func toUTF8(data []byte) ([]byte, error) {
	out := data
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		rd, err := charset.NewReaderLabel(label, r)
		if err != nil {
			return nil, fmt.Errorf("encoding %q: %w", label, err)
		}
		rest, err := io.ReadAll(rd)
		if err != nil {
			return nil, fmt.Errorf("encoding %q: %w", label, err)
		}
		off := d.InputOffset() // just past the declaration
		out = append(data[:off:off], rest...)
		return bytes.NewReader(nil), nil
	}
	for {
		t, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if _, ok := t.(xml.StartElement); ok {
			return out, nil // the declaration comes before the first element
		}
	}
}

// entityRef matches an entity reference by name, as encoding/xml reads one.
var entityRef = regexp.MustCompile(`&([\pL_:][\pL\pN_:.\-]*);`)

// undefinedEntity returns the first entity reference that XML does not
// define (&nbsp;, &foo;) in the outline's xmlUrl as data, the text read,
// writes it, or "" for none, and the line the outline's start tag starts
// on. The decoder leaves such a reference as it is, or reads one of
// HTML's as its character, and neither belongs in a URL.
func undefinedEntity(data []byte, o *outline) (string, int) {
	start := bytes.LastIndexByte(data[:o.end], '<')
	if start < 0 {
		return "", o.line
	}
	tag := data[start:o.end]
	line := o.line - bytes.Count(tag, []byte("\n"))
	// Every & escaped, the decoder reads the attributes as written.
	d := xml.NewDecoder(bytes.NewReader(bytes.ReplaceAll(tag, []byte("&"), []byte("&amp;"))))
	d.Strict = false
	t, err := d.RawToken()
	el, ok := t.(xml.StartElement)
	if err != nil || !ok {
		return "", line
	}
	for _, a := range el.Attr {
		if !strings.EqualFold(a.Name.Local, "xmlurl") || a.Value == "" {
			continue
		}
		for _, m := range entityRef.FindAllStringSubmatch(a.Value, -1) {
			switch m[1] {
			case "amp", "lt", "gt", "quot", "apos":
			default:
				return m[0], line
			}
		}
		break // the first xmlUrl given is the outline's
	}
	return "", line
}

// readOPML returns the feeds of an OPML subscription list, as feed readers
// export them: every outline with an xmlUrl, in document order, folders
// flattened, each URL once, with no interval (0) and no site rule.
//
// An outline of type rss or atom without an xmlUrl is an error naming it,
// as one whose URL is not http or https is: its feed would be left out
// without a word. An xmlUrl holding an entity XML does not define is an
// error naming its line; in other attributes HTML's entities are read.
// Data that was UTF-16 (fromUTF16) is read as UTF-8, whatever encoding
// its XML declaration names.
func readOPML(path string, data []byte, wasUTF16 bool) ([]Feed, error) {
	var doc struct {
		XMLName xml.Name
		Body    struct {
			Outlines []outline `xml:"outline"`
		} `xml:"body"`
	}
	if !wasUTF16 {
		var err error
		if data, err = toUTF8(data); err != nil {
			return nil, fmt.Errorf("%s: not an OPML file: %w", path, err)
		}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false // the entities of HTML (&nbsp; in a title), unclosed tags
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) {
		return r, nil // made UTF-8 already
	}
	if err := d.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			err = errors.New("no XML element")
		}
		return nil, fmt.Errorf("%s: not an OPML file: %w", path, err)
	}
	if !strings.EqualFold(doc.XMLName.Local, "opml") {
		return nil, fmt.Errorf("%s: not an OPML file: its root element is <%s>, not <opml>", path, doc.XMLName.Local)
	}
	var feeds []Feed
	seen := map[string]bool{}
	var walk func([]outline) error
	walk = func(list []outline) error {
		for i := range list {
			o := &list[i]
			u := strings.TrimSpace(o.XMLURL)
			if u == "" && o.isFeed() && len(o.Outlines) == 0 {
				return fmt.Errorf("%s: outline %q (feed %d): of type %s but no xmlUrl: give its feed's URL, or remove it", path, o.name(), len(feeds)+1, strings.TrimSpace(o.Type))
			}
			if u != "" {
				if ref, line := undefinedEntity(data, o); ref != "" {
					return fmt.Errorf("%s:%d: outline %q (feed %d): its xmlUrl holds %s, an entity XML does not define: write an & of the URL as &amp;", path, line, o.name(), len(feeds)+1, ref)
				}
				f := Feed{URL: u}
				if err := f.checkGiven(); err != nil {
					return fmt.Errorf("%s: outline %q (feed %d): %w", path, o.name(), len(feeds)+1, err)
				}
				f.canonicalURL()
				if !seen[f.URL] {
					seen[f.URL] = true
					feeds = append(feeds, f)
				}
			}
			if err := walk(o.Outlines); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(doc.Body.Outlines); err != nil {
		return nil, err
	}
	if len(feeds) == 0 {
		return nil, fmt.Errorf("%s: no feeds: no outline of its body has an xmlUrl", path)
	}
	return feeds, nil
}

// ExportOPML writes the stored feeds as an OPML subscription list, which
// feed readers import: an outline of type rss a feed, named by its URL's
// host and path. Intervals and site rules, which OPML has no place for,
// are left out; Export writes them.
func ExportOPML(ctx context.Context, st Tables, out io.Writer) error {
	stored, err := Feeds(ctx, st)
	if err != nil {
		return err
	}
	type outlineOut struct {
		Type   string `xml:"type,attr"`
		Text   string `xml:"text,attr"`
		XMLURL string `xml:"xmlUrl,attr"`
	}
	doc := struct {
		XMLName xml.Name     `xml:"opml"`
		Version string       `xml:"version,attr"`
		Title   string       `xml:"head>title"`
		Feeds   []outlineOut `xml:"body>outline"`
	}{Version: "2.0", Title: "neardup feeds"}
	for _, s := range stored {
		text := s.URL
		if u, err := url.Parse(s.URL); err == nil {
			text = u.Host + u.Path
		}
		doc.Feeds = append(doc.Feeds, outlineOut{Type: "rss", Text: text, XMLURL: s.URL})
	}
	body, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(out, xml.Header); err != nil {
		return err
	}
	_, err = out.Write(append(body, '\n'))
	return err
}
