package diff

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"
)

// Visible returns s with every character a terminal would act on rather
// than show, or would show as nothing, written as a Go escape, as %q
// writes it: the C0 controls other than tab and line feed (ESC as \x1b,
// BEL as \a, a carriage return not followed by a line feed as \r), DEL
// (\x7f), the C1 controls (\u009b), the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), which would show
// the text around them in another order than it has, and the other format
// characters (Unicode category Cf: zero width space \u200b, joiners
// \u200c and \u200d, word joiner \u2060, \ufeff, soft hyphen \u00ad,
// the directional marks \u200e and \u200f, …), which show as nothing, so
// that "wi\u200bdth" cannot pass for "width"; a byte that is not UTF-8 is
// written \xHH. A document's text or id can thus neither move the cursor,
// clear the screen, retitle the window or colour what follows, nor
// disguise what it holds. The carriage return of a CRLF line end is kept:
// it moves the cursor to where the line feed takes it anyway. So is a
// format character that a character shown needs (see joins): the zero
// width joiner inside an emoji ZWJ sequence (a family, a rainbow flag) or
// an Indic conjunct, the tags of a flag (Scotland's). s itself is
// returned when nothing is escaped.
func Visible(s string) string { return visible(s, false) }

// VisibleLine is Visible for a value shown inside one line of a message (a
// file's or an archive member's name, an id in a warning or an error): its
// tabs and line ends are written escaped too (\t, \n, and \r, a CRLF's
// included), so that a name holding "\nwarning: …" cannot pass for a line
// of its own, nor one holding a tab break a table's columns.
func VisibleLine(s string) string {
	s = Visible(s)
	if strings.ContainsAny(s, "\t\r\n") {
		s = lineEnds.Replace(s)
	}
	return s
}

// lineEnds escapes what VisibleLine escapes beyond Visible.
var lineEnds = strings.NewReplacer("\t", `\t`, "\r", `\r`, "\n", `\n`)

// visibleText is Visible for the text two documents share, which keeps the
// format characters that writing uses and that the comparison ignores (see
// textFormat): the soft hyphens of hyphenated German, the non-joiners of
// Persian, the direction marks of Arabic and Hebrew, which would otherwise
// fill a diff with escapes. Both texts hold them there, so they hide no
// difference; text only one holds, marked, is written by Visible.
func visibleText(s string) string { return visible(s, true) }

// textFormat reports whether r is a format character that visibleText
// keeps: SOFT HYPHEN, ZERO WIDTH NON-JOINER, the LEFT-TO-RIGHT,
// RIGHT-TO-LEFT and ARABIC LETTER MARKs.
func textFormat(r rune) bool {
	return r == 0xad || r == 0x200c || r == 0x200e || r == 0x200f || r == 0x61c
}

// visible is Visible, or visibleText when text.
func visible(s string, text bool) string {
	var b strings.Builder
	var clusters *graphemes.Iterator[string] // made at the first format character
	done := 0                                // s[:done] is in b
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
				esc = escapeRune(r)
			case text && textFormat(r):
			case unicode.Is(unicode.Cf, r):
				if clusters == nil {
					clusters = graphemes.FromString(s)
				}
				if !joins(s, i, size, clusters) {
					esc = escapeRune(r)
				}
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

// joins reports whether the format character s[i:i+size] is part of a
// character shown, by the grapheme clusters (UAX #29) of s, which
// clusters iterates, at or before the one holding i: a tag character
// (U+E0020–U+E007F) after the base of its cluster, as in an emoji tag
// sequence, or another format character followed in its cluster by a
// character that is no mark or format character: a joiner between two
// emoji or two Indic consonants, an Arabic number sign before its digits.
// A joiner at the end of its cluster joins nothing.
func joins(s string, i, size int, clusters *graphemes.Iterator[string]) bool {
	for clusters.End() <= i {
		if !clusters.Next() {
			return false
		}
	}
	start, end := clusters.Start(), clusters.End()
	if r, _ := utf8.DecodeRuneInString(s[i:]); r >= 0xe0020 && r <= 0xe007f {
		base, _ := utf8.DecodeRuneInString(s[start:])
		return start < i && !unicode.Is(unicode.Cf, base)
	}
	if i+size >= end {
		return false
	}
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	return !unicode.In(next, unicode.M, unicode.Cf)
}

// escapeRune returns the Go escape of r, \uXXXX or \UXXXXXXXX.
func escapeRune(r rune) string {
	if r > 0xffff {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
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
