// Package figures owns the fingerprints of the figures a text reports, which
// verification compares: templated reports (earnings, dividends, bond
// issues) share nearly every word and differ in their figures.
package figures

import "slices"

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
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		start, joined := i, false
		h := uint32(2166136261) // FNV-1a: figures are short
		for ; i < len(text); i++ {
			c := text[i]
			if !isDigit(c) {
				if !isFigureJoin(c) || i+1 >= len(text) || !isDigit(text[i+1]) {
					break
				}
				joined = true
				continue
			}
			h = (h ^ uint32(c)) * 16777619
		}
		if !joined && isYear(text[start:i]) || isOrdinalSuffix(text[i:]) {
			continue
		}
		out = append(out, h)
	}
	slices.Sort(out)
	return slices.Compact(out)
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
func isWordByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || isDigit(c) }

// isYear reports whether the digits d are a year from 1900 to 2099.
func isYear(d string) bool {
	return len(d) == 4 && (d[:2] == "19" || d[:2] == "20")
}

// isFigureJoin reports the bytes that join the digits of one figure.
func isFigureJoin(c byte) bool { return c == '-' || c == '/' || c == '.' || c == ',' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
