package eval

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func testReport(t *testing.T) *Report {
	tr := readTruth(t, "ops", breakdownTruth...)
	pairs := readPred(t, PredictionOptions{}, `{"a":"a","b":"b","label":"duplicate"}`, `{"a":"b","b":"c","label":"duplicate"}`,
		`{"a":"e","b":"f","label":"duplicate"}`, `{"a":"c","b":"e","label":"similar"}`, `{"a":"a","b":"zz","label":"duplicate"}`)
	pairs.Name = "out/pairs.jsonl"
	clusters := readPred(t, PredictionOptions{}, clustersOf([]string{"a", "b", "c", "d"}, []string{"e", "f"})...)
	clusters.Name = "out/clusters.jsonl"
	return NewReport(tr, []*Prediction{pairs, clusters})
}

func TestWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := testReport(t).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", buf.Bytes())
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := testReport(t).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.json", buf.Bytes())
}

func TestCommas(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := commas(n); got != want {
			t.Errorf("commas(%d) = %q, want %q", n, got, want)
		}
	}
}
