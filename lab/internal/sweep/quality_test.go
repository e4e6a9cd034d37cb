package sweep

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/lab/internal/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testCorpora are the generated corpora of the quality test, made from
// qualityBases with every op: "natural" has one original per base and half
// the documents copies; "resampled" has 800 documents, most originals
// synthesised from the bases (word salad, as gen makes large corpora).
var testCorpora = []struct {
	name string
	opts gen.Options
}{
	{"natural", gen.Options{DupRate: 0.5, Seed: 5, Workers: 1}},
	{"resampled", gen.Options{N: 800, Seed: 5, Workers: 1}},
}

// generated caches each test corpus: its documents and its truth file.
var generated struct {
	sync.Mutex
	docs  map[string][]core.Document
	truth map[string][]byte
}

// qualityCorpus returns the documents of the named test corpus, generated
// once per test binary, and a fresh reading of its truth.
func qualityCorpus(t testing.TB, name string) ([]core.Document, *eval.Truth) {
	t.Helper()
	g := &generated
	g.Lock()
	defer g.Unlock()
	if g.docs == nil {
		g.docs, g.truth = map[string][]core.Document{}, map[string][]byte{}
	}
	if _, ok := g.docs[name]; !ok {
		docs, truth, err := generateCorpus(name)
		if err != nil {
			t.Fatal(err)
		}
		g.docs[name], g.truth[name] = docs, truth
	}
	truth, err := eval.ReadTruth(bytes.NewReader(g.truth[name]), "ops")
	if err != nil {
		t.Fatal(err)
	}
	return g.docs[name], truth
}

func generateCorpus(name string) ([]core.Document, []byte, error) {
	for _, c := range testCorpora {
		if c.name != name {
			continue
		}
		var docs, truth bytes.Buffer
		if _, err := gen.Generate(qualityBases(), c.opts, &docs, &truth); err != nil {
			return nil, nil, err
		}
		r, err := corpus.OpenReader("docs.jsonl", &docs, corpus.Options{SinglePass: true})
		if err != nil {
			return nil, nil, err
		}
		var out []core.Document
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return out, truth.Bytes(), nil
			}
			if err != nil {
				return nil, nil, err
			}
			out = append(out, rec.Doc)
		}
	}
	return nil, nil, fmt.Errorf("no test corpus %q", name)
}

// figures are the golden quality figures of one method.
type figures struct {
	corpus, method                string
	precision, recall, f1         float64
	b3Precision, b3Recall, b3F1   float64
	negativesMerged, negativesAll int
}

func figuresOf(corpus, method string, r *eval.Result) figures {
	f := figures{corpus: corpus, method: method, precision: round3(precision(r)), recall: round3(r.Pairs.Recall), f1: round3(r.Pairs.F1),
		b3Precision: round3(r.Clusters.BCubedPrecision), b3Recall: round3(r.Clusters.BCubedRecall), b3F1: round3(r.Clusters.BCubedF1)}
	if n := r.Negatives; n != nil {
		f.negativesMerged, f.negativesAll = n.Merged, n.Total
	}
	return f
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func (f figures) scores() []float64 {
	return []float64{f.precision, f.recall, f.f1, f.b3Precision, f.b3Recall, f.b3F1}
}

var scoreNames = []string{"precision", "recall", "F1", "B3 precision", "B3 recall", "B3 F1"}

const goldenHeader = `# Quality of every method at its default options on the generated test corpora
# (lab/internal/sweep quality_test.go, testCorpora). A figure that falls by more than
# 0.005, or more templated negatives merged, fails the test.
# Regenerate (in lab/): go test ./internal/sweep -run TestQuality -update
# corpus method precision recall f1 b3_precision b3_recall b3_f1 negatives_merged/negatives
`

func writeGolden(path string, fs []figures) error {
	var b strings.Builder
	b.WriteString(goldenHeader)
	for _, f := range fs {
		fmt.Fprintf(&b, "%-10s %-10s", f.corpus, f.method)
		for _, s := range f.scores() {
			fmt.Fprintf(&b, " %.3f", s)
		}
		fmt.Fprintf(&b, " %d/%d\n", f.negativesMerged, f.negativesAll)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// readGolden reads the figures by "corpus method".
func readGolden(path string) (map[string]figures, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]figures{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 9 {
			return nil, fmt.Errorf("%s:%d: want 9 fields, got %d", path, n, len(fields))
		}
		g := figures{corpus: fields[0], method: fields[1]}
		fields = fields[1:]
		var vals [6]float64
		for i := range vals {
			if vals[i], err = strconv.ParseFloat(fields[1+i], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
		}
		g.precision, g.recall, g.f1, g.b3Precision, g.b3Recall, g.b3F1 = vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
		if _, err := fmt.Sscanf(fields[7], "%d/%d", &g.negativesMerged, &g.negativesAll); err != nil {
			return nil, fmt.Errorf("%s:%d: negatives %q: %w", path, n, fields[7], err)
		}
		out[g.corpus+" "+g.method] = g
	}
	return out, sc.Err()
}

// TestQuality runs every method at its default options on the generated
// test corpus and compares its figures with testdata/quality.golden: a
// figure that falls by more than 0.005 fails; one that rises passes and
// asks for -update.
func TestQuality(t *testing.T) {
	var got []figures
	for _, c := range testCorpora {
		docs, truth := qualityCorpus(t, c.name)
		for _, spec := range methods.All {
			res, err := Run(context.Background(), docs, spec.Defaults(), 2)
			if err != nil {
				t.Fatalf("%s: %v", spec.Name, err)
			}
			r := eval.Evaluate(truth, predictionOf(res))
			got = append(got, figuresOf(c.name, spec.Name, &r))
		}
	}
	path := filepath.Join("testdata", "quality.golden")
	if *update {
		if err := writeGolden(path, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := readGolden(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	for _, g := range got {
		w, ok := want[g.corpus+" "+g.method]
		if !ok {
			t.Errorf("%s %s: not in %s; run with -update", g.corpus, g.method, path)
			continue
		}
		compareFigures(t, w, g)
	}
}

// compareFigures fails on a fall of more than 0.005 or more negatives
// merged, and logs a rise.
func compareFigures(t *testing.T, want, got figures) {
	t.Helper()
	ws, gs := want.scores(), got.scores()
	for i := range ws {
		switch d := gs[i] - ws[i]; {
		case d < -0.005:
			t.Errorf("%s %s %s fell from %.3f to %.3f", got.corpus, got.method, scoreNames[i], ws[i], gs[i])
		case d > 0.0005:
			t.Logf("%s %s %s rose from %.3f to %.3f: run with -update to keep the gain", got.corpus, got.method, scoreNames[i], ws[i], gs[i])
		}
	}
	if got.negativesMerged > want.negativesMerged {
		t.Errorf("%s %s merged %d of %d templated negatives, was %d", got.corpus, got.method, got.negativesMerged, got.negativesAll, want.negativesMerged)
	}
}

// predictionOf turns a batch's clusters into a prediction.
func predictionOf(res *engine.Result) *eval.Prediction {
	p := &eval.Prediction{Name: "batch"}
	for _, c := range res.Clusters {
		p.Clusters = append(p.Clusters, c.Members)
	}
	return p
}
