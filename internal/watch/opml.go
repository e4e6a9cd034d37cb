package watch

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"
)

// isXML reports whether a feeds file is XML (an OPML file) rather than
// YAML: after a byte-order mark and blanks it starts with "<", which no
// feeds file in YAML does.
func isXML(data []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(t) > 0 && t[0] == '<'
}

// outline is an OPML outline: a feed when it has an xmlUrl, else a folder
// of outlines (feed readers export categories so).
type outline struct {
	Text     string    `xml:"text,attr"`
	Title    string    `xml:"title,attr"`
	XMLURL   string    `xml:"xmlUrl,attr"`
	Outlines []outline `xml:"outline"`
}

// name is what a message calls the outline.
func (o *outline) name() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Text
}

// readOPML returns the feeds of an OPML subscription list, as feed readers
// export them: every outline with an xmlUrl, in document order, folders
// flattened, each URL once, with no interval (0) and no site rule.
func readOPML(path string, data []byte) ([]Feed, error) {
	var doc struct {
		XMLName xml.Name
		Body    struct {
			Outlines []outline `xml:"outline"`
		} `xml:"body"`
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false // the entities of HTML (&nbsp; in a title), unclosed tags
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		rd, err := charset.NewReaderLabel(label, r)
		if err != nil {
			return nil, fmt.Errorf("encoding %q: %w", label, err)
		}
		return rd, nil
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
			if u := strings.TrimSpace(o.XMLURL); u != "" {
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
