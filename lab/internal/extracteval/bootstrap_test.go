package extracteval

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// resultOf builds a result whose page i has precision and recall prs[i],
// on the site sites[i].
func resultOf(dataset, system string, sites []string, prs []float64) Result {
	r := Result{Dataset: dataset, System: system}
	for i, x := range prs {
		p := PageScore{ID: fmt.Sprint(i), Site: sites[i], Half: SplitHalf(sites[i]), PR: PR{Precision: x, Recall: x}}
		r.Pages = append(r.Pages, p)
		r.Mean.Add(p.PR)
	}
	return r
}

func TestBootstrapIntervals(t *testing.T) {
	var sites []string
	var base, better []float64
	for i := range 40 {
		sites = append(sites, fmt.Sprintf("site%d.example", i))
		x := 0.5 + 0.5*float64(i%7)/7
		base = append(base, x)
		better = append(better, min(1, x+0.05))
	}
	results := []Result{
		resultOf("d", "one", sites, base),
		resultOf("d", "same", sites, base),
		resultOf("d", "better", sites, better),
	}
	b := Bootstrap{Draws: 500, Seed: 1}
	cis, diffs, err := b.Intervals(results)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if f := r.Mean.F1(); cis[i].Lo > f || cis[i].Hi < f || cis[i].Lo == cis[i].Hi {
			t.Errorf("%s: F1 %.4f, interval %v", r.System, f, cis[i])
		}
	}
	if len(diffs) != 2 {
		t.Fatalf("diffs: %+v", diffs)
	}
	if d := diffs[0]; d.System != "one" || d.Against != "same" || d.Delta != 0 || d.Interval != (Interval{}) || d.Ahead != 0 {
		t.Errorf("against itself: %+v", d)
	}
	// "better" is ahead on every page, so in every draw: "one" is behind.
	if d := diffs[1]; d.Against != "better" || d.Delta >= 0 || d.Interval.Hi >= 0 || d.Ahead != 0 {
		t.Errorf("against a better system: %+v", d)
	}

	// The draws are seeded: the same run gives the same intervals.
	again, _, _ := b.Intervals(results)
	for i := range cis {
		if again[i] != cis[i] {
			t.Errorf("%s: %v, then %v", results[i].System, cis[i], again[i])
		}
	}
}

// Pages of one site are drawn together: a dataset of one site has the
// same pages in every draw.
func TestBootstrapDrawsSites(t *testing.T) {
	one := resultOf("d", "x", []string{"a.example", "a.example", "a.example"}, []float64{0.2, 0.6, 1})
	cis, _, err := Bootstrap{Draws: 200, Seed: 7}.Intervals([]Result{one})
	if err != nil {
		t.Fatal(err)
	}
	if f := one.Mean.F1(); cis[0].Lo != f || cis[0].Hi != f {
		t.Errorf("one site: F1 %.4f, interval %v", f, cis[0])
	}
	// An empty half draws nothing and scores 0.
	cis, _, err = Bootstrap{Draws: 10, Seed: 7}.Intervals([]Result{{Dataset: "d:tune", System: "x"}})
	if err != nil || cis[0] != (Interval{}) {
		t.Errorf("empty: %v %v", cis, err)
	}
}

func TestBootstrapOtherPages(t *testing.T) {
	a := resultOf("d", "a", []string{"x.example", "y.example"}, []float64{1, 1})
	b := resultOf("d", "b", []string{"x.example"}, []float64{1})
	if _, _, err := (Bootstrap{Draws: 10}).Intervals([]Result{a, b}); err == nil || !strings.Contains(err.Error(), "scored 2 pages") {
		t.Errorf("err %v", err)
	}
	c := resultOf("d", "c", []string{"x.example", "z.example"}, []float64{1, 1})
	if _, _, err := (Bootstrap{Draws: 10}).Intervals([]Result{a, c}); err == nil || !strings.Contains(err.Error(), "page 1") {
		t.Errorf("err %v", err)
	}
}

func TestWriteDiffs(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDiffs(&buf, []Diff{{Dataset: "d", System: "a", Against: "b", Delta: 0.0123, Interval: Interval{0.004, 0.02}, Ahead: 0.996}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"95% interval", "+0.0123", "+0.0040 – +0.0200", "99.6%"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("no %q in\n%s", s, buf.String())
		}
	}
}
