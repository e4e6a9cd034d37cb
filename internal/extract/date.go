package extract

// A page's publication date, for pages whose engine finds none: what the
// page declares (<meta>, JSON-LD, itemprop, <time>, its URL), then what it
// shows by the headline.

import (
	"maps"
	nurl "net/url"
	"regexp"
	"slices"
	"strings"
	"time"

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
// text, outside the regions markRegions marked and teasers' list items; a
// date in the URL; then a line that is only a date (after a label,
// "Published", "Posted on") around the page's heading h (a header's
// "June 12, 2025"), a date the page says it was updated on last; and
// then the first such line in an element whose id or class names a date
// ("post-date", "dateline") outside the regions markRegions marked; last,
// the first such element or <time> inside them that comes after the
// heading and is in no link or list item (a post's meta in a column marked
// a sidebar; not a menu's clock above the headline, nor a teaser's date).
// It returns the zero time if none parses to a plausible date.
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
	navNamed  time.Time // the first such line or <time> in navigation after the heading h, outside links and lists
}

// gatherDates walks the page once, outside scripts, for its dateCues.
// A <time> in a region markRegions marked inside an <article> outside
// navigation (its <footer>, an <aside class="post-meta">) is read as one
// outside navigation: the post's own. Navigation does not start at <html>
// or at an element that holds the heading (h; without one, the page's
// first <article> or <main>): a column or a page whose class names a
// sidebar ("sidebar-default", "c-archiveMain") holds the article.
func gatherDates(doc, h *html.Node) dateCues {
	var c dateCues
	holdsHeading := map[*html.Node]bool{}
	top := h
	if top == nil { // no heading: the page's first <article>, else its first <main>, stands for it
		top = firstElement(doc, atom.Article)
		if top == nil {
			top = firstElement(doc, atom.Main)
		}
	}
	for p := top; p != nil; p = p.Parent {
		holdsHeading[p] = true
	}
	pastHeading := false
	// inArticle: under an <article> outside navigation; navInArticle: in
	// navigation that starts there.
	var walk func(n *html.Node, nav, inArticle, navInArticle bool)
	walk = func(n *html.Node, nav, inArticle, navInArticle bool) {
		if n == h {
			pastHeading = true
		}
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Script {
				return
			}
			if !nav && n.DataAtom != atom.Html && !holdsHeading[n] && navigation(n) {
				nav, navInArticle = true, inArticle
			}
			inArticle = inArticle || !nav && n.DataAtom == atom.Article
			c.element(n, nav, nav && !navInArticle, pastHeading)
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k, nav, inArticle, navInArticle)
		}
	}
	walk(doc, false, false, false)
	return c
}

// element adds the cues of element n; nav reports whether n is in a region
// markRegions marked (navigation), timeNav whether a <time> there is read
// as one in navigation (gatherDates). A <time> in navigation (a ticker's
// or a menu's clock, a related story's date) is read only as navNamed is,
// and one in a teaser (teaserItem) not at all.
func (c *dateCues) element(n *html.Node, nav, timeNav, pastHeading bool) {
	switch n.DataAtom {
	case atom.Meta:
		c.metas = appendMetaDates(c.metas, n)
	case atom.Time:
		switch {
		case timeNav:
			if pastHeading && c.navNamed.IsZero() && !inLinkOrItem(n) {
				c.navNamed = timeDate(n)
			}
		case teaserItem(n):
		case attr(n, "datetime") != "":
			dt := attr(n, "datetime")
			if hasAttr(n, "pubdate") || strings.EqualFold(attr(n, "itemprop"), "datePublished") {
				c.published = append(c.published, dt)
			}
			c.times = append(c.times, dt)
		default:
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

// timeDate returns the date of <time> n: its datetime, else its text, as
// parseDate reads it; the zero time when neither is a date.
func timeDate(n *html.Node) time.Time {
	s := attr(n, "datetime")
	if s == "" {
		s = textOf(n)
	}
	t, _ := parseDate(s)
	return t
}

// teaserItem reports whether n is in a teaser: in a list item or a link
// that links to another story (linksStory) and holds more than a date
// (isDateLine), whose date is that story's ("<li><a href="/x">Older story</a>
// <time>1 January 2020</time></li>", a card "<a href="/x"><time>…</time>
// <h3>Older story</h3></a>"), as headingDate reads the header's lines. The
// nearest such ancestor decides: a link or a list item that is only its
// date ("<a href="/2024/03/05/story" rel="bookmark"><time>…</time></a>",
// a post's meta) is none.
func teaserItem(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Li || pageLink(p) {
			return linksStory(p) && !(shortText(p, maxDateLine) && isDateLine(strings.TrimSpace(textOf(p))))
		}
	}
	return false
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
// is n or under it.
func linksStory(n *html.Node) bool {
	if storyLink(n) {
		return true
	}
	for d := range n.Descendants() {
		if storyLink(d) {
			return true
		}
	}
	return false
}

// storyLink reports whether n is a link to another page (pageLink) that is
// no site's home page.
func storyLink(n *html.Node) bool {
	if !pageLink(n) {
		return false
	}
	u, err := nurl.Parse(strings.TrimSpace(attr(n, "href")))
	return err != nil || strings.Trim(u.Path, "/") != "" || u.RawQuery != ""
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
	split := dateParts.Split(text, -1)
	parts := append([]string{text}, split...)
	if m := yearStop.FindStringSubmatch(text); m != nil {
		parts = append(parts, m[1]) // "December 3, 2025. Updated: December 7, 2025"
	}
	for _, part := range split {
		parts = append(parts, labelledParts(part)...) // "Published March 5, 2024 Updated March 7, 2024"
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

// labelledParts returns the parts of a line's part that a label of
// stampLabels opens inside it (midLabel) sets apart, each up to the next
// and without the full stop or comma that ends it, when there is such a
// label: "Published March 5, 2024 Updated March 7, 2024" gives "Published
// March 5, 2024" and "Updated March 7, 2024", "December 3, 2025. Updated:
// December 7, 2025" "December 3, 2025" and "Updated: December 7, 2025";
// nil when there is none.
func labelledParts(s string) []string {
	cuts := midLabel.FindAllStringIndex(s, -1)
	if cuts == nil {
		return nil
	}
	parts := make([]string, 0, len(cuts)+1)
	start := 0
	for _, c := range cuts {
		parts = append(parts, strings.TrimRight(s[start:c[0]], " .,;"))
		start = c[0]
	}
	return append(parts, s[start:])
}

// midLabel matches a label of stampLabels inside a line, after a figure
// or a word and white space, then a colon or white space.
var midLabel = regexp.MustCompile(`(?i)\s(?:` + strings.Join(quotedLabels(stampLabels), "|") + `)(?:\s*:|\s)`)

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
	return regexp.MustCompile(`(?i)^\s*(?:` + strings.Join(quotedLabels(labels), "|") + `)(?:\s+(?:on|am|le|el|il|em|op|den))?(?:\s*:\s*|\s+|$)`)
}

// quotedLabels returns labels as patterns, a space in one matching any
// white space.
func quotedLabels(labels []string) []string {
	alts := make([]string, len(labels))
	for i, l := range labels {
		alts[i] = strings.ReplaceAll(regexp.QuoteMeta(l), " ", `\s+`)
	}
	return alts
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

// firstElement returns the first element of n's tree, n included, of the
// given kind outside scripts, or nil.
func firstElement(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.Type == html.ElementNode && k.DataAtom == atom.Script {
			continue
		}
		if f := firstElement(k, a); f != nil {
			return f
		}
	}
	return nil
}
