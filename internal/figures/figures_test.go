package figures

import (
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"1,000 and 3.5", "1000 and 35"},
		{"13-3/8 pct", "1338 pct"},
		{"in 1987, 12 mln", "12 mln in 1986"},         // years are left out
		{"l986 tonnes", "986 tonnes"},                 // letters around digits are ignored
		{"the 1986/87 crop", "198687"},                // a joined season is a figure, not a year
		{"4th qtr net 12 mln", "1ST HALF net 12 mln"}, // ordinals are wording
		{"12 mln 3rd", "12 mln"},
	} {
		if a, b := Of(tc.a), Of(tc.b); !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("Of(%q) = %v, Of(%q) = %v; want equal and not empty", tc.a, a, tc.b, b)
		}
	}
	if a, b := Of("13-3/8"), Of("8-1/2"); len(a) != 1 || slices.Equal(a, b) {
		t.Errorf("fractions: %v and %v, want one figure each, different", a, b)
	}
	if got := Of("In 1987 and 2004."); len(got) != 0 {
		t.Errorf("years: got %v, want none", got)
	}
	if got := Of("4 things, 4s and 4thx"); len(got) != 1 {
		t.Errorf("not ordinals: got %v, want the figure 4", got)
	}
}
