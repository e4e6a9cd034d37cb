package templates

import (
	"fmt"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
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
