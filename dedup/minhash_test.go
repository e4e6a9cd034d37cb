package dedup

import (
	"strings"
	"testing"

	"github.com/neardup/neardup"
)

func TestMinHashLabels(t *testing.T) {
	g := newTextGen(11)
	story := g.sentences(30)
	report := func(company string, figures ...string) string {
		return company + " said quarterly net profit rose to " + figures[0] + " mln dlrs from " + figures[1] +
			" mln dlrs, on revenue of " + figures[2] + " mln dlrs against " + figures[3] + " mln dlrs a year earlier. " +
			"The company said it expected growth to continue in the coming quarter as demand stayed firm. " +
			"Shares of the company closed at " + figures[4] + " dlrs on the exchange."
	}
	for _, tc := range []struct {
		name string
		opts Options
		a, b string
		want neardup.Label // "" means no pair reported
	}{
		{"truncated reprint is inside the original", Options{},
			strings.Join(story, " "), strings.Join(story[:10], " "), neardup.Duplicate},
		{"containment off leaves it similar at most", Options{Containment: 2},
			strings.Join(story, " "), strings.Join(story[:10], " "), neardup.Similar},
		{"templated reports with other figures are not duplicates", Options{},
			report("Acme Corp", "12.5", "10.1", "140", "128", "31"), report("Acme Corp", "3.2", "4.8", "61", "77", "9"), neardup.Similar},
		{"same figures, other spelling of numbers, are duplicates", Options{},
			report("Acme Corp", "1,250", "1,010", "140", "128", "31"), report("Acme Corp", "1250", "1010", "140", "128", "31"), neardup.Duplicate},
		{"number check off marks templated reports duplicate", Options{NumberAgreement: -1},
			report("Acme Corp", "12.5", "10.1", "140", "128", "31"), report("Acme Corp", "3.2", "4.8", "61", "77", "9"), neardup.Duplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Method = MethodMinHash
			got := runBatch(t, tc.opts, []neardup.Document{{ID: "a", Text: tc.a}, {ID: "b", Text: tc.b}})
			if p := got["a~b"]; p.Label != tc.want {
				t.Errorf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
		})
	}
}
