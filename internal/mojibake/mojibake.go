// Package mojibake repairs text whose UTF-8 was decoded once more as
// Windows-1252 or Latin-1 before it was encoded again: "isnâ€™t" for
// "isn’t", "cafÃ©" for "café", "Ð¿Ñ€Ð¸" for "при". A page that declares
// UTF-8 serves such text when its content management system stored the
// double-encoded bytes (or their HTML entities, "&acirc;&euro;&trade;"),
// and a reprint that went through such a system no longer matches its
// original word for word.
//
// Repair only rewrites a run of characters that spells a whole UTF-8
// sequence when each is mapped back to its Windows-1252 (or Latin-1) byte,
// and only when the text holds enough of them that the run cannot be
// ordinary text: a German „Fuß“ or a French «ÉTÉ» stays as it is.
package mojibake

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPasses bounds how often Repair decodes again: text encoded twice too
// many (three times in all) is repaired in two passes.
const maxPasses = 3

// Repair returns s with its double-encoded UTF-8 sequences decoded. It
// repairs when s holds one sure sequence: of four bytes (an emoji,
// "ðŸ™‚"), or of three that decodes to punctuation or a symbol ("â€™",
// "â€”", "â‚¬"); or two or more of the others: three bytes of another
// script (CJK: "æ—¥"), or two that decode to a letter of the Latin, Greek,
// Cyrillic, Hebrew or Arabic alphabets or a Latin-1 symbol ("Ã©", "Â©").
// One of those alone may be ordinary text: an Italian "è…”" spells the
// bytes of a CJK character. A no-break space spelled "Â " (the space
// already folded) or "Â" at a line's end (the space trimmed: "cats.Â\n")
// counts as one of the others, unless the text writes "Â" as a letter of a
// word. Text without such sequences, nearly all text, is returned as it
// is, without a copy. Repair is idempotent on the text it returns
// unless the input was encoded more than maxPasses times.
func Repair(s string) string {
	return repair(s, false)
}

// Garbled reports whether Repair would rewrite s: it holds enough
// double-encoded sequences that they cannot be ordinary text.
func Garbled(s string) bool {
	_, ok := repairOnce(s, false)
	return ok
}

// RepairAll returns s with its double-encoded UTF-8 sequences decoded,
// however few: one "Ã©" is enough. It is for a short text (a title, a
// name) taken from a page whose text is Garbled: the page was garbled as a
// whole, and the few sequences a title holds are no ordinary text there.
func RepairAll(s string) string {
	return repair(s, true)
}

// repair is Repair, of any sequence when all is set (RepairAll).
func repair(s string, all bool) string {
	for range maxPasses {
		fixed, ok := repairOnce(s, all)
		if !ok {
			break
		}
		s = fixed
	}
	return s
}

// repairOnce decodes the double-encoded sequences of s once, and reports
// whether it found enough of them to do so: one when all is set.
func repairOnce(s string, all bool) (string, bool) {
	// Every lead byte of a sequence, U+00C2 to U+00F4 in the text, is
	// 0xC3 followed by another byte in UTF-8.
	if strings.IndexByte(s, 0xC3) < 0 {
		return s, false
	}
	sure, weak := 0, 0
	circumflexWords := writesCircumflexA(s)
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], 0xC3)
		if k < 0 {
			break
		}
		i += k
		r, width, n := sequenceAt(s, i)
		switch {
		case r < 0 && spaceRemnant(s, i) && !circumflexWords:
			weak++
			width = 1
		case r < 0:
			width = 1
		case n == 4 || n == 3 && r >= 0x2000 && r <= 0x2BFF:
			sure++
		default:
			weak++
		}
		i += width
	}
	if sure == 0 && weak < 2 && !(all && weak == 1) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, width, _ := sequenceAt(s, i)
		if r >= 0 {
			b.WriteRune(r)
			i += width
			continue
		}
		if !circumflexWords && spaceRemnant(s, i) {
			i += len("Â") // a no-break space's first byte; the second became a space or went with the line's end
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String(), true
}

// sequenceAt reads a double-encoded UTF-8 sequence at byte i of s: the
// rune it spells, the width in bytes of the characters that spell it in s,
// and its length in encoded bytes (2 to 4). r is -1 when none starts at i.
func sequenceAt(s string, i int) (r rune, width, n int) {
	lead, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		n = 2
	case lead >= 0xE0 && lead <= 0xEF:
		n = 3
	case lead >= 0xF0 && lead <= 0xF4:
		n = 4
	default:
		return -1, 0, 0
	}
	var buf [4]byte
	buf[0] = byte(lead)
	width = size
	for k := 1; k < n; k++ {
		c, size := utf8.DecodeRuneInString(s[i+width:])
		b, ok := byteOf(c)
		if !ok || b < 0x80 || b > 0xBF {
			return -1, 0, 0
		}
		buf[k] = b
		width += size
	}
	r, size = utf8.DecodeRune(buf[:n])
	if r == utf8.RuneError || size != n || n == 2 && !plausible(r) {
		return -1, 0, 0
	}
	return r, width, n
}

// plausible reports whether a rune decoded from two bytes is one a text
// is likely to hold: a Latin-1 symbol or letter, a letter of Latin
// Extended-A or B, of the basic Greek, Cyrillic, Hebrew or Arabic
// alphabets, a character of Windows-1252 (the modifier letters "ˆ", "˜"
// of a sequence garbled twice), or a C1 control (likewise: "Â\u009d";
// never in text otherwise). Other two-byte runes (the IPA,
// N'Ko, combining marks) are more often an ordinary letter followed by a
// quotation mark or a guillemet.
func plausible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x24F:
		return true
	case r >= 0x386 && r <= 0x3CE: // Greek
		return true
	case r >= 0x400 && r <= 0x45F: // Cyrillic
		return true
	case r >= 0x5D0 && r <= 0x5EA: // Hebrew
		return true
	case r >= 0x621 && r <= 0x64A: // Arabic
		return true
	}
	_, ok := cp1252[r]
	return ok
}

// byteOf returns the byte Windows-1252 (or, for the five bytes it leaves
// undefined and the C1 controls, Latin-1) decodes to c.
func byteOf(c rune) (byte, bool) {
	if c < 0x100 {
		return byte(c), true
	}
	b, ok := cp1252[c]
	return b, ok
}

// cp1252 maps the characters Windows-1252 gives bytes 0x80 to 0x9F back to
// those bytes.
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88,
	'‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93,
	'”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B,
	'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// spaceRemnant reports whether an "Â" at byte i of s is what is left of a
// double-encoded no-break space (the bytes C2 A0 read as "Â" and a
// no-break space) once the space was folded to an ordinary one or trimmed
// with the end of a line or of the text.
func spaceRemnant(s string, i int) bool {
	if !strings.HasPrefix(s[i:], "Â") {
		return false
	}
	rest := s[i+len("Â"):]
	return rest == "" || rest[0] == ' ' || rest[0] == '\n'
}

// writesCircumflexA reports whether s writes "Â" before a letter, as Vietnamese,
// Romanian, French or Portuguese words do ("CHÂU", "ÎNCÂNTAT"): then an
// "Â" before a space may end such a word.
func writesCircumflexA(s string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], "Â")
		if k < 0 {
			return false
		}
		i += k + len("Â")
		if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsLetter(r) {
			return true
		}
	}
}
