package analysis

import (
	"unicode"
	"unicode/utf8"
)

// AppendLower appends text to dst with every character in its simple lower
// case (unicode.ToLower), and the Turkish dotless "ı" and dotted "İ" as
// "i" (as "I" is), so that "KAPALI" and "kapalı" are one term; nothing
// else changed: no normalisation, no case folding beyond that. Bytes that
// are not UTF-8 are copied as they are. It is the lower-casing of the
// recipes' terms (R's tolower, Python's str.lower for all but a few
// characters whose lower case is longer, and but "ı", which they keep,
// and the Greek capital sigma at a word's end, which str.lower makes the
// final "ς" and AppendLower "σ", as everywhere: terms stored by rarewords
// and tfidf, which a change would need a new sketch format for).
func AppendLower(dst []byte, text string) []byte {
	return appendLower(dst, text, false)
}

// AppendLowerDottedIApart is AppendLower keeping "ı" and making "İ" "i"
// as unicode.ToLower does, so that "KAPALI" and "kapalı" are two terms, as
// the sketch formats before tfidf and rarewords 4 read them.
func AppendLowerDottedIApart(dst []byte, text string) []byte {
	return appendLower(dst, text, true)
}

// appendLower is AppendLower, or AppendLowerDottedIApart with dottedIApart.
func appendLower(dst []byte, text string, dottedIApart bool) []byte {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, c)
		case r == 'ı' && !dottedIApart:
			dst = append(dst, 'i')
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
		i += n
	}
	return dst
}
