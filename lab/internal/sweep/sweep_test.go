package sweep

import (
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/tfidf"
)

func TestRange(t *testing.T) {
	tests := []struct {
		name           string
		from, to, step float64
		want           []float64
		wantErr        bool
	}{
		{"tenths", 0.1, 0.5, 0.1, []float64{0.1, 0.2, 0.3, 0.4, 0.5}, false},
		{"end off the step", 0.2, 0.55, 0.1, []float64{0.2, 0.3, 0.4, 0.5}, false},
		{"no drift over many steps", 0.05, 1, 0.05, []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
			0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1}, false},
		{"one threshold", 0.4, 0.4, 0.1, []float64{0.4}, false},
		{"zero from", 0, 0.5, 0.1, nil, true},
		{"from above to", 0.6, 0.5, 0.1, nil, true},
		{"to above one", 0.5, 1.5, 0.1, nil, true},
		{"zero step", 0.1, 0.5, 0, nil, true},
		{"too many", 0.0001, 1, 0.0001, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Range(tc.from, tc.to, tc.step)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestScorePairs(t *testing.T) {
	ord := map[string]int32{"a": 0, "b": 1}
	mh := func(j, cab, cba float64) minhash.Evidence {
		return minhash.Evidence{SetScores: similarity.SetScores{Jaccard: j, ContainmentAB: cab, ContainmentBA: cba}}
	}
	byJaccard := minhash.Defaults()
	byJaccard.Containment = 0.6
	byContainment := minhash.Defaults()
	byContainment.Threshold, byContainment.Containment = 0.4, 0.2
	tests := []struct {
		name string
		o    engine.Config
		vary string
		pair core.Pair
		// want is the decision at thresholds 0.2, 0.4, 0.6, 0.8.
		want [4]bool
	}{
		{"minhash by Jaccard", byJaccard, "",
			core.Pair{A: "a", B: "b", Score: 0.5, Label: core.Duplicate, Evidence: mh(0.5, 0.55, 0.58)},
			[4]bool{true, true, false, false}},
		{"minhash by containment at any threshold", byJaccard, "",
			core.Pair{A: "a", B: "b", Score: 0.3, Label: core.Duplicate, Evidence: mh(0.3, 0.9, 0.31)},
			[4]bool{true, true, true, true}},
		{"minhash unrounded Jaccard", byJaccard, "",
			core.Pair{A: "a", B: "b", Score: 0.4, Label: core.Duplicate, Evidence: mh(0.39996, 0.5, 0.5)},
			[4]bool{true, false, false, false}},
		{"minhash vetoed by numbers", byJaccard, "",
			core.Pair{A: "a", B: "b", Score: 0.9, Label: core.Similar, Evidence: mh(0.9, 0.95, 0.95)},
			[4]bool{false, false, false, false}},
		{"sentences by score", sentences.Defaults(), "",
			core.Pair{A: "b", B: "a", Score: 0.6, Label: core.Duplicate},
			[4]bool{true, true, true, false}},
		{"sentences similar below the run's threshold", sentences.Defaults(), "",
			core.Pair{A: "b", B: "a", Score: 0.3, Label: core.Similar},
			[4]bool{true, false, false, false}},
		{"sentences vetoed by a template rule", sentences.Defaults(), "",
			core.Pair{A: "b", B: "a", Score: 0.6, Label: core.Similar},
			[4]bool{false, false, false, false}},
		{"tfidf by body cosine, rule ignored", tfidf.Defaults(), "",
			core.Pair{A: "a", B: "b", Score: 0.3, Label: core.Duplicate, Evidence: tfidf.Evidence{Title: 0.9, Body: 0.3}},
			[4]bool{true, false, false, false}},
		{"minhash containment varied", byContainment, VaryContainment,
			core.Pair{A: "a", B: "b", Score: 0.3, Label: core.Duplicate, Evidence: mh(0.3, 0.5, 0.7)},
			[4]bool{true, true, true, false}},
		{"minhash containment varied, duplicate by Jaccard", byContainment, VaryContainment,
			core.Pair{A: "a", B: "b", Score: 0.45, Label: core.Duplicate, Evidence: mh(0.45, 0.5, 0.5)},
			[4]bool{true, true, true, true}},
		{"minhash containment varied, vetoed", byContainment, VaryContainment,
			core.Pair{A: "a", B: "b", Score: 0.35, Label: core.Similar, Evidence: mh(0.35, 0.9, 0.4)},
			[4]bool{false, false, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := scorePairs([]core.Pair{tc.pair}, ord, tc.o, cmp.Or(tc.vary, VaryThreshold))
			if err != nil {
				t.Fatal(err)
			}
			var got [4]bool
			for i, th := range []float64{0.2, 0.4, 0.6, 0.8} {
				got[i] = ps[0].duplicateAt(th)
			}
			if got != tc.want {
				t.Errorf("decisions at 0.2, 0.4, 0.6, 0.8 = %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := scorePairs([]core.Pair{{A: "a", B: "zz"}}, ord, byJaccard, VaryThreshold); err == nil {
		t.Error("a pair naming an unknown document: no error")
	}
}

// scoresOnly compares what a sweep point and a direct run must share.
var scoresOnly = cmpopts.IgnoreFields(eval.Result{}, "Name", "Kind")

// TestSweepMatchesDirectRuns pins the point of the sweep: re-deciding the
// pairs of one run at the bottom of the range gives, at every threshold,
// the clusters a run at that threshold gives, except for pairs whose score
// rounds to the threshold itself (dedup reports scores to four decimals).
func TestSweepMatchesDirectRuns(t *testing.T) {
	docs, truth := qualityCorpus(t, "resampled")
	ts, err := Range(0.2, 0.9, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		base engine.Config
		vary string
		// direct returns the options of a direct run at threshold th.
		direct func(th float64) engine.Config
	}{
		// minhash's LSH bands follow its lowest reporting threshold: the
		// direct run reports similar pairs from the same bottom.
		{minhash.Defaults(), VaryThreshold, func(th float64) engine.Config {
			o := minhash.Defaults()
			o.Threshold, o.Similar = th, ts[0]
			return o
		}},
		{minhash.Defaults(), VaryContainment, func(th float64) engine.Config {
			o := minhash.Defaults()
			o.Containment = th
			return o
		}},
		{sentences.Defaults(), VaryThreshold, func(th float64) engine.Config {
			o := sentences.Defaults()
			o.Threshold, o.Similar = th, 0
			return o
		}},
		{cosine.Defaults(), VaryThreshold, func(th float64) engine.Config {
			o := cosine.Defaults()
			o.Threshold, o.Similar = th, 0
			return o
		}},
	}
	for _, tc := range tests {
		res, err := Sweep(context.Background(), docs, truth, Options{Methods: []engine.Config{tc.base}, Vary: tc.vary, Thresholds: ts, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Curves[0]
		if c.Method != tc.base.Method() || len(c.Points) != len(ts) {
			t.Fatalf("%s: curve of %s with %d points, want %d", tc.base.Method(), c.Method, len(c.Points), len(ts))
		}
		for k, th := range ts {
			direct, err := Run(context.Background(), docs, tc.direct(th), 2)
			if err != nil {
				t.Fatal(err)
			}
			want := eval.Evaluate(truth, predictionOf(direct))
			if diff := gocmp.Diff(want, c.Points[k].Result, scoresOnly); diff != "" {
				if tc.vary == VaryThreshold && onlyRoundingEdges(t, docs, tc.base, ts[0], th, direct) {
					t.Logf("%s at %g: differs only by pairs whose score rounds to %g", c.Name, th, th)
					continue
				}
				t.Errorf("%s at %g: (-direct run +sweep)\n%s", c.Name, th, diff)
			}
		}
	}
}

// onlyRoundingEdges reports whether the duplicate pairs of direct and
// those the sweep keeps at threshold th differ only by pairs whose
// reported score is th.
func onlyRoundingEdges(t *testing.T, docs []core.Document, base engine.Config, low, th float64, direct *engine.Result) bool {
	t.Helper()
	ro, err := runOptions(base, low, VaryThreshold)
	if err != nil {
		t.Fatal(err)
	}
	run, err := Run(context.Background(), docs, ro, 2)
	if err != nil {
		t.Fatal(err)
	}
	ord := map[string]int32{}
	for i, d := range docs {
		ord[d.ID] = int32(i)
	}
	ps, err := scorePairs(run.Pairs, ord, ro, VaryThreshold)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[[2]int32]float64{}
	for _, s := range ps {
		if s.duplicateAt(th) {
			kept[[2]int32{s.a, s.b}] = s.score
		}
	}
	for _, p := range direct.Pairs {
		k := [2]int32{ord[p.A], ord[p.B]}
		if _, ok := kept[k]; ok {
			delete(kept, k)
		} else if p.Label == core.Duplicate && p.Score != th {
			return false
		}
	}
	for _, score := range kept {
		if score != th {
			return false
		}
	}
	return true
}

// TestDefaultPointOfRuleMethods: a rule method's Default point is its run
// at its default options.
func TestDefaultPointOfRuleMethods(t *testing.T) {
	docs, truth := qualityCorpus(t, "natural")
	methods := []engine.Config{tfidf.Defaults(), rarewords.Defaults()}
	res, err := Sweep(context.Background(), docs, truth, Options{Methods: methods, Thresholds: []float64{0.05, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range methods {
		direct, err := Run(context.Background(), docs, m, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := eval.Evaluate(truth, predictionOf(direct))
		d := res.Curves[i].Default
		if !math.IsNaN(d.Threshold) {
			t.Errorf("%s: default threshold %g, want NaN (a rule)", m, d.Threshold)
		}
		if diff := gocmp.Diff(want, d.Result, scoresOnly); diff != "" {
			t.Errorf("%s default: (-direct run +sweep)\n%s", m, diff)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	docs, truth := qualityCorpus(t, "natural")
	tests := []struct {
		name string
		o    Options
	}{
		{"no thresholds", Options{}},
		{"bad option", Options{Methods: []engine.Config{badShingle()}, Thresholds: []float64{0.5}}},
		{"unknown vary", Options{Methods: []engine.Config{minhash.Defaults()}, Vary: "shingle", Thresholds: []float64{0.5}}},
		{"containment of sentences", Options{Methods: []engine.Config{sentences.Defaults()}, Vary: VaryContainment, Thresholds: []float64{0.5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Sweep(context.Background(), docs, truth, tc.o); err == nil {
				t.Error("no error")
			}
		})
	}
}

func badShingle() engine.Config {
	o := minhash.Defaults()
	o.CharShingle = 99
	return o
}

// fixture is a hand-made sweep of two methods, one with a rule, on a
// cluster-form truth.
func fixture() *Result {
	pt := func(th, p, r float64, b3 float64, merged int) Point {
		f1 := 2 * p * r / (p + r)
		return Point{Threshold: th, Result: eval.Result{Kind: "clusters",
			Pairs:     eval.PairScores{Predicted: int64(100 * r / p), Truth: 100, Correct: int64(100 * r), Precision: &p, Recall: r, F1: f1},
			Clusters:  &eval.ClusterScores{ARI: f1, BCubedPrecision: (1 + p) / 2, BCubedRecall: (1 + r) / 2, BCubedF1: b3},
			Negatives: &eval.Negatives{Total: 4, Merged: merged}}}
	}
	return &Result{
		Truth:      eval.TruthSummary{Form: "clusters", Documents: 300, Clusters: 200, Pairs: 100},
		Documents:  300,
		Thresholds: []float64{0.2, 0.4, 0.6, 0.8},
		Curves: []Curve{
			{Method: "minhash", Name: "minhash", Swept: "Jaccard", Pairs: 150, Points: []Point{
				pt(0.2, 0.5, 1, 0.8, 3), pt(0.4, 0.9, 0.9, 0.95, 1), pt(0.6, 0.95, 0.7, 0.9, 0), pt(0.8, 1, 0.4, 0.85, 0)},
				Default: pt(0.4, 0.9, 0.9, 0.95, 1)},
			{Method: "tfidf", Name: "tfidf", Swept: "body cosine", Pairs: 90, Points: []Point{
				pt(0.2, 0.3, 0.95, 0.7, 4), pt(0.4, 0.6, 0.9, 0.85, 2), pt(0.6, 0.8, 0.8, 0.88, 1), pt(0.8, 0.97, 0.5, 0.8, 0)},
				Default: pt(math.NaN(), 0.85, 0.85, 0.9, 1)},
		},
	}
}

// TestOutputs compares the table, the CSV and the plot of the fixture with
// golden files (regenerate with -update) and checks the plot is
// well-formed XML.
func TestOutputs(t *testing.T) {
	r := fixture()
	tests := []struct {
		file  string
		write func(w io.Writer) error
	}{
		{"sweep.txt", r.WriteText},
		{"sweep.csv", r.WriteCSV},
		{"sweep.svg", func(w io.Writer) error { return r.WriteSVG(w, PlotOptions{}) }},
		{"sweep-bcubed.svg", func(w io.Writer) error { return r.WriteSVG(w, PlotOptions{BCubed: true, Title: "B3 <fixture>"}) }},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if diff := gocmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s (-want +got)\n%s", tc.file, diff)
			}
			if strings.HasSuffix(tc.file, ".svg") {
				checkXML(t, b.Bytes())
			}
		})
	}
}

func checkXML(t *testing.T, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	lines := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plot is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 6 {
		t.Errorf("plot has %d polylines, want 6 (P, R, F1 of two methods)", lines)
	}
}

func TestWriteTextPairTruth(t *testing.T) {
	r := fixture()
	r.Truth = eval.TruthSummary{Form: "pairs", Pairs: 100}
	for i := range r.Curves {
		for k := range r.Curves[i].Points {
			r.Curves[i].Points[k].Clusters, r.Curves[i].Points[k].Negatives = nil, nil
		}
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"truth: 100 labelled duplicate pairs", "best F1 0.9000 at 0.4\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestNothingPredicted: a threshold at which nothing is predicted has no
// precision (eval.PairScores.Precision nil): "-" in the table, an empty
// cell in the CSV, no point on the plot's precision line.
func TestNothingPredicted(t *testing.T) {
	r := eval.Result{Kind: "pairs", Pairs: eval.PairScores{Truth: 10, Recall: 0, F1: 0}}
	var b bytes.Buffer
	writeRow(&b, "0.9", &r)
	if got, want := b.String(), "0.9\t0\t0\t-\t0.0000\t0.0000\t"; !strings.HasPrefix(got, want) {
		t.Errorf("row %q, want it to start %q", got, want)
	}
	if row := csvRow("minhash", "0.9", &r); row[5] != "" || row[6] != "0" {
		t.Errorf("CSV row %q, want an empty precision and recall 0", row)
	}
	if p := pick(&r, false, 0); !math.IsNaN(p) {
		t.Errorf("plotted precision %v, want none (NaN)", p)
	}
}
