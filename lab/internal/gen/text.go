package gen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitParagraphs splits a body at blank lines.
func splitParagraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// abbreviations end in a period without ending a sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "jr": true,
	"sr": true, "inc": true, "co": true, "corp": true, "ltd": true, "no": true,
	"vs": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true,
	"jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true,
	"dec": true, "gen": true, "gov": true, "sen": true, "rep": true, "prof": true,
	"e.g": true, "i.e": true, "etc": true, "approx": true, "dept": true,
}

// splitSentences splits a paragraph into sentences at . ! ? followed by a
// space and a capital letter, digit or quote. Abbreviations, initials and
// dotted acronyms ("U.S.") do not end a sentence. The parts keep their
// punctuation and joining them with single spaces restores the paragraph
// up to whitespace.
func splitSentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		end := i + 1
		for end < len(p) && (p[end] == '"' || p[end] == '\'' || p[end] == ')') {
			end++
		}
		if end >= len(p) || p[end] != ' ' {
			continue
		}
		next := end
		for next < len(p) && p[next] == ' ' {
			next++
		}
		if next >= len(p) || !startsSentence(p[next:]) {
			continue
		}
		if c == '.' && isAbbreviation(p[start:i]) {
			continue
		}
		out = append(out, p[start:end])
		start = next
		i = next - 1
	}
	if start < len(p) {
		out = append(out, strings.TrimSpace(p[start:]))
	}
	return out
}

func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || r == '"' || r == '\'' || r == '('
}

// isAbbreviation reports whether the text before a period ends in a word
// that does not end a sentence there.
func isAbbreviation(before string) bool {
	w := before
	if i := strings.LastIndexByte(before, ' '); i >= 0 {
		w = before[i+1:]
	}
	w = strings.TrimLeft(w, "\"'(")
	if utf8.RuneCountInString(w) <= 1 || strings.Contains(w, ".") {
		return true
	}
	return abbreviations[strings.ToLower(w)]
}

// words splits s into maximal runs of letters and digits, lower-cased.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// isAlpha reports whether s is non-empty and all letters.
func isAlpha(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	for i < len(s) && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	if i == len(s) {
		return true
	}
	if s[i] < utf8.RuneSelf {
		return false
	}
	for _, r := range s[i:] {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// splitToken cuts a space-separated token into leading punctuation, a core
// of letters, digits and inner punctuation, and trailing punctuation.
func splitToken(tok string) (lead, core, trail string) {
	if isASCII(tok) {
		i := 0
		for i < len(tok) && !isWordByte(tok[i]) {
			i++
		}
		j := len(tok)
		for j > i && !isWordByte(tok[j-1]) {
			j--
		}
		return tok[:i], tok[i:j], tok[j:]
	}
	i := strings.IndexFunc(tok, isWordRune)
	if i < 0 {
		return tok, "", ""
	}
	j := strings.LastIndexFunc(tok, isWordRune)
	_, n := utf8.DecodeRuneInString(tok[j:])
	return tok[:i], tok[i : j+n], tok[j+n:]
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isWordByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' }

// caseLike returns w (lower case) in the letter case of model: all upper,
// capitalised or lower.
func caseLike(w, model string) string {
	first, _ := utf8.DecodeRuneInString(model)
	switch {
	case !unicode.IsUpper(first):
		return w
	case strings.ToUpper(model) == model && utf8.RuneCountInString(model) > 1:
		return strings.ToUpper(w)
	default:
		return capitalise(w)
	}
}

func capitalise(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	if r == utf8.RuneError {
		return w
	}
	return string(unicode.ToUpper(r)) + w[n:]
}

// titleCase turns an upper-case headline into title case ("STANDARD OIL
// TO FORM UNIT" → "Standard Oil To Form Unit"), keeping tickers in <>.
func titleCase(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		if strings.HasPrefix(f, "<") {
			continue
		}
		fields[i] = capitalise(strings.ToLower(f))
	}
	return strings.Join(fields, " ")
}
