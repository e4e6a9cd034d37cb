package templates

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/figures"
)

// rerunMarks are the words with which a wire marks a story it sends again,
// at the start of the title ("RPT-", "CORRECTED - ", "UPDATE 2-") or, the
// last two, at its end ("... (updated)", "... - update").
var rerunMarks = []string{"RPT", "REPEAT", "CORRECTED", "CORRECTION", "REFILE", "WRAPUP", "UPDATE", "UPDATED"}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isRerun reports whether title marks its story as sent again.
func isRerun(title string) bool {
	t := strings.TrimLeft(title, " (")
	for i := 0; i < len(t); i++ {
		if t[i] >= utf8.RuneSelf {
			return isRerunUpper(strings.ToUpper(t))
		}
	}
	// ASCII: the marks compared without case, no upper-case copy made.
	for _, m := range rerunMarks {
		if len(t) >= len(m) && strings.EqualFold(t[:len(m)], m) && (len(t) == len(m) || asciiAlnum[t[len(m)]] == asciiAlnums) {
			return true
		}
	}
	t = strings.TrimRight(t, " )")
	return hasSuffixFold(t, "UPDATE") || hasSuffixFold(t, "UPDATED")
}

// hasSuffixFold reports whether the ASCII t ends with suffix in any case.
func hasSuffixFold(t, suffix string) bool {
	return len(t) >= len(suffix) && strings.EqualFold(t[len(t)-len(suffix):], suffix)
}

// isRerunUpper is isRerun for a title upper-cased, its opening spaces and
// parentheses trimmed.
func isRerunUpper(t string) bool {
	for _, m := range rerunMarks {
		if strings.HasPrefix(t, m) && (len(t) == len(m) || !unicode.IsLetter(rune(t[len(m)])) && !isDigit(t[len(m)])) {
			return true
		}
	}
	t = strings.TrimRight(t, " )")
	return strings.HasSuffix(t, "UPDATE") || strings.HasSuffix(t, "UPDATED")
}

// changed reports whether each of two sorted sets holds a value the other
// lacks: figures that changed, not figures one side left out.
func changed(a, b []uint32) bool {
	return hasOther(a, b) && hasOther(b, a)
}

// hasOther reports whether sorted a holds a value sorted b lacks.
func hasOther(a, b []uint32) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return true
		}
	}
	return false
}

// titleFigures returns the figures of a title, each as its first eight
// digits packed four bits a digit, unused nibbles 0xF, sorted: few enough to
// compare digit by digit, so that a misread digit ("2,50" for "2,500") is
// told from another figure ("11:10" against "11:31"). A colon joins digits
// (a report's hour).
func titleFigures(title string) []uint32 { return appendTitleFigures(nil, title, false) }

// appendTitleFigures appends titleFigures(title) to out, which it sorts
// with them; nil when out and title hold none. With languages a number
// whose groups of thousands spaces set apart is one figure, as the body's
// Scanner with Languages reads it (figures.ThousandsEnd), and a figure
// keeps its decimal separator as pointNibble where the body's keeps it
// (figures.DecimalPoint: "1.5" and "1,5", not "1,500"), and one written
// with its decimal point first is "0." and its digits (figures.LeadingPoint:
// "UP .5 PCT" is "0.5").
func appendTitleFigures(out []uint32, title string, languages bool) []uint32 {
	for i := 0; i < len(title); {
		if !isDigit(title[i]) {
			i++
			continue
		}
		start, v, n := i, uint32(0), 0
		if languages {
			for end := figures.ThousandsEnd(title, i); i < end; i++ { // "1 250 000 euros": one figure
				if c := title[i]; isDigit(c) && n < 8 {
					v, n = v<<4|uint32(c-'0'), n+1
				}
			}
		}
		for ; i < len(title); i++ {
			c := title[i]
			if !isDigit(c) {
				if !strings.ContainsRune("-/.,:", rune(c)) || i+1 >= len(title) || !isDigit(title[i+1]) {
					break
				}
				continue
			}
			if n < 8 {
				v, n = v<<4|uint32(c-'0'), n+1
			}
		}
		if languages {
			if k := figures.DecimalPoint(title[start:i]); k >= 0 {
				v, n = packPointed(title[start:i], k) // "1.5" is not "15", as in the body (figures.Scanner.Decimals)
			} else if allDigits(title[start:i]) && figures.LeadingPoint(title, start) {
				// ".5" is "0.5", as in the body: its "0" a nibble of zero
				// bits before the point and digits packed.
				v, n = packPointed(title[start-1:min(i, start+6)], 0)
				n++
			}
		}
		for ; n < 8; n++ {
			v = v<<4 | 0xF
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// packPointed packs the first eight digits of the figure f, and its
// decimal separator at f[k] as the nibble pointNibble, as
// appendTitleFigures packs a figure's digits, and returns them and how many
// nibbles it packed.
func packPointed(f string, k int) (v uint32, n int) {
	for i := 0; i < len(f) && n < 8; i++ {
		switch {
		case i == k:
			v, n = v<<4|pointNibble, n+1
		case isDigit(f[i]):
			v, n = v<<4|uint32(f[i]-'0'), n+1
		}
	}
	return v, n
}

// pointNibble is the nibble of a title figure's decimal separator: a
// figure read with Scanner.Languages keeps it ("1.5", "1,5"), so that
// another figure of its digits ("15") is another figure.
const pointNibble = 0xB

// digitsOf unpacks a title figure.
func digitsOf(v uint32) []byte { return appendDigits(nil, v) }

// appendDigits appends the digits of title figure v to d.
func appendDigits(d []byte, v uint32) []byte {
	for shift := 28; shift >= 0; shift -= 4 {
		switch x := byte(v >> shift & 0xF); x {
		case 0xF:
		case pointNibble:
			d = append(d, '.')
		default:
			d = append(d, '0'+x)
		}
	}
	return d
}

// figuresIn reports whether every figure of a title (titleFigures) is
// among the figures of a text (nums, sorted, as figures.Of gives them): a
// copy under a new headline made of its opening ("Shr 24 cts vs 23 cts"),
// whose title's figures differ from the old title's, not another report.
// A time of day in a title ("12:30") is no figure of a text, whose figures
// a colon splits.
func figuresIn(title, nums []uint32) bool {
	if len(title) == 0 {
		return false
	}
	for _, v := range title {
		f := figures.OfDecimals(string(digitsOf(v))) // the digits alone of a format before figures.Scanner.Decimals
		if len(f) != 1 {
			return false
		}
		if _, ok := slices.BinarySearch(nums, f[0]); !ok {
			return false
		}
	}
	return true
}

// titleFiguresDisjoint reports whether two titles' figures, both non-empty,
// share none, a figure of three or more digits matching another that can be
// a damaged copy of it (a digit dropped, doubled or split off, see
// figures.Explains), and one of the same digits matching whatever its
// decimal points and the zeros before them ("9.1" and "91", ".5" and "5": a
// title's point is what a scan loses first, and the rule refuses a pair on
// the titles alone; see bareDigits); a digit replaced by another is another
// figure ("12:00" and "12:10" are two hours).
func titleFiguresDisjoint(a, b []uint32) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, x := range a {
		dx := digitsOf(x)
		for _, y := range b {
			if x == y {
				return false
			}
			dy := digitsOf(y)
			if bytes.Equal(bareDigits(dx), bareDigits(dy)) {
				return false
			}
			if max(digitCount(dx), digitCount(dy)) >= 3 && figures.Explains(dx, dy) {
				return false
			}
		}
	}
	return true
}

// bareDigits returns a title figure's unpacked digits without its
// decimal point and the zeros it leads with, the last digit kept: ".5",
// read as "0.5", and the "5" of a scan that lost its point are the same
// digits.
func bareDigits(d []byte) []byte {
	d = bytes.ReplaceAll(d, []byte{'.'}, nil)
	for len(d) > 1 && d[0] == '0' {
		d = d[1:]
	}
	return d
}

// digitCount counts the digits of a title figure's unpacked digits,
// its decimal point left out.
func digitCount(d []byte) int {
	n := 0
	for _, c := range d {
		if isDigit(c) {
			n++
		}
	}
	return n
}
