package jsonenc

import "unicode/utf16"

// LoneSurrogate reports whether the JSON string s (its contents between
// the quotes, or the whole literal) escapes a UTF-16 surrogate that is not
// half of a pair: "\ud800" alone, a low half first ("\udc00"), or a high
// half followed by anything but a low one. Such an escape names no
// character, which UTF-8 cannot encode; encoding/json, and the readers,
// decode it as U+FFFD, so that two strings that differ there decode
// alike. s is valid JSON.
func LoneSurrogate[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		i++ // the escaped character
		r, ok := hex4(s, i+1)
		if s[i] != 'u' || !ok {
			continue
		}
		i += 4 // the last hex digit
		if !utf16.IsSurrogate(r) {
			continue
		}
		if r < 0xdc00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
			if lo, ok := hex4(s, i+3); ok && 0xdc00 <= lo && lo < 0xe000 {
				i += 6
				continue
			}
		}
		return true
	}
	return false
}

// hex4 reads the four hex digits of s at i.
func hex4[S ~string | ~[]byte](s S, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
