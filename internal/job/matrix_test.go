package job

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/output"
)

// TestMatrixHoldsThePairedDocuments: the similarity matrix holds the
// documents of the reported pairs, in input order, each row the scores of
// pairs.jsonl, whether the results are written beside the second reading
// or after it (a report). Regression: it held every document read, a
// row for each, so that the run refused a corpus of more than MatrixLimit
// documents however few were paired, once it had read them all.
func TestMatrixHoldsThePairedDocuments(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	for _, tc := range []struct {
		name   string
		report string
	}{
		{"results beside the second reading", ""},
		{"results after the second reading", filepath.Join(dir, "report.html")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, matrix := filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "matrix.json")
			st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Matrix: matrix, Report: tc.report})
			if err != nil {
				t.Fatal(err)
			}
			type pair struct {
				A, B  string
				Score float64
			}
			var pairs []pair
			readLines(t, filepath.Join(out, output.PairsFile), func(line []byte) {
				var p pair
				if err := json.Unmarshal(line, &p); err != nil {
					t.Fatal(err)
				}
				pairs = append(pairs, p)
			})
			paired := map[string]bool{}
			for _, p := range pairs {
				paired[p.A], paired[p.B] = true, true
			}
			var ids []string // in input order
			readLines(t, in, func(line []byte) {
				var d struct{ ID string }
				json.Unmarshal(line, &d) // a broken record has no id, and is in no pair
				if paired[d.ID] {
					ids = append(ids, d.ID)
				}
			})
			if len(ids) == 0 || len(ids) == st.Documents {
				t.Fatalf("%d of %d documents paired: the corpus does not test the matrix", len(ids), st.Documents)
			}
			row := map[string]int{}
			for i, id := range ids {
				row[id] = i
			}
			want := make([][][2]float64, len(ids))
			for _, p := range pairs {
				a, b := row[p.A], row[p.B]
				want[a] = append(want[a], [2]float64{float64(b), p.Score})
				want[b] = append(want[b], [2]float64{float64(a), p.Score})
			}
			for _, r := range want {
				slices.SortFunc(r, func(x, y [2]float64) int { return int(x[0] - y[0]) })
			}
			data, err := os.ReadFile(matrix)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Format, Method string
				IDs            []string
				Matrix         [][][2]float64
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ids, got.IDs); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, got.Matrix); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if got.Format != "sparse-rows" || got.Method != st.Method {
				t.Errorf("format %q, method %q; want sparse-rows, %s", got.Format, got.Method, st.Method)
			}
		})
	}
}

// readLines calls fn with each line of the file at path.
func readLines(t *testing.T, path string, fn func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
