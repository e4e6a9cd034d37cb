package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A page that its scripts render (a Next.js app's server components, a
// single-page app's preloaded state) may send its article only as data: a
// string of markup in a script, `self.__next_f.push([1,"\u003cp\u003e…"])`
// or `{"contentHtml":"<p>…</p>"}`, which a browser's script writes into the
// page. Read as sent, such a page holds a skeleton, a cookie notice or
// nothing. When the text found in the page is short, the longest string of
// paragraphs in its scripts is read as an article of its own
// (preferScripted).

// placeholderRe matches the placeholders a page's script fills in markup
// sent as data ("$$ARTICLEAD$$", "{{ad_slot}}", "%%EMBED%%"): an
// advertisement's or an embed's place, no text of the article.
var placeholderRe = regexp.MustCompile(`\$\$[A-Za-z0-9_.-]{1,40}\$\$|\{\{ ?[A-Za-z0-9_.-]{1,40} ?\}\}|%%[A-Za-z0-9_.-]{1,40}%%`)

// preferScripted returns the text of the article the page's scripts hold
// (scriptedBody), extracted as a page of its own under the page's title,
// when it holds at least twice the runes of text, the text found in the
// page, and is about the title (aboutTitle): a script may hold other
// stories' markup too; else text.
func preferScripted(text, title, pageURL string, scripts []string, opts Options) string {
	frag := scriptedBody(scripts)
	if frag == "" {
		return text
	}
	frag = placeholderRe.ReplaceAllString(frag, "")
	doc, err := parsePage([]byte("<html><head><title>" + html.EscapeString(title) + "</title></head><body><article>" + frag + "</article></body></html>"))
	if err != nil || countElements(doc, opts.MaxElements) > opts.MaxElements {
		return text
	}
	opts.scripted = true
	a, err := extractDoc(doc, pageURL, nil, opts)
	if err != nil || utf8.RuneCountInString(a.Text) < 2*utf8.RuneCountInString(text) || !aboutTitle(a.Text, title) {
		return text
	}
	return a.Text
}

// aboutTitle reports whether text is about the title: at least a third of
// the title's words of two runes or more are in the text, as words or
// inside words (Korean writes particles onto its words), a word of more
// than four runes written without spaces (Chinese, Japanese, Thai) counted
// as its pairs of runes. A title without such words says nothing against
// any text.
func aboutTitle(text, title string) bool {
	lower := strings.ToLower(text)
	units, found := 0, 0
	count := func(u string) {
		units++
		if strings.Contains(lower, u) {
			found++
		}
	}
	for _, w := range wordsOf(title) {
		rs := []rune(w)
		switch {
		case len(rs) < 2:
		case len(rs) > 4 && unspaced(rs[0]):
			for i := 0; i+1 < len(rs); i++ {
				count(string(rs[i : i+2]))
			}
		default:
			count(w)
		}
	}
	return 3*found >= units
}

// unspaced reports whether r is of a script written without spaces between
// words: Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// Bounds of the article in a page's scripts.
const (
	// minScriptedBytes is the shortest script read for markup.
	minScriptedBytes = 500
	// minScriptedParagraphs is the fewest paragraph tags a string of
	// markup holds to be taken for an article.
	minScriptedParagraphs = 3
	// maxScriptedDepth is how many times strings are looked for inside
	// strings: a stream of JSON rows in a script's string (Next.js's
	// server components) holds the markup in a string of its own.
	maxScriptedDepth = 2
	// scriptedBelow is the fewest runes of text found in the page for
	// which its scripts are not read: a skeleton's or a notice's text is
	// shorter.
	scriptedBelow = DefaultMinChars
)

// scriptedBody returns the longest string in scripts, or in the strings
// of data they hold, that is markup of at least minScriptedParagraphs
// paragraphs; "" when none is.
func scriptedBody(scripts []string) string {
	best := ""
	for _, s := range scripts {
		if !mayCarryMarkup(s) {
			continue
		}
		if b := longestMarkup(s, maxScriptedDepth); len(b) > len(best) {
			best = b
		}
	}
	return best
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

// longestMarkup returns the longest string literal of s that is markup of
// enough paragraphs (paragraphTags); inside a literal that is data (a
// JSON object or array, or a row of a stream of them), the longest of its
// own literals, depth levels down, comes first.
func longestMarkup(s string, depth int) string {
	best := ""
	for lit := range stringLiterals(s) {
		if !mayCarryMarkup(lit) {
			continue
		}
		if depth > 1 && looksData(lit) {
			if b := longestMarkup(lit, depth-1); b != "" {
				if len(b) > len(best) {
					best = b
				}
				continue
			}
		}
		if len(lit) > len(best) && paragraphTags(lit, minScriptedParagraphs) >= minScriptedParagraphs {
			best = lit
		}
	}
	return best
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
// JSON text s, decoded (decodeLiteral). A quote inside a comment or a
// regular expression may pair the wrong quotes; the markup then sought is
// missed, never made up: it is found only in what decodes as a string.
func stringLiterals(s string) func(yield func(string) bool) {
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
			if end-start >= minScriptedBytes/2 && !yield(decodeLiteral(s[start:end])) {
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
