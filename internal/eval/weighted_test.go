package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestWeightedByHand checks the weighted estimates and their intervals on
// labelled pairs worked out by hand (a pair is weight, duplicate, predicted;
// z is each pair's weight × (numerator − ratio × denominator)).
func TestWeightedByHand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		truth  string
		pred   string
		want   WeightedScores
		approx bool
	}{{
		// One stratum: (1, dup, pred) (1, not, pred) (2, dup, not) (4, dup, pred).
		// Predicted 6, duplicates 7, correct 5.
		// Precision 5/6: z = 1/6, -5/6, 0, 2/3, mean 0, Σz² = 42/36,
		// variance 4/3 · 42/36 / 6² = 14/324.
		// Recall 5/7: z = 2/7, 0, -10/7, 8/7, Σz² = 168/49, variance
		// 4/3 · 168/49 / 7² = 32/343.
		// F1 10/13: z = 2·yŷ − 10/13·(ŷ+y) weighted: 6/13, -10/13, -20/13, 24/13,
		// Σz² = (36+100+400+576)/169 = 1112/169, variance 4/3 · 1112/169 / 13².
		name: "one stratum",
		truth: `{"a":"1","b":"2","label":"duplicate","weight":1}
{"a":"3","b":"4","label":"different"}
{"a":"5","b":"6","label":"duplicate","weight":2}
{"a":"7","b":"8","label":"duplicate","weight":4.0}
`,
		pred: `{"a":"1","b":"2","label":"duplicate"}
{"a":"4","b":"3","label":"duplicate"}
{"a":"7","b":"8","label":"duplicate"}
`,
		want: WeightedScores{Pairs: 4, Strata: 1, Predicted: 6, Truth: 7, Correct: 5,
			Precision: ptrInterval(around(5.0/6, math.Sqrt(14.0/324))),
			Recall:    around(5.0/7, math.Sqrt(32.0/343)),
			F1:        around(10.0/13, math.Sqrt(4.0/3*1112/169)/13)},
	}, {
		// Stratum A: (1, dup, pred) (1, not, pred); stratum B: (2, dup, not)
		// (2, dup, pred) (2, not, not). Predicted 4, duplicates 5, correct 3.
		// Precision 3/4: z in A 1/4, -3/4 (mean -1/4: Σd² 1/2, × 2/1 = 1);
		// in B 0, 1/2, 0 (mean 1/6: Σd² 1/6, × 3/2 = 1/4); variance 5/4 / 4².
		// Recall 3/5: z in A 2/5, 0 (Σd² 2/25, × 2 = 4/25); in B -6/5, 4/5, 0
		// (mean -2/15: Σd² 152/75, × 3/2 = 76/25); variance (80/25) / 5².
		// F1 2/3: z in A 2/3, -2/3 (Σd² 8/9, × 2 = 16/9); in B -4/3, 4/3, 0
		// (Σd² 32/9, × 3/2 = 16/3); variance (64/9) / 9².
		// The pairs 2-1 and 6-5 are labelled again alike (a weight of 1 as
		// none): each counts once.
		name: "two strata",
		truth: `{"a":"1","b":"2","label":"duplicate","stratum":"A"}
{"a":"3","b":"4","label":"different","stratum":"A"}
{"a":"2","b":"1","label":1,"weight":1,"stratum":"A"}
{"a":"5","b":"6","label":"duplicate","weight":2,"stratum":"B"}
{"a":"6","b":"5","label":"duplicate","weight":2.0,"stratum":"B"}
{"a":"7","b":"8","label":"duplicate","weight":2,"stratum":"B"}
{"a":"9","b":"10","label":"different","weight":2,"stratum":"B"}
`,
		pred: `{"a":"1","b":"2","label":"duplicate"}
{"a":"3","b":"4","label":"duplicate"}
{"a":"7","b":"8","label":"duplicate"}
`,
		want: WeightedScores{Pairs: 5, Strata: 2, Predicted: 4, Truth: 5, Correct: 3,
			Precision: ptrInterval(around(0.75, math.Sqrt(1.25)/4)),
			Recall:    around(0.6, math.Sqrt(80.0/25)/5),
			F1:        around(2.0/3, math.Sqrt(64.0/9)/9)},
	}, {
		// A stratum of one pair adds no variance; nothing predicted gives
		// precision 1 with the interval [0, 1]. Recall and F1 are 0, with
		// intervals of no width, and rest on the pair of stratum A: both
		// are too narrow.
		name: "singleton stratum, nothing predicted",
		truth: `{"a":"1","b":"2","label":"duplicate","stratum":"A","weight":3}
{"a":"3","b":"4","label":"duplicate","stratum":"B"}
{"a":"5","b":"6","label":"different","stratum":"B"}
`,
		pred: `{"a":"1","b":"9","label":"duplicate"}
`,
		want: WeightedScores{Pairs: 3, Strata: 2, SingletonStrata: 1, Predicted: 0, Truth: 4, Correct: 0,
			Precision: nil, Recall: Interval{0, 0, 0}, F1: Interval{0, 0, 0},
			Narrow: []NarrowInterval{{Estimate: "recall", NoWidth: []string{"A", "B"}, Single: []string{"A"}},
				{Estimate: "f1", NoWidth: []string{"A", "B"}, Single: []string{"A"}}}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadTruth(strings.NewReader(tc.truth), "")
			if err != nil {
				t.Fatal(err)
			}
			p, err := ReadPrediction(strings.NewReader(tc.pred), "p", PredictionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := Evaluate(tr, p).Weighted
			if diff := cmp.Diff(&tc.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// around is value with the 95 % normal interval of standard error se,
// clipped to [0, 1].
func around(value, se float64) Interval {
	return Interval{Value: value, Low: max(0, value-1.959963984540054*se), High: min(1, value+1.959963984540054*se)}
}

// TestUnweightedMatchesCounts: without weights the weighted estimates are
// the counted scores.
func TestUnweightedMatchesCounts(t *testing.T) {
	tr, err := ReadTruth(strings.NewReader(`{"a":"1","b":"2","label":"duplicate"}
{"a":"3","b":"4","label":"duplicate"}
{"a":"5","b":"6","label":"different"}
{"a":"7","b":"8","label":"duplicate"}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	p := &Prediction{Name: "p", Pairs: [][2]string{{"1", "2"}, {"5", "6"}, {"8", "7"}}}
	r := Evaluate(tr, p)
	w := r.Weighted
	if w.Predicted != float64(r.Pairs.Predicted) || w.Truth != float64(r.Pairs.Truth) || w.Correct != float64(r.Pairs.Correct) ||
		math.Abs(w.Precision.Value-*r.Pairs.Precision) > 1e-12 || math.Abs(w.Recall.Value-r.Pairs.Recall) > 1e-12 ||
		math.Abs(w.F1.Value-r.Pairs.F1) > 1e-12 {
		t.Errorf("weighted %+v, counted %+v", w, r.Pairs)
	}
}

func TestWeightErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"a":"1","b":"2","label":"duplicate","weight":0}`, "line 1: weight 0: want a number from 1"},
		{`{"a":"1","b":"2","label":"duplicate","weight":-2}`, "weight -2"},
		{`{"a":"1","b":"2","label":"duplicate","weight":"2"}`, `weight "2"`},
		{`{"a":"1","b":"2","label":"duplicate","stratum":["x","y"]}`, `stratum ["x","y"]: want one value`},
		// Finite but so large that the sums of the estimates overflow: F1
		// was NaN, and --json failed (json: unsupported value: NaN).
		{`{"a":"1","b":"2","label":"duplicate","weight":1e308}`, "line 1: weight 1e308: want a number from 1 to 1e+15"},
		{`{"a":"1","b":"2","label":"duplicate","weight":2e15}`, "weight 2e15"},
		// Below 1, no inverse of a probability: 1e-200 underflowed the
		// intervals to no width.
		{`{"a":"1","b":"2","label":"duplicate","weight":1e-200}`, "line 1: weight 1e-200: want a number from 1 to 1e+15"},
		{`{"a":"1","b":"2","label":"duplicate","weight":0.5}`, "weight 0.5"},
	} {
		_, err := ReadTruth(strings.NewReader(tc.line), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.line, err, tc.want)
		}
	}
}

// TestWeightedReport: the text report gives the weighted estimates with
// their intervals; a cluster-form truth has none.
func TestWeightedReport(t *testing.T) {
	tr, err := ReadTruth(strings.NewReader(`{"a":"1","b":"2","label":"duplicate","stratum":"A","weight":2.5}
{"a":"3","b":"4","label":"different","stratum":"A","weight":2.5}
{"a":"5","b":"6","label":"duplicate","stratum":"B"}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep := NewReport(tr, []*Prediction{{Name: "run", Pairs: [][2]string{{"1", "2"}, {"3", "4"}}}})
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weighted: 3 labelled pairs in 2 strata", "within strata",
		"run: intervals too narrow: recall and F1 resting in part on a stratum of a single pair, which adds no variance: B",
		"prediction  predicted  duplicates  correct", "run          5         3.5      2.5  0.5000 (0.0000-1.0000)  0.7143 (0.3143-1.0000)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	ct, err := ReadTruth(strings.NewReader(`{"id":"1","cluster":"a"}`+"\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if r := Evaluate(ct, &Prediction{Name: "run"}); r.Weighted != nil {
		t.Errorf("cluster truth has weighted scores %+v", r.Weighted)
	}
}

// TestNarrowIntervalNotes: an interval of no width though labelled pairs
// bear on its estimate, or one resting on strata of a single pair, is
// noted under the weighted table, naming the strata, and in the JSON; the
// figures stay. Regression: the report said only how many strata held a
// single pair, above the table, and nothing of an interval such as
// 1.0000 (1.0000-1.0000).
func TestNarrowIntervalNotes(t *testing.T) {
	for _, tc := range []struct {
		name, truth string
		pairs       [][2]string
		want        []string // in the text report
		wantNarrow  string   // the JSON of the first prediction's narrow intervals
	}{{
		name: "a stratum of a single pair",
		truth: `{"a":"x1","b":"y1","label":"duplicate","weight":500,"stratum":"low"}
{"a":"x2","b":"y2","label":"duplicate","stratum":"high"}
{"a":"x3","b":"y3","label":"duplicate","stratum":"high"}
`,
		pairs: [][2]string{{"x1", "y1"}, {"x2", "y2"}},
		want: []string{"1.0000 (1.0000-1.0000)  0.9980 (0.9941-1.0000)  0.9990 (0.9970-1.0000)",
			"run: intervals too narrow: precision of no width, its pairs not varying within strata low, high; " +
				"recall and F1 resting in part on a stratum of a single pair, which adds no variance: low\n"},
		wantNarrow: `[{"estimate":"precision","no_width":["low","high"],"single_pair_strata":["low"]},` +
			`{"estimate":"recall","single_pair_strata":["low"]},{"estimate":"f1","single_pair_strata":["low"]}]`,
	}, {
		name: "no strata, estimates of 1",
		truth: `{"a":"x1","b":"y1","label":"duplicate"}
{"a":"x2","b":"y2","label":"duplicate"}
{"a":"x3","b":"y3","label":"different"}
`,
		pairs:      [][2]string{{"x1", "y1"}, {"x2", "y2"}},
		want:       []string{"1.0000 (1.0000-1.0000)  1.0000 (1.0000-1.0000)", "run: intervals too narrow: precision, recall and F1 of no width, its pairs not varying\n"},
		wantNarrow: `[{"estimate":"precision","no_width":["(none)"]},{"estimate":"recall","no_width":["(none)"]},{"estimate":"f1","no_width":["(none)"]}]`,
	}, {
		name: "no interval too narrow",
		truth: `{"a":"x1","b":"y1","label":"duplicate","stratum":"s"}
{"a":"x2","b":"y2","label":"different","stratum":"s"}
{"a":"x3","b":"y3","label":"duplicate","stratum":"s"}
`,
		pairs:      [][2]string{{"x1", "y1"}, {"x2", "y2"}},
		want:       []string{"0.5000 (0.0000-1.0000)"},
		wantNarrow: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadTruth(strings.NewReader(tc.truth), "")
			if err != nil {
				t.Fatal(err)
			}
			rep := NewReport(tr, []*Prediction{{Name: "run", Pairs: tc.pairs}})
			var text, js bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(text.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, text.String())
				}
			}
			if tc.wantNarrow == "null" && strings.Contains(text.String(), "too narrow") {
				t.Errorf("report notes a narrow interval:\n%s", text.String())
			}
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Results []struct {
					Weighted struct {
						Narrow json.RawMessage `json:"narrow"`
					} `json:"weighted"`
				} `json:"results"`
			}
			if err := json.Unmarshal(js.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if n := got.Results[0].Weighted.Narrow; n != nil {
				json.Compact(&compact, n)
			} else {
				compact.WriteString("null")
			}
			if compact.String() != tc.wantNarrow {
				t.Errorf("JSON narrow intervals %s, want %s", compact.String(), tc.wantNarrow)
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

func ptrInterval(i Interval) *Interval { return &i }

// TestBreakdownPrecision: on labelled pairs the breakdown gives each
// value's precision too, and a stratum without duplicates still shows the
// pairs the prediction wrongly calls duplicates.
func TestBreakdownPrecision(t *testing.T) {
	tr, err := ReadTruth(strings.NewReader(`{"a":"1","b":"2","label":"duplicate","stratum":"A"}
{"a":"3","b":"4","label":"different","stratum":"A"}
{"a":"5","b":"6","label":"different","stratum":"B","weight":4}
{"a":"7","b":"8","label":"different","stratum":"C"}
{"a":"9","b":"10","label":"duplicate","stratum":"D"}
`), "stratum")
	if err != nil {
		t.Fatal(err)
	}
	p := &Prediction{Name: "run", Pairs: [][2]string{{"1", "2"}, {"4", "3"}, {"5", "6"}}}
	r := Evaluate(tr, p)
	want := []Recall{
		{Value: "A", Truth: 1, Found: 1, Recall: 1, Predicted: 2, Precision: ptr(0.5)},
		{Value: "B", Recall: 1, Predicted: 1, Precision: ptr(0)},
		{Value: "D", Truth: 1, Recall: 0},
	}
	if diff := cmp.Diff(want, r.By, approx); diff != "" {
		t.Errorf("breakdown (-want +got):\n%s", diff)
	}
	// In --json, a value of no predicted pair has a null precision, as the
	// table's does: the key was left out.
	if js, err := json.Marshal(r.By[2]); err != nil || string(js) != `{"value":"D","truth":1,"found":0,"recall":0,"predicted":0,"precision":null}` {
		t.Errorf("the breakdown's row in JSON: %s %v", js, err)
	}
	var b bytes.Buffer
	if err := NewReport(tr, []*Prediction{p}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = strings.Join(f, " ")
		}
	}
	for _, want := range []string{
		"stratum truth pairs run recall precision",
		"A 1 1.0000 (1) 0.5000 (1 of 2)",
		"B 0 - 0.0000 (0 of 1)",
		"D 1 0.0000 (0) -",
	} {
		if rows[strings.Fields(want)[0]] != want {
			t.Errorf("report row %q, want %q:\n%s", rows[strings.Fields(want)[0]], want, b.String())
		}
	}
	if !strings.Contains(b.String(), "recall and precision by stratum") {
		t.Errorf("report lacks the breakdown's title:\n%s", b.String())
	}
}
