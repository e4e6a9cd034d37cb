package diff

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible returns s with every character a terminal would act on rather
// than show written as a Go escape, as %q writes it: the C0 controls other
// than tab and line feed (ESC as \x1b, BEL as \a, a carriage return not
// followed by a line feed as \r), DEL (\x7f), the C1 controls (\u009b) and
// the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), which would show the text around them in another order
// than it has; a byte that is not UTF-8 is written \xHH. A document's text
// or id can thus neither move the cursor, clear the screen, retitle the
// window or colour what follows, nor disguise what it holds. The carriage
// return of a CRLF line end is kept: it moves the cursor to where the line
// feed takes it anyway. s itself is returned when nothing is escaped.
func Visible(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		var esc string
		switch {
		case c < utf8.RuneSelf:
			if control(c) && !(c == '\r' && i+1 < len(s) && s[i+1] == '\n') {
				esc = escapeByte(c)
			}
		default:
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				esc = fmt.Sprintf(`\x%02x`, c)
			case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
				esc = fmt.Sprintf(`\u%04x`, r)
			}
		}
		if esc != "" {
			if done == 0 {
				b.Grow(len(s) + 8)
			}
			b.WriteString(s[done:i])
			b.WriteString(esc)
			done = i + size
		}
		i += size
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// control reports whether the ASCII byte c is a control character other
// than tab and line feed.
func control(c byte) bool { return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f }

// escapeByte returns the Go escape of the ASCII control character c.
func escapeByte(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	case '\v':
		return `\v`
	}
	return fmt.Sprintf(`\x%02x`, c)
}
