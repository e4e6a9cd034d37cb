package analysis

import (
	"unicode"
	"unicode/utf8"
)

// AppendLower appends text to dst with every character in its simple lower
// case (unicode.ToLower), nothing else changed: no normalisation, no case
// folding beyond that. Bytes that are not UTF-8 are copied as they are. It
// is the lower-casing of the recipes' terms (R's tolower, Python's
// str.lower for all but a few characters whose lower case is longer).
func AppendLower(dst []byte, text string) []byte {
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
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
		i += n
	}
	return dst
}
