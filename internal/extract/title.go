package extract

import (
	nurl "net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageTitle returns a page's title from the one its engine found: the
// headline the page shows instead (shown: its only <h1>, onlyHeadline)
// when none of its headings (h, nil then) is in its <title>; its heading
// when the <title> is that heading with a few words beside it past a
// separator (the site's name), it is a headline (minHeadlineWords, not a
// section's name) and the engine's title is not in the <title> and shares
// no word with the heading (an og:title the site gives every page:
// "Official Blog of the National Football League"); and without the site's name beside it (headlineOf;
// declared are the headlines its JSON-LD states).
func pageTitle(found string, doc, h, shown *html.Node, u *nurl.URL, declared []string) string {
	title := squash(escapedTwice(found))
	switch {
	case h == nil && shown != nil:
		title = squash(Text(shown))
	case h != nil:
		if head, tag := squash(Text(h)), squash(headTitle(doc)); headlineWords(head) >= minHeadlineWords && sepBeside(tag, head) &&
			!shareWord(title, head) && !strings.Contains(strings.ToLower(tag), strings.ToLower(title)) {
			title = head // the engine took a label for the title
		}
	}
	return canonical(headlineOf(title, h, doc, u, declared))
}

// shareWord reports whether a and b share a word (wordsOf) of four
// letters or more, or of Han or kana characters.
func shareWord(a, b string) bool {
	long := func(w string) bool { return utf8.RuneCountInString(w) >= 4 || strings.ContainsFunc(w, wideLetter) }
	words := map[string]bool{}
	for _, w := range wordsOf(a) {
		if long(w) {
			words[w] = true
		}
	}
	for _, w := range wordsOf(b) {
		if words[w] {
			return true
		}
	}
	return false
}

// escapedTwice decodes the character references a page escaped twice
// ("And finally&amp;#8230;" shows as "And finally&#8230;"): the parser
// decoded the first escape only.
func escapedTwice(s string) string {
	if i := strings.IndexByte(s, '&'); i < 0 || !strings.Contains(s[i:], ";") {
		return s
	}
	return html.UnescapeString(s)
}

// titleSeparators set a site's name apart from a headline in a page's
// <title> or og:title: "Ferry returns | Port News", "Port News – Ferry
// returns", and in Chinese and Japanese titles, without spaces,
// "…｜ガジェット通信", "…：朝日新聞デジタル", "… － Publickey", "…_好奇心日报". A colon and a space
// are not one: before it is a news headline's kicker ("Laos methanol
// poisonings: Australian teenager…"), part of its title.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ", " « ", " / ", " ｜ ", "｜", "：", " － ", "_"}

// maxSiteWords is the most words of a site's name beside a headline.
const maxSiteWords = 8

// headlineOf returns a page's title without the site's name that the
// <title> or og:title sets beside its headline: the page's heading h
// (pageHeading) when the title is that heading and, past a separator or a
// comma, a few more words ("Best hammocks of 2026, Tested & Reviewed"), or
// past a space the site's name ("wasm-module - … MOONGIFT"); else the title cut at a separator when the words past it
// are the site's name as the page gives it (og:site_name,
// application-name) or as its address does ("Golem.de", "AP News" on
// apnews.com). A headline the page's JSON-LD states (declared) counts as
// its heading when none is found: a page its scripts draw has none. Any
// other title is returned as it is.
func headlineOf(title string, h *html.Node, doc *html.Node, u *nurl.URL, declared []string) string {
	head := ""
	if h != nil {
		head = squash(Text(h))
	}
	if beside(title, head) {
		return head
	}
	if h == nil {
		for _, d := range declared {
			if sepBeside(title, d) {
				return d
			}
		}
	}
	names := siteNames(doc, u)
	if len(names) == 0 {
		return title
	}
	if rest, ok := strings.CutPrefix(title, head+" "); ok && head != "" && names[squashName(rest)] {
		return head // the site's name after the heading, set apart by a space only
	}
	for _, sep := range titleSeparators {
		if i := strings.LastIndex(title, sep); i > 0 && names[squashName(title[i+len(sep):])] {
			return strings.TrimSpace(title[:i])
		}
		if i := strings.Index(title, sep); i > 0 && names[squashName(title[:i])] {
			return strings.TrimSpace(title[i+len(sep):])
		}
	}
	return title
}

// beside reports whether title is head with a few more words (the site's
// name) past a separator or before one, or past a comma (a subtitle after
// a comma, not a kicker before one).
func beside(title, head string) bool {
	if sepBeside(title, head) {
		return true
	}
	rest, ok := strings.CutPrefix(title, head+", ")
	return ok && head != "" && len(wordsOf(rest)) <= maxSiteWords
}

// sepBeside reports whether title is head with at most maxSiteWords more
// words past a separator, or before one.
func sepBeside(title, head string) bool {
	if head == "" || head == title {
		return false
	}
	for _, sep := range titleSeparators {
		if rest, ok := strings.CutPrefix(title, head+sep); ok && len(wordsOf(rest)) <= maxSiteWords {
			return true
		}
		if rest, ok := strings.CutSuffix(title, sep+head); ok && len(wordsOf(rest)) <= maxSiteWords {
			return true
		}
	}
	return false
}

// siteNames returns the names a page gives its site (og:site_name,
// application-name) and those its host makes ("golem.de" gives "golemde"
// and "golem"), each as squashName makes it.
func siteNames(doc *html.Node, u *nurl.URL) map[string]bool {
	names := map[string]bool{}
	add := func(s string) {
		if k := squashName(s); k != "" {
			names[k] = true
		}
	}
	headTags(doc, func(n *html.Node) bool {
		if tag(n) != atom.Meta {
			return false
		}
		switch strings.ToLower(attr(n, "property") + attr(n, "name")) {
		case "og:site_name", "application-name", "apple-mobile-web-app-title":
			add(attr(n, "content"))
			return true
		}
		return false
	})
	if u != nil {
		host := siteHost(u)
		add(host)
		if label, _, ok := strings.Cut(host, "."); ok {
			add(label)
		}
	}
	return names
}

// siteName returns the content of the first og:site_name <meta> in the
// page's <head> that is not empty, else of one that is a child of its
// <body> (where a parser puts the head's tags after a stray element, and
// streamed pages write theirs), its runs of white space made one space; ""
// when it has none. One deeper in the body (an embedded post's or a card's
// markup) is not the page's.
func siteName(doc *html.Node) string {
	var name string
	var walk func(n *html.Node, deep bool)
	walk = func(n *html.Node, deep bool) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Meta &&
			(strings.EqualFold(attr(n, "property"), "og:site_name") || strings.EqualFold(attr(n, "name"), "og:site_name")) {
			name = strings.Join(strings.Fields(attr(n, "content")), " ")
		}
		for c := n.FirstChild; deep && c != nil && name == ""; c = c.NextSibling {
			walk(c, true)
		}
	}
	if head := findHead(doc); head != nil {
		walk(head, true)
	}
	if body := findBody(doc); body != nil {
		for c := body.FirstChild; c != nil && name == ""; c = c.NextSibling {
			walk(c, false)
		}
	}
	return name
}

// minHeadlineWords is the fewest words (headlineWords) of a page's only
// <h1> that makes it the title (onlyHeadline): shorter ones are a site's or
// a section's name.
const minHeadlineWords = 4

// onlyHeadline returns the page's <h1> when it has exactly one outside
// navigation (navigation), of at least minHeadlineWords words, and not the
// name the page gives its site; nil otherwise. A page whose heading is not
// in its <title> (pageHeading finds none) shows its headline there: the
// <title> and og:title are often another wording, written for search
// engines and shares.
func onlyHeadline(doc *html.Node) *html.Node {
	var found *html.Node
	n := 0
	var walk func(c *html.Node, nav bool)
	walk = func(c *html.Node, nav bool) {
		if c.Type == html.ElementNode {
			if nav = nav || navigation(c); c.DataAtom == atom.H1 {
				if !nav {
					found = c
					n++
				}
				return
			}
		}
		for d := c.FirstChild; d != nil && n < 2; d = d.NextSibling {
			walk(d, nav)
		}
	}
	walk(doc, false)
	if n != 1 {
		return nil
	}
	if text := Text(found); headlineWords(text) < minHeadlineWords || strings.HasSuffix(strings.TrimSpace(text), ":") {
		return nil // a section's name, or a label before something else ("A message from …:")
	} else if siteNames(doc, nil)[squashName(text)] {
		return nil // the site's name, as og:site_name gives it
	}
	return found
}

// headlineWords returns how many words s holds (wordsOf), a run of Han or
// kana characters counting a word for every two of them: written without
// spaces, "市议会决定关闭渡轮码头" is one of wordsOf's words and five or six
// of a headline's.
func headlineWords(s string) int {
	n := 0
	for _, w := range wordsOf(s) {
		wide := 0
		for _, r := range w {
			if wideLetter(r) {
				wide++
			}
		}
		n += max(1, wide/2)
	}
	return n
}

// squashName returns a site's name as its letters and digits in lower
// case, a leading "the" left out: "The Namibian" and "namibian" are one
// name, as are "AP News" and "apnews".
func squashName(s string) string {
	words := wordsOf(s)
	if len(words) > maxSiteWords {
		return ""
	}
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	return strings.Join(words, "")
}

// headTitle returns the text of the page's <title>, else its og:title; ""
// when it has neither.
func headTitle(doc *html.Node) string {
	var title, og string
	headTags(doc, func(n *html.Node) bool {
		switch {
		case tag(n) == atom.Title && title == "" && n.FirstChild != nil && n.FirstChild.Type == html.TextNode:
			title = squash(n.FirstChild.Data)
		case tag(n) == atom.Meta && og == "" && strings.EqualFold(attr(n, "property"), "og:title"):
			og = squash(attr(n, "content"))
		}
		return false
	})
	if title != "" {
		return title
	}
	return og
}
