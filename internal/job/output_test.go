package job

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/output"
)

// A run whose output directory and report lie inside its input directory
// does not read them back: the second run reads what the first did.
func TestOutputInsideInputNotRead(t *testing.T) {
	in := t.TempDir()
	writeCorpus(t, in)
	o := Options{Inputs: []string{in}, Out: filepath.Join(in, "out"), Report: filepath.Join(in, "report.html"),
		Matrix: filepath.Join(in, "out", "matrix.json")}
	first, err := Run(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Run(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if first.Read != second.Read || first.Documents != second.Documents {
		t.Errorf("second run read %d records (%d documents), the first %d (%d)", second.Read, second.Documents, first.Read, first.Documents)
	}
	for _, p := range []string{o.Report, o.Matrix, filepath.Join(o.Out, output.KeptFile)} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// Regression: the results a run wrote inside its input directory (its -o,
// its report, titles and matrix) were read as inputs by a later run of
// another -o, the report as a page and the matrix as a record without a
// text, which failed the run, and by `index add`: a later run reads what
// the first did, whatever -o it writes, as extract leaves out what it
// wrote.
func TestEarlierResultsNotRead(t *testing.T) {
	in := t.TempDir()
	writeCorpus(t, in)
	first, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(in, "out"),
		Report: filepath.Join(in, "report.html"), TitlesCSV: filepath.Join(in, "titles.csv"),
		Matrix: filepath.Join(in, "matrix.json")})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(t.TempDir(), "other")})
	if err != nil {
		t.Fatal(err)
	}
	if first.Read != second.Read || first.Documents != second.Documents {
		t.Errorf("a run of another -o read %d records (%d documents), the first %d (%d)", second.Read, second.Documents, first.Read, first.Documents)
	}
	r, err := OpenFeed([]string{in}, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	read := 0
	for {
		if _, err := r.NextRaw(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		read++
	}
	if read != first.Read {
		t.Errorf("index add's reading read %d records, the first run %d", read, first.Read)
	}
}

// The paths of the extra files are checked before any work, and a run that
// fails leaves the previous results as they were.
func TestFailedRunKeepsResults(t *testing.T) {
	dir, in, out, before := firstResults(t)

	_, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Report: filepath.Join(dir, "missing", "r.html")})
	if err == nil || !strings.Contains(err.Error(), "r.html: cannot be written") {
		t.Errorf("report in a missing directory: %v", err)
	}
	_, err = Run(t.Context(), Options{Inputs: []string{in}, Out: out, TitlesCSV: dir})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("titles CSV that is a directory: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, Options{Inputs: []string{in}, Out: out, Report: filepath.Join(dir, "r.html")}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
	checkKept(t, dir, out, before)
}

// firstResults writes a corpus into a new directory dir (at in) and the
// results of a run over it into out, and returns them and the results.
func firstResults(t *testing.T) (dir, in, out, before string) {
	t.Helper()
	dir = t.TempDir()
	in = writeCorpus(t, dir)
	out = filepath.Join(dir, "out")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out}); err != nil {
		t.Fatal(err)
	}
	return dir, in, out, readSet(t, out)
}

// checkKept checks that the result set in out is still before, and that
// nothing was left behind in dir (temporary sets and files start with a
// dot).
func checkKept(t *testing.T, dir, out, before string) {
	t.Helper()
	if after := readSet(t, out); after != before {
		t.Errorf("the results changed after failed runs")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// readSet returns the content of a result set's files.
func readSet(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range []string{output.PairsFile, output.ClustersFile, output.KeptFile} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// kept.jsonl holds each kept record's line byte for byte, whether the second
// reading decodes the records (a matrix asks for their ids) or only copies
// the lines of the ordinals it counts past the records the first skipped.
func TestKeptLinesAsRead(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	// Bad records between the documents, and documents written unlike
	// encoding/json writes them, move every later ordinal.
	lines := strings.SplitAfter(string(data), "\n")
	mixed := []string{"{\"id\": \"broken-first\", \"text\":\n"}
	for i, l := range lines {
		if l == "" {
			continue
		}
		if i%4 == 1 {
			mixed = append(mixed, "not json\n", "{\"id\": \"blank\", \"text\": \"\\n \"}\n")
		}
		if i%3 == 2 {
			l = strings.Replace(strings.Replace(l, `"text":"`, "\"text\" :  \"\\u0020", 1), `{"id"`, `{ "id"`, 1)
		}
		mixed = append(mixed, l)
	}
	if err := os.WriteFile(in, []byte(strings.Join(mixed, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	inputLines := map[string]bool{}
	for _, l := range mixed {
		inputLines[strings.TrimSuffix(l, "\n")] = true
	}
	var kept [2]string
	for i, matrix := range []string{"", filepath.Join(dir, "matrix.json")} {
		out := filepath.Join(dir, "out"+matrix[len(matrix)-min(len(matrix), 4):])
		st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Matrix: matrix})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, output.KeptFile))
		if err != nil {
			t.Fatal(err)
		}
		kept[i] = string(b)
		got := strings.Split(strings.TrimSuffix(kept[i], "\n"), "\n")
		if len(got) != st.Kept || st.Kept == 0 || st.Kept == st.Documents {
			t.Fatalf("%d kept lines, stats say %d kept of %d documents", len(got), st.Kept, st.Documents)
		}
		for _, l := range got {
			if !inputLines[l] || !strings.Contains(l, `"text"`) {
				t.Errorf("kept line not a document's line of the input: %q", l)
			}
		}
	}
	if kept[0] != kept[1] {
		t.Errorf("kept.jsonl differs when the records are decoded:\n%s\n---\n%s", kept[0], kept[1])
	}
}

// cancelOn is a progress writer that cancels a run once a line of a stage
// is printed.
type cancelOn struct {
	stage  string
	cancel context.CancelFunc
}

func (c cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.stage) {
		c.cancel()
	}
	return len(p), nil
}

// A run stopped as it writes its results (the pairs and clusters on one
// goroutine, kept.jsonl on another) leaves the previous results and nothing
// else.
func TestStoppedWhileWritingKeepsResults(t *testing.T) {
	dir, in, out, before := firstResults(t)
	for range 20 {
		ctx, cancel := context.WithCancel(t.Context())
		_, err := Run(ctx, Options{Inputs: []string{in}, Out: out, Progress: cancelOn{"matching:", cancel}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("run stopped after matching: %v", err)
		}
	}
	checkKept(t, dir, out, before)
}

// A run stopped once its second reading is done, while it writes the
// pairs and clusters, stops there: it fails as stopped, and the previous
// results stay. The documents are decoded again (the titles are wanted),
// so the results are written after the second reading, not beside it.
// Regression: that writing took no notice of the stop, and the run put its
// results in place and ended as if never stopped.
func TestStoppedAfterSecondReadingKeepsResults(t *testing.T) {
	dir, in, out, before := firstResults(t)
	titles := filepath.Join(dir, "titles.csv")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var progress bytes.Buffer
	_, err := Run(ctx, Options{Inputs: []string{in}, Out: out, TitlesCSV: titles,
		Progress: io.MultiWriter(&progress, cancelOn{"writing:", cancel})})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run stopped after its second reading: %v, want it cancelled", err)
	}
	if !strings.Contains(progress.String(), "results: interrupted after ") {
		t.Errorf("the progress does not say the results were interrupted:\n%s", progress.String())
	}
	os.Remove(titles)
	checkKept(t, dir, out, before)
}

// TestTitlesCSVCarriesIDs: each row of --titles-csv names its pair by the
// ids pairs.jsonl gives, with the score, beside the titles. Regression: the
// rows had the two titles only.
func TestTitlesCSVCarriesIDs(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	titles := filepath.Join(dir, "titles.csv")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), TitlesCSV: titles}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(titles)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("%d rows", len(rows))
	}
	if diff := cmp.Diff([]string{"a", "b", "score", "title_a", "title_b"}, rows[0]); diff != "" {
		t.Errorf("header (-want +got)\n%s", diff)
	}
	for _, r := range rows[1:] {
		// writeCorpus names a story aN with the title "Story N", and its
		// reprints aN-edit, aN-... with their own titles.
		if !strings.HasPrefix(r[1], r[0]+"-") || r[3] != "Story "+strings.TrimPrefix(r[0], "a") || r[4] == "" {
			t.Errorf("row %q: not a story's id and title beside its copy's", r)
		}
		if s, err := strconv.ParseFloat(r[2], 64); err != nil || s <= 0 || s > 1 {
			t.Errorf("row %q: score %q", r, r[2])
		}
	}
}
