package output

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTitlesCSVInjection writes a titles file of ids and titles that a
// spreadsheet would run as formulas, and checks that each such cell starts
// with a single quote, and that taking one leading quote off gives every
// cell back as it was.
func TestTitlesCSVInjection(t *testing.T) {
	rows := []TitleRow{
		{A: "=1+2", B: "b", Score: 1, TitleA: `=HYPERLINK("http://example.com","x")`, TitleB: "@SUM(A1)"},
		{A: "+7", B: "-3", Score: 0.5, TitleA: "\tTabbed", TitleB: "\rReturned"},
		{A: "'quoted", B: "plain", Score: 0.25, TitleA: "'Tis the season", TitleB: "Rates rise = news"},
		{A: "c", B: "d", Score: 0.75, TitleA: "", TitleB: "Mid-term -1"},
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := Titles(rows)(w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"a", "b", "score", "title_a", "title_b"},
		{"'=1+2", "b", "1", `'=HYPERLINK("http://example.com","x")`, "'@SUM(A1)"},
		{"'+7", "'-3", "0.5", "'\tTabbed", "'\rReturned"},
		{"''quoted", "plain", "0.25", "''Tis the season", "Rates rise = news"},
		{"c", "d", "0.75", "", "Mid-term -1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("titles CSV (-want +got)\n%s", diff)
	}
	for i, r := range rows {
		back := got[i+1]
		for j := range back {
			back[j] = strings.TrimPrefix(back[j], "'")
		}
		if orig := []string{r.A, r.B, back[2], r.TitleA, r.TitleB}; !cmp.Equal(orig, back) {
			t.Errorf("row %d read back: %q, want %q", i+1, back, orig)
		}
	}
}

// A later run tells the files a set wrote by their content, whatever their
// names (wroteExtra, holdsSet): a titles file by its header row, a matrix by
// its first keys, the output directory by its manifest; a corpus of the
// user's, a CSV file or JSON object of other first fields, a directory of
// documents and an empty file are none of them.
func TestEarlierResultsTold(t *testing.T) {
	written := func(write func(w *bufio.Writer) error) []byte {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		if err := write(w); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		return b.Bytes()
	}
	for name, file := range map[string][]byte{
		"titles":           written(Titles([]TitleRow{{A: "a1", B: "b1", Score: 0.9, TitleA: "Port", TitleB: "Port reopens"}})),
		"titles, no pairs": written(Titles(nil)),
		"matrix":           written(Matrix("minhash", []string{"a1", "b1"}, []MatrixPair{{A: 0, B: 1, Score: 0.9}})),
		"matrix, no pairs": written(Matrix("simhash", nil, nil)),
	} {
		if !wroteExtra(file[:min(len(file), extraHeadBytes)]) {
			t.Errorf("%s: not told; it opens %q", name, file[:min(len(file), extraHeadBytes)])
		}
	}
	for _, file := range []string{"", "id,text\n1,Some text.\n", "a,b,score\n", `{"format":"other","method":"minhash"}`,
		`{"id":"1","text":"Some text."}` + "\n"} {
		if wroteExtra([]byte(file)) {
			t.Errorf("%q is told for a titles file or a matrix", file)
		}
	}
	dir := t.TempDir()
	out, docs := filepath.Join(dir, "out"), filepath.Join(dir, "docs")
	if err := writeGeneration(out, nil, 1); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	// Only a name the three kinds are read under is opened: a text file
	// holding a titles header is a document.
	titles := written(Titles(nil))
	for name, want := range map[string]bool{"t.csv": true, "t.txt": false} {
		p := filepath.Join(docs, name)
		if err := os.WriteFile(p, titles, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Earlier(p); got != want {
			t.Errorf("Earlier(%s) holding a titles file = %v, want %v", name, got, want)
		}
	}
	// A named pipe is not opened: its open would wait for a writer.
	if fifo := filepath.Join(docs, "pipe.csv"); syscall.Mkfifo(fifo, 0o644) == nil && Earlier(fifo) {
		t.Errorf("Earlier(%s), a named pipe, = true", fifo)
	}
	if !holdsSet(out) || holdsSet(docs) || holdsSet(filepath.Join(out, KeptFile)) {
		t.Errorf("holdsSet: %v of the output, %v of a directory of documents, %v of kept.jsonl; want true, false, false",
			holdsSet(out), holdsSet(docs), holdsSet(filepath.Join(out, KeptFile)))
	}
}
