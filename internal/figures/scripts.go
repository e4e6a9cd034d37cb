package figures

import (
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/analysis"
)

// ASCIIDigits returns text with each decimal digit of a script other than
// ASCII's (Unicode's Nd: Arabic-Indic "١٢٠", Persian "۱۲۰", Devanagari
// "१२०", fullwidth "１２０") written as its ASCII digit, and the Arabic
// decimal and thousands separators ("١٢٫٥", "١٬٠٠٠") as "." and ",", so
// that its figures read as those written in ASCII digits do. text comes
// back as it is, not copied, when it holds none of them; buf is reused
// for a copy. Every such rune is U+0660 or above and none lies from
// U+3000 to U+9FFF (Han, kana), so only a byte that begins a rune from
// U+0640 on, and not one of those, is decoded (noDigitLead), and eight
// ASCII bytes are passed over at once.
func ASCIIDigits(text string, buf []byte) (string, []byte) {
	i := 0
	for ; i < len(text); i++ {
		for i+8 <= len(text) && analysis.Load64(text[i:i+8])&0x8080808080808080 == 0 {
			i += 8
		}
		if i == len(text) || noDigitLead(text[i]) {
			continue
		}
		if r, _ := decodeRune(text, i); isOtherDigit(r) {
			break
		}
	}
	if i >= len(text) {
		return text, buf
	}
	buf = append(buf[:0], text[:i]...)
	for i < len(text) {
		if c := text[i]; noDigitLead(c) {
			buf = append(buf, c)
			i++
			continue
		}
		r, n := decodeRune(text, i)
		if d, ok := asciiDigit(r); ok {
			buf = append(buf, d)
		} else {
			buf = append(buf, text[i:i+n]...)
		}
		i += n
	}
	return string(buf), buf
}

// noDigitLead reports whether c begins no rune ASCIIDigits replaces:
// ASCII and a continuation byte, a first byte below 0xD9 (U+0640, below
// the Arabic-Indic zero U+0660, the first digit beyond ASCII), or one of
// 0xE3 to 0xE9 (U+3000 to U+9FFF, where Unicode has no digit).
func noDigitLead(c byte) bool { return c < 0xD9 || c >= 0xE3 && c <= 0xE9 }

// asciiDigit returns the ASCII byte ASCIIDigits writes for r: the digit of
// a decimal digit beyond ASCII's, "." and "," for the Arabic decimal and
// thousands separators; false for any other rune. Unicode assigns the
// digits of a script in runs of ten from its zero (so its table of Nd
// holds ranges of whole runs, TestAsciiDigitEveryDigit), where a digit's
// value is its distance from the range's start, modulo ten.
func asciiDigit(r rune) (byte, bool) {
	switch {
	case r < 0x0660:
		return 0, false
	case r <= 0x0669:
		return '0' + byte(r-0x0660), true // Arabic-Indic
	case r == 0x066B:
		return '.', true
	case r == 0x066C:
		return ',', true
	case r < 0x06F0:
		return 0, false
	case r <= 0x06F9:
		return '0' + byte(r-0x06F0), true // Persian
	case !unicode.IsDigit(r):
		return 0, false
	}
	for _, g := range unicode.Nd.R16 {
		if r >= rune(g.Lo) && r <= rune(g.Hi) {
			return '0' + byte((r-rune(g.Lo))%10), true
		}
	}
	for _, g := range unicode.Nd.R32 {
		if r >= rune(g.Lo) && r <= rune(g.Hi) {
			return '0' + byte((r-rune(g.Lo))%10), true
		}
	}
	return 0, false
}

// isOtherDigit reports whether asciiDigit reads r.
func isOtherDigit(r rune) bool {
	_, ok := asciiDigit(r)
	return ok
}

// unspacedLetters is how many letters of a script written without spaces
// between its words (analysis.Unspaced: Chinese, Japanese, Thai, …) are
// the word before or after a figure (see unicodeWord): the pair nearest
// it, as tfidf reads such text in pairs of letters. A word of Chinese is
// mostly one letter or two, and the unit or measure word after a figure
// one ("5月", "3日", "120元"), so a pair holds it and the start of what
// follows; a whole run reaches the next punctuation, a clause that any
// edit makes another place, and one letter alone makes the figures of a
// date range fill one place twice ("5月3日至5月10日": 3 and 10 both
// between "月" and "日"), which is then left out.
const unspacedLetters = 2

// unicodeWord reads the word that starts at text[i], a byte beyond ASCII,
// for a Scanner reading every script: it returns where the word ends, the
// word the figures before it are slotted under as their word after
// (first) and the word the figures after it are slotted under as their
// word before (last). A word of letters of scripts written with spaces
// (marks and ASCII letters in it too: "Zürich", "мая") is both; of letters
// of a script written without spaces (with their marks), first is its
// first unspacedLetters letters and last its last ones. A rune that is no
// letter gives first "" and its end.
func unicodeWord(text string, i int) (end int, first, last string) {
	r, n := decodeRune(text, i)
	switch {
	case unspaced(r):
		end = unspacedEnd(text, i+n)
		return end, firstLetters(text[i:end], unspacedLetters), lastLetters(text[i:end], unspacedLetters)
	case isWordRune(r) && !unicode.IsMark(r):
		end = spacedEnd(text, i+n)
		return end, text[i:end], text[i:end]
	}
	return i + n, "", ""
}

// spacedEnd returns where a word of letters of scripts written with
// spaces that goes on at text[i] ends: at the first byte that is no ASCII
// letter and begins no letter or mark of such a script (a letter of a
// script written without spaces starts a word of its own: "GDP增长").
func spacedEnd(text string, i int) int {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if !isLetter(c) {
				return i
			}
			i++
			continue
		}
		r, n := decodeRune(text, i)
		if !isWordRune(r) || unspaced(r) {
			return i
		}
		i += n
	}
	return i
}

// decodeRune is utf8.DecodeRuneInString(text[i:]) with a rune of two
// bytes (Latin beyond ASCII, Greek, Cyrillic, Hebrew, Arabic) decoded in
// place, not by its call.
func decodeRune(text string, i int) (rune, int) {
	if c := text[i]; c >= 0xC2 && c <= 0xDF && i+1 < len(text) && text[i+1]&0xC0 == 0x80 {
		return rune(c&0x1F)<<6 | rune(text[i+1]&0x3F), 2
	}
	return utf8.DecodeRuneInString(text[i:])
}

// unspacedEnd returns where a run of letters of a script written without
// spaces (analysis.Unspaced), and their marks, that goes on at text[i]
// ends.
func unspacedEnd(text string, i int) int {
	for i < len(text) && text[i] >= utf8.RuneSelf {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unspaced(r) && !isMark(r) {
			break
		}
		i += n
	}
	return i
}

// firstLetters returns the first k letters of the word w, with the marks
// that follow them.
func firstLetters(w string, k int) string {
	i := 0
	for i < len(w) {
		r, n := utf8.DecodeRuneInString(w[i:])
		if !isMark(r) {
			if k == 0 {
				break
			}
			k--
		}
		i += n
	}
	return w[:i]
}

// lastLetters returns the last k letters of the word w, with the marks
// that follow them.
func lastLetters(w string, k int) string {
	i := len(w)
	for i > 0 && k > 0 {
		r, n := utf8.DecodeLastRuneInString(w[:i])
		if !isMark(r) {
			k--
		}
		i -= n
	}
	return w[i:]
}

// isWordRune reports whether r, a rune beyond ASCII, is a letter or a
// mark, as unicode.IsLetter and unicode.IsMark say, without their tables
// for the blocks of letters of most news (Latin-1 and Latin Extended,
// Cyrillic, Arabic's letters and marks), whose runes are all letters or
// marks but a few (TestWordRuneEveryRune).
func isWordRune(r rune) bool {
	switch {
	case r >= 0xC0 && r <= 0x24F:
		return r != 0xD7 && r != 0xF7 // "×", "÷"
	case r >= 0x400 && r <= 0x4FF:
		return r != 0x482 // "҂"
	case r >= 0x620 && r <= 0x65F:
		return true
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// unspaced is analysis.Unspaced without its tables for the CJK Unified
// Ideographs (U+4E00 to U+9FFF), every one a letter of Han.
func unspaced(r rune) bool { return r >= 0x4E00 && r <= 0x9FFF || analysis.Unspaced(r) }

// isMark is unicode.IsMark without its table for the CJK Unified
// Ideographs (U+4E00 to U+9FFF), letters all.
func isMark(r rune) bool { return (r < 0x4E00 || r > 0x9FFF) && unicode.IsMark(r) }

// lower is unicode.ToLower without its table for the runes of most news
// beyond Latin: Cyrillic's basic capitals and small letters, and the
// letters of Arabic and of Chinese and Japanese (U+3000 to U+9FFF), which
// have no case.
func lower(r rune) rune {
	switch {
	case r >= 0x0410 && r <= 0x042F:
		return r + 0x20
	case r >= 0x0430 && r <= 0x045F, r >= 0x0600 && r <= 0x06FF, r >= 0x3000 && r <= 0x9FFF:
		return r
	}
	return unicode.ToLower(r)
}
