package extract

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/neardup/neardup/internal/extract/rules"
)

// A page that its scripts render (a Next.js app's server components, a
// single-page app's preloaded state) may send its article only as data:
// markup in a script's strings, `self.__next_f.push([1,"\u003cp\u003e…"])`
// or `{"contentHtml":"<p>…</p>"}`, which a browser's script writes into the
// page. Read as sent, such a page holds a skeleton, a cookie notice or
// nothing. When the text found in the page is short, the markup in its
// scripts is read as an article of its own (preferScripted).

// placeholderRe matches a placeholder that a page's script fills, standing
// alone between two tags of markup sent as data ("$$ARTICLEAD$$",
// "{{ad_slot}}", "%%EMBED%%"): an advertisement's or an embed's place, no
// text of the article.
var placeholderRe = regexp.MustCompile(`>\s*(?:\$\$[A-Za-z0-9_.-]{1,40}\$\$|\{\{ ?[A-Za-z0-9_.-]{1,40} ?\}\}|%%[A-Za-z0-9_.-]{1,40}%%)\s*<`)

// preferScripted returns the text of an article that the page's scripts
// hold (scriptedBodies, longest first), each extracted as a page of its own
// under the page's title with the page's site rule, when it holds at least
// twice the runes of text, the text found in the page, and is about the
// title (aboutTitle); and when that text is about the title too (a brief,
// a teaser), only an article that holds most of it (holdsText): a script
// may hold other stories' markup too. Else it returns text. A page without
// a title has nothing to tell its article by.
func preferScripted(text, title, pageURL string, scripts []string, rule *rules.Rule, opts Options) string {
	if strings.TrimSpace(title) == "" {
		return text
	}
	own := aboutTitle(text, title) // the page's own article, cut short
	opts.scripted = true
	for _, frag := range scriptedBodies(scripts) {
		if strings.Count(frag, "<") > opts.MaxElements {
			continue // more elements than a page may have
		}
		frag = placeholderRe.ReplaceAllString(">"+frag+"<", "><")
		frag = frag[1 : len(frag)-1]
		doc, err := parsePage([]byte("<html><head><title>" + html.EscapeString(title) + "</title></head><body><article>" + frag + "</article></body></html>"))
		if err != nil {
			continue
		}
		if elements, attrs := countElements(doc, opts.MaxElements, opts.MaxAttributes); elements > opts.MaxElements || attrs > opts.MaxAttributes {
			continue
		}
		a, err := extractDoc(doc, pageURL, rule, opts)
		if err != nil || utf8.RuneCountInString(a.Text) < 2*utf8.RuneCountInString(text) || !aboutTitle(a.Text, title) ||
			own && !holdsText(a.Text, text) {
			continue
		}
		return a.Text
	}
	return text
}

// holdsText reports whether article holds at least half of the word
// trigrams of text (all its words, when it has fewer than three).
func holdsText(article, text string) bool {
	tw := wordsOf(text)
	if len(tw) < 3 {
		set := wordSet(wordsOf(article))
		return 2*wordHits(tw, set) >= len(tw)
	}
	return 2*trigramHits(tw, trigrams(wordsOf(article))) >= len(tw)-2
}

// aboutTitle reports whether text is about the title: at least half of the
// words of three runes or more of the title's longest part (a site's name
// after " | " or " - " aside) are in the text. Words are compared whole, or
// by their first four runes when they have five or more (an inflected
// form: "budget", "budgets"); Korean words (written with their particles)
// and words of scripts written without spaces (Chinese, Japanese, Thai)
// are looked for inside the text, the latter by pairs of runes when longer
// than four. A title without such words tells nothing, and no text is
// about it.
func aboutTitle(text, title string) bool {
	lower := strings.ToLower(text)
	words := wordsOf(lower)
	whole, prefixes := wordSet(words), make(map[string]bool, len(words))
	for _, w := range words {
		if p, ok := runePrefix(w, 4); ok {
			prefixes[p] = true
		}
	}
	units, found := 0, 0
	count := func(ok bool) {
		units++
		if ok {
			found++
		}
	}
	for _, w := range wordsOf(titlePart(title)) {
		rs := []rune(w)
		switch {
		case len(rs) > 4 && unspaced(rs[0]):
			for i := 0; i+1 < len(rs); i++ {
				count(strings.Contains(lower, string(rs[i:i+2])))
			}
		case unspaced(rs[0]) && len(rs) >= 2, unicode.Is(unicode.Hangul, rs[0]) && len(rs) >= 2:
			count(strings.Contains(lower, w))
		case len(rs) < 3:
		case len(rs) >= 5:
			p, _ := runePrefix(w, 4)
			count(whole[w] || prefixes[p])
		default:
			count(whole[w])
		}
	}
	return units > 0 && 2*found >= units
}

// titlePart returns the longest part of a title cut at the separators
// that set a site's name apart (titleSeparators).
func titlePart(title string) string {
	parts := []string{title}
	for _, sep := range titleSeparators {
		var cut []string
		for _, p := range parts {
			cut = append(cut, strings.Split(p, sep)...)
		}
		parts = cut
	}
	best := ""
	for _, p := range parts {
		if utf8.RuneCountInString(p) > utf8.RuneCountInString(best) {
			best = p
		}
	}
	return best
}

// runePrefix returns the first n runes of w, and whether w has more.
func runePrefix(w string, n int) (string, bool) {
	i := 0
	for j := range w {
		if i == n {
			return w[:j], true
		}
		i++
	}
	return w, false
}

// unspaced reports whether r is of a script written without spaces between
// words: Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// nextPush opens a script that pushes a part of a stream of Next.js's
// server components.
const nextPush = "self.__next_f.push("

// Bounds of the article in a page's scripts.
const (
	// minScriptedBytes is the shortest script read for markup.
	minScriptedBytes = 500
	// minLiteralBytes is the shortest string read for markup: a
	// paragraph's, given a string of its own.
	minLiteralBytes = 16
	// maxScriptedTries is how many strings of markup, the longest, are
	// extracted and checked against the page.
	maxScriptedTries = 5
	// minScriptedParagraphs is the fewest paragraph tags a string of
	// markup holds to be taken for an article.
	minScriptedParagraphs = 3
	// maxScriptedDepth is how many times strings are looked for inside
	// strings: a stream of JSON rows in a script's string (Next.js's
	// server components) holds the markup in a string of its own.
	maxScriptedDepth = 2
	// scriptedBelow is the fewest runes of text found in the page for
	// which its scripts are not read (or Options.MinChars, when more): a
	// skeleton's or a notice's text is shorter.
	scriptedBelow = DefaultMinChars
)

// scriptedBodies returns the strings of markup of at least
// minScriptedParagraphs paragraphs that scripts hold, longest first, at
// most maxScriptedTries: a string's own; the text rows of Next.js's stream
// of server components, whose pushes are joined first (a row may be cut
// between two); and the strings of one of its JSON rows joined in order,
// when its component gives each paragraph a string of its own (a block
// editor's). A string of data is never taken whole: its
// own strings are read, maxScriptedDepth levels down.
func scriptedBodies(scripts []string) []string {
	var c markupCollector
	var stream strings.Builder
	for _, s := range scripts {
		if strings.Contains(s, nextPush) {
			for lit := range stringLiterals(s, 0) { // a row's head may be a push of its own
				stream.WriteString(lit)
			}
			continue
		}
		if mayCarryMarkup(s) {
			c.container(s, maxScriptedDepth, false)
		}
	}
	c.rows(stream.String())
	slices.SortStableFunc(c.found, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	c.found = slices.Compact(c.found)
	return c.found[:min(len(c.found), maxScriptedTries)]
}

// markupCollector gathers the strings of markup scripts hold (see
// scriptedBodies).
type markupCollector struct {
	found []string
}

// add keeps markup m when it holds enough paragraphs, and reports whether
// it did.
func (c *markupCollector) add(m string) bool {
	if paragraphTags(m, minScriptedParagraphs) < minScriptedParagraphs {
		return false
	}
	c.found = append(c.found, m)
	return true
}

// container reads the strings of s, a script or a string of data: each
// string of markup, those joined in order when join is set and none is
// markup enough alone, and the strings of the strings of data it holds,
// depth levels down. Only a row of server components is joined: there a
// component gives each of its paragraphs a string, while a script's
// strings of one paragraph are as often a gallery's slides or teasers.
func (c *markupCollector) container(s string, depth int, join bool) {
	var parts []string
	whole := false // a string of the container is markup enough alone
	for lit := range stringLiterals(s, minLiteralBytes) {
		if !mayCarryMarkup(lit) {
			continue
		}
		if looksData(lit) {
			if depth > 1 {
				c.container(lit, depth-1, join)
			}
			continue
		}
		parts = append(parts, lit)
		whole = c.add(lit) || whole
	}
	if join && len(parts) > 1 && !whole {
		c.add(strings.Join(parts, "\n"))
	}
}

// rows reads a stream of Next.js's server components: rows of an id, a
// colon and a JSON value, each ended by a line break, or of an id, "T",
// the text's length in bytes (hexadecimal), a comma and the text, markup
// ended by its length.
func (c *markupCollector) rows(s string) {
	for s != "" {
		i := 0
		for i < len(s) && i < 8 && isHexDigit(s[i]) {
			i++
		}
		if i == 0 || i == len(s) || s[i] != ':' {
			_, s, _ = strings.Cut(s, "\n") // not a row: its line is skipped
			continue
		}
		s = s[i+1:]
		if n, rest, ok := textRow(s); ok {
			n = min(n, len(rest))
			if mayCarryMarkup(rest[:n]) && !looksData(rest[:n]) {
				c.add(rest[:n])
			}
			s = rest[n:]
			continue
		}
		row, rest, _ := strings.Cut(s, "\n")
		if mayCarryMarkup(row) {
			c.container(row, maxScriptedDepth, true)
		}
		s = rest
	}
}

// textRow reads the head of a text row after its id, "T1b7b,": the text's
// length and what follows the comma.
func textRow(s string) (int, string, bool) {
	if !strings.HasPrefix(s, "T") {
		return 0, "", false
	}
	n, i := 0, 1
	for ; i < len(s) && i < 10 && isHexDigit(s[i]); i++ {
		r, _ := hexRune(s[i:i+1], 1)
		n = n<<4 | int(r)
	}
	if i == 1 || i == len(s) || s[i] != ',' {
		return 0, "", false
	}
	return n, s[i+1:], true
}

// mayCarryMarkup reports whether s holds a paragraph tag, as written or
// escaped in a string ("<p>", "\u003cp\u003e", "\x3cp "): the cheap test
// before its strings are read.
func mayCarryMarkup(s string) bool {
	for _, open := range [...]string{"<p>", "<p ", "<P>", "<P ", "u003cp", "u003cP", "u003Cp", "u003CP", "x3cp", "x3Cp", "x3cP", "x3CP"} {
		if strings.Contains(s, open) {
			return true
		}
	}
	return false
}

// looksData reports whether a decoded string is data rather than markup:
// it opens a JSON object or array, or a row of a stream of them ("5:[",
// "1f:{", "a:I[": an identifier, a colon and the row's value).
func looksData(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" {
		return false
	}
	if s[0] == '{' || s[0] == '[' {
		return true
	}
	i := 0
	for i < len(s) && i < 8 && isHexDigit(s[i]) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':'
}

// paragraphTags counts the paragraph start tags of markup s ("<p>", "<p
// class=…>", in any case), stopping at limit.
func paragraphTags(s string, limit int) int {
	n := 0
	for i := strings.IndexByte(s, '<'); i >= 0 && n < limit; {
		if i+2 < len(s) && (s[i+1] == 'p' || s[i+1] == 'P') && (s[i+2] == '>' || s[i+2] == ' ' || s[i+2] == '\t' || s[i+2] == '\n') {
			n++
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// stringLiterals yields the double-quoted string literals of a script or
// JSON text s of at least least bytes as written, decoded (decodeLiteral). A quote inside a comment or a
// regular expression may pair the wrong quotes; the markup then sought is
// missed, never made up: it is found only in what decodes as a string.
func stringLiterals(s string, least int) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := 0; i < len(s); {
			q := strings.IndexByte(s[i:], '"')
			if q < 0 {
				return
			}
			start := i + q + 1
			end := literalEnd(s, start)
			if end < 0 {
				return
			}
			if end-start >= least && !yield(decodeLiteral(s[start:end])) {
				return
			}
			i = end + 1
		}
	}
}

// literalEnd returns the index of the quote that closes the literal whose
// text starts at s[start:], or -1 when none does.
func literalEnd(s string, start int) int {
	for i := start; i < len(s); {
		j := strings.IndexAny(s[i:], `"\`)
		if j < 0 {
			return -1
		}
		i += j
		if s[i] == '"' {
			return i
		}
		i += 2 // an escape: the next byte is never the closing quote
	}
	return -1
}

// decodeLiteral decodes the escapes of a JavaScript or JSON string's text:
// \n, \t, \", \\, \/, \uXXXX (UTF-16 pairs joined), \xHH, and a backslash
// before any other character stands for that character. An escape cut off
// or not hexadecimal is kept as written.
func decodeLiteral(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b', 'f', 'v':
			b.WriteByte(' ')
		case 'u':
			r, n := hexRune(s[i:], 4)
			if n == 0 {
				b.WriteString(`\u`)
				continue
			}
			i += n
			if utf16.IsSurrogate(r) {
				if r2, n2 := hexRune(strings.TrimPrefix(s[i:], `\u`), 4); n2 > 0 && strings.HasPrefix(s[i:], `\u`) {
					if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
						r = p
						i += 2 + n2
					}
				}
			}
			b.WriteRune(r)
		case 'x':
			r, n := hexRune(s[i:], 2)
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			i += n
			b.WriteRune(r)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// hexRune reads n hexadecimal digits at the start of s, returning their
// value and n, or 0 and 0 when s does not start with n of them.
func hexRune(s string, n int) (rune, int) {
	if len(s) < n {
		return 0, 0
	}
	var r rune
	for i := range n {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, 0
		}
		r = r<<4 | rune(d)
	}
	return r, n
}

// isHexDigit reports whether c is a hexadecimal digit.
func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
