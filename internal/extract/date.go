package extract

// A page's publication date, for pages whose engine finds none: what the
// page declares (<meta>, JSON-LD, itemprop, <time>, its URL), then what it
// shows by the headline.

import (
	"errors"
	"maps"
	nurl "net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zones of seasonZones and ianaZone, wherever the binary runs
	"unicode"
	"unicode/utf8"

	"github.com/araddon/dateparse"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/neardup/neardup/core"
)

// dateMeta are the <meta> names and properties that carry a publication
// date, lower-cased.
var dateMeta = map[string]bool{
	"article:published_time": true, "og:published_time": true, "datepublished": true,
	"date": true, "dc.date": true, "dc.date.issued": true, "dcterms.created": true,
	"dcterms.date": true, "pubdate": true, "publishdate": true, "publish-date": true,
	"publish_date": true, "sailthru.date": true, "parsely-pub-date": true,
	"article.published": true, "cxenseparse:recs:publishtime": true, "originalpublicationdate": true,
	"published-date": true, "published_date": true, "publication_date": true, "publication-date": true,
	"og:article:published_time": true, "dcterms.issued": true, "dc.date.created": true, "dcterms.available": true,
	"citation_publication_date": true, "citation_date": true, "prism.publicationdate": true, "release_date": true,
	"article_date_original": true, "date_published": true, "datecreated": true,
}

// urlDate finds a date in a URL path: /2024/03/05/ or 2024-03-05.
var urlDate = regexp.MustCompile(`(?:^|[/_-])((?:19|20)\d{2})[/-](0[1-9]|1[0-2])[/-](0[1-9]|[12]\d|3[01])(?:[/._-]|$)`)

// pageDate looks for the publication date the page declares, for pages
// whose engine found none, in this order: <meta> dates; the datePublished
// of its JSON-LD (of the outermost object that gives one: a fact check's
// own date, not that of the claim it reviews); an element marked
// itemprop="datePublished" (its content, datetime or title attribute, else
// its text); <time datetime> (a published one first), then a <time>'s
// text; a date in the URL; then a line that is only a date (after a label,
// "Published", "Posted on") around the page's heading h (a header's
// "June 12, 2025"), a date the page says it was updated on last; and
// then the first such line in an element whose id or class names a date
// ("post-date", "dateline") outside the regions markRegions marked; last,
// the first such element inside them that comes after the heading and is
// in no link or list item (a post's meta in a column marked a sidebar;
// not a menu's clock above the headline, nor a teaser's date). It returns
// the zero time if none parses to a plausible date.
func pageDate(doc, h *html.Node, pageURL string, lds linkedData) time.Time {
	c := gatherDates(doc, h)
	for _, group := range [][]string{c.metas, lds.published, c.props, c.published, c.times, c.timeTexts} {
		for _, s := range group {
			if t, ok := parseDate(s); ok {
				return t
			}
		}
	}
	if m := urlDate.FindStringSubmatch(pageURL); m != nil {
		if t, ok := parseDate(m[1] + "-" + m[2] + "-" + m[3]); ok {
			return t
		}
	}
	if t := headingDate(h); !t.IsZero() {
		return t
	}
	if !c.named.IsZero() {
		return c.named
	}
	return c.navNamed
}

// declaredDate gives t, the date the engine found, as parseDate reads the
// date the page declares that the engine read it from (a <meta> date, in
// its head or its body as the engine reads them, or its JSON-LD's): the
// engine reads it with dateparse, which drops a zone's name after a
// 12-hour clock ("March 5, 2024 10:00 AM EST" as 10:00Z) and takes an
// offset there for the month ("10:00 PM +01:00" as January), as it does
// one of hours after a zone's name ("10:30 MSK+1"), and gives a date that
// names no zone or offset in UTC, which parseDate gives in core.NoZone. A
// t read from what parseDate refuses as misread (scanDate: "10:30 EST+1",
// a clock alone, a month without a day: "2024-03" as March 1) is no date:
// the zero time. A t read from nothing the page declares, or read as
// parseDate reads it (an offset kept as the page writes it), is returned
// as it is.
func declaredDate(t time.Time, doc *html.Node, ld linkedData) time.Time {
	var metas []string
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Meta {
			metas = appendMetaDates(metas, n)
		}
	}
	_, off := t.Zone()
	for _, s := range append(metas, ld.published...) {
		engine, err := dateparse.ParseAny(s)
		engine = WithZoneOffset(engine) // as Readeck gives it
		if _, engineOff := engine.Zone(); err != nil || !engine.Equal(t) || engineOff != off {
			continue // not what the engine read
		}
		own, ok, refused := scanDate(s, false)
		if refused {
			return time.Time{}
		}
		if _, ownOff := own.Zone(); ok && (!own.Equal(t) || off == 0 && (ownOff != 0 || own.Location() == core.NoZone)) {
			return own // the engine's reading lost the zone, misread the date, or gave UTC to one of none
		}
		return t
	}
	return t
}

// dateCues are the dates a page's elements declare or show, each kind in
// the page's order, as pageDate tries them.
type dateCues struct {
	metas     []string  // <meta> dates
	props     []string  // itemprop="datePublished": content, datetime, title, text
	published []string  // <time datetime> marked published
	times     []string  // every <time datetime>
	timeTexts []string  // the text of a <time> without one
	named     time.Time // the first date line named a date, outside navigation
	navNamed  time.Time // the first in navigation after the heading h, outside links and lists
}

// gatherDates walks the page once, outside scripts, for its dateCues.
func gatherDates(doc, h *html.Node) dateCues {
	var c dateCues
	pastHeading := false
	var walk func(n *html.Node, nav bool)
	walk = func(n *html.Node, nav bool) {
		if n == h {
			pastHeading = true
		}
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Script {
				return
			}
			nav = nav || navigation(n)
			c.element(n, nav, pastHeading)
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k, nav)
		}
	}
	walk(doc, false)
	return c
}

// element adds the cues of element n; nav reports whether n is in a region
// markRegions marked (navigation).
func (c *dateCues) element(n *html.Node, nav, pastHeading bool) {
	switch n.DataAtom {
	case atom.Meta:
		c.metas = appendMetaDates(c.metas, n)
	case atom.Time:
		if dt := attr(n, "datetime"); dt != "" {
			if hasAttr(n, "pubdate") || strings.EqualFold(attr(n, "itemprop"), "datePublished") {
				c.published = append(c.published, dt)
			}
			c.times = append(c.times, dt)
		} else {
			c.timeTexts = append(c.timeTexts, textOf(n))
		}
	}
	if !nav && n.DataAtom != atom.Meta && strings.EqualFold(attr(n, "itemprop"), "datePublished") {
		for _, key := range [...]string{"content", "datetime", "title"} {
			if v := attr(n, key); v != "" {
				c.props = append(c.props, v)
			}
		}
		c.props = append(c.props, textOf(n))
	}
	switch {
	case !nav && c.named.IsZero() && namesDate(n):
		c.named, _, _ = dateLineOf(n, true)
	case nav && pastHeading && c.navNamed.IsZero() && namesDate(n) && !inLinkOrItem(n):
		c.navNamed, _, _ = dateLineOf(n, true)
	}
}

// appendMetaDates appends to dates the content of <meta> n when it names a
// publication date (dateMeta) by its property, name or itemprop.
func appendMetaDates(dates []string, n *html.Node) []string {
	for _, key := range [...]string{"property", "name", "itemprop"} {
		if dateMeta[strings.ToLower(attr(n, key))] {
			dates = append(dates, attr(n, "content"))
		}
	}
	return dates
}

// inLinkOrItem reports whether n is inside a link or a list's item: in
// navigation, another story's teaser.
func inLinkOrItem(n *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p.DataAtom == atom.A || p.DataAtom == atom.Li {
			return true
		}
	}
	return false
}

// holdsNavigation reports whether an element under n is navigation.
func holdsNavigation(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (navigation(c) || holdsNavigation(c)) {
			return true
		}
	}
	return false
}

// navigation reports whether n is a region markRegions marked that shows
// other pages' dates: navigation, another story, not the author's box nor
// an author's name in a line (a byline holds the article's date: "By <span
// class="author">Jane Roe</span>, 5 March 2024").
func navigation(n *html.Node) bool {
	if hasAttr(n, regionAttr) {
		return true
	}
	for _, a := range n.Attr {
		if a.Key == inAttr {
			return !strings.HasPrefix(a.Val, authorMark) && !strings.HasPrefix(a.Val, bylineMark)
		}
	}
	return false
}

// ldObject is an object of a JSON-LD value, with how deep it stands.
type ldObject struct {
	fields map[string]any
	depth  int
}

// ldObjects returns the objects of a JSON-LD script's value, outer first
// (an @graph's members and a list's items stand as deep as the list), each
// level in a fixed order (its keys' order, not the map's), down to
// maxLDDepth.
func ldObjects(v any) []ldObject {
	var out []ldObject
	var visit func(v any, depth int)
	visit = func(v any, depth int) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e, depth)
			}
		case map[string]any:
			out = append(out, ldObject{x, depth})
			keys := slices.Sorted(maps.Keys(x))
			for _, k := range keys {
				if k == "@graph" {
					visit(x[k], depth)
				} else if depth < maxLDDepth {
					visit(x[k], depth+1)
				}
			}
		}
	}
	visit(v, 0)
	slices.SortStableFunc(out, func(a, b ldObject) int { return a.depth - b.depth })
	return out
}

// ldPublished returns the datePublished values of a JSON-LD script's
// objects (ldObjects), those of outer objects first, the earliest first
// among objects as deep.
func ldPublished(objects []ldObject) []string {
	var out []string
	level, depth := 0, -1 // where the current depth's values start, and it
	for _, o := range objects {
		if o.depth != depth {
			slices.Sort(out[level:])
			level, depth = len(out), o.depth
		}
		if s, ok := o.fields["datePublished"].(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out[level:])
	return out
}

// maxLDDepth bounds how deep ldObjects looks into a JSON-LD value.
const maxLDDepth = 8

// ldPublishedRe finds a datePublished value in a JSON-LD script's text.
var ldPublishedRe = regexp.MustCompile(`"datePublished"\s*:\s*"([^"]{8,40})"`)

// headerUp is how many ancestors above the page's heading its header
// reaches (headerOf), as for its standfirst.
const headerUp = standfirstUp

// headerOf returns the headline's header: the headerUp-th ancestor of the
// page's heading h, or the highest below <body>. The date and the byline
// the page shows are there.
func headerOf(h *html.Node) *html.Node {
	scope := h
	for up := 0; up < headerUp && scope.Parent != nil && scope.Parent.Type == html.ElementNode && scope.Parent.DataAtom != atom.Body; up++ {
		scope = scope.Parent
	}
	return scope
}

// headingDate returns the date of the first line in the header of the
// page's heading h (headerLines) that is only a date, one the page says it
// was updated on if there is no other; the zero time when none is. A list
// item that links to another story and is no date line is a teaser (a
// related story's title and its date: "<li><a>…</a>
// <span>2011/01/14</span>"): the lines in it are not read.
func headingDate(h *html.Node) time.Time {
	var first, updated time.Time
	headerLines(h, func(n *html.Node) (taken, done bool) {
		t, upd, ok := dateLine(n)
		switch {
		case !ok:
			return n.DataAtom == atom.Li && linksStory(n), false
		case upd:
			if updated.IsZero() {
				updated = t
			}
			return true, false
		}
		first = t
		return true, true
	})
	if first.IsZero() {
		return updated
	}
	return first
}

// linksStory reports whether a link to another page (pageLink) that is no
// site's home page (a source's name: "<a href="http://www.china.com.cn">")
// is under n.
func linksStory(n *html.Node) bool {
	for d := range n.Descendants() {
		if !pageLink(d) {
			continue
		}
		if u, err := nurl.Parse(strings.TrimSpace(attr(d, "href"))); err != nil || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
			return true
		}
	}
	return false
}

// headerLines calls line with the short elements (a line's worth of text)
// of the headline's header (headerOf(h)) in document order, outside
// navigation and but for those that hold the heading h or navigation,
// until line says it is done; it does not look into an element line takes,
// nor into a long paragraph (longBlock).
func headerLines(h *html.Node, line func(n *html.Node) (taken, done bool)) {
	if h == nil {
		return
	}
	done := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if done || n.Type != html.ElementNode || n == h || navigation(n) {
			return
		}
		if shortText(n, max(maxDateLine, maxByline)) && !isAncestor(n, h) && !holdsNavigation(n) {
			var taken bool
			if taken, done = line(n); taken || done {
				return
			}
		}
		if longBlock(n) {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(headerOf(h))
}

// longBlock reports whether n is a paragraph, a list item or a quotation
// longer than a date line: the header's own lines are not in them, and the
// article a header's ancestors may hold need not be read. (Tables are: a
// page laid out in one has its header in a cell.)
func longBlock(n *html.Node) bool {
	switch n.DataAtom {
	case atom.P, atom.Li, atom.Blockquote, atom.Pre:
		return !shortText(n, maxDateLine)
	}
	return false
}

// dateLine reads n's text as a date when it is short (maxDateLine bytes at
// most) and, past a label ("Published", "Posted on", "Last updated:"), only
// a date, and says whether the label calls it an update; or when one of
// its parts is (the first not an update's), the text split at line breaks and
// separators ("Jane Roe | Senior Writer | July 2, 2025", "Jane Roe<br>4
// August 2010"), cut after a year and a full stop ("December 3, 2025.
// Updated: …") or past a comma after a byline or a name (lineName: "By
// Jane Roe, Reuters, 3 March 2026", "Jane Roe, 3 March 2026"). A date is written with its month's name, as 2025-03-04, or
// with a day over 12 (09/25/2025): 03/10/2023 is the 3rd of October in one
// country and the 10th of March in another.
func dateLine(n *html.Node) (t time.Time, updated, ok bool) { return dateLineOf(n, false) }

// dateLineOf is dateLine, of an element whose id or class names a date
// (namesDate) when named: its "Stand:" line needs no clock time (see
// dateOnlyOf).
func dateLineOf(n *html.Node, named bool) (t time.Time, updated, ok bool) {
	if !shortWithYear(n, maxDateLine) {
		return time.Time{}, false, false
	}
	var upd time.Time
	text := textOf(n)
	parts := append([]string{text}, dateParts.Split(text, -1)...)
	if m := yearStop.FindStringSubmatch(text); m != nil {
		parts = append(parts, m[1]) // "December 3, 2025. Updated: December 7, 2025"
	}
	if head, _, ok := strings.Cut(text, ", "); ok && (byLead.MatchString(text) || lineName(head) != "") {
		parts = append(parts, bylineTails(text)...) // "By Jane Roe, 3 March 2026", "Jane Roe, 3 March 2026"
	}
	for _, part := range parts {
		if d, ok := dateOnlyOf(part, named); ok {
			if !updateLabel.MatchString(part) {
				return d, false, true
			}
			if upd.IsZero() {
				upd = d
			}
		}
	}
	return upd, true, !upd.IsZero()
}

// bylineTails returns what follows each comma of a byline ("By Jane Roe,
// Reuters, 3 March 2026": "Reuters, 3 March 2026" and "3 March 2026"),
// where its date may stand after the name.
func bylineTails(s string) []string {
	var tails []string
	for i := strings.Index(s, ", "); i >= 0; {
		s = s[i+2:]
		tails = append(tails, s)
		i = strings.Index(s, ", ")
	}
	return tails
}

// yearStop matches a line's start up to a year ended by a full stop.
var yearStop = regexp.MustCompile(`^(.*?\b(?:19|20)\d{2})\.\s`)

// dateParts splits a line where its parts are set apart: line breaks,
// bars, dots and dashes between spaces.
var dateParts = regexp.MustCompile(`\s*(?:\n|[|·•⋅]|\s[-–—]\s)\s*`)

// dateOnly parses s as a date when it is one and nothing else, past a
// label (dateLabel).
func dateOnly(s string) (time.Time, bool) { return dateOnlyOf(s, false) }

// dateOnlyOf is dateOnly, of the text of an element whose id or class
// names a date when named. "Stand: 31.12.2022" under a table or a chart,
// which the header of a page's heading can hold (above its second long
// paragraph), is the date of its figures: a "Stand" line is a page's own
// stamp when it gives its hour ("Stand: 05.03.2024 14:23 Uhr") or its
// element is named a date.
func dateOnlyOf(s string, named bool) (time.Time, bool) {
	if !named && standLabel.MatchString(s) && !standClock.MatchString(s) {
		return time.Time{}, false
	}
	s = strings.TrimSpace(dateLabel.ReplaceAllString(strings.Join(strings.Fields(s), " "), ""))
	if len(s) < len("2006-1-2") || !hasYear(s) {
		return time.Time{}, false
	}
	if m := ambiguousDate.FindStringSubmatch(s); m != nil && atoi(m[1]) <= 12 && atoi(m[2]) <= 12 {
		return time.Time{}, false
	}
	return parseDate(s)
}

// standLabel matches a line opened by German "Stand" ("as of"), which
// dates a page's last change only with a clock time (see dateOnly).
var standLabel = regexp.MustCompile(`(?i)^\s*stand(?:\s*:|\s+\d)`)

// standClock matches a clock time after "Stand": "14:23", "9.05 Uhr".
var standClock = regexp.MustCompile(`(?i)\b\d{1,2}:\d{2}\b|\b\d{1,2}[.:]\d{2}\s*uhr\b`)

// ambiguousDate matches a date of numbers only with slashes or dashes,
// day and month in either order (with dots, the day comes first).
var ambiguousDate = regexp.MustCompile(`^(\d{1,2})[/-](\d{1,2})[/-]\d{2,4}\b`)

// hasYear reports whether s holds a year of four digits, 19xx or 20xx, or
// two digits after a dot or a slash (25.04.24, 4/25/24): a date without a
// year is not read.
func hasYear(s string) bool {
	run := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			run++
			continue
		}
		switch {
		case run == 4 && (s[i-4:i-2] == "19" || s[i-4:i-2] == "20"):
			return true
		case run == 2 && i > 2 && (s[i-3] == '.' || s[i-3] == '/'):
			return true
		}
		run = 0
	}
	return false
}

// shortText reports whether the text under n is at most max bytes long,
// white space aside (textBytes), without reading a long one through.
func shortText(n *html.Node, max int) bool {
	return textBytes(n, max) <= max
}

// shortWithYear reports whether n's text is short (shortText) and one of
// its text nodes holds a year (hasYear): the test a line passes before it
// is rendered and parsed as a date.
func shortWithYear(n *html.Node, max int) bool {
	if !shortText(n, max) {
		return false
	}
	var year func(*html.Node) bool
	year = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && hasYear(c.Data) || c.Type == html.ElementNode && year(c) {
				return true
			}
		}
		return false
	}
	return year(n)
}

// maxDateLine is the longest text, in bytes, that dateLine reads a date
// in.
const maxDateLine = 80

// dateLabel matches the label before a date shown on a page: one the tidy
// step cuts a line of a date by (stampLabels: "Published", "Last
// updated:", "Aktualisiert am", "Stand:", "Publié le", "Opublikowano:", …
// in eleven languages), "Posted on" or "Date:".
var dateLabel = labelPattern(append(slices.Clip(stampLabels), "posted", "date"))

// updateLabel matches a date line that says when the page was updated: a
// label of updateLabels ("Last updated", "Aktualisiert am", "Stand:", "Mis
// à jour le").
var updateLabel = labelPattern(updateLabels)

// labelPattern returns a pattern of a line that opens with one of labels
// (folded, as stampLabels are), in any case, then the word for "on" in its
// language ("on", "am", "le", "el", "il", "em", "op", "den"), if any, and
// a colon or a space, or ends there.
func labelPattern(labels []string) *regexp.Regexp {
	alts := make([]string, len(labels))
	for i, l := range labels {
		alts[i] = strings.ReplaceAll(regexp.QuoteMeta(l), " ", `\s+`)
	}
	return regexp.MustCompile(`(?i)^\s*(?:` + strings.Join(alts, "|") + `)(?:\s+(?:on|am|le|el|il|em|op|den))?(?:\s*:\s*|\s+|$)`)
}

// mayNameDate reports whether s holds "date", "publish" or "posted" in
// any case.
func mayNameDate(s string) bool {
	return containsFold(s, "date") || containsFold(s, "publis") || containsFold(s, "posted")
}

// namesDate reports whether n's id or class names a publication date: a
// word ending in "date" ("post-date", "entry_date", "pubdate") but
// "update", "dateline", "published" or "posted".
func namesDate(n *html.Node) bool {
	if !mayNameDate(attr(n, "class")) && !mayNameDate(attr(n, "id")) {
		return false // most elements: no lower-casing
	}
	names := lowerNames(n)
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if (strings.HasSuffix(w, "date") && !strings.HasSuffix(w, "update")) || w == "dateline" || w == "published" || w == "posted" {
			return true
		}
	}
	return false
}

// ParseDate is parseDate, for a date given apart from a page (a feed
// item's that its parser could not read): one that names no zone or
// offset is in core.NoZone.
func ParseDate(s string) (time.Time, bool) { return parseDate(s) }

// ReadDate reads s, a date given as a value (an input file's date field),
// in the forms parseDate reads, in any year: a date that names no zone or
// offset is in core.NoZone, as one no output should claim is UTC; a
// placeholder (core.NoDate: year 1, the Unix epoch) is no date, and so is a
// date of figures whose day and month could go either way (03/10/2023:
// ambiguousDate), as in a page's text (dateOnly), and one read without a
// zone whose clock is followed by letters no reader took for one
// (zoneUnread: "10:20 Pacific Standard Time", "10:20 America/Nowhere"),
// which parseDate reads without them.
func ReadDate(s string) (time.Time, bool) {
	t, ok, _ := scanDate(s, true)
	if !ok || t.IsZero() || core.NoDate(t) || t.Location() == core.NoZone && zoneUnread(s) {
		return time.Time{}, false
	}
	return t, true
}

// zoneUnread reports whether s holds letters after its clock, up to its
// end, a year at its end or a comma, other than a 12-hour clock's "AM" or
// "PM" (with dots or without) and the "Uhr" or "h" localDate reads: a
// zone's name, which a date read without a zone has lost ("2024-03-05
// 10:20:30 Pacific Standard Time", "… Europe/Nowhere", "10:20 Foo Time,
// March 5, 2024", "Tue Mar  5 10:30:00 Foo 2024", a mail date's comment:
// "… 10:20:30 (Foo)").
func zoneUnread(s string) bool {
	g := clockTail.FindStringSubmatch(s)
	if g == nil {
		return false
	}
	var letters strings.Builder
	for _, r := range g[1] {
		if unicode.IsLetter(r) {
			letters.WriteRune(unicode.ToLower(r))
		}
	}
	switch letters.String() {
	case "", "am", "pm", "uhr", "h":
		return false
	}
	return true
}

// clockTail is a clock (hours, minutes and seconds or none, a fraction of
// a second or a point) and what follows it up to the end, a year at the
// end or a comma, without figures: the group.
var clockTail = regexp.MustCompile(`\d:\d\d(?::\d\d(?:[.,]\d*)?)?([^\d,]*?)(?:\s+(?:19|20)\d\d)?\s*(?:,|$)`)

// withoutNoZone returns s without the words after its clock when they name
// no zone (namesNoZone: "3 May 2024 09:00 Reuters", "10:30 Uhr", "10:30
// ABC", "10:15 AM Foo, March 4, 2024", "Tue Mar  5 10:30:00 Abc 2024"),
// and whether it took any off; its "AM" or "PM" stays. The layouts and
// dateparse read a word of capitals ("ABC") or a word after a date they
// know ("Abc", "Uhr") as a zone, at UTC's offset. Words that open with a
// zone and go on lose what follows the zone ("10:30:00 EST Reuters 2024"
// is read as "10:30:00 EST 2024"; "CET (Central European Time)" as
// "CET"), which the layouts do not read past; that takes no word naming
// no zone off.
func withoutNoZone(s string) (string, bool) {
	m := clockWords.FindStringSubmatchIndex(s)
	if m == nil {
		return s, false
	}
	words := s[m[2]:m[3]]
	if namesNoZone(words) {
		return s[:m[2]] + s[m[3]:], true
	}
	if end := zoneEnd(words); end > 0 {
		return s[:m[2]] + words[:end] + s[m[3]:], false
	}
	return s, false
}

// zoneEnd returns where in words (what follows a clock, which namesNoZone
// found to open with a zone) the zone's name ends when other words follow
// it, else 0.
func zoneEnd(words string) int {
	if named := namedWords(words); len(named) > 1 {
		return named[0][1]
	}
	return 0
}

// namedWords returns where the words of what follows a clock lie (start
// and end), set apart by spaces and brackets, but "Uhr" and "h" (which
// localDate reads after a clock) and dots alone.
func namedWords(words string) [][2]int {
	isSep := func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == ')' }
	var out [][2]int
	for i := 0; i < len(words); {
		r, size := utf8.DecodeRuneInString(words[i:])
		if isSep(r) {
			i += size
			continue
		}
		j := i + strings.IndexFunc(words[i:], isSep)
		if j < i {
			j = len(words)
		}
		if l := strings.ToLower(strings.Trim(words[i:j], ".")); l != "uhr" && l != "h" && l != "" {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// clockWords is a clock (hours, minutes and seconds or none, a fraction of
// a second or a point) with its "AM" or "PM", if any, and the words after
// it, without figures, up to the end, a year at the end or a comma: the
// group is the words.
var clockWords = regexp.MustCompile(`\d:\d\d(?::\d\d(?:[.,]\d*)?)?(?:\s*[AaPp]\.?[Mm](?:\.|\b))?([^\d,]*?)(?:\s+(?:19|20)\d\d)?\s*(?:,|$)`)

// namesNoZone reports whether words, what follows a clock, hold letters
// that name no zone: "Uhr" or "h" alone (which localDate reads after a
// clock), or anything that does not open with the name of a zone a reader
// knows, in brackets or not (namedZone's, one of sharedZones: "CET
// (Central European Time)", "GMT GMT"), or is not one zone of the IANA
// database (ianaZone's), "Uhr" or "h" beside it.
func namesNoZone(words string) bool {
	if !strings.ContainsFunc(words, unicode.IsLetter) {
		return false
	}
	named := namedWords(words)
	if len(named) == 0 {
		return true
	}
	w := words[named[0][0]:named[0][1]]
	if _, ok := namedZone(w); ok || sharedZones[strings.ToUpper(w)] {
		return false // what follows the zone is taken off (zoneEnd)
	}
	if len(named) > 1 || !strings.Contains(w, "/") {
		return true
	}
	_, ok := ianaZone(w)
	return !ok
}

// sharedZones are zone names that zones far apart share, of which news
// means none the most (a name news mostly means one zone by is in
// zoneMinutes): a date that carries one is read as UTC. Any other word
// after a clock names no zone (namesNoZone).
var sharedZones = map[string]bool{
	"ACT": true, "ADT": true, "AMST": true, "AMT": true, "AST": true, "BDT": true, "CAT": true, "ECT": true,
	"GST": true, "LHST": true, "SST": true, "WST": true,
}

// parseDate parses a date in any common notation (exactDate's, then
// localDate's, then dateparse's), accepting only years from 1990 to next
// year, and nothing that holds no day (a year alone, a month of a year, a
// clock: see looseDate). An "on" and a weekday before the date and a dash
// or an "@" between the date and its time ("Thu, 09/25/2025 - 11:38", "on
// Friday December 19, 2025 @08:00PM") are read past. A date that names no
// zone or offset is in core.NoZone, as ReadDate gives it.
func parseDate(s string) (time.Time, bool) {
	t, ok, _ := scanDate(s, false)
	return t, ok
}

// scanDate reads s as parseDate does, a date that names no zone in
// core.NoZone: in the forms written to a pattern (exactDate), else in
// those news sites print (looseDate). value reads it as ReadDate does (any
// year, a day and a month that could go either way refused), else as
// parseDate (years from 1990 to next year). It reports whether it refused
// s (exactDate, looseDate).
func scanDate(s string, value bool) (t time.Time, ok, refused bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, false
	}
	s = upperISO(s)
	s, _ = withoutNoZone(s) // a word read as a zone would be UTC
	if t, ok, refused := exactDate(s); ok && (value || plausibleYear(t)) {
		return t, true, false
	} else if ok || refused {
		return time.Time{}, false, refused
	}
	return looseDate(s, value)
}

// looseDate reads s, a date exactDate does not read, as scanDate does
// (value: any year, a day and a month that could go either way refused),
// in localDate's notations, dateparse's, and dayFirstDate's. It reports
// whether it refused s as a form dateparse misreads: no day (dayless:
// "2019", an album's release or a copyright, is no January 1; "2024-03" no
// March 1; "10:30:00" no October 30, 2000), a month or a day s does not
// show (monthShown, dayShown), a zone's name and an offset no convention
// reads (SplitZone's ErrZoneOffset: "10:30 EST+1"), or a date it cannot
// read before an offset SplitZone reads, which dateparse takes for the
// month, the hour or seconds; or hours alone after a date without a clock
// ("2024-03-05 -05": hoursAlone), or a time of day s does not show
// (timeShown). A date after its clock and a comma
// (clockFirst), which dateparse does not read, is read as the date and
// then the clock.
func looseDate(s string, value bool) (t time.Time, ok, refused bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false, false
	}
	if value {
		if m := ambiguousDate.FindStringSubmatch(s); m != nil && atoi(m[1]) <= 12 && atoi(m[2]) <= 12 {
			return time.Time{}, false, true
		}
	}
	if dayless(s) || hoursAlone(s) && !clockShown.MatchString(s) {
		return time.Time{}, false, true // hours alone are an offset after a clock only (SplitZone)
	}
	if longHour.MatchString(s) {
		return time.Time{}, false, true // "605:12:19": no clock, which dateparse reads as 00:12
	}
	if m := clockFirst.FindStringSubmatch(s); m != nil && !hasYear(m[1]) {
		if t, ok, refused := looseDate(m[2]+" "+m[1], value); ok || refused {
			return t, ok, refused // read as the date, then the clock
		}
	}
	switch rest, loc, err := SplitZone(s); {
	case err == nil:
		// dateparse drops or cuts the names it does not know ("AEDT" as
		// "AED", at UTC), reads no date at all before some ("10:30
		// a.m. ET") and an offset of hours ("MSK+1", "+3") as a month,
		// the hour or seconds: the date is read without its zone, then
		// put in it.
		if t, ok, _ := looseDate(rest, value); ok {
			if name, off := t.Zone(); off == 0 && (name == "UTC" || name == "") {
				return InZone(t, loc), true, false
			}
			return t, true, false
		}
		if strings.ContainsAny(s[len(rest):], "0123456789") {
			return time.Time{}, false, true
		}
	case errors.Is(err, ErrZoneOffset):
		return time.Time{}, false, true
	}
	t, err := localDate(s) // first: dateparse reads 03.04.2024 month first
	if err != nil {
		t, err = parseZoned(s)
	}
	if err != nil {
		u := leadingWeekday.ReplaceAllString(strings.TrimPrefix(s, "on "), "")
		if u = strings.Replace(strings.Replace(u, " - ", " ", 1), " @", " ", 1); u != s {
			t, err = parseZoned(u)
		}
	}
	if err != nil {
		t, err = dayFirstDate(s)
	}
	if err != nil || !value && !plausibleYear(t) {
		return time.Time{}, false, false
	}
	if !monthShown(s, t.Month()) || !dayShown(s, t.Day()) || !timeShown(s, t) {
		return time.Time{}, false, true
	}
	return WithZoneOffset(t), true, false
}

// plausibleYear reports whether t falls in a year from 1990 to next year,
// the years a page's date is read in: a page shows older years (a
// copyright, an archive's) that are not its own.
func plausibleYear(t time.Time) bool {
	return t.Year() >= 1990 && t.Year() <= time.Now().Year()+1
}

// dayless reports whether s holds too few figures of a date (dateFigures)
// to give a day: three runs of one, two or four figures (a day, a month
// and a year), two when s names a month (namedMonth), or one of five
// figures or more (20240305, Unix time); a run of three (a fraction of a
// second) is none of them. A time of day, a year alone and a month of a
// year are no date ("10:30:00", "Tue 10:30 +0300", "10:30 MSK 2024",
// "Tuesday 2024", "2024-03", "2024/03", "March 2024"), which dateparse
// reads as one ("10:30:00" as October 30, 2000, "01:02:03" as January 2,
// 2003, "Tuesday 2024" as January 1, "2024-03" as March 1): an invented
// day could make a later copy of a story look first.
func dayless(s string) bool {
	n := 0
	for _, r := range dateFigures(s) {
		switch len(r) {
		case 1, 2, 4:
			n++
		case 3:
		default:
			return false
		}
	}
	if n == 2 {
		m, _ := namedMonth(s)
		return m == 0
	}
	return n < 2
}

// dateFigures returns the runs of ASCII digits in s that may be a date's:
// not a clock's (a run beside a colon: "10:30", the "03:00" of "+03:00"),
// nor an offset's (after a plus, or a minus after a space, a bracket or a
// name that is no month's: "+3", "MSK+1", "GMT-5", " -0500"). The "03" of
// "2024-03-05" and the "24" of "05-Mar-24" are a date's.
func dateFigures(s string) []string {
	var runs []string
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		clock := j < len(s) && s[j] == ':' || i > 0 && s[i-1] == ':'
		if !clock && !offsetAt(s, i) {
			runs = append(runs, s[i:j])
		}
		i = j
	}
	return runs
}

// offsetAt reports whether the figures at s[i:] follow an offset's sign:
// a plus, or a minus ("-", "−") after a space, a bracket, the start or a
// name that is no month's.
func offsetAt(s string, i int) bool {
	before := s[:i]
	switch {
	case strings.HasSuffix(before, "+"):
		return true
	case strings.HasSuffix(before, "-"):
		before = before[:len(before)-1]
	case strings.HasSuffix(before, "−"):
		before = before[:len(before)-len("−")]
	default:
		return false
	}
	word := strings.ToLower(before[len(strings.TrimRightFunc(before, unicode.IsLetter)):])
	if word == "" {
		return before == "" || strings.HasSuffix(before, " ") || strings.HasSuffix(before, "(")
	}
	_, month := englishMonths[word]
	return !month && localMonths[word] == 0
}

// monthShown reports whether s shows month m, which dateparse read in it:
// the month s names, when it names one (a name of englishMonths or
// localMonths; several months named are not judged), and January only
// when s names it or holds it in a date's figures (dateFigures: a run "1"
// or "01", or one of six figures or more: 20240105, Unix time). dateparse
// takes what is not a month for January ("Tue 2024-03 MSK" as January 1,
// 03:00) or for another month.
func monthShown(s string, m time.Month) bool {
	named, several := namedMonth(s)
	if several {
		return true // "mar" is Tuesday in Spanish, March in English
	}
	if named != 0 || m != time.January {
		return named == 0 || named == m
	}
	for _, r := range dateFigures(s) {
		if r == "1" || r == "01" || len(r) >= 6 {
			return true
		}
	}
	return false
}

// namedMonth returns the month s names by a name of englishMonths or
// localMonths, in any case (0 when it names none), and whether it names
// several.
func namedMonth(s string) (m time.Month, several bool) {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		n, ok := englishMonths[w]
		if !ok {
			n = time.Month(localMonths[w])
		}
		switch {
		case n == 0 || n == m:
		case m == 0:
			m = n
		default:
			return m, true
		}
	}
	return m, false
}

// dayShown reports whether s shows day, which dateparse read in it, in a
// date's figures (dateFigures): a run of one or two figures that is the
// day, or one of five figures or more (20240305, Unix time). dateparse
// gives the first of the month where it reads no day ("March  05 2024",
// the day taken for seconds, as March 1, 2024, 00:00:05).
func dayShown(s string, day int) bool {
	for _, r := range dateFigures(s) {
		if len(r) >= 5 || len(r) <= 2 && atoi(r) == day {
			return true
		}
	}
	return false
}

// parseZoned is parseAny but for a 12-hour clock and what follows it,
// which dateparse reads wrong: the zone after "AM" or "PM" ("10:00 AM
// EST", "10:00 PM +01:00", "10:00 a.m. GMT+2") it drops, or takes an
// offset for the month, and "a.m." it refuses. The clock is parsed without
// the zone, and the zone (zoneLocation's) given to it; a name zoneLocation
// does not know is left to dateparse, and read as UTC.
func parseZoned(s string) (time.Time, error) {
	g := ampmZone.FindStringSubmatch(s)
	if g == nil {
		return parseAny(s)
	}
	loc, ok := zoneLocation(g[3])
	if !ok {
		t, err := parseAny(s) // dateparse drops the name: a zone named, read as UTC
		if t.Location() == core.NoZone {
			t = t.UTC()
		}
		return t, err
	}
	clock := dottedClock.ReplaceAllString(g[1], " $1:$2") // "9.30pm": dateparse reads .30 as a fraction of a second
	t, err := dateparse.ParseIn(clock+" "+strings.ToUpper(g[2])+"M", time.UTC)
	if err != nil {
		return parseAny(s)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc), nil
}

// parseAny is dateparse.ParseIn(s, time.UTC), but for a date that names
// no zone or offset, which it gives in core.NoZone. dateparse gives such a
// date in the location it is given, as it gives one that names UTC ("Z",
// "UTC", "+00:00", Unix time) in UTC: a date it reads at another instant
// in another location (probeZone) names none.
func parseAny(s string) (time.Time, error) {
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil || t.Location() != time.UTC {
		return t, err
	}
	if u, err := dateparse.ParseIn(s, probeZone); err == nil && !u.Equal(t) {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), core.NoZone), nil
	}
	return t, nil
}

// probeZone is the location parseAny reads a date in the second time: any
// offset but UTC's.
var probeZone = time.FixedZone("", 3600)

var (
	// clockShown matches a text that shows a time of day: figures either
	// side of a colon, a dot or an "h", "AM" or "PM" after a figure, the
	// character for hour, or a run of nine figures or more (Unix time,
	// 20240305102030).
	clockShown = regexp.MustCompile(`(?i)\d[:.h]\d|\d\s*[ap]\.?m|[時时]|\d{9}`)
)

// hoursAlone reports whether s ends with an offset of hours alone: one or
// two figures after an offset's sign (offsetAt: "2024-03-05 -05",
// "2024-03-05+02"), not after a date's dash ("05-Mar-24", "2024-03-05").
func hoursAlone(s string) bool {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := len(s) - i
	return n >= 1 && n <= 2 && offsetAt(s, i)
}

// timeShown reports whether s shows the time of day of t, which it was
// read as: t is at midnight, or s shows a clock (clockShown). dateparse
// reads the figures after a date that are no clock as one ("2024-03-05-05"
// as 00:00:05).
func timeShown(s string, t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 || clockShown.MatchString(s)
}

// longHour matches a clock whose hour has three figures or more
// ("605:12:19", a damaged wire date): no time of day.
var longHour = regexp.MustCompile(`\d{3}:\d{2}`)

// clockFirst is a time of day written before its date and a comma, with
// its "AM" or "PM" and zone ("10:15 AM EST, March 5, 2024", as AP writes
// it; "17:41 JST, October 13, 2024"): the clock and the date.
var clockFirst = regexp.MustCompile(`^(\d{1,2}:\d{2}[^,]{0,16}),\s*(.+)$`)

var (
	// ampmZone is a date and clock, "AM" or "PM" in any case, with or
	// without dots, and a zone after it or none: the date and clock, the
	// "a" or "p", the zone.
	ampmZone = regexp.MustCompile(`(?i)^(.*\d)\s*([ap])\.?m\.?(\s+[a-z]{1,5}|\s*(?:utc|gmt)?\s*[+-]\d{1,2}(?::?\d{2})?)?$`)
	// dottedClock is a clock's hour and minutes with a dot between them
	// at the end of a text ("9.30").
	dottedClock = regexp.MustCompile(`\s(\d{1,2})\.(\d{2})$`)
	// zoneOffset is an offset from UTC in hours, and minutes ("+01:00",
	// "-0500", "GMT+2", "UTC+5:30"): its sign, hours and minutes.
	zoneOffset = regexp.MustCompile(`(?i)^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$`)
)

// zoneLocation gives the zone z names after a clock: none (core.NoZone),
// UTC or GMT, a name namedZone knows, or an offset (zoneOffset). It reports
// false for any other name.
func zoneLocation(z string) (*time.Location, bool) {
	z = strings.ToUpper(strings.TrimSpace(z))
	switch z {
	case "":
		return core.NoZone, true
	case "UTC", "GMT", "Z":
		return time.UTC, true
	}
	if loc, ok := namedZone(z); ok {
		return loc, true
	}
	g := zoneOffset.FindStringSubmatch(z)
	if g == nil {
		return nil, false
	}
	h, m := atoi(g[2]), atoi(g[3])
	if h > 14 || m > 59 {
		return nil, false
	}
	off := h*3600 + m*60
	if g[1] == "-" {
		off = -off
	}
	return time.FixedZone("", off), true
}

// zoneMinutes are the offsets, in minutes east of UTC, of the zone names a
// date may carry that tell one offset wherever news is written: those of
// RFC 5322 (mail, RSS), which pages, feeds and exports still write, and
// the names of Europe, Russia, Asia, Oceania, Africa and the Americas that
// news sites print after a clock. Of two zones of one name the first in
// news is taken: IST is India's (Israel's in Hebrew: WithLanguageZone),
// BST Britain's summer time (Bangladesh's in Bengali), PST North
// America's Pacific, not the Philippines'. Names no zone table agrees on
// (AST, CAT, SST, …) are not here but in sharedZones: a date that carries
// one is read as UTC.
var zoneMinutes = map[string]int{
	"EST": -5 * 60, "EDT": -4 * 60, "CST": -6 * 60, "CDT": -5 * 60, "MST": -7 * 60, "MDT": -6 * 60, "PST": -8 * 60, "PDT": -7 * 60,
	"AKST": -9 * 60, "AKDT": -8 * 60, "HST": -10 * 60, "NST": -3*60 - 30, "NDT": -2*60 - 30, "BRT": -3 * 60, "ART": -3 * 60,
	"WET": 0, "WEST": 60, "BST": 60, "IST": 5*60 + 30, "CET": 60, "CEST": 2 * 60, "MEZ": 60, "MESZ": 2 * 60,
	"EET": 2 * 60, "EEST": 3 * 60, "MSK": 3 * 60, "IDT": 3 * 60, "TRT": 3 * 60,
	"SAST": 2 * 60, "WAT": 60, "EAT": 3 * 60, "PKT": 5 * 60, "NPT": 5*60 + 45, "ICT": 7 * 60, "WIB": 7 * 60,
	"HKT": 8 * 60, "SGT": 8 * 60, "MYT": 8 * 60, "PHT": 8 * 60, "AWST": 8 * 60, "JST": 9 * 60, "KST": 9 * 60,
	"ACST": 9*60 + 30, "ACDT": 10*60 + 30, "AEST": 10 * 60, "AEDT": 11 * 60, "NZST": 12 * 60, "NZDT": 13 * 60,
}

// seasonZones are the names of North America's zones that leave the season
// to the date ("10:30 a.m. ET"): standard time in winter, daylight saving
// time in summer, as the zone's rules had them that day.
var seasonZones = map[string]string{
	"ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
}

// seasonLocations are the locations of seasonZones, loaded once (from the
// zone database the binary carries: time/tzdata).
var seasonLocations = sync.OnceValue(func() map[string]*time.Location {
	m := map[string]*time.Location{}
	for name, zone := range seasonZones {
		if loc, err := time.LoadLocation(zone); err == nil {
			m[name] = loc
		}
	}
	return m
})

// namedZone returns the zone a name after a clock names, in any case: a
// name of zoneMinutes or seasonZones, or UTC's (UTC, GMT, UT, Z); false
// for any other.
func namedZone(name string) (*time.Location, bool) {
	name = strings.ToUpper(name)
	switch name {
	case "UTC", "GMT", "UT", "Z":
		return time.UTC, true
	}
	if m, ok := zoneMinutes[name]; ok {
		return time.FixedZone(name, m*60), true
	}
	loc, ok := seasonLocations()[name]
	return loc, ok
}

// ianaZone returns the zone a name of the IANA time zone database names
// ("America/New_York", "Europe/Warsaw", "Etc/GMT+5", which is UTC−5),
// from the system's zone database or the one the binary carries
// (time/tzdata); false for a name neither holds. A zone is loaded once.
func ianaZone(name string) (*time.Location, bool) {
	if loc, ok := ianaZones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	ianaZones.Store(name, loc)
	return loc, true
}

// ianaZones holds the locations ianaZone loaded, by name: at most the
// database's.
var ianaZones sync.Map

// SplitZone splits s, a date whose clock is followed by a zone, into the
// date and clock before the zone and the zone itself. The zone is a name
// namedZone knows ("10:30 IST", "10:30 a.m. ET", "22:15 (AEDT)", "10:30
// UT", "10:30 Z"), such a name with an offset after it (zoneWithOffset:
// "10:30 MSK+1", "10:30 GMT+3", "10:30 UTC-05:00", "10:30 CST+0800"), a
// zone of the IANA database (ianaZone: "10:30 America/New_York"), or an
// offset of hours alone ("10:30 +3"). The error is ErrNoZone when s ends
// otherwise (another reader may read it), ErrZoneOffset when it ends with
// a name and an offset that no convention reads ("10:30 EST+1"): the date
// is unread.
//
// A year after the zone, as Unix's date and JavaScript's Date.toString
// write it ("Tue Mar  5 10:30:00 GMT+3 2024"), stays in rest, after the
// clock ("Tue Mar  5 10:30:00 2024"): the zone is read as at the end.
func SplitZone(s string) (rest string, loc *time.Location, err error) {
	if y := zoneBeforeYear.FindStringSubmatch(s); y != nil {
		if rest, loc, err = SplitZone(y[1]); err != nil {
			return "", nil, err
		}
		return rest + " " + y[2], loc, nil
	}
	g := zoneAtEnd.FindStringSubmatch(s)
	switch {
	case g == nil:
		return "", nil, ErrNoZone
	case g[8] != "": // a zone of the IANA database
		var ok bool
		if loc, ok = ianaZone(g[8]); !ok {
			return "", nil, ErrNoZone
		}
	case g[6] != "": // an offset alone
		loc, err = zoneWithOffset("", g[6], g[7], "")
	case g[2] == "AM" || g[2] == "PM": // "10:30 PM -0500": parseZoned's
		return "", nil, ErrNoZone
	case g[3] != "":
		loc, err = zoneWithOffset(g[2], g[3], g[4], g[5])
	default:
		var ok bool
		if loc, ok = namedZone(g[2]); !ok || s[len(g[1])] == 'Z' { // "…00Z" is RFC 3339's, the layouts read it
			return "", nil, ErrNoZone
		}
	}
	if err != nil {
		return "", nil, err
	}
	return g[1], loc, nil
}

var (
	// ErrNoZone is SplitZone's error for a date that does not end with
	// a zone it reads.
	ErrNoZone = errors.New("extract: no zone after the clock")
	// ErrZoneOffset is SplitZone's error for a date that ends with a
	// zone's name and an offset no convention reads: "EST+1", "CET+1",
	// "Z+3" (zoneWithOffset).
	ErrZoneOffset = errors.New("extract: an offset after a zone's name that no convention reads")
)

// zoneWithOffset gives the zone a name followed by an offset names: sign
// ("+", "-" or "−"), hours and minutes (or none) as written. An offset
// alone (no name), of hours, is east of UTC, and so is one after UTC or
// GMT ("GMT+3", "UTC-05:00", "UTC+5:30"), as news sites write them (not
// POSIX's reverse). After MSK, hours alone are hours on from Moscow time,
// as Russia names its zones (MSK−1 to MSK+9: "MSK+1" is UTC+4), and hours
// and minutes must be Moscow's own ("MSK+03:00"): "MSK+01:00" may be
// either. Hours and minutes after another name are the offset, whatever
// the name's own in zoneMinutes: the figures settle a name that several
// zones share ("CST+0800" is China's, "IST+0200" Israel's), and the zone
// is named by its offset alone (WithLanguageZone leaves it). Hours alone
// after another name are read only as the name's own offset where they
// are it and hours on from it would be no offset in use ("KST+9",
// "AEST+10": UTC+18, UTC+20); anything else ("EST+1", "CET+1", which
// some write for CEST, "Z+3") is ErrZoneOffset.
func zoneWithOffset(name, sign, hours, minutes string) (*time.Location, error) {
	h, m := atoi(hours), atoi(minutes)
	if h > 14 || m > 59 {
		return nil, ErrZoneOffset
	}
	off := h*3600 + m*60
	if sign != "+" {
		off = -off
	}
	name = strings.ToUpper(name)
	own, known := zoneMinutes[name]
	switch {
	case name == "" || name == "UTC" || name == "GMT":
		return time.FixedZone("", off), nil
	case name == "MSK" && minutes == "":
		if off < -3600 || off > 9*3600 {
			return nil, ErrZoneOffset
		}
		return time.FixedZone("MSK"+strings.Replace(sign, "−", "-", 1)+strconv.Itoa(h), zoneMinutes["MSK"]*60+off), nil
	case name == "Z" || name == "MSK":
		if off != own*60 {
			return nil, ErrZoneOffset
		}
	case minutes == "" && (!known || off != own*60 || offsetInUse(2*off)):
		return nil, ErrZoneOffset
	}
	return time.FixedZone("", off), nil
}

// offsetInUse reports whether off, in seconds east of UTC, lies between
// the offsets zones use: UTC−12 to UTC+14.
func offsetInUse(off int) bool { return off >= -12*3600 && off <= 14*3600 }

// InZone returns t's date and clock in loc. A clock the zone skips (2:30
// on the night summer time starts) is read with the offset before the
// change, an hour on.
func InZone(t time.Time, loc *time.Location) time.Time {
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
	if u.Hour() != t.Hour() && u.Add(time.Hour).Hour() == (t.Hour()+1)%24 {
		u = u.Add(time.Hour) // time.Date's choice in a gap is not guaranteed
	}
	return u
}

// zoneAtEnd is a date whose clock is followed by a zone: its name in
// capitals, in brackets or not, with an offset after it or none ("10:30
// IST", "10:30 a.m. ET", "22:15 (AEDT)", "20:00:00.123 CEST", "14:23 Uhr
// MEZ", "10:30 MSK+1", "10:30 GMT +3", "10:30 UTC-05:00", and after a
// fraction's point without figures: "10:30:00.Z"), an offset of hours
// alone after a space ("10:30 +3"), which dateparse reads as a month, the
// hour or seconds, or a name of the IANA database, an area and a place
// ("10:30 America/New_York", "10:30 (Europe/Warsaw)"), which dateparse
// drops. Its groups: the date; the name, the offset's sign, hours and
// minutes; the sign and hours of an offset alone; the IANA name.
var zoneAtEnd = regexp.MustCompile(`^(.*\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?|\s*[Uu]hr)?)` +
	`(?:[.,]?[\s,]*\(?([A-Z]{1,5})(?:\s*([+\-−])(\d{1,2})(?::?(\d{2}))?)?\)?|\s+([+\-−])(\d{1,2})` +
	`|[\s,]*\(?([A-Z][A-Za-z]*(?:/[A-Za-z0-9_+\-]+)+)\)?)$`)

// zoneBeforeYear is a date whose clock is followed by a zone's name, with
// an offset after it or none, and then by the year ("Tue Mar  5 10:30:00
// GMT+3 2024", "Tue Mar  5 10:30:00 MSK 2024"): its groups are the date to
// the zone, and the year.
var zoneBeforeYear = regexp.MustCompile(`^(.*\d:\d\d(?::\d\d)?\s+\(?[A-Z]{1,5}(?:\s*[+\-−]\d{1,2}(?::?\d{2})?)?\)?)\s+((?:19|20)\d{2})$`)

// WithZoneOffset gives t, a time parsed in UTC (time.ParseInLocation, or
// dateparse.ParseIn with time.UTC), the offset of the zone it names: those
// read a zone's name other than UTC's with a zero offset ("01:00 EST" as
// 01:00 UTC, not 06:00).
func WithZoneOffset(t time.Time) time.Time {
	name, off := t.Zone()
	if off != 0 || name == "UTC" || name == "" {
		return t
	}
	loc, ok := namedZone(name)
	if !ok {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}

// WithLanguageZone gives t the offset its zone's name has in a text in
// language lang (a BCP 47 tag) where that differs from WithZoneOffset's
// reading: CST on a page in Chinese is China Standard Time, UTC+8, which
// mainland and Taiwanese sites write, not North America's Central, UTC−6;
// IST in Hebrew is Israel's, UTC+2, not India's; BST in Bengali is
// Bangladesh's, UTC+6, not Britain's summer time.
func WithLanguageZone(t time.Time, lang string) time.Time {
	name, off := t.Zone()
	z, ok := languageZones[name]
	if !ok || (off != 0 && off != zoneMinutes[name]*60) || !hasLanguage(lang, z.lang) {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.FixedZone(name, z.minutes*60))
}

// languageZones are the zone names whose offset in texts of one language
// (a BCP 47 primary tag) is another than zoneMinutes gives.
var languageZones = map[string]struct {
	lang    string
	minutes int
}{
	"CST": {"zh", 8 * 60},
	"IST": {"he", 2 * 60},
	"BST": {"bn", 6 * 60},
}

// hasLanguage reports whether lang, a BCP 47 tag, is of the primary
// language primary ("zh", "zh-CN", "zh-Hant-TW" for "zh"), in any case.
func hasLanguage(lang, primary string) bool {
	n := len(primary)
	return len(lang) >= n && strings.EqualFold(lang[:n], primary) && (len(lang) == n || lang[n] == '-' || lang[n] == '_')
}

// localDate reads the date notations of other languages than English, with
// the time after the date ("25.04.2024, 14:23 Uhr"), if any: the day first with
// dots (25.04.2024, 3.4.24: never month first; a year of two figures in
// centuryOf's century), the year first with 年 月 日
// or 년 월 일 (2019年4月4日), and the month by its name in German, French,
// Spanish, Italian, Portuguese, Dutch, Polish, Swedish and Russian ("3. Mai
// 2024", "3 de mayo de 2024", "3 мая 2024"), a weekday before it allowed
// (leadingWeekday: "Dienstag, 5. März 2024", "wtorek, 5 marca 2024"), in
// core.NoZone (no zone named).
func localDate(s string) (time.Time, error) {
	s = leadingWeekday.ReplaceAllString(strings.ToLower(strings.TrimSpace(s)), "")
	var hour, minute, second int
	if loc := localTime.FindStringIndex(s); loc != nil {
		if g := clockFigures.FindStringSubmatch(s[loc[0]:loc[1]]); g != nil {
			hour, minute, second = atoi(g[1]), atoi(g[2]), atoi(g[3])
		}
		if hour > 23 || minute > 59 || second > 59 {
			hour, minute, second = 0, 0, 0
		}
		s = s[:loc[0]]
	}
	s = strings.TrimSpace(s)
	var y, m, d int
	if g := dottedDate.FindStringSubmatch(s); g != nil {
		d, m, y = atoi(g[1]), atoi(g[2]), atoi(g[3])
	} else if g := cjkDate.FindStringSubmatch(s); g != nil {
		y, m, d = atoi(g[1]), atoi(g[2]), atoi(g[3])
	} else if g := namedDate.FindStringSubmatch(s); g != nil && localMonths[g[2]] > 0 {
		d, m, y = atoi(g[1]), localMonths[g[2]], atoi(g[3])
	} else {
		return time.Time{}, errNoDate
	}
	if y < 100 {
		y = centuryOf(y)
	}
	t := time.Date(y, time.Month(m), d, hour, minute, second, 0, core.NoZone)
	if m < 1 || m > 12 || d < 1 || t.Day() != d {
		return time.Time{}, errNoDate
	}
	return t, nil
}

// centuryOf gives the year of two figures yy its century as time.Parse
// does for its layouts' "06" (and so dateparse, RFC 822's and RFC 850's
// forms): 69 to 99 are 1969 to 1999, 00 to 68 are 2000 to 2068, so that
// "05.03.99" is the year "05 Mar 99" is.
func centuryOf(yy int) int {
	if yy >= 69 {
		return 1900 + yy
	}
	return 2000 + yy
}

// dayFirstDate reads an English date written day first, with an ordinal
// or without ("27th April 2020", "1st of March, 2019", "5 March 2024"), a
// weekday before it and a clock after it allowed ("Monday 27th of April
// 2020 02:37:18 AM CDT", "5 March 2024, 10:00 CET"), which dateparse does
// not read. The clock is read with its zone (zoneLocation's; a name it
// does not know as UTC); a day or a clock without one is in core.NoZone,
// as localDate's.
func dayFirstDate(s string) (time.Time, error) {
	s = strings.ToLower(leadingWeekday.ReplaceAllString(strings.TrimSpace(s), ""))
	clock := clockTime.FindStringSubmatch(s)
	if clock != nil {
		s = strings.TrimSpace(strings.TrimSuffix(s, clock[0]))
	}
	g := dayFirst.FindStringSubmatch(s)
	if g == nil {
		return time.Time{}, errNoDate
	}
	m, ok := englishMonths[g[2]]
	if !ok {
		return time.Time{}, errNoDate
	}
	t := time.Date(atoi(g[3]), m, atoi(g[1]), 0, 0, 0, 0, core.NoZone)
	if t.Day() != atoi(g[1]) {
		return time.Time{}, errNoDate
	}
	return withClock(t, clock), nil
}

// withClock gives the day t the time of day clock holds (clockTime's
// groups: hour, minute, second, "a" or "p", zone), or t itself when there
// is none or it is no time of day (25:00, 13:00 PM).
func withClock(t time.Time, clock []string) time.Time {
	if clock == nil {
		return t
	}
	h, m, sec := atoi(clock[1]), atoi(clock[2]), atoi(clock[3])
	switch {
	case clock[4] != "" && (h < 1 || h > 12):
		return t
	case clock[4] == "a" && h == 12:
		h = 0
	case clock[4] == "p" && h < 12:
		h += 12
	}
	loc, ok := zoneLocation(clock[5])
	if !ok {
		loc = time.UTC // other names, as WithZoneOffset reads them
	}
	if h > 23 || m > 59 || sec > 59 {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), h, m, sec, 0, loc)
}

var (
	// dayFirst is a day, with its ordinal suffix or without, a month's
	// name and a year, in lower case.
	dayFirst = regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(\p{L}+)\.?,?\s+(\d{4})$`)
	// clockTime is a time of day after a date, in lower case: its hour,
	// minute, second, the "a" or "p" of "am" or "pm", and a zone's name or
	// offset.
	clockTime = regexp.MustCompile(`(?:,|\s)\s*(?:at\s+)?(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?(\s+[a-z]{2,5}|\s*(?:utc|gmt)?\s*[+-]\d{1,2}(?::?\d{2})?)?$`)
)

// englishMonths maps the English months' names and their three-letter
// shortenings, in lower case, to their months.
var englishMonths = func() map[string]time.Month {
	m := map[string]time.Month{"sept": time.September}
	for i := time.January; i <= time.December; i++ {
		name := strings.ToLower(i.String())
		m[name], m[name[:3]] = i, i
	}
	return m
}()

// errNoDate is localDate's error for what is no date.
var errNoDate = errors.New("no date")

var (
	// localTime is a time of day after a date, and the label before it;
	// or written with the characters for hour and minute (09時00分).
	localTime = regexp.MustCompile(`(?:(?:,|\s)\s*(?:um\s+|à\s+|a las\s+|alle\s+|kl\.?\s+|в\s+)?\d{1,2}[:.h]\d{2}(?:\s*(?:uhr|h))?|\s*\d{1,2}\s*[時时]\s*\d{1,2}\s*分(?:\s*\d{1,2}\s*秒)?)$`)
	// dottedDate is a date written day first with dots.
	// clockFigures are the hour, minutes and seconds (or none) of a
	// clock localTime matched.
	clockFigures = regexp.MustCompile(`(\d{1,2})\D+(\d{1,2})(?:\D+(\d{1,2}))?`)
	dottedDate   = regexp.MustCompile(`^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4}|\d{2})$`)
	// cjkDate is a date written year first with the characters for year,
	// month and day.
	cjkDate = regexp.MustCompile(`^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?$`)
	// namedDate is a day, a month's name and a year ("3. mai 2024", "3 de
	// mayo de 2024").
	namedDate = regexp.MustCompile(`^(\d{1,2})\.?\s+(?:de\s+)?(\p{L}+)\.?\s+(?:de\s+|del\s+)?(\d{4})(?:\s*(?:г\.?|года))?$`)
)

// localMonths maps the months' names (and the usual shortenings) of the
// languages localDate reads, in lower case, to their numbers.
var localMonths = func() map[string]int {
	names := [12]string{
		"januar jänner janvier enero gennaio janeiro januari stycznia styczeń januari января январь jan janv ene gen",
		"februar février febrero febbraio fevereiro februari lutego luty februari февраля февраль feb févr fév",
		"märz mars marzo março maart marca marzec mars марта март mär mrz",
		"april avril abril aprile april kwietnia kwiecień april апреля апрель apr avr abr",
		"mai mai mayo maggio maio mei maja maj maj мая май mag",
		"juni juin junio giugno junho juni czerwca czerwiec juni июня июнь jun giu",
		"juli juillet julio luglio julho juli lipca lipiec juli июля июль jul juil lug",
		"august août agosto agosto augustus sierpnia sierpień augusti августа август aug ago",
		"september septembre septiembre settembre setembro september września wrzesień september сентября сентябрь sep sept set",
		"oktober octobre octubre ottobre outubro oktober października październik oktober октября октябрь okt oct ott out",
		"november novembre noviembre novembre novembro november listopada listopad november ноября ноябрь nov",
		"dezember décembre diciembre dicembre dezembro december grudnia grudzień december декабря декабрь dez déc dic",
	}
	m := map[string]int{}
	for i, ns := range names {
		for _, n := range strings.Fields(ns) {
			m[n] = i + 1
		}
	}
	return m
}()

// atoi returns the value of the digits s holds (the patterns that give it
// match digits only).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// leadingWeekday matches a weekday's name before a date: an English one,
// whole or short, or one of localWeekdays, whole.
var leadingWeekday = regexp.MustCompile(`(?i)^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?|` + strings.Join(strings.Fields(localWeekdays), "|") + `),?\s+`)

// localWeekdays are the weekdays' names, in lower case, of the languages
// whose months localDate reads: German, French, Spanish, Italian,
// Portuguese, Dutch, Polish, Swedish and Russian ("Dienstag, 5. März 2024",
// "mardi 5 mars 2024", "вторник, 5 марта 2024").
const localWeekdays = `montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag
	lundi mardi mercredi jeudi vendredi samedi dimanche
	lunes martes miércoles miercoles jueves viernes sábado sabado domingo
	lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato domenica
	segunda-feira terça-feira terca-feira quarta-feira quinta-feira sexta-feira segunda terça terca quarta quinta sexta
	maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
	poniedziałek wtorek środa czwartek piątek sobota niedziela
	måndag tisdag onsdag torsdag fredag lördag söndag
	понедельник вторник среда четверг пятница суббота воскресенье`
