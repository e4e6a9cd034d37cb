// Package figures owns the figures a text reports, which verification
// compares: templated reports (earnings, dividends, bond issues, market
// reports of another hour) share nearly every word and differ in their
// figures.
package figures

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// Of returns the sorted distinct fingerprints of the figures of text:
// runs of digits joined by "-", "/", "." or "," ("13-3/8", "1,000", "3.5"),
// each reduced to its digits so "1,000" and "1000" agree. A fraction or a
// range is one figure: "13-3/8" and "8-1/2" differ instead of sharing 3
// and 8. Letters around the digits are ignored, so an OCR-damaged "l986"
// is the figure 986. Years (four plain digits from 1900 to 2099) are left
// out: the stories of one year share them whatever they report. So are
// ordinals ("4th qtr", "1ST HALF"), wording of a template rather than
// figures of a report.
func Of(text string) []uint32 {
	var out []uint32
	scan(text, nil, func(d []byte) { out = append(out, fingerprint(d)) })
	slices.Sort(out)
	return slices.Compact(out)
}

// fingerprint is a figure's fingerprint in Of: FNV-1a of its digits
// (figures are short).
func fingerprint(d []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range d {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// OfSlots returns Of(text) and Slots(text), reading text once.
func OfSlots(text string) ([]uint32, []uint64) {
	var of []uint32
	var slots []uint64
	scan(text, func(place uint32, value []byte) { slots = append(slots, slot(place, value)) },
		func(d []byte) { of = append(of, fingerprint(d)) })
	slices.Sort(of)
	return slices.Compact(of), keepPlaces(slots)
}

// Slots returns the sorted distinct figures of text with the places they
// fill. A figure's place is the word of letters before it and the word
// after it on its line, lower-cased ("shortfall to 750 mln" fills "to _
// mln"); a table's row, whose neighbours are other rows, ends at the line.
// Here a figure is its value: a fraction as a decimal ("17-1/2" and "17.5"
// are one value, "1/2" and "0.50" another), the zeros that do not change a
// value dropped ("1.0" is 1), and the numbers one to ten written as words
// ("div five cts"), as wire style writes them. Each is a 16-bit hash of the
// place in the top bits and the value's first twelve digits, four bits
// each, in the low 48, unused digits 0xF. A template filled in twice has
// other figures in the same places; see InPlace. A place the text fills
// with two or more values (a row of a table, "vs" in an earnings report)
// is left out, as InPlace leaves it out, and a text with fewer than two
// places has none (see Refilled).
func Slots(text string) []uint64 {
	var out []uint64
	scan(text, func(place uint32, value []byte) { out = append(out, slot(place, value)) }, nil)
	return keepPlaces(out)
}

// keepPlaces sorts slotted figures and returns those of the places filled
// with one value, in a slice of their size (a sketch keeps it), nil for
// fewer than minRefilled.
func keepPlaces(out []uint64) []uint64 {
	slices.Sort(out)
	out = slices.Compact(out)
	n := 0
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j]>>slotShift == out[i]>>slotShift {
			j++
		}
		if j == i+1 {
			out[n] = out[i]
			n++
		}
		i = j
	}
	if n < minRefilled {
		return nil
	}
	return slices.Clone(out[:n])
}

// slot packs a figure's value under its place (see Slots).
func slot(place uint32, digits []byte) uint64 {
	v := uint64(place>>16^place&0xFFFF) << slotShift
	for i := range slotDigits {
		d := uint64(0xF)
		if i < len(digits) {
			d = uint64(digits[i] - '0')
		}
		v |= d << (4 * (slotDigits - 1 - i))
	}
	return v
}

// A slotted figure keeps twelve digits under a 16-bit place.
const (
	slotDigits = 12
	slotShift  = 4 * slotDigits
	slotMask   = 1<<slotShift - 1
)

// slotFigure appends the digits of a slotted figure to buf.
func slotFigure(v uint64, buf []byte) []byte {
	for i := range slotDigits {
		d := byte(v >> (4 * (slotDigits - 1 - i)) & 0xF)
		if d == 0xF {
			break
		}
		buf = append(buf, '0'+d)
	}
	return buf
}

// scan reads the figures of text: it calls figure, unless nil, with the
// digits of each figure (see Of), and slotted, unless nil, with the value
// and the hash of the place of each figure, the numbers written as words
// included (see Slots).
func scan(text string, slotted func(place uint32, value []byte), figure func(digits []byte)) {
	places := slotted != nil
	prev := "" // the word before the pending figures, hashed only if there are some
	var digits []byte
	var pending [][]byte // figures waiting for the word after them
	flush := func(next uint32) {
		if len(pending) == 0 {
			return
		}
		var p uint32
		if prev != "" {
			p = wordHash(prev)
		}
		for _, d := range pending {
			slotted(p*16777619^next, d)
		}
		pending = pending[:0]
	}
	for i := 0; i < len(text); {
		c := text[i]
		if !isDigit(c) {
			if c == '\n' && places {
				flush(0)
				prev = ""
			}
			if !isLetter(c) || !places {
				i++
				continue
			}
			j := i + 1
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			w := text[i:j]
			i = j
			if d := numberWord(w); d != "" && (j == len(w) || !isDigit(text[j-len(w)-1])) && (j == len(text) || !isDigit(text[j])) {
				pending = append(pending, []byte(d))
				continue
			}
			if len(pending) > 0 {
				flush(wordHash(w))
			}
			prev = w
			continue
		}
		start, joined := i, false
		digits = digits[:0]
		for ; i < len(text); i++ {
			c := text[i]
			if !isDigit(c) {
				if !isFigureJoin(c) || i+1 >= len(text) || !isDigit(text[i+1]) {
					break
				}
				joined = true
				continue
			}
			digits = append(digits, c)
		}
		if !joined && isYear(text[start:i]) || isOrdinalSuffix(text[i:]) {
			continue
		}
		if figure != nil {
			figure(digits)
		}
		if places {
			pending = append(pending, value(text[start:i]))
		}
	}
	flush(0)
}

// value returns the digits of the value of the figure f, as a place
// compares them: a fraction as a decimal ("17-1/2" and "17.5" are 175,
// "1/2" and "0.50" are 5), a decimal without the zeros that do not change
// it ("1.0" is 1), thousands' commas left out.
func value(f string) []byte {
	if strings.IndexByte(f, '/') < 0 && strings.IndexByte(f, '.') < 0 {
		// A whole number, the common case: its digits without leading
		// zeros, as below, in one allocation.
		d := digitsOnly(f)
		i := 0
		for i < len(d) && d[i] == '0' {
			i++
		}
		if i == len(d) {
			return []byte("0")
		}
		return d[i:]
	}
	var whole, frac string
	if k := strings.IndexByte(f, '/'); k > 0 && strings.Count(f, "/") == 1 {
		num, den := f[:k], f[k+1:]
		if h := strings.LastIndexByte(num, '-'); h > 0 {
			whole, num = num[:h], num[h+1:]
		}
		n, errN := strconv.Atoi(strings.ReplaceAll(num, ",", ""))
		d, errD := strconv.Atoi(strings.ReplaceAll(den, ",", ""))
		if errN != nil || errD != nil || d == 0 || n >= d || strings.ContainsAny(whole, "-/.") {
			return digitsOnly(f)
		}
		frac = strconv.FormatFloat(float64(n)/float64(d), 'f', 4, 64)[2:]
	} else if k := strings.LastIndexByte(f, '.'); k >= 0 && strings.Count(f, ".") == 1 {
		whole, frac = f[:k], f[k+1:]
	} else {
		whole = f
	}
	w := strings.TrimLeft(string(digitsOnly(whole)), "0")
	fr := strings.TrimRight(string(digitsOnly(frac)), "0")
	if w == "" && fr == "" {
		return []byte("0")
	}
	return []byte(w + fr)
}

// digitsOnly returns the ASCII digits of s.
func digitsOnly(s string) []byte {
	var d []byte
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			d = append(d, s[i])
		}
	}
	return d
}

// wordHash returns a hash of the ASCII letters w, lower-cased, never 0.
func wordHash(w string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint32(w[i]|0x20)) * 16777619
	}
	return max(h, 1)
}

// InPlace compares the places two sorted sets of slotted figures (see
// Slots) fill with one figure each, and returns how many places both fill
// so and in how many of them the figures differ: neither explains the other
// as a damaged copy of it (see explains). A place a text fills with two or
// more figures (a row of a table, "vs" in an earnings report) is left out:
// which figure fills it is not known.
func InPlace(a, b []uint64) (shared, other int) {
	var bx, by [slotDigits]byte
	for i, j := 0, 0; i < len(a) && j < len(b); {
		pa, pb := a[i]>>slotShift, b[j]>>slotShift
		switch {
		case pa < pb:
			i++
		case pb < pa:
			j++
		default:
			ni, nj := i, j
			for ni < len(a) && a[ni]>>slotShift == pa {
				ni++
			}
			for nj < len(b) && b[nj]>>slotShift == pb {
				nj++
			}
			if ni-i == 1 && nj-j == 1 {
				shared++
				if a[i] != b[j] && !explains(slotFigure(a[i], bx[:0]), slotFigure(b[j], by[:0])) {
					other++
				}
			}
			i, j = ni, nj
		}
	}
	return shared, other
}

// minRefilled is the fewest places with other figures that make two texts
// one template filled in twice (see Refilled): one changed figure in its
// place is as often a correction or a misprint.
const minRefilled = 2

// Refilled reports whether two texts whose places compare as InPlace
// returned (shared places, other figures) are one template filled in
// twice: at least two places hold other figures, and those are at least
// half of the shared places or, when otherDay (the texts are dated on
// different days), any share of them (the same item of another day,
// rewritten around its new figures).
func Refilled(shared, other int, otherDay bool) bool {
	return other >= minRefilled && (2*other >= shared || otherDay)
}

// numberWords are the numbers wire style writes as words, lower-cased, in
// the order of their values (numberWord spells them out).
var numberWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

// numberWord returns the digits of the word w when it is one of
// numberWords in any case, else "".
func numberWord(w string) string {
	if len(w) < 3 || len(w) > 5 {
		return ""
	}
	// w is ASCII letters (see scan): lower-cased in place of EqualFold,
	// which every word of three to five letters would call ten times.
	var lower [5]byte
	for i := 0; i < len(w); i++ {
		lower[i] = w[i] | 0x20
	}
	switch string(lower[:len(w)]) {
	case "one":
		return "1"
	case "two":
		return "2"
	case "three":
		return "3"
	case "four":
		return "4"
	case "five":
		return "5"
	case "six":
		return "6"
	case "seven":
		return "7"
	case "eight":
		return "8"
	case "nine":
		return "9"
	case "ten":
		return "10"
	}
	return ""
}

// Explains reports whether one of the figures written by the digits x and
// y can be a damaged copy of the other (see explains).
func Explains(x, y []byte) bool { return explains(x, y) }

// explains reports whether one of the digits x and y can be a damaged copy
// of the other: one digit dropped or doubled, or one a piece of the other (a
// figure split in two, a digit misread as a letter). A digit replaced by
// another is not forgiven: "750" and "800", "6.1" and "7.1" are other
// figures.
func explains(x, y []byte) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	if bytes.Contains(y, x) {
		return true
	}
	if len(y)-len(x) != 1 {
		return false
	}
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	return bytes.Equal(x[i:], y[i+1:])
}

// isOrdinalSuffix reports whether rest, the text after a figure, starts
// with an ordinal suffix that ends a word: "th", "ST", "nd", "rd".
func isOrdinalSuffix(rest string) bool {
	if len(rest) < 2 {
		return false
	}
	suf := string([]byte{rest[0] | 0x20, rest[1] | 0x20})
	if suf != "st" && suf != "nd" && suf != "rd" && suf != "th" {
		return false
	}
	return len(rest) == 2 || !isWordByte(rest[2])
}

// isWordByte reports ASCII letters and digits.
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) }

// isLetter reports ASCII letters.
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isYear reports whether the digits d are a year from 1900 to 2099.
func isYear(d string) bool {
	return len(d) == 4 && (d[:2] == "19" || d[:2] == "20")
}

// isFigureJoin reports the bytes that join the digits of one figure.
func isFigureJoin(c byte) bool { return c == '-' || c == '/' || c == '.' || c == ',' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
