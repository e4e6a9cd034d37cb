package eval

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func readTruth(t *testing.T, by string, lines ...string) *Truth {
	t.Helper()
	tr, err := ReadTruth(strings.NewReader(strings.Join(lines, "\n")), by)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func readPred(t *testing.T, opts PredictionOptions, lines ...string) *Prediction {
	t.Helper()
	p, err := ReadPrediction(strings.NewReader(strings.Join(lines, "\n")), "pred", opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// truthOf writes cluster-form truth lines from a map of id to cluster.
func truthOf(ids []string, clusters []string) []string {
	var lines []string
	for i, id := range ids {
		lines = append(lines, fmt.Sprintf(`{"id":%q,"cluster":%q}`, id, clusters[i]))
	}
	return lines
}

func clustersOf(groups ...[]string) []string {
	var lines []string
	for i, g := range groups {
		lines = append(lines, fmt.Sprintf(`{"cluster":%d,"representative":%q,"members":["%s"],"why":"longest"}`,
			i, g[0], strings.Join(g, `","`)))
	}
	return lines
}

var approx = cmp.Options{cmpopts.EquateApprox(0, 1e-9), cmpopts.IgnoreFields(Recall{}, "Labelled")}

func TestEvaluateClusters(t *testing.T) {
	abcd := []string{"a", "b", "c", "d"}
	tests := []struct {
		name          string
		truth         []string
		pred          []string
		wantPairs     PairScores
		wantClusters  ClusterScores
		wantUnknown   int
		wantComponent bool
	}{
		{
			name:         "perfect",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         clustersOf([]string{"a", "b"}, []string{"c", "d"}),
			wantPairs:    PairScores{Predicted: 2, Truth: 2, Correct: 2, Precision: ptr(1), Recall: 1, F1: 1},
			wantClusters: ClusterScores{ARI: 1, BCubedPrecision: 1, BCubedRecall: 1, BCubedF1: 1, Predicted: 2},
		},
		{
			// ARI of [0,0,1,1] against [0,0,1,2] is 4/7 (the scikit-learn
			// documentation example): index 1, expected 2·1/6, max 3/2.
			name:         "split cluster, known ARI 4/7",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         clustersOf([]string{"a", "b"}),
			wantPairs:    PairScores{Predicted: 1, Truth: 2, Correct: 1, Precision: ptr(1), Recall: 0.5, F1: 2.0 / 3},
			wantClusters: ClusterScores{ARI: 4.0 / 7, BCubedPrecision: 1, BCubedRecall: 0.75, BCubedF1: 6.0 / 7, Predicted: 1},
		},
		{
			name:         "all merged",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         clustersOf(abcd),
			wantPairs:    PairScores{Predicted: 6, Truth: 2, Correct: 2, Precision: ptr(1.0 / 3), Recall: 1, F1: 0.5},
			wantClusters: ClusterScores{ARI: 0, BCubedPrecision: 0.5, BCubedRecall: 1, BCubedF1: 2.0 / 3, Predicted: 1},
		},
		{
			// [0,0,1,1] against [0,1,0,1]: ARI -0.5.
			name:         "crossed, negative ARI",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         clustersOf([]string{"a", "c"}, []string{"b", "d"}),
			wantPairs:    PairScores{Predicted: 2, Truth: 2, Correct: 0, Precision: ptr(0), Recall: 0, F1: 0},
			wantClusters: ClusterScores{ARI: -0.5, BCubedPrecision: 0.5, BCubedRecall: 0.5, BCubedF1: 0.5, Predicted: 2},
		},
		{
			name:         "nothing predicted",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         nil,
			wantPairs:    PairScores{Predicted: 0, Truth: 2, Correct: 0, Precision: nil, Recall: 0, F1: 0},
			wantClusters: ClusterScores{ARI: 0, BCubedPrecision: 1, BCubedRecall: 0.5, BCubedF1: 2.0 / 3},
			// ARI: index 0, expected 0, max 1 → 0.
			wantComponent: true,
		},
		{
			// Explicit pairs: (a,b) twice and reversed, (a,zz) unknown,
			// (c,d) wrong. Truth X={a,b,c}, Y={d}; components {a,b},{c,d}.
			// B³ precision (2·2/2 + 1/2 + 1/2)/4; recall (2·2/3 + 1/3 + 1)/4;
			// ARI: index 1, expected 3·2/6 = 1, so 0.
			name:  "pairs with repeats and unknown ids",
			truth: truthOf(abcd, []string{"x", "x", "x", "y"}),
			pred: []string{`{"a":"a","b":"b","label":"duplicate"}`, `{"a":"b","b":"a","label":"duplicate"}`,
				`{"a":"a","b":"zz","label":"duplicate"}`, `{"a":"c","b":"d","method":"minhash","score":0.9,"label":"duplicate","evidence":{"jaccard":0.9}}`},
			wantPairs:     PairScores{Predicted: 2, Truth: 3, Correct: 1, Precision: ptr(0.5), Recall: 1.0 / 3, F1: 0.4},
			wantClusters:  ClusterScores{ARI: 0, BCubedPrecision: 0.75, BCubedRecall: 2.0 / 3, BCubedF1: 2 * 0.75 * (2.0 / 3) / (0.75 + 2.0/3), Predicted: 2},
			wantUnknown:   1,
			wantComponent: true,
		},
		{
			// Regression: an unknown id was counted once per cluster that
			// named it, where pairs count it once.
			name:         "clusters naming an unknown id twice",
			truth:        truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred:         clustersOf([]string{"a", "b", "zz"}, []string{"c", "d", "zz"}),
			wantPairs:    PairScores{Predicted: 2, Truth: 2, Correct: 2, Precision: ptr(1), Recall: 1, F1: 1},
			wantClusters: ClusterScores{ARI: 1, BCubedPrecision: 1, BCubedRecall: 1, BCubedF1: 1, Predicted: 2},
			wantUnknown:  1,
		},
		{
			// Regression: the pair lines of a file with clusters too were
			// not counted: zz was not, yy only for its cluster.
			name:  "pairs and clusters, unknown ids in both",
			truth: truthOf(abcd, []string{"x", "x", "y", "y"}),
			pred: append(clustersOf([]string{"a", "b"}, []string{"c", "d", "yy"}),
				`{"a":"a","b":"b","label":"duplicate"}`, `{"a":"a","b":"zz","label":"duplicate"}`, `{"a":"zz","b":"yy","label":"duplicate"}`),
			wantPairs:    PairScores{Predicted: 1, Truth: 2, Correct: 1, Precision: ptr(1), Recall: 0.5, F1: 2.0 / 3},
			wantClusters: ClusterScores{ARI: 1, BCubedPrecision: 1, BCubedRecall: 1, BCubedF1: 1, Predicted: 2},
			wantUnknown:  2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Evaluate(readTruth(t, "", tc.truth...), readPred(t, PredictionOptions{}, tc.pred...))
			if diff := cmp.Diff(tc.wantPairs, r.Pairs, approx); diff != "" {
				t.Errorf("pair scores (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(&tc.wantClusters, r.Clusters, approx); diff != "" {
				t.Errorf("cluster scores (-want +got):\n%s", diff)
			}
			if r.UnknownIDs != tc.wantUnknown || r.ComponentClusters != tc.wantComponent {
				t.Errorf("unknown ids %d, components %v; want %d, %v", r.UnknownIDs, r.ComponentClusters, tc.wantUnknown, tc.wantComponent)
			}
		})
	}
}

// breakdownTruth: X = {a (original), b (truncate), c (truncate, glue)},
// Y = {e (original), f (glue)}, d alone and a must-not-link with a.
var breakdownTruth = []string{
	`{"id":"a","cluster":"a","ops":[]}`,
	`{"id":"b","cluster":"a","ops":["truncate"]}`,
	`{"id":"c","cluster":"a","ops":["truncate","glue"]}`,
	`{"id":"d","cluster":"d","ops":["template-negative"],"negative_of":"a"}`,
	`{"id":"e","cluster":"e","ops":[]}`,
	`{"id":"f","cluster":"e","ops":["glue"]}`,
}

func TestEvaluateBreakdown(t *testing.T) {
	// Truth pairs: truncate counts (a,b),(a,c),(b,c) = 3; glue (a,c),(b,c),(e,f) = 3.
	tests := []struct {
		name       string
		pred       []string
		want       []Recall
		wantMerged int
	}{
		{
			// Within X, a and b share a cluster (a truncate pair); c is with
			// e and f, which finds (e,f) under glue only.
			name: "clusters",
			pred: clustersOf([]string{"a", "b"}, []string{"c", "e", "f"}),
			want: []Recall{{Value: "glue", Truth: 3, Found: 1, Recall: 1.0 / 3}, {Value: "truncate", Truth: 3, Found: 1, Recall: 1.0 / 3}},
		},
		{
			name: "explicit pairs",
			pred: []string{`{"a":"a","b":"b","label":"duplicate"}`, `{"a":"b","b":"c","label":"duplicate"}`,
				`{"a":"e","b":"f","label":"duplicate"}`, `{"a":"c","b":"e","label":"duplicate"}`},
			want: []Recall{{Value: "glue", Truth: 3, Found: 2, Recall: 2.0 / 3}, {Value: "truncate", Truth: 3, Found: 2, Recall: 2.0 / 3}},
		},
		{
			name:       "negative merged",
			pred:       clustersOf([]string{"a", "b", "c", "d"}),
			want:       []Recall{{Value: "glue", Truth: 3, Found: 2, Recall: 2.0 / 3}, {Value: "truncate", Truth: 3, Found: 3, Recall: 1}},
			wantMerged: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Evaluate(readTruth(t, "ops", breakdownTruth...), readPred(t, PredictionOptions{}, tc.pred...))
			if diff := cmp.Diff(tc.want, r.By, approx); diff != "" {
				t.Errorf("breakdown (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(&Negatives{Total: 1, Merged: tc.wantMerged}, r.Negatives); diff != "" {
				t.Errorf("negatives (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateBreakdownDirect(t *testing.T) {
	// Direct pairs: truncate (a,b),(a,c) = 2; glue (a,c),(e,f) = 2.
	for _, tc := range []struct {
		name string
		pred []string
		want []Recall
	}{
		{"clusters", clustersOf([]string{"a", "b"}, []string{"c", "e", "f"}),
			[]Recall{{Value: "glue", Truth: 2, Found: 1, Recall: 0.5}, {Value: "truncate", Truth: 2, Found: 1, Recall: 0.5}}},
		{"explicit pairs", []string{`{"a":"a","b":"b","label":"duplicate"}`, `{"a":"b","b":"c","label":"duplicate"}`,
			`{"a":"e","b":"f","label":"duplicate"}`},
			[]Recall{{Value: "glue", Truth: 2, Found: 1, Recall: 0.5}, {Value: "truncate", Truth: 2, Found: 1, Recall: 0.5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := readTruth(t, "ops", breakdownTruth...)
			tr.SetDirect(true)
			r := Evaluate(tr, readPred(t, PredictionOptions{}, tc.pred...))
			if diff := cmp.Diff(tc.want, r.By, approx); diff != "" {
				t.Errorf("breakdown (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateBreakdownWithout(t *testing.T) {
	// Without glue: c and f are left out; truncate keeps (a,b) alone.
	tr := readTruth(t, "ops", breakdownTruth...)
	tr.SetDirect(true)
	if err := tr.SetWithout([]string{"glue"}); err != nil {
		t.Fatal(err)
	}
	r := Evaluate(tr, readPred(t, PredictionOptions{}, clustersOf([]string{"a", "b"}, []string{"c", "e", "f"})...))
	want := []Recall{{Value: "truncate", Truth: 1, Found: 1, Recall: 1}}
	if diff := cmp.Diff(want, r.By, approx); diff != "" {
		t.Errorf("breakdown (-want +got):\n%s", diff)
	}
	if err := tr.SetWithout([]string{"no-such-op"}); err == nil {
		t.Error("an unknown value: want an error")
	}
}

func TestEvaluateBreakdownNone(t *testing.T) {
	tr := readTruth(t, "ops", `{"id":"a","cluster":1}`, `{"id":"b","cluster":1}`, `{"id":"c","cluster":1,"ops":"ocr-heavy"}`)
	r := Evaluate(tr, readPred(t, PredictionOptions{}, clustersOf([]string{"a", "b"})...))
	want := []Recall{{Value: "ocr-heavy", Truth: 2}, {Value: noneValue, Truth: 1, Found: 1, Recall: 1}}
	if diff := cmp.Diff(want, r.By, approx); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEvaluateLabelledPairs(t *testing.T) {
	truth := []string{
		`{"a":"a","b":"b","label":"duplicate","lang":"en"}`,
		`{"a":"c","b":"d","label":"OK","lang":"ru"}`,
		`{"a":"e","b":"f","label":"BAD","lang":"en"}`,
		`{"a":"g","b":"h","label":false}`,
		`{"a":"b","b":"a","label":1,"lang":"en"}`,
	}
	tests := []struct {
		name string
		pred []string
		want PairScores
		by   []Recall
	}{
		{
			name: "pairs",
			pred: []string{`{"a":"b","b":"a","label":"duplicate"}`, `{"a":"e","b":"f","label":"duplicate"}`,
				`{"a":"x","b":"y","label":"duplicate"}`, `{"a":"c","b":"d","label":"similar"}`},
			want: PairScores{Predicted: 2, Truth: 2, Correct: 1, Precision: ptr(0.5), Recall: 0.5, F1: 0.5},
			by: []Recall{{Value: "en", Truth: 1, Found: 1, Recall: 1, Predicted: 2, Precision: ptr(0.5)},
				{Value: "ru", Truth: 1, Found: 0, Recall: 0}},
		},
		{
			name: "clusters",
			pred: clustersOf([]string{"a", "b", "e"}, []string{"c", "d"}),
			want: PairScores{Predicted: 2, Truth: 2, Correct: 2, Precision: ptr(1), Recall: 1, F1: 1},
			by: []Recall{{Value: "en", Truth: 1, Found: 1, Recall: 1, Predicted: 1, Precision: ptr(1)},
				{Value: "ru", Truth: 1, Found: 1, Recall: 1, Predicted: 1, Precision: ptr(1)}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Evaluate(readTruth(t, "lang", truth...), readPred(t, PredictionOptions{}, tc.pred...))
			if diff := cmp.Diff(tc.want, r.Pairs, approx); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.by, r.By, approx); diff != "" {
				t.Errorf("breakdown (-want +got):\n%s", diff)
			}
			if r.Clusters != nil {
				t.Errorf("cluster scores for a pair truth: %+v", r.Clusters)
			}
		})
	}
}

// TestEvaluateHugeClusters pins that cluster pairs are counted, not listed:
// a 60,000-document cluster has 1,799,970,000 pairs (200,000 documents,
// 19,999,900,000 pairs, when NEARDUP_LONG is set).
func TestEvaluateHugeClusters(t *testing.T) {
	n := int64(60000)
	if os.Getenv("NEARDUP_LONG") != "" {
		n = 200000
	}
	var truth, members bytes.Buffer
	for i := range n {
		fmt.Fprintf(&truth, `{"id":"d%d","cluster":"c"}`+"\n", i)
		if i > 0 {
			members.WriteByte(',')
		}
		fmt.Fprintf(&members, `"d%d"`, i)
	}
	tr, err := ReadTruth(&truth, "")
	if err != nil {
		t.Fatal(err)
	}
	h := n / 2
	half := strings.SplitN(members.String(), fmt.Sprintf(`,"d%d"`, h), 2)[0]
	p := readPred(t, PredictionOptions{}, `{"cluster":0,"members":[`+half+`]}`)
	r := Evaluate(tr, p)
	want := PairScores{Predicted: h * (h - 1) / 2, Truth: n * (n - 1) / 2, Correct: h * (h - 1) / 2, Precision: ptr(1)}
	want.Recall = float64(want.Correct) / float64(want.Truth)
	want.F1 = 2 * want.Recall / (1 + want.Recall)
	if diff := cmp.Diff(want, r.Pairs, approx); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if math.IsNaN(r.Clusters.ARI) || r.Clusters.BCubedPrecision != 1 {
		t.Errorf("cluster scores %+v", r.Clusters)
	}
}

func TestReadPrediction(t *testing.T) {
	lines := []string{`{"a":"x","b":"y","label":"duplicate"}`, `{"a":1,"b":2,"label":"similar"}`, ``, `{"cluster":0,"members":["x",3]}`}
	tests := []struct {
		name string
		opts PredictionOptions
		want *Prediction
	}{
		{"duplicates only", PredictionOptions{},
			&Prediction{Name: "pred", Pairs: [][2]string{{"x", "y"}}, Clusters: [][]string{{"x", "3"}}, Skipped: 1}},
		{"include similar", PredictionOptions{IncludeSimilar: true},
			&Prediction{Name: "pred", Pairs: [][2]string{{"x", "y"}, {"1", "2"}}, Clusters: [][]string{{"x", "3"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, readPred(t, tc.opts, lines...)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestTruthClusterNumbers: a whole number is one cluster however it is
// written, and the string of its digits too; other strings are compared as
// written. Regression: 1 and "1" were one cluster, 1.0 another.
func TestTruthClusterNumbers(t *testing.T) {
	tr := readTruth(t, "", `{"id":"a","cluster":1}`, `{"id":"b","cluster":"1"}`, `{"id":"c","cluster":1.0}`,
		`{"id":"d","cluster":1e0}`, `{"id":"e","cluster":"01"}`, `{"id":"f","cluster":"1.0"}`, `{"id":"g","cluster":-0}`,
		`{"id":"h","cluster":0.0}`, `{"id":"i","cluster":1.5}`, `{"id":"j","cluster":9007199254740993}`,
		`{"id":"k","cluster":9007199254740992.0}`, `{"id":"l","cluster":1.0000000000000001}`,
		`{"id":"m","cluster":9007199254740993.0}`, `{"id":"n","cluster":1e30}`,
		`{"id":"o","cluster":1000000000000000000000000000000}`, `{"id":"p","cluster":1e400}`)
	// Regression: whole-ness was decided on a rounded float, so that
	// 1.0000000000000001 joined 1, and 9007199254740993.0 joined
	// 9007199254740992.
	want := [][]string{{"a", "b", "c", "d"}, {"e"}, {"f"}, {"g", "h"}, {"i"}, {"j", "m"}, {"k"}, {"l"}, {"n", "o"}, {"p"}}
	var got [][]string
	at := map[int32]int{}
	for d, c := range tr.cluster {
		if i, ok := at[c]; ok {
			got[i] = append(got[i], tr.ids[d])
			continue
		}
		at[c] = len(got)
		got = append(got, []string{tr.ids[d]})
	}
	if diff := cmp.Diff(want, got); diff != "" || tr.Clusters() != len(want) {
		t.Errorf("clusters (-want +got):\n%s; Clusters() %d", diff, tr.Clusters())
	}
}

func TestReadErrors(t *testing.T) {
	truthErrs := []struct{ name, in, want string }{
		{"empty", "", "no lines"},
		{"no cluster", `{"id":"a"}`, "line 1: id \"a\" has no cluster"},
		// Regression: a cluster of another type than a string or a number
		// was said to be missing ("id "b" has no cluster").
		{"a cluster of true", "{\"id\":\"a\",\"cluster\":1}\n{\"id\":\"b\",\"cluster\":true}",
			`line 2: id "b": "cluster" is a JSON boolean (true); want a string or a number`},
		{"a cluster of an object", `{"id":"a","cluster":{"k":1}}`, `line 1: id "a": "cluster" is a JSON object ({"k":1}); want a string or a number`},
		{"a cluster of an array", `{"id":"a","cluster":[1]}`, `line 1: id "a": "cluster" is a JSON array ([1]); want a string or a number`},
		{"repeated id", "{\"id\":\"a\",\"cluster\":1}\n{\"id\":\"a\",\"cluster\":2}", "line 2: id \"a\" repeated (first on line 1)"},
		// Regression: a line repeated exactly said only "id repeated",
		// where a pair-form truth counts a repeated line once: it says
		// that it is a repeat.
		{"repeated line", "{\"id\":\"a\",\"cluster\":1}\n{\"id\":\"b\",\"cluster\":1}\n\n{\"id\":\"a\",\"cluster\":1}\r\n",
			"line 4: id \"a\" repeated: the line is a repeat of line 1"},
		{"repeated id, other keys", "{\"id\":\"a\",\"cluster\":1}\n{\"cluster\":1,\"id\":\"a\"}", "line 2: id \"a\" repeated (first on line 1)"},
		{"mixed", "{\"id\":\"a\",\"cluster\":1}\n{\"a\":\"a\",\"b\":\"b\",\"label\":true}", "line 2: eval: truth mixes"},
		{"bad label", `{"a":"a","b":"b","label":"maybe"}`, "line 1: label \"maybe\" is neither"},
		{"no label", `{"a":"a","b":"b"}`, `line 1: a pair needs a "label"`},
		// Regression: an empty id was taken for a document's, and a pair
		// of it scored.
		{"a pair with an empty id", "{\"a\":\"x\",\"b\":\"y\",\"label\":true}\n{\"a\":\"\",\"b\":\"y\",\"label\":\"duplicate\"}",
			`line 2: a pair needs "a" and "b" ids`},
		{"an empty id", "{\"id\":\"a\",\"cluster\":1}\n{\"id\":\"\",\"cluster\":1}", `line 2: want "id" and "cluster"`},
		{"not json", `{"id":`, "line 1: unexpected end of JSON input"},
		{"a pair of one document", `{"a":"x","b":"x","label":true}`, `line 1: a pair of "x" with itself`},
		{"a pair labelled twice, otherwise", "{\"a\":\"x\",\"b\":\"y\",\"label\":true}\n{\"a\":\"z\",\"b\":\"y\",\"label\":true}\n{\"a\":\"y\",\"b\":\"x\",\"label\":0}",
			`line 3: the pair "y", "x" is labelled not a duplicate here and a duplicate on line 1`},
		// Regression: a pair labelled again alike was accepted before its
		// weight and stratum were read, so the later line's were dropped,
		// even a weight of -5 or a stratum of two values.
		{"a pair labelled again with another weight", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"weight\":2,\"stratum\":\"s1\"}\n{\"a\":\"y\",\"b\":\"x\",\"label\":true,\"weight\":50,\"stratum\":\"s1\"}",
			`line 2: the pair "y", "x" has weight 50 here and 2 on line 1`},
		{"a pair labelled again in another stratum", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"stratum\":\"s1\"}\n{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"weight\":1,\"stratum\":\"s2\"}",
			`line 2: the pair "x", "y" is in stratum "s2" here and stratum "s1" on line 1`},
		{"a pair labelled again without its stratum", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"stratum\":\"s1\"}\n{\"a\":\"x\",\"b\":\"y\",\"label\":true}",
			`line 2: the pair "x", "y" is in no stratum here and stratum "s1" on line 1`},
		{"a pair labelled again with a bad weight", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"weight\":2}\n{\"a\":\"y\",\"b\":\"x\",\"label\":true,\"weight\":-5}",
			`line 2: weight -5: want a number from 1`},
		{"a pair labelled again with two strata", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"stratum\":\"s1\"}\n{\"a\":\"y\",\"b\":\"x\",\"label\":true,\"stratum\":[\"s2\",\"s3\"]}",
			`line 2: stratum ["s2","s3"]: want one value`},
		// Regression: bytes that are not UTF-8 were read as U+FFFD, so that
		// the ids d\xff1 and d\xfe1 were one ("id "d\ufffd1" repeated").
		{"invalid UTF-8 in an id", "{\"id\":\"d1\",\"cluster\":\"A\"}\n{\"id\":\"d\xff1\",\"cluster\":\"A\"}\n{\"id\":\"d\xfe1\",\"cluster\":\"B\"}",
			`line 2: field "id": invalid UTF-8`},
		{"invalid UTF-8 in a pair", "{\"a\":\"x\",\"b\":\"y\xc3\",\"label\":true}", `line 1: field "b": invalid UTF-8`},
		{"invalid UTF-8 outside an object", "\"\xff\"", `line 1: invalid UTF-8`},
		// It named a Go type: "cannot unmarshal array into Go value of type map[string]json.RawMessage".
		{"a line not an object", "{\"id\":\"r1\",\"cluster\":\"A\"}\n[1,2]",
			`line 2: a JSON array where a truth line is an object ({"id", "cluster"} or {"a", "b", "label"})`},
	}
	for _, tc := range truthErrs {
		t.Run("truth/"+tc.name, func(t *testing.T) {
			_, err := ReadTruth(strings.NewReader(tc.in), "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// A --by field no line has is a typo, not a breakdown of one "(none)".
	_, err := ReadTruth(strings.NewReader("{\"id\":\"a\",\"cluster\":1,\"lang\":\"en\"}\n{\"id\":\"b\",\"cluster\":1}"), "langg")
	if want := `no line has the field "langg" to break recall down by; fields seen: cluster, id, lang`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("--by langg: %v, want an error containing %q", err, want)
	}
	predErrs := []struct{ name, in, want string }{
		{"no ids", `{"x":1}`, "line 1: want a pair"},
		{"bad label", `{"a":"a","b":"b","label":"maybe"}`, "line 1: label \"maybe\""},
		{"bad member", `{"members":[{}]}`, "line 1: member {} is not an id"},
		// Regression: a member d\xfe1 was read as d\ufffd1 and scored as
		// the truth's d\xff1.
		{"invalid UTF-8 in a member", "{\"members\":[\"d2\",\"d3\"]}\n{\"members\":[\"d\xfe1\",\"d2\"]}", `line 2: field "members": invalid UTF-8`},
		{"invalid UTF-8 in a pair", "{\"a\":\"x\xff\",\"b\":\"y\",\"label\":\"duplicate\"}", `line 1: field "a": invalid UTF-8`},
	}
	for _, tc := range predErrs {
		t.Run("prediction/"+tc.name, func(t *testing.T) {
			_, err := ReadPrediction(strings.NewReader(tc.in), "p.jsonl", PredictionOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "p.jsonl") {
				t.Errorf("got %v, want an error naming p.jsonl containing %q", err, tc.want)
			}
		})
	}
}

func FuzzReadTruth(f *testing.F) {
	f.Add(strings.Join(breakdownTruth, "\n"))
	f.Add(`{"a":"a","b":"b","label":"duplicate","ops":["en",1,null]}`)
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := ReadTruth(strings.NewReader(in), "ops")
		if err != nil {
			return
		}
		p, err := ReadPrediction(strings.NewReader(in), "p", PredictionOptions{})
		if err != nil {
			p = &Prediction{}
		}
		r := Evaluate(tr, p)
		if r.Pairs.Correct > r.Pairs.Truth || r.Pairs.Correct > r.Pairs.Predicted {
			t.Errorf("correct %d > truth %d or predicted %d", r.Pairs.Correct, r.Pairs.Truth, r.Pairs.Predicted)
		}
	})
}

// TestCheckIDs pins that a prediction naming no document of a cluster
// truth is an error that says so, not a report of zero scores, and that
// against labelled pairs it is an answer.
func TestCheckIDs(t *testing.T) {
	truth := readTruth(t, "", truthOf([]string{"a", "b", "c"}, []string{"1", "1", "2"})...)
	pairTruth := readTruth(t, "", `{"a":"a","b":"b","label":"duplicate"}`)
	for _, tc := range []struct {
		name  string
		truth *Truth
		pred  []string
		want  string
	}{
		{"ids match", truth, []string{`{"a":"x","b":"a","label":"duplicate"}`}, ""},
		{"none match", truth, []string{`{"a":"news.jsonl:1","b":"news.jsonl:2","label":"duplicate"}`},
			`pred: none of the 2 document ids it names is in the truth (it names "news.jsonl:1"; the truth names "a"): were the prediction and the truth made from the same documents, with the same ids?`},
		// Regression: an id named twice was counted twice ("none of the 4").
		{"none match, an id named twice", truth, []string{`{"a":"n1","b":"n2","label":"duplicate"}`, `{"a":"n1","b":"n3","label":"duplicate"}`},
			`pred: none of the 3 document ids it names is in the truth (it names "n1"; the truth names "a"): were the prediction and the truth made from the same documents, with the same ids?`},
		{"clusters, none match", truth, clustersOf([]string{"x", "y"}),
			`pred: none of the 2 document ids it names is in the truth (it names "x"; the truth names "a"): were the prediction and the truth made from the same documents, with the same ids?`},
		// Regression: a labelled-pair sample names only the documents drawn;
		// a prediction that touches none of them predicts none of its pairs.
		{"pair truth, pairs miss every labelled document", pairTruth, []string{`{"a":"x","b":"y","label":"duplicate"}`}, ""},
		{"pair truth, clusters miss every labelled document", pairTruth, clustersOf([]string{"x", "y"}), ""},
		{"nothing predicted", truth, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.truth.CheckIDs(readPred(t, PredictionOptions{}, tc.pred...))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPairTruthOverlaps: a pair-form truth scores a clustered prediction
// by its clusters; a document the prediction puts in two counts in
// Overlaps (its first cluster is kept), as the cluster form counts it. A
// pair labelled twice alike counts once.
func TestPairTruthOverlaps(t *testing.T) {
	truth, err := ReadTruth(strings.NewReader(`{"a":"x","b":"y","label":true}
{"a":"y","b":"x","label":1}
{"a":"x","b":"z","label":false}`), "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadPrediction(strings.NewReader(`{"cluster":1,"members":["x","y"]}
{"cluster":2,"members":["z","x"]}`), "p", PredictionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Evaluate(truth, p)
	if r.Overlaps != 1 || r.Pairs.Truth != 1 || r.Pairs.Correct != 1 || r.Pairs.Predicted != 1 {
		t.Errorf("overlaps %d, pairs %+v; want 1 overlap (x), and x-y the one labelled duplicate, found; x-z not (x stays in cluster 1)", r.Overlaps, r.Pairs)
	}
}

// TestReadTruthNoneValue pins a truth value "(none)": it was a second row
// named as the one of pairs without a value (in --json; the report showed
// one of the two), or was counted in that row. It is refused, naming the
// file, the line and the field.
func TestReadTruthNoneValue(t *testing.T) {
	for _, tc := range []struct{ name, by, in, want string }{
		{"document's value", "ops", "{\"id\":\"a1\",\"cluster\":\"A\"}\n{\"id\":\"a2\",\"cluster\":\"A\",\"ops\":[\"spelling\",\"(none)\"]}",
			`line 2: field "ops": the value "(none)"`},
		{"pair's value", "kind", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"kind\":\"reprint\"}\n{\"a\":\"x\",\"b\":\"z\",\"label\":false,\"kind\":\"(none)\"}",
			`line 2: field "kind": the value "(none)"`},
		{"stratum", "", "{\"a\":\"x\",\"b\":\"y\",\"label\":true,\"stratum\":\"(none)\"}",
			`line 1: field "stratum": the value "(none)"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "truth.jsonl")
			if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTruthFile(path, tc.by)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("got %v, want an error naming %s containing %q", err, path, tc.want)
			}
		})
	}
	// A value that only looks like it is a value.
	tr := readTruth(t, "ops", `{"id":"a","cluster":1}`, `{"id":"b","cluster":1,"ops":"none"}`)
	r := Evaluate(tr, readPred(t, PredictionOptions{}, clustersOf([]string{"a", "b"})...))
	if want := []Recall{{Value: "none", Truth: 1, Found: 1, Recall: 1}}; !cmp.Equal(want, r.By, approx) {
		t.Errorf("value none: %v, want %v", r.By, want)
	}
}
