package figures

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestDecimalPointMovedIsAnotherFigure: a Scanner with Decimals reads a
// figure's decimal separator as part of its value, so that a story whose
// rate rose "by 1.5 percentage points to 4.5 percent" and one whose rate
// rose "by 15 ... to 45 percent" hold other figures in both places, as one
// of "1.6" and "4.6" does. Regression: a figure was its digits alone, and
// the two held the same figures, a copy of the other. A decimal comma
// ("1,5") is the decimal point; a separator before three digits ("1,500",
// "1.500") reads as a group of thousands and as a decimal, agreeing with
// either; a digit dropped or doubled, a fraction ("17-1/2") and a piece
// stay forgiven, a point dropped or moved is not.
func TestDecimalPointMovedIsAnotherFigure(t *testing.T) {
	for _, tc := range []struct {
		name             string
		a, b             string
		other, zeroOther int // InPlace's other places with Decimals and without; both share two
	}{
		{"point dropped", "rose by 1.5 percentage points to 4.5 percent", "rose by 15 percentage points to 45 percent", 2, 0},
		{"digit replaced", "rose by 1.5 percentage points to 4.5 percent", "rose by 1.6 percentage points to 4.6 percent", 2, 2},
		{"point moved", "rose 12.5 pct to 3.45 dlrs", "rose 1.25 pct to 34.5 dlrs", 2, 0},
		{"point before a lone digit dropped", "up 0.5 pct to 2.5 dlrs", "up 5 pct to 25 dlrs", 2, 0},
		{"decimal comma", "um 1,5 Prozentpunkte auf 4,5 Prozent", "um 1.5 Prozentpunkte auf 4.5 Prozent", 0, 0},
		{"decimal comma of two digits", "um 1,50 Prozentpunkte auf 4,25 Prozent", "um 1.5 Prozentpunkte auf 4.25 Prozent", 0, 0},
		{"thousands either way", "sold 1,500 shares at 2,250 dlrs", "sold 1.500 shares at 2.250 dlrs", 0, 0},
		{"thousands or none", "sold 1,500 shares at 2,250 dlrs", "sold 1500 shares at 2250 dlrs", 0, 0},
		{"three decimals", "coupon 7.125 pct priced 99.875", "coupon 7-1/8 pct priced 99-7/8", 0, 0},
		{"thousands and decimals", "sold 1,500.25 tonnes at 2.250,5 dlrs", "sold 1.500,25 tonnes at 2,250.5 dlrs", 0, 0},
		{"no thousands before a zero", "yield 0.375 pct on 1.125", "yield 375 pct on 1.125", 1, 0},
		{"groups twice", "sold 1,000,000 shares at 2.250.000 dlrs", "sold 1000000 shares at 2250000 dlrs", 0, 0},
		{"digit dropped and doubled", "rose 12.5 pct to 345.25 dlrs", "rose 12.55 pct to 34.25 dlrs", 0, 0},
		{"fraction", "div 17-1/2 cts vs 0.50 cts", "div 17.50 cts vs 1/2 cts", 0, 0},
		{"a piece", "rose 12.5 pct to 3.45 dlrs", "rose 2.5 pct to 45 dlrs", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Scanner{Decimals: true}
			_, a := d.OfSlots(tc.a)
			_, b := d.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != 2 || other != tc.other {
				t.Errorf("with Decimals: InPlace = %d shared, %d other, want 2, %d", shared, other, tc.other)
			}
			if shared, other := InPlace(Slots(tc.a), Slots(tc.b)); shared != 2 || other != tc.zeroOther {
				t.Errorf("without: InPlace = %d shared, %d other, want 2, %d", shared, other, tc.zeroOther)
			}
		})
	}
}

// TestInPlaceWholeDecimalPoint: forgiving no piece, a point dropped before
// a lone digit (".5" and "5") is another figure, as a piece ("6" of
// "6.25") is; a digit dropped or doubled after the point is not. An
// ambiguous separator ("1,500") agrees with the same figure written plain
// ("1500") and with its decimal reading ("1.5"). Regression: forgiving no
// piece, a reading equal to the other figure was no damaged copy of it, and
// "sold 1,500 shares at 2,250 dlrs" held other figures than "sold 1500
// shares at 2250 dlrs" in both places.
func TestInPlaceWholeDecimalPoint(t *testing.T) {
	d := Scanner{Decimals: true}
	for _, tc := range []struct {
		a, b  string
		other int
	}{
		{"traded at 0.5 pct, up from 5.75 pct", "traded at 5 pct, up from 5.75 pct", 1},
		{"traded at 6.25 pct, up from 5.75 pct", "traded at 6 pct, up from 5.75 pct", 1},
		{"traded at 6.25 pct, up from 5.75 pct", "traded at 6.255 pct, up from 5.75 pct", 0},
		{"sold 1,500 shares at 2,250 dlrs", "sold 1500 shares at 2250 dlrs", 0},
		{"sold 1,500 shares at 2,250 dlrs", "sold 1.5 shares at 2.25 dlrs", 0},
		{"sold 1,500 shares at 2,250 dlrs", "sold 1.500 shares at 2.250 dlrs", 0},
		{"sold 1,500 shares at 2,250 dlrs", "sold 15 shares at 22 dlrs", 2},
		{"sold 1,500 shares at 2,250 dlrs", "sold 1,600 shares at 2,350 dlrs", 2},
	} {
		_, a := d.OfSlots(tc.a)
		_, b := d.OfSlots(tc.b)
		if _, other := InPlaceWhole(a, b); other != tc.other {
			t.Errorf("InPlaceWhole(%q, %q): %d other, want %d", tc.a, tc.b, other, tc.other)
		}
	}
}

// TestLeadingDecimalPoint: a Scanner with Decimals reads a figure written
// with its decimal point first (".5", "$.99", "(.25)"), after a space, a
// currency sign, "(" or the text's start, as "0." and its digits: ".5" and
// "0.5" are one figure, "5" another. Regression: the point was no part of
// the figure, ".5" read as "5", and "rose .25 pct to .5" held other figures
// than "rose 0.25 pct to 0.5" in both places. A point after a word or a
// figure ("in 2024.5", "No.5", "v.5") or another point ("...5") opens no
// figure, nor one before a figure of its own separators (".5.3").
func TestLeadingDecimalPoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		same bool // one figure in each place: InPlace finds no other, fingerprints equal
	}{
		{"after a space", "rose .25 pct to .5 dlrs", "rose 0.25 pct to 0.5 dlrs", true},
		{"after a currency sign", "priced at $.99 and £.75 each", "priced at $0.99 and £0.75 each", true},
		{"after a parenthesis", "a loss (.25) and a gain (.5) cts", "a loss (0.25) and a gain (0.5) cts", true},
		{"at the start", ".5 pct up and .25 down", "0.5 pct up and 0.25 down", true},
		{"point dropped", "rose .25 pct to .5 dlrs", "rose 25 pct to 5 dlrs", false},
		{"after a figure", "rose in 2024.5 people and 17.25 dlrs", "rose in 2024.5 people and 17.25 dlrs", true},
		{"after a word", "see No.5 and v.25 ok", "see No 5 and v 25 ok", true},
		{"after points", "fell...5 pct and ...25 dlrs", "fell 5 pct and 25 dlrs", true},
		{"before separators", "version .5.3 and .2.1 out", "version 5.3 and 2.1 out", true},
		{"after a sign", "EPS -.12 and fell +.25 dlrs", "EPS -0.12 and fell +0.25 dlrs", true},
		{"after a minus sign", "EPS −.12 and fell -.5 pct", "EPS −0.12 and fell -0.5 pct", true},
		{"sign, point dropped", "EPS -.12 and fell -.5 pct", "EPS -12 and fell -5 pct", false},
		{"after a signed parenthesis", "a loss (-.25) and $-.5 cts", "a loss (-0.25) and $-0.5 cts", true},
		{"after a comma", "up .5 pct,.25 dlrs", "up 0.5 pct,0.25 dlrs", true},
		{"after a comma, point dropped", "up .5 pct,.25 dlrs", "up 0.5 pct,25 dlrs", false},
		{"after a comma and sign", "up .5 pct,-.25 dlrs", "up 0.5 pct,-0.25 dlrs", true},
		{"after a colon", "ratio:.5 and up:.25 cts", "ratio:0.5 and up:0.25 cts", true},
		{"after a semicolon", "up .5 pct;.25 dlrs", "up 0.5 pct;0.25 dlrs", true},
		{"after a quote mark", "read \".5\" and \u201c.25\u201d cts", "read \"0.5\" and \u201c0.25\u201d cts", true},
		{"after an apostrophe", "read '.5' cts and '.25'", "read '0.5' cts and '0.25'", true},
		{"sign after a figure", "range 1-.5 cts", "range 1 - 5 cts", true},
		{"sign after a word", "fell pct-.5 and up+.25 cts", "fell pct-5 and up+25 cts", true},
		{"sign after a point", "fell .-5 and ..-25 cts", "fell -5 and -25 cts", true},
		{"after a word or a figure", "rose pct.5 and in 2024.5 ok", "rose pct 5 and in 2024.5 ok", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Scanner{Decimals: true}
			of, a := d.OfSlots(tc.a)
			of = slices.Clone(of)
			ofB, b := d.OfSlots(tc.b)
			shared, other := InPlace(a, b)
			if shared != 2 || (other == 0) != tc.same {
				t.Errorf("InPlace = %d shared, %d other, want 2 shared, the same figures %v", shared, other, tc.same)
			}
			if slices.Equal(of, ofB) != tc.same {
				t.Errorf("fingerprints %v and %v, want equal %v", of, ofB, tc.same)
			}
			if !slices.Equal(OfDecimals(tc.a), of) {
				t.Errorf("OfDecimals = %v, want the Scanner's %v", OfDecimals(tc.a), of)
			}
		})
	}
	// Figures with no word between them, one place: their fingerprints.
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"at (.5,.25) cts", "at (0.5, 0.25) cts", true},
		{"at (.5,.25) cts", "at (5, 25) cts", false},
		{"at (-.5,-.25) cts", "at (-0.5, -0.25) cts", true},
		{"a list 3,.75 cts", "a list 3, 0.75 cts", true}, // a list: "3" and ".75"
		{"ratio 3:.5 cts", "ratio 3: 0.5 cts", true},
		{"ratio 3:.5 cts", "ratio 3: 5 cts", false},
		// A group of thousands mistyped (Reuters: "43,.590 dlrs"): digits alone.
		{"up to 43,.590 dlrs", "up to 43, 590 dlrs", true},
		{"up to 43,.590 dlrs", "up to 43, 0.59 dlrs", false},
		{"net 2,867,.000 vs", "net 2,867, 000 vs", true},
		{"a list 3,.75,.5 cts", "a list 3, 0.75, 0.5 cts", true},
	} {
		d := Scanner{Decimals: true}
		a, _ := d.OfSlots(tc.a)
		a = slices.Clone(a)
		if b, _ := d.OfSlots(tc.b); slices.Equal(a, b) != tc.same {
			t.Errorf("fingerprints of %q and %q: %v and %v, want equal %v", tc.a, tc.b, a, b, tc.same)
		}
	}
	// The formats before Decimals read a figure's digits alone.
	if !slices.Equal(Of("rose .25 pct to .5 dlrs"), Of("rose 25 pct to 5 dlrs")) {
		t.Errorf("Of, as the formats before Decimals read: want .5 and 5 one figure")
	}
}

// TestOfDecimals: the fingerprints of a Scanner with Decimals (and
// OfDecimals) keep a figure's decimal separator: "1.5" and "15" are two
// figures, "1.5" and "1,5" one, and a separator before three digits is a
// group of thousands ("1,500", "1.500" and "1500" are one); Of reads
// digits alone.
func TestOfDecimals(t *testing.T) {
	var d Scanner
	d.Decimals = true
	of := func(text string) []uint32 {
		f, _ := d.OfSlots(text)
		return slices.Clone(f)
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"by 1.5 points to 4.5 pct", "by 15 points to 45 pct", false},
		{"by 1.5 points to 4.5 pct", "by 1,5 points to 4,5 pct", true},
		{"sold 1,500 and 2.250", "sold 1500 and 2250", true},
		{"sold 1,000,000", "sold 1.000.000", true},
		{"the 1986/87 crop, 13-3/8 pct", "198687 and 1338", true},
	} {
		a, b := of(tc.a), of(tc.b)
		if got := slices.Equal(a, b); got != tc.same || len(a) == 0 {
			t.Errorf("Of %q = %v, %q = %v; want equal %v", tc.a, a, tc.b, b, tc.same)
		}
		if got := slices.Equal(OfDecimals(tc.a), a); !got {
			t.Errorf("OfDecimals(%q) = %v, want the Scanner's %v", tc.a, OfDecimals(tc.a), a)
		}
	}
	if !slices.Equal(Of("by 1.5 points to 4.5 pct"), Of("by 15 points to 45 pct")) {
		t.Errorf("Of, as the formats before Decimals read: want 1.5 and 15 one figure")
	}
}

// TestDecimalValueSameWithoutPoint: a Scanner with Decimals reads the
// places of a text whose figures have no decimal separator, nor a
// separator before three digits, as one without: only the values of
// figures with a decimal separator or a fraction change.
func TestDecimalValueSameWithoutPoint(t *testing.T) {
	d := Scanner{Decimals: true}
	for _, text := range []string{
		"Qtly div 5 cts vs 6 cts prior\nPay April 30\nRecord April 15",
		"sold 1,000,000 shares at 13 dlrs, up from 12 dlrs on 5.3.2024",
		"He beat Simon 7-6 6-3 in the final.",
	} {
		of, slots := d.OfSlots(text)
		of = slices.Clone(of)
		var zero Scanner
		zof, zslots := zero.OfSlots(text)
		if !slices.Equal(slots, zslots) {
			t.Errorf("%q: slots %v, want %v", text, slots, zslots)
		}
		if !slices.Equal(of, zof) {
			t.Errorf("%q: fingerprints %v, want %v", text, of, zof)
		}
	}
}

// BenchmarkScanDecimals reads the figures and places of a market report
// written with decimal points, thousands and fractions, without Decimals
// (as the sketch formats before it read) and with, and compares two such
// reports' places (InPlace): what reading a figure's decimal separator
// costs, MB/s of text.
func BenchmarkScanDecimals(b *testing.B) {
	line := "Gold rose 1.25 dlrs to 412.50 an ounce, silver 3-1/2 cts to 5.675 dlrs, on volume of 1,250 lots at 2.5 pct. "
	text := strings.Repeat(line+"\n", 40)
	for _, decimals := range []bool{false, true} {
		b.Run(fmt.Sprintf("scan/decimals=%v", decimals), func(b *testing.B) {
			s := Scanner{Decimals: decimals}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s.Scan(text)
			}
		})
		b.Run(fmt.Sprintf("inplace/decimals=%v", decimals), func(b *testing.B) {
			s := Scanner{Decimals: decimals}
			_, x := s.OfSlots(line + "at 2.5 pct. " + line)
			_, y := s.OfSlots(strings.ReplaceAll(line, "1.25", "12.5") + "at 2.25 pct. " + line)
			b.ReportAllocs()
			for b.Loop() {
				InPlace(x, y)
			}
		})
	}
}
