package figures

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The decimal point of a figure, as a Scanner with Decimals reads it.
//
// A figure's value keeps its decimal separator where one is known: "1.5"
// and "15" are two values, as "4.5 percent" and "45 percent" are. English
// writes a decimal point and groups thousands with commas ("1,500.25"),
// German, French, Polish and Russian the other way round ("1.500,25", "1,5
// млн"), so the separator alone does not tell which it is; the digits after
// it do:
//
//   - one, two, or four and more digits after the last "." or "," of a
//     figure ("1.5", "1,5", "143.50", "1.8500") make it a decimal separator
//     in every convention: a group of thousands has three digits;
//   - the separator written twice ("1,000,000", "1.000.000", "5.3.2024")
//     groups digits and is no decimal;
//   - the other separator before it ("1,234.567", "1.234,567") groups the
//     thousands of the whole part, which makes it the decimal one;
//   - three digits after the only separator of a figure whose whole part
//     is one to three digits with no leading zero ("1,500", "1.500",
//     "7.125") are ambiguous: thousands in one language, a decimal in
//     another. Such a figure matches either reading: "1.500" is 1500 and
//     1.5, "7.125" 7125 and 7.125, so that a copy writing either agrees
//     (see readings); a whole part of "0" or of four digits and more, or
//     one a space groups ("0.375", "1234.567", "1 250,500"), makes it a
//     decimal.
//
// A figure of digits alone written with its decimal point first (".5",
// "$.99", "(.25)", "(.5,.25)", "3:.5", "\".5\""), after white space, a
// currency sign, "(", a comma, a semicolon, a colon, a quote mark or the
// text's start, or after a sign that follows one of them ("EPS -.12",
// "(-.25)"), is "0." and its digits: ".5" is "0.5", "-.5" "-0.5" (see
// LeadingPoint). A point after a letter, a digit or another point ("No.5",
// "in 2024.5", "...5"), and a sign after one ("1-.5"), end a word, a figure
// or a sentence, and the digits after it are a figure of their own.
//
// A value writes its decimal separator as "." and the ambiguous one as
// ",", each one nibble of a slotted figure (see nibble). A range, a score
// or a date joined by "-" ("1.5-2.0", "12-3") keeps its digits alone, as
// Scanners without Decimals read every figure.

// separator returns the index in f, a figure, of its decimal separator,
// -1 for none, and whether it is ambiguous: three digits after the only
// separator of a whole part that can be a group of thousands (see above).
// A figure joined by "-" or "/" (a range, a fraction) has none.
func separator(f string) (k int, ambiguous bool) {
	k = -1
	for i := len(f) - 1; i >= 0 && k < 0; i-- {
		switch f[i] {
		case '.', ',':
			k = i
		case '-', '/':
			return -1, false
		}
	}
	if k < 0 {
		return -1, false
	}
	other, whole := false, true // another separator before k; a whole part of digits alone
	for i := 0; i < k; i++ {
		switch c := f[i]; {
		case c == f[k]:
			return -1, false // groups: "1,000,000", "5.3.2024"
		case c == '-' || c == '/':
			return -1, false
		case c == '.' || c == ',':
			other = true
		case !isDigit(c):
			whole = false // "1 250,500": spaces group its thousands
		}
	}
	if len(f)-k-1 != 3 || other || !whole || k > 3 || f[0] == '0' {
		return k, false // "1.5", "1,50", "1.8500"; "1,234.567"; "0.375", "1234.567"
	}
	return k, true
}

// LeadingPoint reports whether the figure at text[start:], a digit, is
// written with its decimal point first: a "." directly before it, and
// before that the text's start, white space, a currency sign, "(", a
// comma, a semicolon, a colon or a quote mark (".5", "rose .25 pct",
// "$.99", "£.75", "(.5,.25)", "3:.5", "\".5\""), or a sign ("-", "+",
// U+2212) that itself follows one of them ("EPS -.12", "(-.25)",
// "$-.5"), so that a Scanner with Decimals reads it as "0." and its
// digits when they are all its figure (".5.3" is no such figure). A point
// after a letter, a digit or another point ("pct.5", "2024.5", "...5"),
// or after a sign that follows one ("1-.5", a range), does not, nor one
// after a comma after a digit before three digits ("43,.590 dlrs", as
// Reuters mistypes "43,590"): "3,.5" is a list, "3" and "0.5". A "," so
// placed is no decimal comma: German, French, Polish and Russian write
// "0,5", and a comma after a space is a list's ("3 ,4").
func LeadingPoint(text string, start int) bool {
	if start == 0 || text[start-1] != '.' {
		return false
	}
	r, n := utf8.DecodeLastRuneInString(text[:start-1])
	if r == '-' || r == '+' || r == '\u2212' { // "-.5": the sign's left neighbour opens it
		r, n = utf8.DecodeLastRuneInString(text[:start-1-n])
		return n == 0 || opensPoint(r)
	}
	if r == ',' && start-1-n > 0 && isDigit(text[start-2-n]) && groupOfThree(text[start:]) {
		return false // "43,.590 dlrs", "13,.000 acre": a group of thousands mistyped
	}
	return n == 0 || opensPoint(r)
}

// groupOfThree reports whether text opens with three digits and no more.
func groupOfThree(text string) bool {
	return len(text) >= 3 && isDigit(text[0]) && isDigit(text[1]) && isDigit(text[2]) &&
		(len(text) == 3 || !isDigit(text[3]))
}

// opensPoint reports whether r, the rune before a figure's leading point
// (see LeadingPoint) or before the sign before it, leaves the point the
// figure's: white space, a currency sign, "(", a comma, a semicolon, a
// colon or a quote mark.
func opensPoint(r rune) bool {
	switch {
	case r == '(' || unicode.IsSpace(r) || unicode.Is(unicode.Sc, r):
		return true
	case r == ',' || r == ';' || r == ':' || r == '"' || r == '\'':
		return true
	}
	return unicode.In(r, unicode.Pi, unicode.Pf) // quote marks: “ ” ‘ ’ « »
}

// appendDecimalValue appends the value of the figure f as a Scanner with
// Decimals reads it, its decimal separator at k and ambiguous as separator
// returns them: appendValue's, with its decimal separator kept as "." and
// an ambiguous one as "," (see separator): "1.5" and "1,50" are "1.5", "15"
// is "15", "17-1/2" is "17.5", "0.50" and "1/2" are ".5", "1,500" is
// "1,500", "1,000,000" is "1000000". A range joined by "-" ("1.5-2.0") is
// its digits alone, as appendValue reads it.
func appendDecimalValue(dst []byte, f string, k int, ambiguous bool) []byte {
	switch {
	case ambiguous:
		return append(append(append(dst, f[:k]...), ','), f[k+1:]...)
	case k >= 0:
		return appendPointed(dst, f[:k], f[k+1:])
	case strings.IndexByte(f, '/') >= 0:
		var b [32]byte
		whole, frac, ok := fractionOf(f, &b)
		if !ok {
			return appendValueGeneral(dst, f)
		}
		return appendPointed(dst, whole, frac)
	}
	return appendValue(dst, f)
}

// appendPointed appends the digits of whole without its leading zeros, a
// "." and the digits of frac without its trailing zeros; without the "."
// when no digit of frac is left, "0" when no digit is.
func appendPointed[W, T string | []byte](dst []byte, whole W, frac T) []byte {
	n := len(dst)
	for i := 0; i < len(whole); i++ {
		if isDigit(whole[i]) && (whole[i] != '0' || len(dst) > n) {
			dst = append(dst, whole[i])
		}
	}
	m := len(dst)
	dst = appendDigits(append(dst, '.'), frac)
	for len(dst) > m+1 && dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	if len(dst) == m+1 {
		dst = dst[:m]
	}
	if len(dst) == n {
		dst = append(dst, '0')
	}
	return dst
}

// OfDecimals is Of as a Scanner with Decimals reads text: a figure's
// decimal separator is part of its fingerprint ("1.5" and "1,5" are one
// figure, "15" another).
func OfDecimals(text string) []uint32 {
	s := Scanner{Decimals: true}
	s.scan(text, false, true)
	return s.sortedOf()
}

// DecimalPoint returns the index in the figure f of its decimal
// separator, as a Scanner with Decimals reads it ("1.5", "1,50"), -1 for
// none or an ambiguous one ("15", "1,500", "1.500", "1,000,000"; see
// separator), and for a figure joined by "-", "/" or ":" (a range, a
// fraction, a time of day), whose digits alone a headline's figure keeps.
func DecimalPoint(f string) int {
	if strings.IndexByte(f, ':') >= 0 {
		return -1
	}
	if k, ambiguous := separator(f); !ambiguous {
		return k
	}
	return -1
}

// insertPoint inserts "." into d, the digits of the figure f, where f
// writes its decimal separator, at k.
func insertPoint(d []byte, f string, k int) []byte {
	n := 0
	for i := 0; i < k; i++ {
		if isDigit(f[i]) {
			n++
		}
	}
	return slices.Insert(d, n, '.')
}

// readings appends to buf the values an ambiguous figure x stands for (see
// separator), its "," read as a group of thousands and as a decimal
// separator ("1,500" is "1500" and "1.5", "1,000" "1000" and "1"), and
// returns them; x itself when it holds no ",".
func readings(x, buf []byte) (thousands, decimal []byte) {
	k := bytes.IndexByte(x, ',')
	if k < 0 {
		return x, x
	}
	buf = append(append(buf[:0], x[:k]...), x[k+1:]...)
	n := len(buf)
	buf = appendPointed(buf, x[:k], x[k+1:])
	return buf[:n], buf[n:]
}

// nibble returns the nibble of a slotted figure's character c: a digit's
// value, 0xB for a decimal point, 0xC for an ambiguous separator (see
// separator).
func nibble(c byte) uint64 {
	switch c {
	case '.':
		return 0xB
	case ',':
		return 0xC
	}
	return uint64(c - '0')
}

// char is nibble's inverse.
func char(d byte) byte {
	switch d {
	case 0xB:
		return '.'
	case 0xC:
		return ','
	}
	return '0' + d
}
