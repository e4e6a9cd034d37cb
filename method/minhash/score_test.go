package minhash

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/similarity"
)

// TestScoreIsWhatDecided pins issue 34's "one threshold, one score": the
// score written is the value of the measure that decided the label, the
// evidence names that measure, and no duplicate scores below the
// threshold.
func TestScoreIsWhatDecided(t *testing.T) {
	g := enginetest.NewTextGen(5)
	story := g.Sentences(30)
	whole, head := strings.Join(story, " "), strings.Join(story[:12], " ")
	// mixed is 12 sentences of the story and 3 of another: about 0.8 of
	// it inside the story.
	mixed := head + " " + strings.Join(enginetest.NewTextGen(6).Sentences(3), " ")
	with := func(f func(o *Options)) Options {
		o := Defaults()
		f(&o)
		return o
	}
	for _, tc := range []struct {
		name        string
		opts        Options
		a, b        string
		wantLabel   core.Label
		wantMeasure string
		hoursApart  int // both dated, this far apart, when not 0
	}{
		{"a truncated reprint is a duplicate by containment, scored by it", Defaults(),
			whole, head, core.Duplicate, similarity.MeasureContainment, 0},
		{"a copy mostly inside the story is a duplicate by containment", Defaults(),
			whole, mixed, core.Duplicate, similarity.MeasureContainment, 0},
		{"a reprint is a duplicate by Jaccard", Defaults(),
			whole, "New headline. " + whole, core.Duplicate, similarity.MeasureJaccard, 0},
		{"a threshold above the containment bound binds containment too", with(func(o *Options) { o.Threshold = 0.9 }),
			whole, mixed, core.Similar, similarity.MeasureJaccard, 0},
		{"containment off: similar, scored by Jaccard", with(func(o *Options) { o.Containment = 2 }),
			whole, head, core.Similar, similarity.MeasureJaccard, 0},
		// Regression: one the same day was scored by the rewrite rule's
		// Jaccard index (0.38, under the threshold), two days apart by its
		// containment (1).
		{"a truncated reprint the same day is scored by containment too", Defaults(),
			whole, head, core.Duplicate, similarity.MeasureContainment, 4},
		{"a rewrite the same day is scored by Jaccard", with(func(o *Options) { o.Threshold = 0.9 }),
			whole, mixed, core.Duplicate, similarity.MeasureJaccard, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []core.Document{{ID: "a", Text: tc.a}, {ID: "b", Text: tc.b}}
			if tc.hoursApart != 0 {
				docs[0].Date = time.Date(2024, 6, 12, 8, 0, 0, 0, time.UTC)
				docs[1].Date = docs[0].Date.Add(time.Duration(tc.hoursApart) * time.Hour)
			}
			p, ok := enginetest.Batch(t, Spec, tc.opts, docs)["a~b"]
			if !ok {
				t.Fatal("no pair reported")
			}
			ev := p.Evidence.(Evidence)
			if p.Label != tc.wantLabel || ev.Measure != tc.wantMeasure {
				t.Fatalf("label %q by %q, want %q by %q (score %v, evidence %+v)", p.Label, ev.Measure, tc.wantLabel, tc.wantMeasure, p.Score, ev)
			}
			want := ev.Jaccard
			if ev.Measure == similarity.MeasureContainment {
				want = max(ev.ContainmentAB, ev.ContainmentBA)
			}
			if p.Score != core.Round(want) {
				t.Errorf("score %v, want the %s %v", p.Score, ev.Measure, want)
			}
			// A rewrite the same day is a duplicate from Rewrite.
			if bar := tc.opts.Threshold; p.Label == core.Duplicate && p.Score < bar && (tc.hoursApart == 0 || p.Score < tc.opts.Rewrite) {
				t.Errorf("a duplicate scores %v, below the threshold %v", p.Score, bar)
			}
		})
	}
}

// TestThresholdMovesBanding pins that the automatic banding follows the
// lowest score a run reports, the threshold included: below the similar
// bound, and without one, the threshold chooses the bands; a threshold
// below 0.3 gets more bands than the default's 20; with a similar bound of
// 0.3 a higher threshold keeps the bands that find the similar pairs; a
// rewrite bound below the threshold is a score reported too.
func TestThresholdMovesBanding(t *testing.T) {
	bands := func(threshold, similar float64) string {
		o := Defaults()
		o.Threshold, o.Similar, o.Rewrite = threshold, similar, 0
		b, err := o.bands()
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	def := bands(0.45, 0.3)
	if got := bands(0.2, 0.3); got == def {
		t.Errorf("threshold 0.2: bands %s, the default's", got)
	}
	if got := bands(0.8, 0); got == bands(0.45, 0) || got == def {
		t.Errorf("threshold 0.8 without similar: bands %s, as at 0.45 (%s) or the default (%s)", got, bands(0.45, 0), def)
	}
	if got := bands(0.8, 0.3); got != def {
		t.Errorf("threshold 0.8 with similar 0.3: bands %s, want the similar bound's %s", got, def)
	}
	o := Defaults()
	o.Threshold, o.Similar = 0.8, 0
	if b, err := o.bands(); err != nil || b.String() != bands(o.Rewrite, 0) {
		t.Errorf("threshold 0.8 without similar, rewrite %v: bands %v (%v), want the rewrite bound's %s", o.Rewrite, b, err, bands(o.Rewrite, 0))
	}
}

// An OCR-damaged reprint whose letters are read as their look-alikes (l as
// 1, o as 0, s as 5, m as rn) keeps its shingles and stays a duplicate.
func TestOCRLookAlikesKeepAReprint(t *testing.T) {
	text := "Harbour Mills Inc said it will buy 15 pct of Northern Grain Co for 120 mln dlrs in cash. " +
		"The company said the purchase, its first in 10 years, would be completed by March 1 and financed from " +
		"its own means. Harbour Mills earned 25.8 mln dlrs in 1986 on sales of 510 mln dlrs."
	damaged := strings.NewReplacer("l", "1", "o", "0", "s", "5", "m", "rn").Replace(text)
	p, ok := enginetest.Batch(t, Spec, Defaults(), []core.Document{{ID: "a", Text: text}, {ID: "b", Text: damaged}})["a~b"]
	if !ok {
		t.Fatal("no pair reported")
	}
	if ev := p.Evidence.(Evidence); p.Label != core.Duplicate || ev.Jaccard < 0.99 {
		t.Errorf("label %q, Jaccard %v; want a duplicate of Jaccard 1 (evidence %+v)", p.Label, ev.Jaccard, ev)
	}
}

// A pair whose figures all agree is a duplicate FiguresSlack below the
// threshold or the containment, scored by its containment; figures that
// disagree, scores further below, or the figures check off leave it
// similar.
func TestFiguresAgreeLowerTheBars(t *testing.T) {
	one, most := 1.0, 0.8
	pair := func(j, c float64, overlap *float64) Evidence {
		ev := Evidence{SetScores: similarity.SetScores{Jaccard: j, ContainmentAB: c, ContainmentBA: j}}
		ev.NumberOverlap = overlap
		return ev
	}
	noFigures := Defaults()
	noFigures.NumberAgreement = -1
	for _, tc := range []struct {
		name string
		opts Options
		ev   Evidence
		want core.Label
	}{
		{"Jaccard just below the threshold, figures agree", Defaults(), pair(0.42, 0.6, &one), core.Duplicate},
		{"containment just below its bar, figures agree", Defaults(), pair(0.35, 0.67, &one), core.Duplicate},
		{"figures that disagree", Defaults(), pair(0.42, 0.6, &most), core.Similar},
		{"too few figures to tell", Defaults(), pair(0.42, 0.6, nil), core.Similar},
		{"scores further below", Defaults(), pair(0.38, 0.6, &one), core.Similar},
		{"the figures check off", noFigures, pair(0.42, 0.6, &one), core.Similar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := newMethod(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			ev := tc.ev
			score := m.scored(&ev)
			if l, _ := m.Label(score, ev); l != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", l, tc.want, ev)
			}
			if tc.want == core.Duplicate && (ev.Measure != similarity.MeasureContainment || score < tc.opts.Threshold) {
				t.Errorf("a duplicate scored %v by %q, want its containment, at least the threshold", score, ev.Measure)
			}
		})
	}
}
