package watch

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"
	jsonfeed "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"
	"golang.org/x/net/html/charset"

	"github.com/neardup/neardup/internal/webfeed"
)

// parseFeed reads a feed's body, sent with the Content-Type contentType:
// RSS, Atom or JSON Feed; anything else is ErrNotFeed. An XML feed must
// be well-formed (the parser alone would recover from a truncated or
// mangled one and report what it guessed): one root element, every
// element closed in order, nothing but comments after the root, elements
// nested no deeper than maxFeedDepth; the named entities of HTML (&nbsp;)
// are taken, as feeds use them, and a feed that names an entity its own
// DTD declares is refused, saying so (errFeedDTD). Its characters are in the encoding its
// XML declaration names, else in the Content-Type's charset (see
// xmlUTF8), else UTF-8; a byte order mark of UTF-16 says UTF-16.
//
// A JSON Feed is read an item at a time (see webfeed.Parse): an item that
// does not decode (null, or a member of the wrong type) is in the feed's
// Items as what of it decodes, and its error in the feed's bad; a panic of
// the parser is an ErrNotFeed.
//
// It returns the feed and how many items the feed lists. When maxItems is
// above 0 and the feed lists more than twice as many items, all but its
// first maxItems, its last maxItems and its latest maxItems by their dates
// are left out before the feed is parsed (see cutXMLItems, cutJSONItems,
// keptItems): the newest maxItems are among those kept whether the feed
// lists its items newest first, as feeds do, oldest first or in no order,
// and the parser, which builds every item it reads (2.8 GB allocated for
// 10 MB of 232,570 items), reads no more than 3 × maxItems of them.
func parseFeed(body []byte, contentType string, maxItems int) (*parsedFeed, int, error) {
	body, err := xmlUTF8(body, contentType)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrNotFeed, err)
	}
	left := 0 // the items left out unparsed
	switch {
	case len(body) > 0 && body[0] == '<':
		items := &itemFinder{keep: max(maxItems, 0)}
		decoded, err := wellFormed(body, items)
		if errors.Is(err, errFeedDTD) {
			return nil, 0, fmt.Errorf("%w: %w", ErrNotFeed, err)
		} else if err != nil {
			return nil, 0, fmt.Errorf("%w: not well-formed XML: %w", ErrNotFeed, err)
		}
		if maxItems > 0 && items.toCut() {
			body, left = cutXMLItems(body, items, decoded)
		}
	case maxItems > 0:
		body, left = cutJSONItems(body, maxItems)
	}
	p := gofeed.NewParser()
	p.RSSTranslator = permalinks{}
	p.JSONTranslator = externalLinks{}
	f, bad, err := webfeed.Parse(body, p)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrNotFeed, err)
	}
	pf := &parsedFeed{Feed: f}
	for _, b := range bad {
		if pf.bad == nil {
			pf.bad = map[*gofeed.Item]string{}
		}
		pf.bad[f.Items[b.Index]] = b.Error()
	}
	return pf, len(f.Items) + left, nil
}

// parsedFeed is a feed as parseFeed reads it.
type parsedFeed struct {
	*gofeed.Feed
	// bad says, of each of the feed's Items that does not decode, why
	// (a JSON Feed's item: see webfeed.ItemError); the item holds what of
	// it decodes.
	bad map[*gofeed.Item]string
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
// without its mark. A body that starts with the byte order mark of UTF-16
// (little- or big-endian), as XML lets a document in UTF-16 start, is
// made UTF-8 and its declaration says so (see declareUTF8): it was taken
// for no XML at all, "not a feed", or "an HTML page".
func xmlUTF8(body []byte, contentType string) ([]byte, error) {
	if b, ok := fromUTF16(body); ok {
		return declareUTF8(bytes.TrimLeft(b, " \t\r\n")), nil
	}
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

// declareUTF8 returns body, XML made UTF-8, with the encoding its XML
// declaration names (UTF-16) replaced by UTF-8, so that the parsers do not
// decode it again; a body without one is returned as it is.
func declareUTF8(body []byte) []byte {
	if declaredEncoding(body) == "" {
		return body
	}
	end := bytes.Index(body, []byte("?>"))
	m := encodingAttr.FindSubmatchIndex(body[:end])
	return slices.Concat(body[:m[4]], []byte("UTF-8"), body[m[5]:])
}

var encodingAttr = regexp.MustCompile(`\sencoding\s*=\s*(["'])([^"']*)(["'])`)

// errFeedDTD is the error of an XML feed that names an entity its own
// DTD declares (<!DOCTYPE rss [<!ENTITY x "...">]> and &x;): no DTD is
// read, so the entity is not expanded. The entities of the names HTML and
// XML define (&nbsp;, &amp;), which feeds declare so that the feed is
// valid XML, are taken as those, and a DOCTYPE of no declarations (RSS
// 0.91's PUBLIC identifier) is passed over.
var errFeedDTD = errors.New("an entity of the feed's own DTD, whose declarations are not read")

// dtdEntities returns the general entities a DOCTYPE directive (the text
// between "<!" and ">") declares whose names are none that the decoder
// takes (see xml.HTMLEntity and the five of XML). A parameter entity
// (<!ENTITY % name ...>) declares nothing a feed's text can name.
func dtdEntities(dir xml.Directive) []string {
	if !bytes.HasPrefix(dir, []byte("DOCTYPE")) {
		return nil
	}
	var out []string
	for _, m := range entityDecl.FindAllSubmatch(dir, -1) {
		name := string(m[1])
		if _, ok := xml.HTMLEntity[name]; !ok && !slices.Contains([]string{"amp", "lt", "gt", "apos", "quot"}, name) {
			out = append(out, name)
		}
	}
	return out
}

// dtdError returns errFeedDTD, with the line and the entity, when err is
// the decoder's refusal of an entity the feed's DTD declares; else err.
func dtdError(err error, declared []string) error {
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	for _, name := range declared {
		if se.Msg == "invalid character entity &"+name+";" {
			return fmt.Errorf("line %d: &%s; is %w", se.Line, name, errFeedDTD)
		}
	}
	return err
}

var entityDecl = regexp.MustCompile(`<!ENTITY\s+([^\s%"'>]+)`)

// feedRoot reports whether an XML body's first element is a feed's root:
// <rss>, <rdf:RDF> or <feed>, whatever else the body holds, or whether the
// body is a JSON object, as a JSON Feed is. Such a body is a feed that
// failed to parse, never an HTML page, though an XML one holds <title>
// and <link> elements as a page does.
func feedRoot(body []byte, contentType string) bool {
	if j := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")), " \t\r\n"); len(j) > 0 && j[0] == '{' {
		return true
	}
	if utf8, err := xmlUTF8(body, contentType); err == nil {
		body = utf8
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if cr, err := charset.NewReaderLabel(label, r); err == nil {
			return cr, nil
		}
		// A charset no reader knows ("x-bogus-42"): the root's name is
		// read in the bytes as they are, ASCII in every charset a feed is
		// written in, so that the feed's own error is told, not "an HTML
		// page".
		return r, nil
	}
	d.Strict = false
	for range 100 { // the declaration, comments, a DOCTYPE
		tok, err := d.RawToken()
		if err != nil {
			return false
		}
		if t, ok := tok.(xml.StartElement); ok {
			switch strings.ToLower(t.Name.Local) {
			case "rss", "rdf", "feed":
				return true
			}
			return false
		}
	}
	return false
}

// maxFeedDepth is how deep an XML feed's elements may nest, as deep as
// golang.org/x/net/html lets a page's: a feed is a few levels, with the
// XHTML of its items' content a few dozen. Ten megabytes of open elements
// took the decoder's stack and then the feed parser's 640 MB.
const maxFeedDepth = 512

// wellFormed checks that an XML body is one well-formed element, nested
// no deeper than maxFeedDepth, and gives items its elements (see
// itemFinder), which find where its items are: the offsets of each one's
// start tag and of the end of its end tag, as the decoder counts them.
// Those are offsets in body but when the body declares an encoding other
// than UTF-8, whose label it returns: they are then offsets in the text
// decoded from there.
func wellFormed(body []byte, items *itemFinder) (decoded string, err error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		rd, err := charset.NewReaderLabel(label, r)
		if err != nil {
			return nil, fmt.Errorf("encoding %q: %w", label, err)
		}
		decoded = label
		return rd, nil
	}
	depth, roots := 0, 0
	items.open = -1
	var declared []string // the entities of the feed's own DTD (see errFeedDTD)
	for {
		at := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", dtdError(err, declared)
		}
		switch t := tok.(type) {
		case xml.Directive:
			declared = append(declared, dtdEntities(t)...)
		case xml.StartElement:
			if depth == 0 {
				if roots++; roots > 1 {
					return "", fmt.Errorf("line %d: a second root element <%s> after the feed's", line(d, body), t.Name.Local)
				}
			}
			if depth++; depth > maxFeedDepth {
				return "", fmt.Errorf("line %d: elements nested deeper than %d", line(d, body), maxFeedDepth)
			}
			items.start(depth, t.Name, at)
		case xml.EndElement:
			items.end(depth, d.InputOffset())
			depth--
		case xml.CharData:
			items.charData(depth, t)
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return "", fmt.Errorf("line %d: text outside the feed's root element", line(d, body))
			}
		}
	}
	if roots == 0 {
		return "", errors.New("no XML element")
	}
	return decoded, nil
}

// itemFinder finds a feed's items as gofeed reads them, as its elements
// are read: RSS items in the RSS namespaces (see rssItemSpace), in the
// channel or beside it (RSS 1.0), and Atom entries in the Atom namespaces
// (see atomItemSpace). Elements of other namespaces are extensions to
// gofeed, not items, whatever their local name. gofeed keeps the last
// channel it reads and drops the others, with their items: its items are
// those of the last channel, then those beside it.
type itemFinder struct {
	rss, atom   bool
	rootSpace   string // the root's namespace, trimmed
	probed      int    // for rootSpace: 0 not yet asked, 1 native, -1 an extension's
	channel     bool   // a channel gofeed reads is open at depth 2
	open, depth int    // the start and the depth of the item open; open is -1 when none is
	date        string // the date of the item open, the text of its child of the lowest dateRank
	rank        int    // the dateRank of date
	dating      int    // the dateRank of the item's child open, 0 when none is
	text        strings.Builder

	// What it finds. A first pass chooses the items to keep, keep of
	// those listed (see picker); a second, given cut, cuts the others.
	keep      int
	channels  int    // the channels gofeed reads, met so far
	inChannel picker // the items of the last channel met
	beside    picker
	dropped   int     // the items of channels before the last
	cut       *xmlCut // nil in the first pass
}

// dateRank is the rank of an item's child element of the lower-cased
// local name name as its date, 0 when it is none: the date it was
// published (RSS pubDate, Atom published or issued), else Dublin Core's
// date, else the date it was updated, as gofeed reads them.
func dateRank(name string) int {
	switch name {
	case "pubdate", "published", "issued":
		return 1
	case "date":
		return 2
	case "updated", "modified":
		return 3
	}
	return 0
}

// start is an element's start tag, at offset at, opening depth (the root's
// is 1).
func (f *itemFinder) start(depth int, name xml.Name, at int64) {
	local, space := strings.ToLower(name.Local), strings.TrimSpace(name.Space)
	if f.open >= 0 && depth == f.depth+1 {
		if r := dateRank(local); r > 0 && (f.rank == 0 || r < f.rank) {
			f.dating = r
			f.text.Reset()
		}
	}
	switch {
	case depth == 1:
		f.rss = local == "rss" || local == "rdf"
		f.atom = local == "feed"
		f.rootSpace = space
	case depth > 3 || f.open >= 0:
	case f.rss && depth == 2 && local == "channel" && f.rssSpace(space):
		f.channel = true
		f.channels++
		f.dropped += f.inChannel.n
		f.inChannel = picker{keep: f.keep}
	case f.rss && local == "item" && (depth == 2 || depth == 3 && f.channel) && f.rssSpace(space),
		f.atom && local == "entry" && depth == 2 && slices.Contains(atomNative, space):
		f.open, f.depth = int(at), depth
	}
}

// end is an element's end tag, ending at offset at, closing depth.
func (f *itemFinder) end(depth int, at int64) {
	if f.dating > 0 && depth == f.depth+1 {
		f.date, f.rank, f.dating = f.text.String(), f.dating, 0
	}
	if f.open >= 0 && depth == f.depth {
		f.found(extent{f.open, int(at), f.date}, depth == 3)
		f.open, f.date, f.rank = -1, "", 0
	}
	if depth == 2 {
		f.channel = false
	}
}

// charData is text at depth (that of the element it is in).
func (f *itemFinder) charData(depth int, text []byte) {
	if f.dating > 0 && depth == f.depth+1 {
		f.text.Write(text)
	}
}

// found is an item, at e, in a channel or beside it: the first pass gives
// it to its picker, the second cuts it or not.
func (f *itemFinder) found(e extent, inChannel bool) {
	switch c := f.cut; {
	case c != nil:
		c.found(e, inChannel, f.channels)
	case inChannel:
		f.inChannel.add(e)
	default:
		f.beside.keep = f.keep
		f.beside.add(e)
	}
}

// listed is how many items gofeed lists: those of the last channel, then
// those beside it.
func (f *itemFinder) listed() int { return f.inChannel.n + f.beside.n }

// toCut reports whether the feed's items, as the first pass found them,
// are to be cut (see cutXMLItems) to keep keep of them.
func (f *itemFinder) toCut() bool {
	return overTwice(f.listed(), f.keep) || f.dropped > 0
}

// xmlCut is the second pass of an itemFinder: it copies the body without
// the items the first pass did not keep.
type xmlCut struct {
	body     []byte
	channels int             // those the first pass met: the last is gofeed's
	kept     [2]map[int]bool // of the last channel's items, and of those beside it, by their index
	n        [2]int          // the items met of each
	out      []byte
	from     int // what of body is not yet in out
	left     int // the items listed left out
}

// found is an item, at e, in a channel (the channel'th met) or beside it.
func (c *xmlCut) found(e extent, inChannel bool, channel int) {
	if !inChannel || channel == c.channels { // else read and dropped by gofeed
		g := 1
		if inChannel {
			g = 0
		}
		i := c.n[g]
		c.n[g]++
		if c.kept[g][i] {
			return
		}
		c.left++
	}
	c.out = append(c.out, c.body[c.from:e.start]...)
	c.from = e.end
}

// keptItems are the items the first pass of f keeps, by their index among
// those of the last channel and among those beside it: the first keep
// and the last keep of those gofeed lists (the channel's, then those
// beside), and the keep latest by their dates.
func (f *itemFinder) keptItems() [2]map[int]bool {
	n, keep := f.listed(), f.keep
	all := f.inChannel.kept() // the items chosen, indexed among all listed
	for _, it := range f.beside.kept() {
		it.i += f.inChannel.n
		all = append(all, it)
	}
	var dated []pick
	for _, it := range all {
		if !it.t.IsZero() {
			dated = append(dated, it)
		}
	}
	slices.SortFunc(dated, func(a, b pick) int {
		if ranksAbove(a, b) {
			return -1
		}
		return 1
	})
	latest := map[int]bool{}
	for _, it := range dated[:min(keep, len(dated))] {
		latest[it.i] = true
	}
	kept := [2]map[int]bool{{}, {}}
	for _, it := range all {
		if it.i < keep || it.i >= n-keep || latest[it.i] {
			if it.i < f.inChannel.n {
				kept[0][it.i] = true
			} else {
				kept[1][it.i-f.inChannel.n] = true
			}
		}
	}
	return kept
}

// rssSpace reports whether gofeed's RSS parser reads an element of the
// namespace space as RSS rather than as an extension: the RSS and RDF
// namespaces, none, an undeclared prefix rss or rdf, or the root's
// namespace when that is not one gofeed knows an extension by. Which it
// knows is asked of gofeed, once a feed.
func (f *itemFinder) rssSpace(space string) bool {
	if slices.Contains(rssNative, space) {
		return true
	}
	if space != f.rootSpace {
		return false
	}
	if f.probed == 0 {
		var b strings.Builder
		xml.EscapeText(&b, []byte(space))
		feed, err := new(rss.Parser).Parse(strings.NewReader(`<rss xmlns="` + b.String() + `"><channel><item/></channel></rss>`))
		f.probed = -1
		if err == nil && len(feed.Items) == 1 {
			f.probed = 1
		}
	}
	return f.probed == 1
}

// rssNative and atomNative are the namespaces of the elements gofeed's
// RSS and Atom parsers read as theirs (undeclared prefixes are the
// prefix), the RSS parser the root's too (see itemFinder.rssSpace).
var (
	rssNative = []string{"", "rss", "rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://purl.org/rss/1.0/",
		"http://channel.netscape.com/rdf/simple/0.9/", "http://my.netscape.com/rdf/simple/0.9/"}
	atomNative = []string{"", "http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#"}
)

// overTwice reports whether n is more than 2 × keep, which may not fit in
// an int (Options.MaxItems is the caller's).
func overTwice(n, keep int) bool { return n-keep > keep }

// extent is where an item is in a body, [start, end), and its date's
// text (see dateRank), "" when none.
type extent struct {
	start, end int
	date       string
}

// cutXMLItems returns body without the items (as wellFormed finds them)
// that keptItems does not keep, when it lists more than 2 × keep, and
// without those gofeed reads only to drop them (see
// itemFinder), what lies between them (white space, the channel's other
// elements) kept; and how many of those it lists it left out. Removing
// whole elements from their parent leaves the body well-formed. items is
// the first pass of wellFormed over body, which chose the items to keep;
// a second pass cuts the others, so that neither holds more than 3 ×
// keep items of a channel's, whatever the feed lists (1,400,000
// "<item/>", 9.8 MB, each held, cost 313 MB). A body that declares another
// encoding than UTF-8 (decoded, its label), whose extents are offsets in
// the text decoded, is first decoded to UTF-8 as the parser would decode
// it, its declaration then naming UTF-8; one that cannot be so is
// returned whole.
func cutXMLItems(body []byte, items *itemFinder, decoded string) ([]byte, int) {
	if decoded != "" {
		utf8Body, err := declaredToUTF8(body, decoded)
		if err != nil {
			return body, 0
		}
		items = &itemFinder{keep: items.keep}
		if decoded, err = wellFormed(utf8Body, items); err != nil || decoded != "" || !items.toCut() {
			return body, 0
		}
		body = utf8Body
	}
	c := &xmlCut{body: body, channels: items.channels, out: make([]byte, 0, len(body))}
	if overTwice(items.listed(), items.keep) {
		c.kept = items.keptItems()
	} else {
		c.kept = [2]map[int]bool{allItems(items.inChannel.n), allItems(items.beside.n)}
	}
	if _, err := wellFormed(body, &itemFinder{keep: items.keep, cut: c}); err != nil {
		return body, 0 // not met: the body read well-formed a moment ago
	}
	return append(c.out, body[c.from:]...), c.left
}

// allItems is the indexes 0 to n-1.
func allItems(n int) map[int]bool {
	m := make(map[int]bool, n)
	for i := range n {
		m[i] = true
	}
	return m
}

// declaredToUTF8 returns body, whose XML declaration names the encoding
// enc, decoded to UTF-8 as the parsers decode it, its declaration naming
// UTF-8.
func declaredToUTF8(body []byte, enc string) ([]byte, error) {
	r, err := charset.NewReaderLabel(enc, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	decl, _, ok := bytes.Cut(out, []byte("?>"))
	m := encodingAttr.FindSubmatchIndex(decl)
	if !ok || !bytes.HasPrefix(out, []byte("<?xml")) || m == nil {
		return nil, errors.New("the XML declaration does not read as one once decoded")
	}
	return slices.Concat(out[:m[4]], []byte("UTF-8"), out[m[5]:]), nil
}

// cutJSONItems returns a JSON Feed's body without the items keptItems
// does not keep (dated by date_published, else date_modified), when it
// lists more than 2 × keep, and how
// many it left out. The items it lists are those of the last member of the
// top-level object whose name encoding/json, and so the parser, takes for
// "items" (case aside): a later one replaces what an earlier one read, so
// that the arrays of the earlier ones are emptied. A body that is no JSON
// object is returned whole, for the parser to refuse. The items are read
// one at a time (see picker), so that what it holds is bounded by keep,
// not by the feed: 3,000,000 items of "{}" (9 MB), each held, cost 375 MB.
func cutJSONItems(body []byte, keep int) ([]byte, int) {
	d := json.NewDecoder(bytes.NewReader(body))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return body, 0
	}
	var ms []jsonItems // the members named items that are arrays
	last := -1         // the last member named items, an index in ms; -1 when it is none
	for d.More() {
		tok, err := d.Token()
		name, ok := tok.(string)
		if err != nil || !ok {
			return body, 0
		}
		if !strings.EqualFold(name, "items") {
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				return body, 0
			}
			continue
		}
		m, isArray, err := readJSONItems(d, body, keep)
		if err != nil {
			return body, 0
		}
		if last >= 0 {
			ms[last].p = picker{} // emptied: what it chose is no longer needed
		}
		last = -1
		if isArray {
			ms = append(ms, m)
			last = len(ms) - 1
		}
	}
	var out []byte
	from, left := 0, 0 // what of body is not yet in out
	for i, m := range ms {
		var taken []pick
		if i == last {
			if !overTwice(m.p.n, keep) {
				continue
			}
			taken = m.p.kept()
			left = m.p.n - len(taken)
		}
		out = append(out, body[from:m.start]...)
		out = append(out, '[')
		for i, it := range taken {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, body[it.e.start:it.e.end]...)
		}
		out = append(out, ']')
		from = m.end
	}
	if out == nil {
		return body, 0
	}
	return append(out, body[from:]...), left
}

// jsonItems is a JSON Feed's member named items that is an array: where
// it is in the body, [start, end), and the items a picker chose of it.
type jsonItems struct {
	start, end int
	p          picker
}

// readJSONItems reads the value of a member named items, d's next, from
// body: an array an item at a time, its items given to a picker keeping
// keep; anything else whole (isArray false).
func readJSONItems(d *json.Decoder, body []byte, keep int) (m jsonItems, isArray bool, err error) {
	m.start = int(d.InputOffset())
	for m.start < len(body) && strings.IndexByte(" \t\r\n:", body[m.start]) >= 0 {
		m.start++
	}
	if m.start >= len(body) || body[m.start] != '[' {
		var v json.RawMessage
		return m, false, d.Decode(&v)
	}
	if _, err := d.Token(); err != nil {
		return m, false, err
	}
	m.p = picker{keep: keep}
	for d.More() {
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return m, false, err
		}
		end := int(d.InputOffset())
		var dates struct {
			Published string `json:"date_published"`
			Modified  string `json:"date_modified"`
		}
		json.Unmarshal(v, &dates) // an item that is no object has none
		m.p.add(extent{start: end - len(v), end: end, date: cmp.Or(dates.Published, dates.Modified)})
	}
	if _, err := d.Token(); err != nil {
		return m, false, err
	}
	m.end = int(d.InputOffset())
	return m, true, nil
}

// line is the line of the decoder's offset in body.
func line(d *xml.Decoder, body []byte) int {
	off := min(int(d.InputOffset()), len(body))
	return 1 + bytes.Count(body[:off], []byte("\n"))
}
