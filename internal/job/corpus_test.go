package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// article is a row of the Parquet corpora these tests write: the text and
// id columns and two columns the run passes through.
type article struct {
	ID    string  `parquet:"id" json:"id"`
	Text  string  `parquet:"text" json:"text"`
	Lang  string  `parquet:"lang" json:"lang"`
	Score float64 `parquet:"quality" json:"quality"`
}

// trainingCorpus returns rows with copies: a and c are copies of b, the
// longest, which is kept (the default policy), and d of e; f is
// punctuation only (too short to compare) and g empty.
func trainingCorpus() []article {
	story := func(seed int) string {
		w := make([]string, 80)
		for i := range w {
			w[i] = words[(i*7+seed*13+i*i*seed)%len(words)]
		}
		return strings.Join(w, " ") + "."
	}
	a, d := story(1), story(2)
	return []article{
		{"a", a, "en", 0.9}, {"b", a + " Read more.", "en", 0.5}, {"c", a, "en", 0.4},
		{"d", d, "de", 0.7}, {"e", "Breaking: " + d, "de", 0.8},
		{"f", "... !!! ---", "en", 0.1}, {"g", "", "en", 0},
	}
}

func writeParquet(t *testing.T, path string, rows []article) {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[article](&b, parquet.MaxRowsPerRowGroup(3))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readKept returns the ids and the lines of a kept file of any format.
func readKept(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r io.Reader = bytes.NewReader(data)
	switch {
	case strings.HasSuffix(path, ".gz"):
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case strings.HasSuffix(path, ".zst"):
		zr, err := zstd.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case strings.HasSuffix(path, ".parquet"):
		rows, err := parquet.Read[article](bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range rows {
			out = append(out, fmt.Sprintf("%s %s %g", a.ID, a.Lang, a.Score))
		}
		return out
	}
	lines, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for l := range strings.Lines(string(lines)) {
		var a article
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("%s: %q: %v", path, l, err)
		}
		out = append(out, fmt.Sprintf("%s %s %g", a.ID, a.Lang, a.Score))
	}
	return out
}

// TestKeptFormats runs a Parquet corpus with the kept file in each format:
// the same records, every column passed through.
func TestKeptFormats(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "train.parquet")
	writeParquet(t, in, trainingCorpus())
	want := []string{"b en 0.5", "e de 0.8"}
	for _, name := range output.KeptNames() {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+name)
			st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Kept: name})
			if err != nil {
				t.Fatal(err)
			}
			got := readKept(t, filepath.Join(out, name))
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("kept (-want +got)\n%s", diff)
			}
			if st.Kept != len(want) {
				t.Errorf("stats: %d kept, the file holds %d", st.Kept, len(want))
			}
		})
	}
}

// TestKeptParquetFromJSONL writes kept.parquet from JSON Lines: the
// document's columns and the record whole.
func TestKeptParquetFromJSONL(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	var b bytes.Buffer
	for _, a := range trainingCorpus()[:3] {
		fmt.Fprintf(&b, `{"id":%q,"text":%q,"lang":%q}`+"\n", a.ID, a.Text, a.Lang)
	}
	os.WriteFile(in, b.Bytes(), 0o644)
	out := filepath.Join(dir, "out")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Kept: "kept.parquet"}); err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID     string `parquet:"id"`
		Record string `parquet:"record"`
	}
	rows, err := parquet.ReadFile[row](filepath.Join(out, "kept.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].ID != "b" || !strings.HasPrefix(rows[0].Record, `{"id":"b","text":`) || !strings.HasSuffix(rows[0].Record, `,"lang":"en"}`) {
		t.Errorf("kept.parquet: %+v, want b with its record", rows)
	}
}

// TestRemovedAndRejects checks removed.jsonl (each copy with its cluster
// and what was kept in its place) and rejects.jsonl (each record not
// compared, whatever the reason, none of them in kept).
func TestRemovedAndRejects(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "train.parquet")
	writeParquet(t, in, trainingCorpus())
	out := filepath.Join(dir, "out")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out}); err != nil {
		t.Fatal(err)
	}
	type removed struct {
		ID      string `json:"id"`
		Cluster int    `json:"cluster"`
		Kept    string `json:"kept"`
	}
	var rm []removed
	for _, l := range lines(t, filepath.Join(out, output.RemovedFile)) {
		var r removed
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rm = append(rm, r)
	}
	slices.SortFunc(rm, func(x, y removed) int { return strings.Compare(x.ID, y.ID) })
	if len(rm) != 3 || rm[0].ID != "a" || rm[0].Kept != "b" || rm[1].ID != "c" || rm[1].Kept != "b" || rm[2].ID != "d" || rm[2].Kept != "e" ||
		rm[0].Cluster != rm[1].Cluster || rm[0].Cluster == rm[2].Cluster {
		t.Errorf("removed.jsonl: %+v, want a and c in b's cluster, d in e's", rm)
	}
	var rejects []output.Reject
	for _, l := range lines(t, filepath.Join(out, output.RejectsFile)) {
		var r output.Reject
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rejects = append(rejects, r)
	}
	want := []output.Reject{
		{File: in, Row: 6, ID: "f", Reason: "too-short", Error: "not compared: a text of fewer than 30 characters, white space not counted (--min-text)"},
		{File: in, Row: 7, ID: "g", Reason: "empty", Field: "text", Error: "empty"},
	}
	if diff := cmp.Diff(want, rejects); diff != "" {
		t.Errorf("rejects.jsonl (-want +got)\n%s", diff)
	}
	if got := readKept(t, filepath.Join(out, output.KeptFile)); !slices.Equal(got, []string{"b en 0.5", "e de 0.8"}) {
		t.Errorf("kept.jsonl: %q, want b and e alone", got)
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestDuplicateIDs runs two shards that number their records from 0 under
// each answer to a repeated id.
func TestDuplicateIDs(t *testing.T) {
	dir := t.TempDir()
	rows := trainingCorpus()
	shard := func(name string, texts ...string) string {
		var b bytes.Buffer
		for i, text := range texts {
			fmt.Fprintf(&b, `{"id":"%d","text":%q}`+"\n", i, text)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	a := shard("a.jsonl", rows[0].Text, rows[3].Text)
	b := shard("b.jsonl", rows[0].Text+" Read more.")
	ins := []string{a, b}
	pairs := func(out string) []string {
		var got []string
		for _, l := range lines(t, filepath.Join(out, output.PairsFile)) {
			var p struct{ A, B string }
			json.Unmarshal([]byte(l), &p)
			got = append(got, p.A+" "+p.B)
		}
		return got
	}

	t.Run("fail, the default, names both places", func(t *testing.T) {
		_, err := Run(t.Context(), Options{Inputs: ins, Out: filepath.Join(dir, "fail")})
		want := b + `:1: id "0" repeats the id of ` + a + `:1`
		if !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want ErrDuplicateID with %q", err, want)
		}
	})
	t.Run("skip", func(t *testing.T) {
		out := filepath.Join(dir, "skip")
		if _, err := Run(t.Context(), Options{Inputs: ins, Out: out, OnDuplicateID: DuplicateSkip}); err != nil {
			t.Fatal(err)
		}
		rj := lines(t, filepath.Join(out, output.RejectsFile))
		want := `{"file":"` + b + `","line":1,"id":"0","reason":"duplicate-id","field":"id","error":"id \"0\" repeats the id of ` + a + `:1"}`
		if len(rj) != 1 || rj[0] != want {
			t.Errorf("rejects.jsonl: %q, want %s", rj, want)
		}
		if got := readKept(t, filepath.Join(out, output.KeptFile)); len(got) != 2 {
			t.Errorf("kept: %q, want a's two documents", got)
		}
	})
	// Regression: the reject of a repeated id in a Parquet file gave its
	// row as a "line", where every other reject of a Parquet row says "row".
	t.Run("skip names a Parquet row as a row", func(t *testing.T) {
		pa, pb := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
		writeParquet(t, pa, rows[:1])
		writeParquet(t, pb, []article{rows[3], rows[0]})
		out := filepath.Join(dir, "skip-parquet")
		if _, err := Run(t.Context(), Options{Inputs: []string{pa, pb}, Out: out, OnDuplicateID: DuplicateSkip}); err != nil {
			t.Fatal(err)
		}
		rj := lines(t, filepath.Join(out, output.RejectsFile))
		want := `{"file":"` + pb + `","row":2,"id":"a","reason":"duplicate-id","field":"id","error":"id \"a\" repeats the id of ` + pa + `:1"}`
		if len(rj) != 1 || rj[0] != want {
			t.Errorf("rejects.jsonl: %q, want %s", rj, want)
		}
	})
	t.Run("rename", func(t *testing.T) {
		out := filepath.Join(dir, "rename")
		if _, err := Run(t.Context(), Options{Inputs: ins, Out: out, OnDuplicateID: DuplicateRename}); err != nil {
			t.Fatal(err)
		}
		if got := pairs(out); !slices.Equal(got, []string{"0 0#2"}) {
			t.Errorf("pairs %q, want 0 and 0#2", got)
		}
	})
	t.Run("id scope file", func(t *testing.T) {
		out := filepath.Join(dir, "scope")
		if _, err := Run(t.Context(), Options{Inputs: ins, Out: out, IDScope: "file"}); err != nil {
			t.Fatal(err)
		}
		if got, want := pairs(out), []string{"a.jsonl#0 b.jsonl#0"}; !slices.Equal(got, want) {
			t.Errorf("pairs %q, want %q", got, want)
		}
	})
	// Regression: a record without an id, read from a path with a
	// directory, became "/dir/c.jsonl#c.jsonl:1" (its origin, the path as
	// given, is not its id, the path relative to the input's directory).
	t.Run("id scope file, a record without an id", func(t *testing.T) {
		c := filepath.Join(dir, "noid.jsonl")
		os.WriteFile(c, []byte(`{"text":"`+strings.Repeat("one two three four five six seven ", 4)+`"}`+"\n"+
			`{"id":"x","text":"`+strings.Repeat("one two three four five six seven ", 4)+`"}`+"\n"), 0o644)
		out := filepath.Join(dir, "scope-noid")
		if _, err := Run(t.Context(), Options{Inputs: []string{c}, Out: out, IDScope: "file"}); err != nil {
			t.Fatal(err)
		}
		if got, want := pairs(out), []string{"noid.jsonl:1 noid.jsonl#x"}; !slices.Equal(got, want) {
			t.Errorf("pairs %q, want %q", got, want)
		}
	})
	// Regression: the file of "FILE#ID" was the path as given
	// ("/dir/sh/shard-01.jsonl#0" of an input given as /dir/sh,
	// "sh/shard-01.jsonl#0" of one given as sh), where a record without an
	// id is named relative to the directory holding the input, however it
	// was given.
	t.Run("id scope file, an input given by an absolute or a relative path", func(t *testing.T) {
		os.MkdirAll(filepath.Join(dir, "sh"), 0o755)
		os.WriteFile(filepath.Join(dir, "sh", "shard-01.jsonl"), []byte(`{"id":"0","text":"`+strings.Repeat("one two three four five six seven ", 4)+`"}`+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "sh", "shard-02.jsonl"), []byte(`{"id":"0","text":"`+strings.Repeat("one two three four five six seven ", 4)+`eight"}`+"\n"), 0o644)
		want := []string{"sh/shard-01.jsonl#0 sh/shard-02.jsonl#0"}
		out := filepath.Join(dir, "scope-abs")
		if _, err := Run(t.Context(), Options{Inputs: []string{filepath.Join(dir, "sh")}, Out: out, IDScope: "file"}); err != nil {
			t.Fatal(err)
		}
		if got := pairs(out); !slices.Equal(got, want) {
			t.Errorf("given as %s: pairs %q, want %q", filepath.Join(dir, "sh"), got, want)
		}
		t.Chdir(dir)
		out = filepath.Join(dir, "scope-rel")
		if _, err := Run(t.Context(), Options{Inputs: []string{"sh"}, Out: out, IDScope: "file"}); err != nil {
			t.Fatal(err)
		}
		if got := pairs(out); !slices.Equal(got, want) {
			t.Errorf("given as sh: pairs %q, want %q", got, want)
		}
	})
	// Two files of one name, given from the first's folder: the first's
	// records are named "a/x.jsonl:1", not by its path as given.
	t.Run("id scope file, records without ids in two files of one name", func(t *testing.T) {
		text := `{"text":"` + strings.Repeat("one two three four five six seven ", 4) + `"}` + "\n"
		for _, d := range []string{"a", "b"} {
			os.MkdirAll(filepath.Join(dir, d), 0o755)
			os.WriteFile(filepath.Join(dir, d, "x.jsonl"), []byte(text), 0o644)
		}
		t.Chdir(filepath.Join(dir, "a"))
		out := filepath.Join(dir, "scope-two")
		if _, err := Run(t.Context(), Options{Inputs: []string{"x.jsonl", "../b/x.jsonl"}, Out: out, IDScope: "file"}); err != nil {
			t.Fatal(err)
		}
		if got, want := pairs(out), []string{"a/x.jsonl:1 b/x.jsonl:1"}; !slices.Equal(got, want) {
			t.Errorf("pairs %q, want %q", got, want)
		}
	})
	t.Run("id scope file, an id repeated in one file", func(t *testing.T) {
		c := filepath.Join(dir, "c.jsonl")
		os.WriteFile(c, []byte(`{"id":"x","text":"one"}`+"\n"+`{"id":"x","text":"two"}`+"\n"), 0o644)
		_, err := Run(t.Context(), Options{Inputs: []string{c}, Out: filepath.Join(dir, "scope-fail"), IDScope: "file"})
		// --id-scope file is no way out: it is given.
		if !errors.Is(err, ErrDuplicateID) || strings.Contains(err.Error(), "--id-scope") || !strings.Contains(err.Error(), "--on-duplicate-id skip") {
			t.Fatalf("error %v, want ErrDuplicateID naming --on-duplicate-id and not --id-scope", err)
		}
	})
}

// TestRenameWarningNamesTheIDsHolder: under --on-duplicate-id rename,
// the warning of a third document of one id names the document that kept
// the id, not the second, which was renamed ("x#2") and holds it no more.
func TestRenameWarningNamesTheIDsHolder(t *testing.T) {
	dir := t.TempDir()
	rows := trainingCorpus()
	in := filepath.Join(dir, "c.jsonl")
	var b bytes.Buffer
	for _, i := range []int{0, 3, 4} {
		fmt.Fprintf(&b, `{"id":"x","text":%q}`+"\n", rows[i].Text)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(warn.String(), "\n") {
		if strings.HasPrefix(l, "warning: renamed: ") {
			got = append(got, l)
		}
	}
	want := []string{
		"warning: renamed: " + in + `:2: id "x" repeats the id of ` + in + `:1; it is "x#2" in the results`,
		"warning: renamed: " + in + `:3: id "x" repeats the id of ` + in + `:1; it is "x#3" in the results`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got)\n%s", diff)
	}
}

// TestRenameMeetsARecordsOwnID: regression, under --on-duplicate-id rename a
// later record whose own id is one a repeat was renamed to earlier ("0#3")
// was renamed in turn ("0#3#2") with a warning that said it repeats the id of
// the record renamed, whose own id is "0". Ids are given in reading order (a
// renamed id is the first "ID#n" no earlier document holds: a later one is not
// read yet), and the warning says which rename the record meets.
func TestRenameMeetsARecordsOwnID(t *testing.T) {
	dir := t.TempDir()
	rows := trainingCorpus()
	in := filepath.Join(dir, "c.jsonl")
	var b bytes.Buffer
	for i, id := range []string{"0", "0", "0", "0#3"} {
		fmt.Fprintf(&b, `{"id":%q,"text":%q}`+"\n", id, rows[[]int{0, 3, 4, 5}[i]].Text)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	var added idRecorder
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename,
		Warn: &warn, wrapBatch: func(inner engine.Batch) engine.Batch { added.Batch = inner; return &added }}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"0", "0#2", "0#3", "0#3#2"}, added.ids); diff != "" {
		t.Errorf("ids (-want +got)\n%s", diff)
	}
	want := "warning: renamed: " + in + `:4: id "0#3" is the id ` + in + `:3 was renamed to earlier (its own, "0", repeated); it is "0#3#2" in the results`
	if !strings.Contains(warn.String(), want+"\n") {
		t.Errorf("warnings:\n%s\nwant the line\n%s", warn.String(), want)
	}
}

// TestInterruptedStageSaysSo stops a run at the end of its reading: the
// last progress line says the next stage was interrupted, not done, after
// the documents it did, none (it said all the documents there were:
// "matching: interrupted after 300000 docs" of a run at 74 %).
func TestInterruptedStageSaysSo(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "train.parquet")
	writeParquet(t, in, trainingCorpus())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var b bytes.Buffer
	w := &recorder{b: &b, on: "reading:", cancel: cancel}
	if _, err := Run(ctx, Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Progress: w}); !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want it cancelled", err)
	}
	got := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := got[len(got)-1]; !strings.HasPrefix(last, "matching: interrupted after 0 docs, ") {
		t.Errorf("last line %q, want matching: interrupted; all:\n%s", last, b.String())
	}
}

// TestInterruptedMidStageNamesDocsDone pins that a matching stage
// interrupted midway names the documents its last report said were done,
// not all there are (a tfidf run of 300,000 documents stopped at 74 %
// said "matching: interrupted after 300000 docs").
func TestInterruptedMidStageNamesDocsDone(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "train.parquet")
	writeParquet(t, in, trainingCorpus())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var b bytes.Buffer
	o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Progress: &b,
		wrapBatch: func(b engine.Batch) engine.Batch { return &stopsMidway{Batch: b, cancel: cancel} }}
	if _, err := Run(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want it cancelled", err)
	}
	got := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := got[len(got)-1]; !strings.HasPrefix(last, "matching: interrupted after 3 docs, ") {
		t.Errorf("last line %q, want matching: interrupted after 3 docs; all:\n%s", last, b.String())
	}
}

// stopsMidway is a batch whose matching reports 2, then 3 documents done,
// and is interrupted there.
type stopsMidway struct {
	engine.Batch
	cancel context.CancelFunc
}

func (s *stopsMidway) Finish(ctx context.Context, progress func(done int)) error {
	progress(2)
	progress(3)
	s.cancel()
	return ctx.Err()
}

// recorder keeps the progress lines and cancels the run once a line
// starting with on is printed.
type recorder struct {
	b      *bytes.Buffer
	on     string
	cancel context.CancelFunc
}

func (r *recorder) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), r.on) {
		r.cancel()
	}
	return r.b.Write(p)
}

// idRecorder is a batch that records the ids of the documents added.
type idRecorder struct {
	engine.Batch
	ids []string
}

func (r *idRecorder) Add(doc *core.Document, s engine.Sketch) error {
	err := r.Batch.Add(doc, s)
	if err == nil {
		r.ids = append(r.ids, doc.ID)
	}
	return err
}

// TestIDNamerNamesAsARun: IDNamer gives each document of a corpus the id a
// run of the same IDScope and OnDuplicateID gives it, as the run adds it to
// its batch: a repeat renamed past an id the input
// holds already ("4#2"), an empty record that takes no id, a document the
// method skips ("... !!! ---", the sixth) that takes one, the ids of two
// files scoped by file.
func TestIDNamerNamesAsARun(t *testing.T) {
	dir := t.TempDir()
	rows := trainingCorpus()
	write := func(name string, ids ...string) string {
		var b bytes.Buffer
		for i, id := range ids {
			text := rows[i%len(rows)].Text
			if id == "blank" {
				id, text = "4", ""
			}
			fmt.Fprintf(&b, `{"id":%q,"text":%q}`+"\n", id, text)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	a := write("a.jsonl", "4", "5", "4#2", "blank", "4", "5", "4")
	b := write("b.jsonl", "4", "6", "4")
	for _, tc := range []struct {
		scope, dup string
		want       []string
	}{
		{"run", DuplicateRename, []string{"4", "5", "4#2", "4#3", "5#2", "4#4", "6", "4#5"}},
		{"run", DuplicateSkip, []string{"4", "5", "4#2", "6"}},
		{"file", DuplicateRename, []string{"a.jsonl#4", "a.jsonl#5", "a.jsonl#4#2", "a.jsonl#4#3", "a.jsonl#5#2", "b.jsonl#4", "b.jsonl#6", "b.jsonl#4#2"}},
	} {
		t.Run(tc.scope+" "+tc.dup, func(t *testing.T) {
			var added idRecorder
			_, err := Run(t.Context(), Options{Inputs: []string{a, b}, Out: filepath.Join(dir, tc.scope+"-"+tc.dup),
				IDScope: tc.scope, OnDuplicateID: tc.dup,
				wrapBatch: func(inner engine.Batch) engine.Batch { added.Batch = inner; return &added }})
			if err != nil {
				t.Fatal(err)
			}
			var named []string
			n := IDNamer{Scope: tc.scope, OnDuplicate: tc.dup}
			for _, in := range []string{a, b} {
				r, err := corpus.Open([]string{in}, corpus.Options{})
				if err != nil {
					t.Fatal(err)
				}
				n.Reader = r
				for {
					rec, err := r.Next()
					if errors.Is(err, io.EOF) {
						break
					} else if err != nil {
						t.Fatal(err)
					}
					if id, kept, _ := n.Name(&rec); kept {
						named = append(named, id)
					}
				}
				r.Close()
			}
			if diff := cmp.Diff(tc.want, added.ids); diff != "" {
				t.Errorf("the run's ids (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(added.ids, named); diff != "" {
				t.Errorf("IDNamer's ids against the run's (-run +IDNamer)\n%s", diff)
			}
		})
	}
}
