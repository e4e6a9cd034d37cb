package minhash

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// terminal is a port story; rewritten is a rewrite of it the same day:
// the same facts in new sentences.
func terminal(dateline, cost string) string {
	return dateline + " - The port authority said it plans to build a container terminal on the north shore at a cost of " +
		cost + " mln dlrs, with work to start next spring. Chairman Anna Keller said the terminal would double the port's " +
		"capacity and create about 900 jobs. The board approved the design after four years of debate, she said."
}

func rewritten(dateline, cost string) string {
	return dateline + " - The port authority will build a container terminal on the north shore at a cost of " + cost +
		" mln dlrs, its chairman Anna Keller said, and construction would begin next spring. The terminal would double " +
		"the port's capacity and create about 900 jobs, she told reporters. Local shipping lines welcomed the plan."
}

func TestRewrite(t *testing.T) {
	type doc struct {
		text string
		date time.Time
	}
	for _, tc := range []struct {
		name string
		a, b doc
		dup  bool
	}{
		{"a story rewritten the same day is a duplicate",
			doc{terminal("HALIFAX, May 4", "412"), at("1987-05-04 10:00")},
			doc{rewritten("HALIFAX, May 4", "412"), at("1987-05-04 12:30")}, true},
		{"a rewrite a day later is not",
			doc{terminal("HALIFAX, May 4", "412"), at("1987-05-04 10:00")},
			doc{rewritten("HALIFAX, May 5", "412"), at("1987-05-05 16:30")}, false},
		{"a rewrite with another figure in a place both fill is not",
			doc{terminal("HALIFAX, May 4", "412"), at("1987-05-04 10:00")},
			doc{rewritten("HALIFAX, May 4", "455"), at("1987-05-04 12:30")}, false},
		{"undated rewrites are not",
			doc{terminal("HALIFAX, May 4", "412"), time.Time{}},
			doc{rewritten("HALIFAX, May 5", "412"), time.Time{}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []core.Document{{ID: "a", Title: "PORT TO BUILD TERMINAL", Text: tc.a.text, Date: tc.a.date},
				{ID: "b", Title: "PORT AUTHORITY PLANS TERMINAL", Text: tc.b.text, Date: tc.b.date}}
			p := enginetest.Batch(t, Spec, Defaults(), docs)["a~b"]
			ev, _ := p.Evidence.(Evidence)
			if o := Defaults(); ev.Jaccard < o.Rewrite || ev.Jaccard >= o.Threshold {
				t.Fatalf("Jaccard %.3f is outside [%v, %v): the case tests nothing", ev.Jaccard, o.Rewrite, o.Threshold)
			}
			if (p.Label == core.Duplicate) != tc.dup {
				t.Errorf("label %q, want duplicate %v (evidence %+v)", p.Label, tc.dup, ev)
			}
			if tc.dup && math.Abs(p.Score-ev.Jaccard) > 1e-4 {
				t.Errorf("score %v, want the Jaccard index %v", p.Score, ev.Jaccard)
			}
			// Without the rule, and without the slack a pair whose figures
			// agree is given (FiguresSlack), which alone takes a rewrite
			// within 0.05 of the bars.
			off := Defaults()
			off.Rewrite = 0
			off.NumberAgreement = -1
			if p := enginetest.Batch(t, Spec, off, docs)["a~b"]; p.Label == core.Duplicate {
				t.Errorf("without the rule: label %q, want no duplicate (the case would test nothing)", p.Label)
			}
		})
	}
}

// The help of --threshold says that other rules make duplicates below it
// and how to turn off the rewrite rule: a story rewritten the same day is
// a duplicate under --threshold 1, and not with --rewrite 0 --containment
// 2. Regression: the help said "Score at or above which a pair is a
// duplicate", and --threshold 1 still gave a duplicate of Jaccard 0.42.
func TestThresholdHelpSaysWhatElseMakesADuplicate(t *testing.T) {
	f, _ := reflect.TypeFor[Options]().FieldByName("Threshold")
	help := f.Tag.Get("help")
	for _, want := range []string{"--containment", "--rewrite", "figures", "--rewrite 0"} {
		if !strings.Contains(help, want) {
			t.Errorf("--threshold's help %q does not name %q", help, want)
		}
	}
	docs := []core.Document{
		{ID: "a", Title: "PORT TO BUILD TERMINAL", Text: terminal("HALIFAX, May 4", "412"), Date: at("1987-05-04 10:00")},
		{ID: "b", Title: "PORT AUTHORITY PLANS TERMINAL", Text: rewritten("HALIFAX, May 4", "412"), Date: at("1987-05-04 12:30")},
	}
	o := Defaults()
	o.Threshold = 1
	if p := enginetest.Batch(t, Spec, o, docs)["a~b"]; p.Label != core.Duplicate {
		t.Errorf("--threshold 1: label %q, want the rewrite rule's duplicate", p.Label)
	}
	o.Rewrite, o.Containment = 0, 2
	if p := enginetest.Batch(t, Spec, o, docs)["a~b"]; p.Label == core.Duplicate {
		t.Errorf("--threshold 1 --rewrite 0 --containment 2: a duplicate (evidence %+v)", p.Evidence)
	}
}
