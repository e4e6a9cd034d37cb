package templates

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
)

// TestThousandsWhateverTheSpace: a reprint that writes a French text's
// narrow no-break spaces as plain ones is a copy. Its sums, before a comma
// or a full stop, read as the original's: each group a figure of its own
// whatever the space, as both read without a unit after them.
func TestThousandsWhateverTheSpace(t *testing.T) {
	orig := "PARIS, 5 mars (AFP) - Les manifestants étaient 180\u202f000, selon la CGT, et 65\u202f000, selon la police. " +
		"L'an dernier, ils étaient 250\u202f000 manifestants. Le cortège a défilé dans le calme."
	d := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: true}
	a := scanDoc(&s, core.Document{ID: "a", Title: "Retraites", Text: orig, Date: d})
	for _, space := range []string{" ", "\u00a0", "\u2009"} {
		b := scanDoc(&s, core.Document{ID: "b", Title: "Retraites", Text: strings.ReplaceAll(orig, "\u202f", space), Date: d.Add(time.Hour)})
		r := Rules{NumberAgreement: 0.5, DateApart: 72, Names: true, Template: true, Slots: true}
		if ev := r.Verify(&a, &b, Sample{}, Sample{}); r.Veto(&ev) != None {
			t.Errorf("a reprint with %q: veto %v (number overlap %v)", space, r.Veto(&ev), *ev.NumberOverlap)
		}
	}
}

// TestTitleSumsInBody: a headline's sum whose thousands spaces set apart is
// read as the body reads it, so that one body under two headlines, each
// naming one of its sums ("36 789 euros", "904 512 euros"), has no
// titles of disjoint figures.
func TestTitleSumsInBody(t *testing.T) {
	body := "LYON, 12 mars - Le conseil municipal a voté un budget de 36 789 euros, dont 904 512 euros pour les cantines, qui servent 36 500 repas par jour."
	d := time.Date(2024, 3, 12, 10, 0, 0, 0, time.UTC)
	s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: true}
	a := scanDoc(&s, core.Document{ID: "a", Title: "Lyon: 36 789 euros pour les écoles", Text: body, Date: d})
	b := scanDoc(&s, core.Document{ID: "b", Title: "Lyon: 904 512 euros pour les cantines", Text: body, Date: d.Add(time.Hour)})
	if ev := Compare(&a, &b, Sample{}, Sample{}); ev.TitleFiguresDisjoint {
		t.Errorf("titles whose sums the other's body holds are disjoint")
	}
}
