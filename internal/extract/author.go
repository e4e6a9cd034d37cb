package extract

// A page's authors: a byline reduced to its names (cleanByline), and for
// pages whose engine finds none, or only the site's own name, what the page
// declares (JSON-LD, itemprop, rel=author, an hCard, the Twitter card), a
// link to the author's page, and the byline by its headline.

import (
	"cmp"
	"maps"
	nurl "net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// bylinePrefix matches the words that introduce an author's name, spaced
// or not ("Written byDan Pantelo"), and the sentences that lead to one
// ("This post was written by", "Article by"), in English, German, French, Spanish
// ("Por"), Dutch ("Door"), Polish, Russian ("Автор:"), Greek ("Του", "Της") and
// Chinese ("作者：").
var bylinePrefix = regexp.MustCompile(`(?i)^(?:(?:(?:this\s+(?:post|article|story|entry)\s+(?:was\s+)?)?(?:posted|written|published|text|authored|reported)\s*by|(?:article|story|post|words)\s+by|read\s+more\s+about|view\s+all\s+posts\s+by|authors?|contributors?|contact|by|von|par|por|door|autor)\b\s*:?|(?:text|tekst)\s*:|(?:автор|του|της)(?:\s*:|\s)|作者\s*[:：]?)\s*`)

// namePrefix matches what cutName cuts before a name a page gives in a
// field of its own: "by" and the phrases that end in it ("By Jane Roe",
// "Written by Jane Roe"), which open no name, and the other words of
// bylinePrefix only as a label, followed by a colon ("Author: Jane Roe")
// or alone (a template's "author"), as otherwise they open the name itself
// ("Von Miller", "Contributors to Wikimedia projects", "Authors Guild").
var namePrefix = regexp.MustCompile(`(?i)^(?:(?:(?:posted|written|published|text|authored|reported)\s*by|read\s+more\s+about|view\s+all\s+posts\s+by|by)\b\s*:?|(?:authors?|contributors?|contact|von|par|autor|text|tekst|автор|του|της|作者)\s*(?:[:：]|$))\s*`)

// fieldBy matches "by" in German or French ("Von", "Par") before two words
// or more in a field of its own, which is a byline put there ("Von Vanessa
// Franke", "von AUTO ZEITUNG"); before one word it is a name's own ("Von
// Miller", "Par Lagerkvist").
var fieldBy = regexp.MustCompile(`^(?i:von|par)\s+(\S+\s+\S)`)

// gluedBy matches "By" run into the name after it ("BySummer Swann",
// "Written byDan Pantelo").
var gluedBy = regexp.MustCompile(`^(?:(?:Posted|Written|Published|Text|Authored|Reported)\s*by|By|BY)(\p{Lu})`)

// bylineEnd matches where a byline stops naming people: a separator (a
// dash between spaces among them: "James Roe (AFP) – 17 hours ago"), a
// date or a clock time that follows the name (a month named in English, or
// after its day in one of the languages localDate reads: "5. März 2024",
// "5 février 2024", "5 марта 2024": localMonthDay; a weekday between them
// and the name is cut with the date: bylineWeekday), a reading time ("5 minute
// Read"), a copyright sign, a photographer's label ("foto:"), a reviewer
// after the author, the author's social handle ("Grant
// Brisbee@GrantBrisbee"; not an e-mail address), a relative time ("Jane
// Roe / 8 hrs ago"), where the post is filed ("Steph, filed under Cities")
// or a call to subscribe. A clock time the byline opens with ("1:13 pm,
// August 9th, 2012": a dateline) leaves no name.
var bylineEnd = regexp.MustCompile(`(?i)\s*(?:[|·•⋅●]|\s[-–—]\s|\bon\s+(?:\w+,?\s+){1,2}\d|` + bylineWeekday + `(?:(?:\b\d{1,2}(?:st|nd|rd|th)?\s+)?\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|` + localMonthDay + `|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4})|\bupdated\b|\bposted\b|[,.]?\s*(?:medically\s+|fact[- ]checked\s+and\s+)?reviewed\s+by\b|\bfact[- ]checked\s+by\b|@[\w-]+(?:[^.\w-]|$)|(?:^|\s|\bat\s+)\d{1,2}:\d{2}|(?:/\s*)?\b(?:\d+|an?)\s*(?:secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?)\s+ago\b|[,.]?\s*\bfiled\s+(?:under|in)\b|\ssubscribe\b|\s\d+\s*min(?:ute)?s?\b|\d{4}\s*年|©|\s(?:foto|photos?)\s*:).*$`)

// localMonthDay is the pattern of a day and a month named after it in one
// of the languages localDate reads, in lower case (bylineEnd matches it in
// any case), before a year or the day of a range ("5. März 2024", "5 de
// mayo de 2024", "5 марта 2024", French "1er mars 2024"). Go's \b knows ASCII letters only, and
// most of these names are not an English month's start: bylineEnd's
// English names do not match them.
var localMonthDay = `\b\d{1,2}(?:\.|er)?\s+(?:de\s+)?(?:` + strings.Join(slices.Sorted(maps.Keys(localMonths)), "|") + `)\.?\s+(?:del?\s+)?\d`

// bylineWeekday is the pattern of what may stand between a name and the
// date bylineEnd cuts after it: a weekday, in English or one of
// localWeekdays, and French "le" ("Anna Schmidt, Dienstag, 5. März 2024",
// "Jane Roe, Tuesday, 5 March 2024", "Marie Dupont, le 5 mars 2024"), with
// the space or comma before it, or nothing.
var bylineWeekday = `(?:(?:^|[\s,])(?:(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|` + strings.Join(strings.Fields(localWeekdays), "|") + `),?\s+(?:le\s+)?|le\s+))?`

// gluedTail matches what a page's markup set apart from the name and its
// text runs into it: a label or role word ("Cazzy MagennisLast Updated",
// "Harry RabinowitzTech Reporter"), a date ("Luke KimDecember 17, 2025",
// "Jakob RoeAug 8, 2016") or a number ("Chris Carroll30").
var gluedTail = regexp.MustCompile(`(\p{Ll})(?:(?:Last|Updated|Published|Posted|Twitter|Follow|Founder|Senior|Staff|Tech|Editor|Reporter|Writer|Contributor|Correspondent|Share|Email|Photo|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s*\d|January|February|March|April|June|July|August|September|October|November|December)\b|\d).*$`)

// bylineNoise matches e-mail addresses, whole in angle brackets as mail
// writes them ("Jane Roe <jane@x.example>", spaced or not), and a lone
// number after a name.
var bylineNoise = regexp.MustCompile(`<[^<>\s]+@[^<>\s]+>|[^\s<]+@\S+\.\w+|\s+\d{1,2}$`)

// linkLabel matches a link's label taken for a byline ("View more posts",
// "See all articles").
var linkLabel = regexp.MustCompile(`(?i)^(?:view|see|read|more|all)\b.*\b(?:posts?|articles?|stories|author|profile|rss|e-?mail)$`)

// placeholder matches a template's unfilled key ("page.head.extra.author").
var placeholder = regexp.MustCompile(`(?i)^\w+(?:\.\w+)*\.(?:author|authors|name|byline)$`)

// maxByline is the longest author string kept, in bytes; longer ones are
// sentences or profile boxes, not names.
const maxByline = 80

// cleanByline reduces a byline to the names in it, listed as JSON-LD lists
// them: "By Jane Roe | July 24, 2012" → "Jane Roe", "By JANE ROE and JOHN
// DOE" → "Jane Roe, John Doe", "Jane Roe, Staff Writer" → "Jane Roe"
// (cutByline, then bylineNames). It returns "" for what is not a name: a
// date or anything with a year, a template's key, a sentence.
func cleanByline(s string) string {
	if s = cutByline(s); s != "" {
		s = bylineNames(s)
	}
	return s
}

// cleanName reduces an author a page gives in a field of its own (the
// name of its JSON-LD's author, a <meta> author's content, an itemprop's
// name, an hCard's "fn", the Twitter card's writer) as cleanByline reduces
// a byline, but for the labels before the names: other than "By", cut
// only when a colon follows them or they stand alone (cutName).
func cleanName(s string) string {
	if s = cutName(s); s != "" {
		s = bylineNames(s)
	}
	return s
}

// cutByline cuts a byline to the names in it, as the page writes them:
// the labels and prefixes before them, and the dates, times, handles,
// addresses and labels after them, cut. It returns "" for what is not a
// name, as cleanByline does.
func cutByline(s string) string {
	return cutAuthor(s, false)
}

// cutName cuts a name a page gives in a field of its own as cutByline
// cuts a byline, but for the words before it (namePrefix): "By" is cut,
// other labels only when a colon follows them or they stand alone
// ("Author: Jane Roe" → "Jane Roe", "author" → ""; "Von Miller", "Authors
// Guild" stay), "Von" and "Par" before two words or more (fieldBy), and
// "By" run into the name is not ("BYU News").
func cutName(s string) string {
	return cutAuthor(s, true)
}

// maxBylineText is the longest text, in bytes, its spaces squeezed, that
// cutAuthor reads as a byline; longer text is a paragraph or a profile box,
// no byline, and cleaning it would take time that grows with its length.
const maxBylineText = 400

// cutAuthor cuts s as cutByline does, or, when field, as cutName does. It
// returns "" for text longer than maxBylineText.
func cutAuthor(s string, field bool) string {
	s = strings.Join(strings.Fields(escapedTwice(s)), " ")
	if len(s) > maxBylineText {
		return ""
	}
	if _, name, ok := strings.Cut(s, "作者："); ok { // "本文栏目：上海 作者：陈鑫"
		s = name
	}
	prefix := namePrefix
	if !field {
		s = gluedBy.ReplaceAllString(s, "$1")
		prefix = bylinePrefix
	}
	for {
		t := prefix.ReplaceAllString(s, "")
		if field {
			t = fieldBy.ReplaceAllString(t, "$1")
		}
		if t == s {
			break
		}
		s = t
	}
	s = bylineEnd.ReplaceAllString(s, "")
	s = gluedTail.ReplaceAllString(s, "$1")
	if t := trimBracket(strings.Trim(bylineNoise.ReplaceAllString(s, ""), " ,;:-–—")); t != "" {
		s = t
	} else if strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") {
		s = s[1 : len(s)-1] // an address alone is kept: it is all the page gives
	}
	if len(s) > maxByline || !strings.ContainsFunc(s, isLetter) || hasYear(s) || creditLine.MatchString(s) || labelOnly.MatchString(s) || weekday.MatchString(s) || placeholder.MatchString(s) || linkLabel.MatchString(s) {
		return ""
	}
	if _, ok := parseDate(s); ok {
		return ""
	}
	return s
}

// trimBracket removes the brackets an address or a handle cut from the end
// of a byline leaves behind: one opened at its end ("Jane Roe (", from "Jane
// Roe (@janeroe)"; "Jane Roe <", from "Jane Roe <@janeroe>") or closed there
// without being opened ("Jane Roe )", from "Jane Roe (jane.roe@port.example)";
// "Jane Roe >"). "Jane Roe (AFP)" stays.
func trimBracket(s string) string {
	for s != "" {
		switch last := s[len(s)-1]; {
		case last == '(' || last == '[' || last == '<',
			last == ')' && !strings.Contains(s, "("),
			last == ']' && !strings.Contains(s, "["),
			last == '>' && !strings.Contains(s, "<"):
			s = strings.TrimRight(s[:len(s)-1], " ,;:-–—")
		default:
			return s
		}
	}
	return s
}

// labelOnly matches a label taken for a byline without its name
// ("Published", "Источник": source, "著者": author), an address or a
// telephone number.
var labelOnly = regexp.MustCompile(`(?i)^(?:published|posted|updated|source|quelle|источник|źródło|著者|作者|文|https?://\S*|www\.\S*|(?:fax|tel|phone)\b.*)$`)

// creditLine matches a picture's credit taken for a byline ("Photograph by
// …").
var creditLine = regexp.MustCompile(`(?i)^(?:photo(?:graph)?s?|image|illustration|video)\s+(?:by|credit)\b`)

// dayName matches a weekday's whole name.
var dayName = regexp.MustCompile(`(?i)^(?:mon|tues|wednes|thurs|fri|satur|sun)day,?$`)

// weekday matches a byline that was only a date's weekday.
var weekday = regexp.MustCompile(`(?i)^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat|sun)$`)

func isLetter(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f
}

// pageAuthorOf returns a page's author from the byline its engine found:
// the byline's names (cleanByline, or cleanName when the page declares it
// in a field of its own: declaredName), or all the authors a page's <meta>
// fields name when the byline is the first of them (metaAuthors); when
// there are none, what the page
// declares or shows (pageAuthor); when they are the site's own name (a
// <meta name="author"> many sites fill so), the person the page names
// instead, if it names one.
func pageAuthorOf(found string, doc, h *html.Node, ld linkedData, u *nurl.URL) string {
	clean := cleanByline
	if declaredName(found, doc, ld) {
		clean = cleanName
	}
	author := clean(found)
	if author == "" {
		return pageAuthor(doc, h, ld)
	}
	if all := metaAuthors(doc); len(all) > 1 && squashName(all[0]) == squashName(author) {
		return strings.Join(all, ", ")
	}
	if n := bylineElementOf(doc, found); n != nil {
		if all := clean(lineNames(n, func(m *html.Node) bool { return alikeByline(m, n) }, textOf, clean, true)); all != "" {
			author = all // the engine's byline is one of several names alike in a line
		}
	}
	if sites := siteNames(doc, u); sites[squashName(author)] {
		if named := pageAuthor(doc, h, ld); named != "" && !sites[squashName(named)] {
			return named
		}
	}
	return author
}

// bylineElementOf returns the first element of the page named a byline
// (bylineElement), outside scripts, whose text is byline (the engine's),
// white space aside; nil when none is.
func bylineElementOf(doc *html.Node, byline string) *html.Node {
	byline = strings.Join(strings.Fields(byline), " ")
	if byline == "" {
		return nil
	}
	var found *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && found == nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.Script {
				continue
			}
			if bylineElement(c) && shortText(c, maxByline) && strings.Join(strings.Fields(textOf(c)), " ") == byline {
				found = c
				return
			}
			walk(c)
		}
	}
	walk(doc)
	return found
}

// alikeByline reports whether m is an element named a byline
// (bylineElement) alike n: of its tag, class, rel and itemprop.
func alikeByline(m, n *html.Node) bool {
	return m.DataAtom == n.DataAtom && m.Data == n.Data && bylineElement(m) && attr(m, "class") == attr(n, "class") &&
		attr(m, "rel") == attr(n, "rel") && attr(m, "itemprop") == attr(n, "itemprop")
}

// metaAuthors returns the names of the <meta> author field a page repeats
// once an author (citation_author, as scholarly pages give their authors,
// or author), in order and each once; nil when no such field names two.
func metaAuthors(doc *html.Node) []string {
	by := map[string][]string{}
	headTags(doc, func(n *html.Node) bool {
		if n.DataAtom != atom.Meta {
			return false
		}
		switch name := strings.ToLower(attr(n, "name")); name {
		case "author", "citation_author", "citation_authors", "dc.creator":
			if v := cleanName(attr(n, "content")); v != "" && !slices.ContainsFunc(by[name], func(w string) bool { return squashName(w) == squashName(v) }) {
				by[name] = append(by[name], v)
				return true
			}
		}
		return false
	})
	for _, name := range []string{"citation_author", "citation_authors", "dc.creator", "author"} {
		if len(by[name]) > 1 {
			return by[name]
		}
	}
	return nil
}

// metaAuthorKeys are the <meta> names and properties, in lower case and
// with dots for colons, whose content the engine takes for the page's
// byline.
var metaAuthorKeys = map[string]bool{"author": true, "dc:creator": true, "dcterm:creator": true, "dcterms:creator": true,
	"parsely-author": true, "article:author": true}

// declaredName reports whether found, the engine's byline, is, white space
// aside, a name the page gives in a field of its own, where the engine
// reads it first: its JSON-LD's author, the content of a <meta> author
// (metaAuthorKeys), or the text of an element marked itemprop="name".
// Such a name is cut by cleanName, not as a byline.
func declaredName(found string, doc *html.Node, ld linkedData) bool {
	found = strings.Join(strings.Fields(found), " ")
	if found == "" {
		return false
	}
	same := func(s string) bool {
		return strings.Join(strings.Fields(s), " ") == found || strings.Join(strings.Fields(html.UnescapeString(s)), " ") == found
	}
	if same(ld.author) {
		return true
	}
	declared := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && !declared; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.Script {
				continue
			}
			if c.DataAtom == atom.Meta {
				key := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(cmp.Or(attr(c, "property"), attr(c, "name")))), ".", ":")
				declared = metaAuthorKeys[key] && same(attr(c, "content"))
			} else if strings.Contains(attr(c, "itemprop"), "name") {
				declared = same(textOf(c))
			}
			walk(c)
		}
	}
	walk(doc)
	return declared
}

// labelledAuthor returns the author a page's Twitter card fields name: the
// twitter:dataN whose twitter:labelN says "Written by" (as WordPress's
// SEO plugins write them); "" when none does.
func labelledAuthor(doc *html.Node) string {
	labels, data := map[string]string{}, map[string]string{}
	headTags(doc, func(n *html.Node) bool {
		name := strings.ToLower(attr(n, "name"))
		if k, ok := strings.CutPrefix(name, "twitter:label"); ok {
			labels[k] = attr(n, "content")
			return true
		}
		if k, ok := strings.CutPrefix(name, "twitter:data"); ok {
			data[k] = attr(n, "content")
			return true
		}
		return false
	})
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if l := strings.ToLower(strings.TrimSpace(labels[k])); (l == "written by" || l == "author" || l == "verfasst von" || l == "écrit par" || l == "escrito por") && !strings.EqualFold(data[k], "admin") {
			return data[k] // not the publishing system's default user
		}
	}
	return ""
}

// authorPage reports whether href is an author's page named for the
// link's text: a path with an "author" or "authors" segment followed by
// the name as a slug ("/authors/emily-walker/" for "Emily Walker").
func authorPage(href, text string) bool {
	i := strings.Index(href, "/author")
	if i < 0 {
		return false
	}
	rest := href[i+len("/author"):]
	rest = strings.TrimPrefix(rest, "s")
	slug, ok := strings.CutPrefix(rest, "/")
	if !ok {
		return false
	}
	slug, _, _ = strings.Cut(slug, "/")
	name := squashName(text)
	return name != "" && len(name) > 3 && squashName(strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(slug)) == name
}

// authorCard reports whether n is an author's hCard: its class names
// both "author" and "vcard" (a comment's "comment-author vcard" does not).
func authorCard(n *html.Node) bool {
	class := attr(n, "class")
	if !strings.Contains(class, "vcard") {
		return false
	}
	words := strings.Fields(strings.ToLower(class))
	return slices.Contains(words, "vcard") && slices.Contains(words, "author")
}

// findClass returns the first element under n (or n) whose class names
// word, or nil.
func findClass(n *html.Node, word string) *html.Node {
	if n.Type == html.ElementNode && slices.Contains(strings.Fields(attr(n, "class")), word) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findClass(c, word); f != nil {
			return f
		}
	}
	return nil
}

// pageAuthor looks for the article's authors the page declares or shows:
// the author of the JSON-LD's article (a name, a person, a list of them,
// or a reference to a person of the @graph), then an element marked
// itemprop="author" (its content, the name marked in it, or its text),
// then a link marked rel="author", then the name in an author's hCard
// (class "author vcard", its "fn"), then the Twitter card's "Written by"
// (labelledAuthor), then a link to the author's page outside navigation
// (authorPage), then the byline in the headline's header
// (headingByline), and last a link to the author's page in navigation
// after the headline, in no list item (a teaser's author is). Several authors are joined by ", ", and so are
// the names of elements alike in one byline (lineNames: "By <a href="/authors/jane-roe">Jane Roe</a> and <a
// href="/authors/john-doe">John Doe</a>"). The names given in fields of
// their own (JSON-LD, itemprop, the hCard's "fn", the Twitter card) are
// reduced by cleanName, the others by cleanByline. It returns "" when none
// is.
func pageAuthor(doc, h *html.Node, ld linkedData) string {
	fromLD := ld.author
	var fromProp, fromRel, fromCard, fromLink, navLink string
	pastHeading := false
	fromLabel := labelledAuthor(doc)
	var walk func(n *html.Node, nav bool)
	walk = func(n *html.Node, nav bool) {
		if n.Type == html.TextNode || n.Type == html.CommentNode {
			return
		}
		if n.DataAtom == atom.Script {
			return
		}
		if fromProp == "" && propAuthor(n) {
			fromProp = lineNames(n, propAuthor, propName, cleanName, false)
		}
		if fromRel == "" && relAuthor(n) {
			fromRel = lineNames(n, relAuthor, textOf, cleanByline, false)
		}
		if fromCard == "" && authorCard(n) {
			fromCard = lineNames(n, authorCard, cardName, cleanName, false)
		}
		if n == h {
			pastHeading = true
		}
		nav = nav || navigation(n)
		if (fromLink == "" || navLink == "") && authorLink(n) {
			switch {
			case !nav && fromLink == "":
				fromLink = lineNames(n, authorLink, textOf, cleanByline, false)
			case nav && pastHeading && navLink == "" && !inLinkOrItem(n.Parent):
				navLink = textOf(n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, nav)
		}
	}
	walk(doc, false)
	for _, s := range []struct {
		name  string
		clean func(string) string
	}{{fromLD, cleanName}, {fromProp, cleanName}, {fromRel, cleanByline}, {fromCard, cleanName}, {fromLabel, cleanName}, {fromLink, cleanByline}} {
		if a := s.clean(s.name); a != "" {
			return a
		}
	}
	if a := headingByline(h); a != "" {
		return a
	}
	return cleanByline(navLink)
}

// propAuthor reports whether n is marked itemprop="author".
func propAuthor(n *html.Node) bool {
	return strings.EqualFold(attr(n, "itemprop"), "author")
}

// relAuthor reports whether n is a link marked rel="author" whose text is
// short enough to be a name (maxByline).
func relAuthor(n *html.Node) bool {
	return n.DataAtom == atom.A && strings.EqualFold(attr(n, "rel"), "author") && shortText(n, maxByline)
}

// authorLink reports whether n is a link to its author's page (authorPage)
// whose text is short enough to be a name (maxByline).
func authorLink(n *html.Node) bool {
	return n.DataAtom == atom.A && shortText(n, maxByline) && authorPage(attr(n, "href"), textOf(n))
}

// cardName returns the name of an author's hCard n: its "fn", when short
// enough to be a name (maxByline); "" otherwise.
func cardName(n *html.Node) string {
	if fn := findClass(n, "fn"); fn != nil && shortText(fn, maxByline) {
		return textOf(fn)
	}
	return ""
}

// lineNames returns the names a byline gives each in an element alike:
// name(n), and name(m) of every element m in n's line (the nearest block
// or table cell around it) that same reports is alike, in order, each
// reduced by clean (cleanByline, or cleanName for names given in fields)
// and given once, joined by ", " ("By <a
// href="/authors/jane-roe">Jane Roe</a> and <a
// href="/authors/john-doe">John Doe</a>": "Jane Roe, John Doe"). When
// listed, only the names the line lists as a byline are taken (its text
// by cleanByline: "By <a class="author">Jane Roe</a> and <a
// class="author">John Doe</a>, 5 March 2024" lists "Jane Roe, John Doe";
// a count of comments in an element alike is none). It returns name(n)
// alone when the line is longer than a byline's (maxBylineLine), gives no
// other such name, or when the names together are no byline clean keeps
// (over maxByline bytes: a paper's many authors).
func lineNames(n *html.Node, same func(*html.Node) bool, name func(*html.Node) string, clean func(string) string, listed bool) string {
	own := name(n)
	line := n
	for line.Parent != nil && line.Parent.Type == html.ElementNode && !block[tag(line)] && !lineBreak[tag(line)] {
		line = line.Parent
	}
	if line == n || !shortText(line, maxBylineLine) {
		return own
	}
	var list []string
	if listed {
		list = strings.Split(cleanByline(textOf(line)), ", ")
	}
	var names []string
	var walk func(m *html.Node)
	walk = func(m *html.Node) {
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c != n && !same(c) {
				walk(c)
				continue
			}
			s := clean(name(c))
			if s == "" || slices.ContainsFunc(names, func(t string) bool { return strings.EqualFold(s, t) }) {
				continue
			}
			if c == n || !listed || slices.ContainsFunc(list, func(t string) bool { return strings.EqualFold(s, t) }) {
				names = append(names, s)
			}
		}
	}
	walk(line)
	if len(names) < 2 {
		return own
	}
	if all := strings.Join(names, ", "); clean(all) != "" {
		return all
	}
	return own
}

// maxBylineLine is the longest line, in bytes of text without white space,
// that lineNames reads as one byline.
const maxBylineLine = 200

// propName returns the name an element marked itemprop="author" gives:
// its content attribute, else the text of the element marked
// itemprop="name" in it, else its own text when that is short, a byline
// cut as one (cutByline: "By Jane Roe" → "Jane Roe"), which cleanName then
// leaves as it is.
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
		return cutByline(textOf(n))
	}
	return ""
}

// ldAuthor returns the authors of the first of a JSON-LD script's objects
// (ldObjects, outermost first) that names an author: a name, a person or
// organisation with a name, a reference to one of the script's objects (by
// its @id), or a list of these, joined by ", ". "" when none does.
func ldAuthor(objects []ldObject) string {
	byID := map[string]string{} // the names of the objects with an @id
	for _, o := range objects {
		if id, ok := o.fields["@id"].(string); ok {
			if name, ok := o.fields["name"].(string); ok {
				byID[id] = name
			}
		}
	}
	name := func(a any) string {
		switch x := a.(type) {
		case string:
			return strings.TrimSpace(x)
		case map[string]any:
			if s, ok := x["name"].(string); ok {
				return strings.TrimSpace(s)
			}
			if id, ok := x["@id"].(string); ok {
				return strings.TrimSpace(byID[id])
			}
		}
		return ""
	}
	for _, o := range objects {
		authors, ok := o.fields["author"].([]any)
		if !ok {
			authors = []any{o.fields["author"]}
		}
		var names []string
		for _, a := range authors {
			if s := name(a); s != "" {
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

// headingByline returns the name of the first byline in the header of the
// page's heading h (headerLines): a line, or a part of one, that starts
// with "By" ("By Jane Roe", "Posted by Jane Roe · Dec 20, 2025") or stands
// in an element whose id or class names an author or a byline, or the
// name a dated line opens with (datedName; after a comma only in the
// header's first line of a date, or a line in it: a related story's "Jane
// Roe, 9 April 2013" comes after the article's own date); "" when there is
// none.
func headingByline(h *html.Node) string {
	name := ""
	var dated *html.Node // the first line of a date
	headerLines(h, func(n *html.Node) (taken, done bool) {
		named := namesByline(n)
		if named || mayLeadBy(n) {
			text := textOf(n)
			for _, part := range append(dateParts.Split(text, -1), text) {
				part = strings.TrimSpace(part)
				if !named && !byLead.MatchString(part) {
					continue
				}
				if s := cleanByline(part); s != "" && nameLike(s) {
					name = s
					return true, true
				}
			}
		}
		if !named {
			if s := datedName(n, dated == nil || isAncestor(dated, n)); s != "" {
				name = s
				return true, true
			}
		}
		if dated == nil {
			if _, _, ok := dateLine(n); ok {
				dated = n
			}
		}
		return false, false
	})
	return name
}

// datedName returns the name a line of the headline's header opens with
// when the line is set apart in parts and ends with a date ("Aaron Roe |
// Senior Writer | July 2, 2025"), or, when comma, the name is followed by
// a comma and the date ("Jane Roe, 5 March 2024"): two to four words that
// read as names (lineName); "" otherwise.
func datedName(n *html.Node, comma bool) string {
	if !shortWithYear(n, maxDateLine) {
		return ""
	}
	text := strings.TrimSpace(textOf(n))
	parts := dateParts.Split(text, -1)
	if len(parts) < 2 {
		head, tail, ok := strings.Cut(text, ", ")
		if !comma || !ok {
			return ""
		}
		parts = []string{head, tail}
	}
	if _, ok := dateOnly(parts[len(parts)-1]); !ok {
		return ""
	}
	return lineName(parts[0])
}

// lineName returns first, the start of a line, as a name when it is two to
// four words that read as names (nameLike), no label, institution, release
// or date's label ("Published Tuesday"); "" otherwise.
func lineName(first string) string {
	first = strings.TrimSpace(first)
	words := strings.Fields(first)
	if len(words) < 2 || len(words) > 4 || !nameLike(first) || strings.ContainsRune(first, ':') || strings.EqualFold(words[0], "the") || strings.EqualFold(words[len(words)-1], "release") {
		return "" // a label ("From: …", "PROJECT: …", "Media Release") or an institution
	}
	if dateLabel.MatchString(first) || slices.ContainsFunc(words, dayName.MatchString) {
		return "" // "Published Tuesday, January 17, 2012"
	}
	if cutByline(first) != first {
		return "" // a label the cleaning cuts ("First Posted")
	}
	return bylineNames(first)
}

// nameLike reports whether s reads as names rather than a sentence: at most
// maxBylineWords words, no digits, no sentence's end, its first word and
// most of the others capitalised (in the scripts that have capitals).
func nameLike(s string) bool {
	words := strings.Fields(s)
	if len(words) > maxBylineWords || strings.ContainsFunc(s, unicode.IsDigit) || strings.HasSuffix(s, ".") && !initial.MatchString(s) {
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

// mayLeadBy reports whether a text node under n holds, in any case, one of
// the words byLead starts a line with: the cheap test before a line is
// rendered.
func mayLeadBy(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			for _, w := range []string{"by", "von", "par", "por", "door"} {
				if containsFold(c.Data, w) {
					return true
				}
			}
		case html.ElementNode:
			if mayLeadBy(c) {
				return true
			}
		}
	}
	return false
}

// byLead matches a line that starts by naming its author.
var byLead = regexp.MustCompile(`^(?:(?:[Pp]osted|[Ww]ritten|[Pp]ublished|[Tt]ext|[Rr]eported)\s+)?(?:[Bb]y|BY|[Vv]on|[Pp]ar|[Pp]or|[Dd]oor)\s+\p{Lu}`)

// namesByline reports whether n's id or class names its author: a word
// starting with "author" or "byline".
func namesByline(n *html.Node) bool {
	if !containsFold(attr(n, "class"), "author") && !containsFold(attr(n, "class"), "byline") &&
		!containsFold(attr(n, "id"), "author") && !containsFold(attr(n, "id"), "byline") {
		return false // most elements: no lower-casing
	}
	names := lowerNames(n)
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if strings.HasPrefix(w, "author") || strings.HasPrefix(w, "byline") {
			return true
		}
	}
	return false
}
