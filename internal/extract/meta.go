package extract

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/araddon/dateparse"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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
// ("post-date", "dateline") outside the regions markRegions marked. It
// returns the zero time if none parses to a plausible date.
func pageDate(doc, h *html.Node, pageURL string, lds linkedData) time.Time {
	ld := lds.published
	var metas, props, published, times, timeTexts []string
	var named *html.Node
	var walk func(n *html.Node, nav bool)
	walk = func(n *html.Node, nav bool) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Meta:
				for _, key := range []string{"property", "name", "itemprop"} {
					if dateMeta[strings.ToLower(attr(n, key))] {
						metas = append(metas, attr(n, "content"))
					}
				}
			case atom.Script:
				return
			case atom.Time:
				if dt := attr(n, "datetime"); dt != "" {
					if hasAttr(n, "pubdate") || strings.EqualFold(attr(n, "itemprop"), "datePublished") {
						published = append(published, dt)
					}
					times = append(times, dt)
				} else {
					timeTexts = append(timeTexts, textOf(n))
				}
			}
			nav = nav || navigation(n)
			if !nav && n.DataAtom != atom.Meta && strings.EqualFold(attr(n, "itemprop"), "datePublished") {
				for _, key := range []string{"content", "datetime", "title"} {
					if v := attr(n, key); v != "" {
						props = append(props, v)
					}
				}
				props = append(props, textOf(n))
			}
			if !nav && named == nil && namesDate(n) {
				if _, _, ok := dateLine(n); ok {
					named = n
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, nav)
		}
	}
	walk(doc, false)
	for _, group := range [][]string{metas, ld, props, published, times, timeTexts} {
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
	if named != nil {
		t, _, _ := dateLine(named)
		return t
	}
	return time.Time{}
}

// holds reports whether m is under n.
func holds(n, m *html.Node) bool {
	for p := m; p != nil; p = p.Parent {
		if p == n {
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
// other pages' dates: navigation, another story, not the author's box (a
// byline's box holds the article's date).
func navigation(n *html.Node) bool {
	if hasAttr(n, regionAttr) {
		return true
	}
	for _, a := range n.Attr {
		if a.Key == inAttr {
			return !strings.HasPrefix(a.Val, authorMark)
		}
	}
	return false
}

// ldPublished returns the datePublished values of a JSON-LD script's value,
// those of outer objects first (an @graph's members and a list's items
// count as outer).
func ldPublished(v any) []string {
	var byDepth [][]string
	var visit func(v any, depth int)
	visit = func(v any, depth int) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e, depth)
			}
		case map[string]any:
			if s, ok := x["datePublished"].(string); ok {
				for len(byDepth) <= depth {
					byDepth = append(byDepth, nil)
				}
				byDepth[depth] = append(byDepth[depth], s)
			}
			for k, e := range x {
				if k == "@graph" {
					visit(e, depth)
				} else if depth < maxLDDepth {
					visit(e, depth+1)
				}
			}
		}
	}
	visit(v, 0)
	var out []string
	for _, d := range byDepth {
		slices.Sort(d) // map order is random; the earliest of a level first
		out = append(out, d...)
	}
	return out
}

// maxLDDepth bounds how deep ldPublished looks into a JSON-LD object.
const maxLDDepth = 8

// ldPublishedRe finds a datePublished value in a JSON-LD script's text.
var ldPublishedRe = regexp.MustCompile(`"datePublished"\s*:\s*"([^"]{8,40})"`)

// dateUp is how many ancestors above the page's heading headingDate looks
// under: the headline's header, as for its standfirst.
const dateUp = standfirstUp

// headingDate returns the date of the first line around the page's heading
// h (under its dateUp nearest ancestors) that is only a date, one the page
// says it was updated on if there is no other; the zero time when none is.
func headingDate(h *html.Node) time.Time {
	if h == nil {
		return time.Time{}
	}
	scope := h
	for up := 0; up < dateUp && scope.Parent != nil && scope.Parent.Type == html.ElementNode && scope.Parent.DataAtom != atom.Body; up++ {
		scope = scope.Parent
	}
	var first, updated time.Time
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if !first.IsZero() || n.Type != html.ElementNode || n == h || navigation(n) {
			return
		}
		if t, upd, ok := dateLine(n); ok && !holds(n, h) && !holdsNavigation(n) {
			if upd {
				if updated.IsZero() {
					updated = t
				}
			} else {
				first = t
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(scope)
	if first.IsZero() {
		return updated
	}
	return first
}

// dateLine reads n's text as a date when it is short (maxDateLine bytes at
// most) and, past a label ("Published", "Posted on", "Last updated:"), only
// a date, and says whether the label calls it an update; or when one of
// its parts is (the first not an update's), the text split at line breaks and
// separators ("Jane Roe | Senior Writer | July 2, 2025", "Jane Roe<br>4
// August 2010"). A date is written with its month's name, as 2025-03-04, or
// with a day over 12 (09/25/2025): 03/10/2023 is the 3rd of October in one
// country and the 10th of March in another.
func dateLine(n *html.Node) (t time.Time, updated, ok bool) {
	if !shortText(n, maxDateLine) {
		return time.Time{}, false, false
	}
	var upd time.Time
	for _, part := range append([]string{textOf(n)}, dateParts.Split(textOf(n), -1)...) {
		if d, ok := dateOnly(part); ok {
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

// dateParts splits a line where its parts are set apart: line breaks,
// bars, dots and dashes between spaces.
var dateParts = regexp.MustCompile(`\s*(?:\n|[|·•⋅]|\s[-–—]\s)\s*`)

// dateOnly parses s as a date when it is one and nothing else, past a
// label (dateLabel).
func dateOnly(s string) (time.Time, bool) {
	s = strings.TrimSpace(dateLabel.ReplaceAllString(strings.Join(strings.Fields(s), " "), ""))
	if len(s) < len("2006-1-2") || !strings.ContainsFunc(s, isDigitRune) {
		return time.Time{}, false
	}
	if m := ambiguousDate.FindStringSubmatch(s); m != nil && atoiSmall(m[1]) <= 12 && atoiSmall(m[2]) <= 12 {
		return time.Time{}, false
	}
	return parseDate(s)
}

// ambiguousDate matches a date of numbers only, day and month in either
// order.
var ambiguousDate = regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}\b`)

// atoiSmall returns the value of a string of one or two digits.
func atoiSmall(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }

// shortText reports whether the text under n is at most max bytes long,
// without rendering a long one.
func shortText(n *html.Node, max int) bool {
	size := 0
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			size += len(strings.TrimSpace(n.Data))
			return size <= max
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	return walk(n)
}

// maxDateLine is the longest text, in bytes, that dateLine reads a date
// in.
const maxDateLine = 80

// dateLabel matches the label before a date shown on a page: "Published",
// "Posted on", "Date:", "Last updated:".
var dateLabel = regexp.MustCompile(`(?i)^\s*(?:(?:first\s+)?published|posted|date|(?:last\s+)?updated)(?:\s+on)?\s*:?\s*`)

// updateLabel matches a date line that says when the page was updated.
var updateLabel = regexp.MustCompile(`(?i)^\s*(?:last\s+)?updated\b`)

// mayNameDate reports whether s holds "date", "publish" or "posted" in
// any case.
func mayNameDate(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		switch s[i] | 0x20 {
		case 'd':
			if strings.EqualFold(s[i:i+4], "date") {
				return true
			}
		case 'p':
			if i+6 <= len(s) && (strings.EqualFold(s[i:i+6], "publis") || strings.EqualFold(s[i:i+6], "posted")) {
				return true
			}
		}
	}
	return false
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

// parseDate parses a date in any common notation, accepting only years
// from 1990 to next year. A weekday before the date and a dash between
// the date and its time ("Thu, 09/25/2025 - 11:38") are read past.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil {
		if u := strings.Replace(leadingWeekday.ReplaceAllString(s, ""), " - ", " ", 1); u != s {
			t, err = dateparse.ParseIn(u, time.UTC)
		}
	}
	if err != nil || t.Year() < 1990 || t.Year() > time.Now().Year()+1 {
		return time.Time{}, false
	}
	return t, true
}

// leadingWeekday matches a weekday's name, whole or short, before a date.
var leadingWeekday = regexp.MustCompile(`(?i)^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+`)

// bylinePrefix matches the words that introduce an author's name, spaced
// or not ("Written byDan Pantelo").
var bylinePrefix = regexp.MustCompile(`(?i)^(?:(?:posted|written|published|text|authored|reported)\s*by|read\s+more\s+about|view\s+all\s+posts\s+by|authors?|by|von|par|autor)\b\s*:?\s*`)

// gluedBy matches "By" run into the name after it ("BySummer Swann",
// "Written byDan Pantelo").
var gluedBy = regexp.MustCompile(`^(?:(?:Posted|Written|Published|Text|Authored|Reported)\s*by|By|BY)(\p{Lu})`)

// bylineEnd matches where a byline stops naming people: a separator, or a
// date that follows the name, or a reviewer after the author.
var bylineEnd = regexp.MustCompile(`(?i)\s*(?:[|·•⋅●]|\s-\s|\bon\s+\w+\s+\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|\bupdated\b|\bposted\b|[,.]?\s*(?:medically\s+|fact[- ]checked\s+and\s+)?reviewed\s+by\b|\bfact[- ]checked\s+by\b).*$`)

// gluedTail matches what a page's markup set apart from the name and its
// text runs into it: a label or role word ("Cazzy MagennisLast Updated",
// "Harry RabinowitzTech Reporter") or a number ("Chris Carroll30").
var gluedTail = regexp.MustCompile(`(\p{Ll})(?:(?:Last|Updated|Published|Posted|Twitter|Follow|Founder|Senior|Staff|Tech|Editor|Reporter|Writer|Contributor|Correspondent|Share|Email|Photo)\b|\d).*$`)

// bylineNoise matches e-mail addresses and a lone number after a name.
var bylineNoise = regexp.MustCompile(`\S+@\S+\.\w+|\s+\d{1,2}$`)

// linkLabel matches a link's label taken for a byline ("View more posts",
// "See all articles").
var linkLabel = regexp.MustCompile(`(?i)^(?:view|see|read|more|all)\b.*\b(?:posts?|articles?|stories|author)$`)

// placeholder matches a template's unfilled key ("page.head.extra.author").
var placeholder = regexp.MustCompile(`(?i)^\w+(?:\.\w+)*\.(?:author|authors|name|byline)$`)

// maxByline is the longest author string kept, in bytes; longer ones are
// sentences or profile boxes, not names.
const maxByline = 80

// cleanByline reduces a byline to the names in it: "By Jane Roe | July 24,
// 2012" → "Jane Roe". It returns "" for what is not a name: a date, a
// template's key, a sentence.
func cleanByline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = gluedBy.ReplaceAllString(s, "$1")
	for {
		t := bylinePrefix.ReplaceAllString(s, "")
		if t == s {
			break
		}
		s = t
	}
	s = bylineEnd.ReplaceAllString(s, "")
	s = gluedTail.ReplaceAllString(s, "$1")
	if t := strings.Trim(bylineNoise.ReplaceAllString(s, ""), " ,;:-"); t != "" {
		s = t // an address alone is kept: it is all the page gives
	}
	if len(s) > maxByline || !strings.ContainsFunc(s, isLetter) || weekday.MatchString(s) || placeholder.MatchString(s) || linkLabel.MatchString(s) {
		return ""
	}
	if _, ok := parseDate(s); ok {
		return ""
	}
	return s
}

// weekday matches a byline that was only a date's weekday.
var weekday = regexp.MustCompile(`(?i)^(mon|tues|wednes|thurs|fri|satur|sun)day$`)

func isLetter(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f
}

// pageAuthor looks for the article's authors the page declares, for pages
// whose engine found none: the author of the JSON-LD's article (a name, a
// person, a list of them, or a reference to a person of the @graph), then
// an element marked itemprop="author" (its content, the name marked in
// it, or its text), then a link marked rel="author". Several authors are
// joined by ", ". It returns "" when none is.
func pageAuthor(doc, h *html.Node, ld linkedData) string {
	fromLD := ld.author
	var fromProp, fromRel string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode || n.Type == html.CommentNode {
			return
		}
		if n.DataAtom == atom.Script {
			return
		}
		if fromProp == "" && strings.EqualFold(attr(n, "itemprop"), "author") {
			fromProp = propName(n)
		}
		if fromRel == "" && n.DataAtom == atom.A && strings.EqualFold(attr(n, "rel"), "author") && shortText(n, maxByline) {
			fromRel = textOf(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, s := range []string{fromLD, fromProp, fromRel} {
		if a := cleanByline(s); a != "" {
			return a
		}
	}
	return headingByline(h)
}

// propName returns the name an element marked itemprop="author" gives:
// its content attribute, else the text of the element marked
// itemprop="name" in it, else its own text when that is short.
func propName(n *html.Node) string {
	if c := attr(n, "content"); c != "" {
		return c
	}
	var name *html.Node
	var find func(*html.Node)
	find = func(m *html.Node) {
		for c := m.FirstChild; c != nil && name == nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				if strings.EqualFold(attr(c, "itemprop"), "name") {
					name = c
					return
				}
				find(c)
			}
		}
	}
	find(n)
	if name != nil {
		if c := attr(name, "content"); c != "" {
			return c
		}
		return textOf(name)
	}
	if shortText(n, maxByline) {
		return textOf(n)
	}
	return ""
}

// ldAuthor returns the authors of the first object of a JSON-LD script's
// value, outermost first, that names an author: a name, a person or
// organisation with a name, a reference to one of the @graph (by its @id),
// or a list of these, joined by ", ". "" when none does.
func ldAuthor(v any) string {
	byID := map[string]string{} // the names of the objects with an @id
	var objects []map[string]any
	var visit func(v any, depth int)
	visit = func(v any, depth int) {
		if depth > maxLDDepth {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e, depth)
			}
		case map[string]any:
			objects = append(objects, x)
			if id, ok := x["@id"].(string); ok {
				if name, ok := x["name"].(string); ok {
					byID[id] = name
				}
			}
			for k, e := range x {
				if k == "@graph" {
					visit(e, depth)
				} else if k != "author" {
					visit(e, depth+1)
				}
			}
		}
	}
	visit(v, 0)
	name := func(a any) string {
		switch x := a.(type) {
		case string:
			return x
		case map[string]any:
			if s, ok := x["name"].(string); ok {
				return s
			}
			if id, ok := x["@id"].(string); ok {
				return byID[id]
			}
		}
		return ""
	}
	for _, o := range objects {
		var names []string
		switch a := o["author"].(type) {
		case []any:
			for _, e := range a {
				if s := strings.TrimSpace(name(e)); s != "" {
					names = append(names, s)
				}
			}
		default:
			if s := strings.TrimSpace(name(a)); s != "" {
				names = append(names, s)
			}
		}
		if len(names) > 0 {
			return strings.Join(names, ", ")
		}
	}
	return ""
}

// maxBylineWords is the most words of a name headingByline takes.
const maxBylineWords = 6

// headingByline returns the name of the first byline around the page's
// heading h (under its dateUp nearest ancestors, outside navigation): a
// short line, or a part of one, that starts with "By" ("By Jane Roe",
// "Posted by Jane Roe · Dec 20, 2025") or stands in an element whose id or
// class names an author or a byline; "" when there is none.
func headingByline(h *html.Node) string {
	if h == nil {
		return ""
	}
	scope := h
	for up := 0; up < dateUp && scope.Parent != nil && scope.Parent.Type == html.ElementNode && scope.Parent.DataAtom != atom.Body; up++ {
		scope = scope.Parent
	}
	name := ""
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if name != "" || n.Type != html.ElementNode || n == h || navigation(n) {
			return
		}
		if shortText(n, maxByline) && !holds(n, h) && !holdsNavigation(n) {
			text := textOf(n)
			named := namesByline(n)
			for _, part := range append(dateParts.Split(text, -1), text) {
				part = strings.TrimSpace(part)
				if !named && !byLead.MatchString(part) {
					continue
				}
				if s := cleanByline(part); s != "" && nameLike(s) {
					name = s
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(scope)
	return name
}

// nameLike reports whether s reads as names rather than a sentence: at most
// maxBylineWords words, no digits, no sentence's end, its first word and
// most of the others capitalised (in the scripts that have capitals).
func nameLike(s string) bool {
	words := strings.Fields(s)
	if len(words) > maxBylineWords || strings.ContainsFunc(s, isDigitRune) || strings.HasSuffix(s, ".") && !initial.MatchString(s) {
		return false
	}
	cased, upper := 0, 0
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || unicode.IsLower(r) {
			cased++
			if unicode.IsUpper(r) {
				upper++
			} else if i == 0 {
				return false
			}
		}
	}
	return cased == 0 || 2*upper > cased
}

// initial matches a name that ends in an initial ("Jane R.").
var initial = regexp.MustCompile(`\s\p{Lu}\.$`)

// byLead matches a line that starts by naming its author.
var byLead = regexp.MustCompile(`^(?:(?:[Pp]osted|[Ww]ritten|[Pp]ublished|[Tt]ext|[Rr]eported)\s+)?(?:[Bb]y|BY|[Vv]on|[Pp]ar|[Pp]or|[Dd]oor)\s+\p{Lu}`)

// namesByline reports whether n's id or class names its author: a word
// starting with "author" or "byline".
func namesByline(n *html.Node) bool {
	names := lowerNames(n)
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if strings.HasPrefix(w, "author") || strings.HasPrefix(w, "byline") {
			return true
		}
	}
	return false
}
