package diff

import "unicode"

func isSpace(r rune) bool { return unicode.IsSpace(r) }
