package templates

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/figures"
)

// rateStory is a story of a rate rise "by <by> percentage points to <to>
// percent".
func rateStory(id, by, to string) core.Document {
	return core.Document{ID: id, Title: "Central bank raises its benchmark rate",
		Date: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC),
		Text: fmt.Sprintf("The central bank raised its benchmark interest rate by %s percentage points to %s percent on "+
			"Tuesday, the biggest increase in two decades, as it struggled to contain inflation that has run above "+
			"its target for more than a year.", by, to)}
}

// TestRefilledDecimalPointMoved: a scanner reading figures as more
// languages write them (Languages) reads a figure's decimal separator, so
// that a rate story "by 1.5 percentage points to 4.5 percent" and one "by
// 15 ... to 45 percent" hold other figures in both places, Refilled, as
// one "by 1.6 ... to 4.6" does; a copy writing the decimal comma ("1,5")
// is none. The scanner of the formats before it read a figure's digits
// alone, and the point dropped was a copy, its figures all agreeing.
func TestRefilledDecimalPointMoved(t *testing.T) {
	for _, tc := range []struct {
		name             string
		by, to           string
		refilled, before bool // with Languages, and without
	}{
		{"point dropped", "15", "45", true, false},
		{"digits replaced", "1.6", "4.6", true, true},
		{"decimal comma", "1,5", "4,5", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, languages := range []bool{true, false} {
				s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: languages}
				a, b := scanDoc(&s, rateStory("a", "1.5", "4.5")), scanDoc(&s, rateStory("b", tc.by, tc.to))
				ev := Compare(&a, &b, Sample{}, Sample{})
				want := tc.refilled
				if !languages {
					want = tc.before
				}
				if ev.Refilled() != want {
					t.Errorf("Languages %v: places %v, refilled %v, want %v", languages, ev.Places, ev.Refilled(), want)
				}
				if overlap := *ev.NumberOverlap; languages && (overlap == 1) != !tc.refilled {
					t.Errorf("Languages %v: number overlap %v", languages, overlap)
				}
			}
		})
	}
}

// TestTitleDecimalFigureInText: a title's figure with a decimal point
// ("UP 0.4 PCT") is found among the figures of a text that writes it, read
// with Languages as without, so that two titles whose figures differ
// ("OFF 2.2 PCT") are not disjoint when the other text reports the first
// title's figure. Regression: with the text's figures read with their
// point and the title's as digits, the title's "0.4" was no figure of the
// text, and a car sales roundup reporting Chrysler's 0.4 pct was refused as
// another report than Chrysler's own.
func TestTitleDecimalFigureInText(t *testing.T) {
	for _, languages := range []bool{true, false} {
		s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: languages}
		a := scanDoc(&s, core.Document{ID: "a", Title: "CHRYSLER EARLY MARCH CAR SALES UP 0.4 PCT",
			Text: "DETROIT, March 13 - Chrysler Corp said its early March retail sales of domestic-built cars rose 0.4 pct to 25,286 from 25,191 a year ago."})
		b := scanDoc(&s, core.Document{ID: "b", Title: "U.S. EARLY MARCH CAR SALES OFF 2.2 PCT",
			Text: "DETROIT, March 13 - Retail sales of new cars by U.S. automakers eased 2.2 pct in early March. Chrysler's car sales gained 0.4 pct to 25,286 from 25,191."})
		if ev := Compare(&a, &b, Sample{}, Sample{}); ev.TitleFiguresDisjoint {
			t.Errorf("Languages %v: title figures disjoint, want the first title's 0.4 found in the second text", languages)
		}
		c := scanDoc(&s, core.Document{ID: "c", Title: "U.S. EARLY MARCH CAR SALES OFF 2.2 PCT",
			Text: "DETROIT, March 13 - Retail sales of new cars by U.S. automakers eased 2.2 pct in early March. Chrysler's car sales gained 4 pct to 25,286 from 25,191."})
		if ev := Compare(&a, &c, Sample{}, Sample{}); languages && !ev.TitleFiguresDisjoint {
			t.Errorf("Languages %v: title figures not disjoint, want 0.4 no figure of a text reporting 4", languages)
		}
	}
}

// TestTitleLeadingDecimalPoint: read with Languages, a title's figure
// written with its decimal point first ("UP .5 PCT") is "0.5", as the
// text's is (figures.LeadingPoint): one figure with a title's "0.5", found
// among the figures of a text writing ".5" or "0.5", not of one writing
// "5" (titles' figures of the same digits match whatever their points:
// TestTitleFiguresPointLost), and disjoint from "6"; so is "-.5",
// "(.5,.25)" and "3:.5". Regression: the point was no part of the figure,
// and ".5" was "5", "-.5" too.
func TestTitleLeadingDecimalPoint(t *testing.T) {
	title := func(s string) []uint32 { return appendTitleFigures(nil, s, true) }
	lead := title("PRIME RATE UP .5 PCT TO $.99")
	if got, want := lead, title("PRIME RATE UP 0.5 PCT TO $0.99"); !slices.Equal(got, want) {
		t.Errorf("title figures %v, want those of 0.5 and 0.99, %v", got, want)
	}
	if a, b := title("PRIME RATE UP .5 PCT"), title("PRIME RATE UP 6 PCT"); !titleFiguresDisjoint(a, b) {
		t.Errorf("title figures %v and %v of 6 not disjoint", a, b)
	}
	for _, text := range []string{"The bank raised its prime rate .5 pct to .99", "The bank raised its prime rate 0.5 pct to 0.99"} {
		if !figuresIn(lead, figures.OfDecimals(text)) {
			t.Errorf("title figures %v not found in %q", lead, text)
		}
	}
	if figuresIn(lead, figures.OfDecimals("The bank raised its prime rate 5 pct to 99")) {
		t.Errorf("title figures %v found in a text of 5 and 99", lead)
	}
	// After a sign that follows white space, "(" or a currency sign, and
	// after a comma, a semicolon, a colon or a quote mark.
	for _, tc := range [][2]string{
		{"EPS -.12 VS +.25", "EPS -0.12 VS +0.25"},
		{"EPS \u2212.12 VS $-.5", "EPS \u22120.12 VS $-0.5"},
		{"RANGE (.5,.25) AND (-.75)", "RANGE (0.5, 0.25) AND (-0.75)"},
		{"RATIO 3:.5; 2;.25", "RATIO 3: 0.5; 2; 0.25"},
		{"PRICE \".5\" OR \u201c.25\u201d", "PRICE \"0.5\" OR \u201c0.25\u201d"},
		// After a letter or a digit, and a sign after one: digits alone.
		{"UP PCT.5 AND 1-.25 AND UP-.75", "UP PCT 5 AND 1 25 AND UP 75"},
		// A group of thousands mistyped: digits alone.
		{"PRICE 43,.590 DLRS", "PRICE 43, 590 DLRS"},
	} {
		if got, want := title(tc[0]), title(tc[1]); !slices.Equal(got, want) {
			t.Errorf("title figures of %q %v, want those of %q, %v", tc[0], got, tc[1], want)
		}
	}
	if a, b := title("EPS FELL -.5 PCT"), title("EPS FELL -6 PCT"); !titleFiguresDisjoint(a, b) {
		t.Errorf("title figures %v and %v of -6 not disjoint", a, b)
	}
	if a, b := title("RANGE (.5,.7)"), title("RANGE (6, 8)"); !titleFiguresDisjoint(a, b) {
		t.Errorf("title figures %v and %v of (6, 8) not disjoint", a, b)
	}
	// Long digits: the "0" and the point take two of the eight nibbles.
	if got, want := title("UP .12345678"), title("UP 0.12345678"); !slices.Equal(got, want) {
		t.Errorf("title figures %v, want %v", got, want)
	}
}

// TestTitleFiguresPointLost: read with Languages, two titles whose figures
// differ only in a decimal point ("9.1" and a scan's "91") are not
// disjoint, so that the titles alone refuse no copy whose text agrees;
// another digit still makes them disjoint; so do ".5" (read as 0.5) and
// "5". Regressions: the point kept in a title's figure made "91" another
// figure than "9.1", and an OCR-damaged copy's title refused it; ".5" and
// "5" stayed disjoint, the zero read before the point a digit of its own.
func TestTitleFiguresPointLost(t *testing.T) {
	title := func(s string) []uint32 { return appendTitleFigures(nil, s, true) }
	for _, tc := range []struct {
		a, b     string
		disjoint bool
	}{
		{"REGULATOR MLN 9.1 BLN IN SPECTRUM REQUEST", "REGULATOR MLN 91 BLN IN SPECTRUM REQUEST", false},
		{"REGULATOR MLN 9.1 BLN IN SPECTRUM REQUEST", "REGULATOR MLN 9.2 BLN IN SPECTRUM REQUEST", true},
		{"Inflation rises to 2,5 pct", "Inflation rises to 25 pct", false},
		{"Inflation rises to 2,5 pct", "Inflation rises to 3 pct", true},
		{"Rates cut by .5 point", "Rates cut by 5 point", false},
		{"Rates cut by .5 point", "Rates cut by 0.5 point", false},
		{"Rates cut by .5 point", "Rates cut by 6 point", true},
		{"Rates cut by 0.05 point", "Rates cut by 0.5 point", false},
	} {
		if got := titleFiguresDisjoint(title(tc.a), title(tc.b)); got != tc.disjoint {
			t.Errorf("titleFiguresDisjoint(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.disjoint)
		}
	}
}
