package corpus

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/extract"
)

// frontFields are the values of a Markdown file's front matter that make
// its document: its title:, date:, source: and url:, "" for a key it has
// not.
type frontFields struct{ title, date, source, url string }

// frontKeys are the keys of frontFields, as a line of the front matter
// starts with them: in lower case, at the line's start.
var frontKeys = [...]string{"title:", "date:", "source:", "url:"}

// frontMatter cuts the YAML front matter off the start of a Markdown file
// (as Jekyll, Hugo and other static site generators write it): a first
// line "---", the block up to a line "---" or "...", every line of it not
// blank looking like YAML (yamlLine), so that a text opening with a
// horizontal rule stays text. It returns the values of the block's title:,
// date:, source: and url: (frontScalar; the first line of a key is read,
// a repeat of it not, even when the first gives no value; url: only when
// an absolute http or https URL, extract.AbsoluteURL) and the text after
// the block; ok is false when s opens with no such block.
func frontMatter(s string) (fm frontFields, body string, ok bool) {
	s = strings.TrimPrefix(s, "\ufeff")
	first, rest, found := strings.Cut(s, "\n")
	if !found || strings.TrimRight(first, " \t\r") != "---" {
		return fm, "", false
	}
	var vals [len(frontKeys)]frontScalar
	cur := -1 // the key whose value goes on in indented lines
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		line = strings.TrimRight(line, " \t\r")
		if line == "---" || line == "..." {
			fm = frontFields{title: vals[0].value(), date: vals[1].value(), source: vals[2].value(),
				url: extract.AbsoluteURL(vals[3].value())}
			return fm, after, true
		}
		if line != "" && !yamlLine(line) {
			return frontFields{}, "", false // not YAML: text, as a horizontal rule opens it
		}
		switch indented := line != "" && (line[0] == ' ' || line[0] == '\t'); {
		case cur >= 0 && indented:
			if !vals[cur].goOn(strings.TrimSpace(line)) {
				cur = -1
			}
			continue
		case cur >= 0 && line == "":
			continue
		}
		cur = -1
		for i, key := range frontKeys {
			if v, isKey := strings.CutPrefix(line, key); isKey && !vals[i].seen {
				if vals[i].start(v) {
					cur = i
				}
			}
		}
	}
	return frontFields{}, "", false // never closed: not front matter
}

// frontScalar is the value of a front-matter key as YAML reads a scalar:
// its comment (" #" outside quotes) cut, then its quotes removed; a block
// scalar's lines (title: | or title: >-) and a plain scalar's going on in
// indented lines (source: Coast⏎  Gazette, or source:⏎  Coast Gazette)
// joined by spaces. It is absent ("") when empty, null or ~, and not read
// when it is not text: a list or map ([, {, or a "- " or "key:" line below
// the key), an anchor, alias or tag (&, *, !), or a quoted scalar not
// closed on its line.
type frontScalar struct {
	seen  bool     // the key was met; a repeat of it is not read
	parts []string // the value's lines
	block bool     // a block scalar: its indented lines are taken as they are
	empty bool     // a plain scalar not begun: its key's line has no value
}

// start reads v, the text after the key's colon, and reports whether the
// value may go on in the indented lines below it.
func (f *frontScalar) start(v string) bool {
	f.seen = true
	v = strings.TrimSpace(v)
	if isBlockScalar(v) {
		f.block = true
		return true
	}
	val, plain := scalarLine(v)
	if val != "" {
		f.parts = append(f.parts, val)
	}
	f.empty = plain && val == ""
	return plain
}

// goOn reads line, an indented line below the key, trimmed and not blank,
// and reports whether the value may go on past it.
func (f *frontScalar) goOn(line string) bool {
	if f.block {
		f.parts = append(f.parts, line)
		return true
	}
	if f.empty { // the value starts on this line
		f.empty = false
		if line == "-" || strings.HasPrefix(line, "- ") || strings.HasSuffix(line, ":") || strings.Contains(line, ": ") {
			return false // a list or a map
		}
		val, plain := scalarLine(line)
		if val != "" {
			f.parts = append(f.parts, val)
		}
		f.empty = plain && val == "" // a comment line: the value is below it
		return plain
	}
	v, comment := cutComment(line)
	if v != "" {
		f.parts = append(f.parts, v)
	}
	return !comment
}

// value is the scalar read, its lines joined by spaces.
func (f *frontScalar) value() string { return strings.Join(f.parts, " ") }

// scalarLine reads v, a value on one line, trimmed: plain is true when it
// is a plain scalar that may go on in the lines below it (one neither
// quoted nor with a comment after it, or none yet). val is "" for a value absent (empty,
// null, ~) or not read (frontScalar).
func scalarLine(v string) (val string, plain bool) {
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		if end := closingQuote(v); end > 0 {
			return unquoteYAML(v[:end+1]), false
		}
		return "", false // a quoted scalar on more lines
	}
	v, comment := cutComment(v)
	switch {
	case v == "":
		return "", true // the value below, a comment or none between
	case strings.ContainsRune("[{&*!|>", rune(v[0])):
		return "", false
	case v == "~" || v == "null" || v == "Null" || v == "NULL":
		return "", false
	}
	return v, !comment
}

// cutComment returns v without a comment: from a "#" that opens it or
// follows a space or tab; comment reports whether there was one.
func cutComment(v string) (text string, comment bool) {
	for i := 0; i < len(v); i++ {
		if v[i] == '#' && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t') {
			return strings.TrimSpace(v[:i]), true
		}
	}
	return v, false
}

// closingQuote returns the index of the quote closing the quoted scalar v
// opens (a single quote doubled within single ones, \" within double quotes, are no
// close), -1 when it is not closed on its line.
func closingQuote(v string) int {
	q := v[0]
	for i := 1; i < len(v); i++ {
		switch {
		case q == '"' && v[i] == '\\':
			i++
		case v[i] == q && q == '\'' && i+1 < len(v) && v[i+1] == '\'':
			i++
		case v[i] == q:
			return i
		}
	}
	return -1
}

// yamlLine reports whether line, not blank, looks like a line of YAML
// front matter: a key and a colon at its start (key: or key: value), an
// indented line (a value or block going on), a list item (- ) or a comment.
func yamlLine(line string) bool {
	switch {
	case line[0] == ' ' || line[0] == '\t' || line[0] == '#':
		return true
	case line == "-" || strings.HasPrefix(line, "- "):
		return true
	}
	key, _, found := strings.Cut(line, ":")
	if !found || key == "" {
		return false
	}
	if c := line[len(key)+1:]; c != "" && c[0] != ' ' && c[0] != '\t' {
		return false
	}
	if len(key) >= 2 && (key[0] == '"' || key[0] == '\'') && key[len(key)-1] == key[0] {
		return true
	}
	for _, r := range key {
		if !(r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// isBlockScalar reports whether v, a YAML value, opens a block scalar
// (|, >, with a chomping or indentation indicator: |-, >+, |2).
func isBlockScalar(v string) bool {
	if v, _, _ = strings.Cut(v, " #"); v == "" || (v[0] != '|' && v[0] != '>') {
		return false
	}
	return strings.Trim(v[1:], "+-0123456789") == ""
}

// unquoteYAML returns v without the quotes of a YAML scalar written in
// them, its escapes read ("a \"b\"" reads a "b"; a single quote doubled within
// single ones is one), or
// "" when a double-quoted one holds an escape YAML does not have.
func unquoteYAML(v string) string {
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		u, ok := unescapeYAML(v[1 : len(v)-1])
		if !ok {
			return ""
		}
		return u
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

// yamlEscapes are the one-letter escapes of a YAML double-quoted scalar
// (YAML 1.2, 5.7) and what each writes.
var yamlEscapes = map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v",
	'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\", 'N': "\u0085", '_': "\u00a0",
	'L': "\u2028", 'P': "\u2029"}

// unescapeYAML reads the escapes of the inside of a YAML double-quoted
// scalar: the one-letter ones, \xHH, \uHHHH (a UTF-16 surrogate pair
// joined) and \UHHHHHHHH; ok is false for any other.
func unescapeYAML(s string) (string, bool) {
	if !strings.Contains(s, "\\") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i++; i == len(s) {
			return "", false
		}
		if e, ok := yamlEscapes[s[i]]; ok {
			b.WriteString(e)
			continue
		}
		digits := 0
		switch s[i] {
		case 'x':
			digits = 2
		case 'u':
			digits = 4
		case 'U':
			digits = 8
		}
		if digits == 0 || i+1+digits > len(s) {
			return "", false
		}
		r, err := strconv.ParseUint(s[i+1:i+1+digits], 16, 32)
		if err != nil {
			return "", false
		}
		i += digits
		if utf16.IsSurrogate(rune(r)) && strings.HasPrefix(s[i+1:], "\\u") && len(s) >= i+7 {
			if lo, err := strconv.ParseUint(s[i+3:i+7], 16, 32); err == nil {
				if p := utf16.DecodeRune(rune(r), rune(lo)); p != utf8.RuneError {
					b.WriteRune(p)
					i += 6
					continue
				}
			}
		}
		if !utf8.ValidRune(rune(r)) {
			return "", false
		}
		b.WriteRune(rune(r))
	}
	return b.String(), true
}
