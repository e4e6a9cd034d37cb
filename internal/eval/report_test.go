package eval

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
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

// TestReportShowsInputsSafely: what the inputs name (a stratum, a value of
// the breakdown field, a prediction's file name) cannot move the cursor,
// retitle the window or colour the text report, nor break its tables.
func TestReportShowsInputsSafely(t *testing.T) {
	truth := readTruth(t, "kind",
		`{"a":"a1","b":"b1","label":1,"stratum":"\u001b]0;pwned\u0007\u001b[2JEVIL","kind":"x\u001b[31m"}`,
		`{"a":"a2","b":"b2","label":1,"stratum":"s2","kind":"tab\there"}`,
		`{"a":"a3","b":"b3","label":1,"stratum":"s2","kind":"fake\r\nrow"}`)
	pred := readPred(t, PredictionOptions{}, `{"a":"a1","b":"b1","label":"duplicate"}`)
	pred.Name = "out\u001b[2J/pairs.jsonl"
	var buf bytes.Buffer
	if err := NewReport(truth, []*Prediction{pred}).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("the report holds a control character:\n%q", out)
	}
	for _, want := range []string{`\x1b]0;pwned\a\x1b[2JEVIL`, `x\x1b[31m`, `tab\there`, `fake\r\nrow`, `out\x1b[2J/pairs.jsonl`} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not show %s:\n%s", want, out)
		}
	}
}

// TestBreakdownValueOnce: a value a pair's field gives twice ("x", "x";
// "1", 1) counts the pair once.
func TestBreakdownValueOnce(t *testing.T) {
	truth := readTruth(t, "kind",
		`{"a":"a1","b":"b1","label":1,"kind":["x","x"]}`,
		`{"a":"a2","b":"b2","label":1,"kind":"x"}`,
		`{"a":"a3","b":"b3","label":1,"kind":["1",1]}`)
	r := Evaluate(truth, readPred(t, PredictionOptions{}, `{"a":"a1","b":"b1","label":"duplicate"}`))
	got := map[string]int64{}
	for _, b := range r.By {
		got[b.Value] = b.Truth
	}
	if got["x"] != 2 || got["1"] != 1 {
		t.Errorf("truth pairs by kind %v, want x: 2, 1: 1", got)
	}
}
