package dedup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

func TestCosineDefaults(t *testing.T) {
	o, err := Options{Method: MethodCosine}.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	if o.Threshold != 0.7 || o.Similar != -1 || o.Keep != string(cluster.Central) || o.Weighting != WeightTFIDF {
		t.Errorf("defaults %+v", o)
	}
	if o, _ := (Options{Method: MethodCosine, Matrix: "m.json"}).Defaults(); o.Similar != 0.3 {
		t.Errorf("with a matrix, similar %v, want 0.3", o.Similar)
	}
	for _, bad := range []Options{
		{Method: MethodCosine, Weighting: "bm25"},
		{Method: MethodTFIDF, Matrix: "m.json"},
	} {
		if _, err := bad.Defaults(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestCosineWeightings: both weightings find an edited copy and give
// identical documents a cosine of 1.
func TestCosineWeightings(t *testing.T) {
	g := newTextGen(21)
	base := g.sentences(12)
	edited := append([]string(nil), base...)
	edited[3] = g.sentence()
	docs := append([]core.Document{doc("orig", base), doc("copy", base), doc("edit", edited)}, background(g, 30)...)
	for _, w := range []string{WeightTFIDF, WeightPMI} {
		t.Run(w, func(t *testing.T) {
			_, pairs := runBatchOf(t, Options{Method: MethodCosine, Weighting: w}, docs)
			got := map[string]float64{}
			for _, p := range pairs {
				got[p.A+"~"+p.B] = p.Score
			}
			if got["orig~copy"] != 1 || got["orig~edit"] < 0.7 || len(got) != 3 {
				t.Errorf("pairs %v", got)
			}
		})
	}
}

// TestCosineBigramsAndStems: the same words in another order share their
// words but not their bigrams; inflected forms share their stems.
func TestCosineBigramsAndStems(t *testing.T) {
	const a = "The council approved the new harbour bridge after a long debate about its cost and its design."
	for _, tc := range []struct {
		name, b  string
		min, max float64
	}{
		{"same text", a, 0.9999, 1},
		{"words reversed", "Design its and cost its about debate long a after bridge harbour new the approved council the.", 0.3, 0.7},
		{"inflected", "The councils approve the new harbour bridges after long debates about their costs and their designs.", 0.9999, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := NewIndex(Options{Method: MethodCosine, Similar: 0.01})
			if err != nil {
				t.Fatal(err)
			}
			x.Add(core.Document{ID: "a", Text: a})
			pairs, _, err := x.Add(core.Document{ID: "b", Text: tc.b})
			if err != nil || len(pairs) != 1 || pairs[0].Score < tc.min || pairs[0].Score > tc.max {
				t.Errorf("pairs %+v, %v; want a score in [%v, %v]", pairs, err, tc.min, tc.max)
			}
		})
	}
}

func TestCosineMatrix(t *testing.T) {
	g := newTextGen(22)
	base := g.sentences(10)
	edited := append([]string(nil), base...)
	edited[1], edited[6] = g.sentence(), g.sentence()
	docs := append([]core.Document{doc("a", base), doc("b", edited), doc("c", g.sentences(10))}, background(g, 20)...)
	path := filepath.Join(t.TempDir(), "matrix.json")
	_, pairs := runBatchOf(t, Options{Method: MethodCosine, Matrix: path}, docs)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Format        string         `json:"format"`
		MinSimilarity float64        `json:"min_similarity"`
		IDs           []string       `json:"ids"`
		Matrix        [][][2]float64 `json:"matrix"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v in\n%s", err, data)
	}
	if m.Format != "sparse-rows" || m.MinSimilarity != 0.3 || len(m.IDs) != len(docs) || len(m.Matrix) != len(docs) {
		t.Fatalf("header %q %v, %d ids, %d rows", m.Format, m.MinSimilarity, len(m.IDs), len(m.Matrix))
	}
	want := map[string]float64{}
	for _, p := range pairs {
		want[p.A+"~"+p.B], want[p.B+"~"+p.A] = p.Score, p.Score
	}
	got := map[string]float64{}
	for i, row := range m.Matrix {
		for _, e := range row {
			got[m.IDs[i]+"~"+m.IDs[int(e[0])]] = e[1]
		}
	}
	if diff := cmp.Diff(want, got); diff != "" || len(got) == 0 {
		t.Errorf("matrix entries (-pairs +matrix)\n%s", diff)
	}
}

// TestCosineMatrixRefusesLargeCorpora: the document past the limit is an
// error when it is added, before any matching.
func TestCosineMatrixRefusesLargeCorpora(t *testing.T) {
	b, err := NewBatch(Options{Method: MethodCosine, Matrix: filepath.Join(t.TempDir(), "m.json")})
	if err != nil {
		t.Fatal(err)
	}
	sk := b.NewSketcher()
	for i := range MatrixLimit + 1 {
		d := core.Document{ID: fmt.Sprint(i), Text: "word", Origin: fmt.Sprintf("in.jsonl:%d", i+1)}
		err = b.Add(&d, sk.Sketch(&d))
		if err != nil {
			break
		}
	}
	if err == nil || b.Len() != MatrixLimit || !strings.Contains(err.Error(), "in.jsonl:20001") || !strings.Contains(err.Error(), "20000") {
		t.Errorf("after %d documents: %v", b.Len(), err)
	}
}
