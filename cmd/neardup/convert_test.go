package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/job"
)

// convertRow is a row of the Parquet inputs of the convert tests: its own
// column names, an id that may be null, a timestamp.
type convertRow struct {
	Key      *string   `parquet:"key,optional"`
	Headline string    `parquet:"headline"`
	Body     string    `parquet:"body"`
	Printed  time.Time `parquet:"printed,timestamp(millisecond)"`
	Lang     string    `parquet:"lang"`
}

// story is a text of about fifty words, with variant words at the end:
// the stories of one n and another variant are near-duplicates.
func story(n, variant int) string {
	return fmt.Sprintf("Story %d: the ferry from the northern port sank off the coast on Monday morning in heavy "+
		"seas, officials said, and rescuers in boats and helicopters searched the cold water for survivors "+
		"until dark, while families waited at the harbour for news of the passengers and the crew of the "+
		"ship, which had left late. Variant %d ends here.", n, variant)
}

// readResult returns a result file of a dedup run's output directory.
func readResult(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// neardup dedup of a converted file finds what dedup of the input finds:
// the same pairs, ids (those of rows and lines without one of their own,
// named by their place), originals (the dates read) and clusters, for a
// Parquet file and a CSV file of their own column names, read with the
// column flags, each with a record dedup skips, and under --on-duplicate-id
// rename.
func TestConvertThenDedupGivesSameResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	id := func(s string) *string { return &s }
	day := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	pq := filepath.Join(dir, "shard.parquet")
	writeParquet(t, pq, []convertRow{
		{Key: id("a1"), Headline: "Ferry sinks", Body: story(1, 1), Printed: day.Add(2 * time.Hour), Lang: "en"},
		{Key: nil, Headline: "Ferry sank", Body: story(1, 2), Printed: day, Lang: "en"}, // named shard.parquet:2
		{Key: id("a3"), Headline: "Empty", Body: "  ", Printed: day, Lang: "en"},        // skipped: empty
		{Key: id("a4"), Headline: "Ferry lost", Body: story(1, 3), Printed: day.Add(time.Hour), Lang: "en"},
		{Key: id("a5"), Headline: "Other", Body: story(2, 1), Printed: day, Lang: "de"},
	})
	csv := filepath.Join(dir, "news.csv")
	os.WriteFile(csv, []byte("headline,body,when,lang\n"+
		"Ferry sinks,\""+story(1, 1)+"\",2024-03-01 10:00,en\n"+
		"Ferry sank,\""+story(1, 2)+"\",2024-03-01T10:00:00.500+02:00,en\n"+
		"Empty,,2024-03-01,en\n"+
		"Ferry lost,\""+story(1, 3)+"\",2024-03-01T08:00:00.250Z,en\n"+
		"Other,\""+story(2, 1)+"\",,de\n"), 0o644)
	repeats := filepath.Join(dir, "repeats.jsonl")
	os.WriteFile(repeats, []byte(fmt.Sprintf(`{"id":"x","text":%q,"date":"2024-03-01"}`+"\n"+
		`{"id":"x","text":%q,"date":"2024-02-01"}`+"\n"+`{"id":"x#2","text":%q}`+"\n"+`{"text":%q}`+"\n",
		story(1, 1), story(1, 2), story(1, 3), story(2, 1))), 0o644)

	pqFlags := []string{"--id-col", "key", "--title-col", "headline", "--text-col", "body", "--date-col", "printed"}
	for i, tc := range []struct {
		name  string
		input string
		flags []string
	}{
		{"parquet", pq, pqFlags},
		{"parquet keep earliest", pq, append([]string{"--keep", "earliest"}, pqFlags...)},
		{"csv", csv, []string{"--title-col", "headline", "--text-col", "body", "--date-col", "when", "--keep", "earliest"}},
		{"repeated ids renamed", repeats, []string{"--on-duplicate-id", "rename", "--keep", "earliest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, conv := filepath.Join(dir, fmt.Sprint("orig", i)), filepath.Join(dir, fmt.Sprint("conv", i))
			converted := filepath.Join(dir, fmt.Sprintf("converted%d.jsonl", i))
			if i == 1 {
				converted += ".zst" // compressed as its extension says, read back as such
			}
			runOK(t, append([]string{"dedup", tc.input, "-o", orig}, tc.flags...)...)
			// convert takes the reading flags; --keep is dedup's own
			var convFlags, keep []string
			for j := 0; j < len(tc.flags); j += 2 {
				if tc.flags[j] == "--keep" {
					keep = tc.flags[j : j+2]
				} else {
					convFlags = append(convFlags, tc.flags[j:j+2]...)
				}
			}
			runOK(t, append([]string{"convert", tc.input, "-o", converted}, convFlags...)...)
			runOK(t, append([]string{"dedup", converted, "-o", conv}, keep...)...)
			for _, name := range []string{"pairs.jsonl", "clusters.jsonl", "removed.jsonl"} {
				want, got := readResult(t, orig, name), readResult(t, conv, name)
				if want == "" && name != "removed.jsonl" {
					t.Fatalf("%s of the input is empty: the test finds nothing to compare", name)
				}
				if got != want {
					t.Errorf("%s of the converted file differs:\n%s\nwant (of the input):\n%s", name, got, want)
				}
			}
		})
	}
	// The other columns are kept, those read written under their names.
	b, err := os.ReadFile(filepath.Join(dir, "converted0.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	want := `{"id":"a1","title":"Ferry sinks","text":"` + story(1, 1) + `","date":"2024-03-01T11:30:00Z","lang":"en"}`
	if first != want {
		t.Errorf("first line:\n%s\nwant:\n%s", first, want)
	}
	// Dates as read: one without a zone without an offset, fractions of a
	// second kept.
	got := readResult(t, dir, "converted2.jsonl")
	for _, want := range []string{`"date":"2024-03-01T10:00:00","lang"`, `"date":"2024-03-01T10:00:00.5+02:00"`, `"date":"2024-03-01T08:00:00.25Z"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the converted CSV lacks %s:\n%s", want, got)
		}
	}
}

// convert says which records it skipped, as dedup does (the file, line
// and field), counts them, and --rejects lists them as dedup's
// rejects.jsonl does.
func TestConvertReportsBadRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(fmt.Sprintf(`{"id":"1","text":%q}`+"\n"+`{"id":"2","text":""}`+"\n"+`{"id":"3","text":`+"\n"+
		`{"id":"4","text":%q}`+"\n", story(1, 1), story(1, 2))), 0o644)
	out, rejects := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "rejects.jsonl")
	code, _, errOut := runChild(t, "convert", in, "-o", out, "--rejects", rejects)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		`warning: skipped: ` + in + `:2: field "text": empty`,
		`warning: skipped: ` + in + `:3: malformed`,
		`4 records read, 2 written, 2 skipped (1 empty, 1 malformed) → ` + out,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	got := readResult(t, dir, "rejects.jsonl")
	if !strings.Contains(got, `{"file":"`+in+`","line":2,"id":"2","reason":"empty","field":"text","error":"empty"}`) ||
		!strings.Contains(got, `"line":3,`) || !strings.Contains(got, `"reason":"malformed","error":"malformed JSON`) || strings.Count(got, "\n") != 2 {
		t.Errorf("rejects:\n%s", got)
	}
	written := readResult(t, dir, "out.jsonl")
	if lines := strings.Count(written, "\n"); lines != 2 {
		t.Errorf("%d lines written, want 2", lines)
	}
	// -o - writes the same lines to stdout
	code, stdout, errOut := runChild(t, "-q", "convert", in, "-o", "-")
	if code != 0 || stdout != written {
		t.Errorf("-o -: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, written, errOut)
	}
}

// A conversion that fails leaves no output, nor a temporary file, and an
// output of an earlier run as it was: a repeated id (refused as dedup
// refuses it, naming both places), a bad record under --strict, an input
// named as the output.
func TestConvertLeavesNoOutputOnFailure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		lines string
		args  []string
		code  int
		want  string
	}{
		{"repeated id", `{"id":"a","text":"one text"}` + "\n" + `{"id":"a","text":"another text"}` + "\n", nil, 1,
			`in.jsonl:2: id "a" repeats the id of `},
		{"strict", `{"id":"a","text":"one text"}` + "\n" + `{"id":"b","text":""}` + "\n", []string{"--strict"}, 1,
			`in.jsonl:2: field "text": empty`},
		{"no documents", `{"id":"b","text":""}` + "\n", nil, 1, `no documents: 1 records read, every one skipped (1 empty)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl.gz")
			os.WriteFile(in, []byte(tc.lines), 0o644)
			for _, earlier := range []bool{false, true} {
				if earlier {
					os.WriteFile(out, []byte("earlier"), 0o644)
				}
				code, _, errOut := runChild(t, append([]string{"-q", "convert", in, "-o", out, "--rejects", filepath.Join(dir, "r.jsonl")}, tc.args...)...)
				if code != tc.code || !strings.Contains(errOut, tc.want) {
					t.Errorf("exit %d, want %d; stderr:\n%s\nwant in it: %s", code, tc.code, errOut, tc.want)
				}
				entries, _ := os.ReadDir(dir)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				want := "in.jsonl"
				if earlier {
					want = "in.jsonl out.jsonl.gz"
				}
				if got := strings.Join(names, " "); got != want {
					t.Errorf("files left: %s, want %s", got, want)
				}
				if b, _ := os.ReadFile(out); earlier && !bytes.Equal(b, []byte("earlier")) {
					t.Errorf("the earlier output became %q", b)
				}
			}
		})
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"id":"a","text":"one text"}`+"\n"), 0o644)
	code, _, errOut := runChild(t, "convert", in, "-o", in)
	if code != 2 || !strings.Contains(errOut, "is the input") {
		t.Errorf("-o naming the input: exit %d; stderr:\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(in); string(b) != `{"id":"a","text":"one text"}`+"\n" {
		t.Errorf("the input became %q", b)
	}
}

// An output that a run would lose or read back is refused (exit 2), before
// anything is written: --rejects naming the output by another path ("-"
// and /dev/stdout alike), and an output not yet made in an input
// directory, one a later conversion would read.
func TestConvertRefusesOutputsThatClash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(`{"id":"a","text":"one text"}`+"\n"+`{"id":"b","text":""}`+"\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "a.txt"), []byte("one text"), 0o644)
	for _, args := range [][]string{
		{"b.jsonl", "-o", "out.jsonl", "--rejects", "./out.jsonl"},
		{"b.jsonl", "-o", "out.jsonl", "--rejects", filepath.Join(dir, "out.jsonl")},
		{"b.jsonl", "-o", "-", "--rejects", "/dev/stdout"},
		{"b.jsonl", "-o", "/dev/stdout", "--rejects", "-"},
		{"d", "-o", "d/out.jsonl"},
		{"d", "-o", "out.jsonl", "--rejects", "d/r.jsonl"},
	} {
		code, out, errOut := runChildIn(t, dir, append([]string{"-q", "convert"}, args...)...)
		if code != 2 || out != "" {
			t.Errorf("%q: exit %d, want 2; stdout %q, stderr:\n%s", args, code, out, errOut)
		}
		for _, f := range []string{"out.jsonl", "d/out.jsonl", "d/r.jsonl"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				t.Errorf("%q: wrote %s", args, f)
			}
		}
	}
	// A device is written in place: two names of one device lose nothing
	// (standard output and standard error on one terminal).
	if err := os.Symlink("/dev/null", filepath.Join(dir, "null")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runChildIn(t, dir, "-q", "convert", "b.jsonl", "-o", "null", "--rejects", "/dev/null"); code != 0 {
		t.Errorf("-o null --rejects /dev/null: exit %d, want 0; stderr:\n%s", code, errOut)
	}
}

// A record under --max-bytes whose line of JSON is over it (escaping
// grows a text of tabs) stops the conversion, naming the record and the
// limit a reader of the output needs: dedup of the output would skip it as
// too large.
func TestConvertRefusesALineOverMaxBytes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat("word\t", 30)), 0o644) // 150 bytes
	out := filepath.Join(dir, "out.jsonl")
	code, _, errOut := runChild(t, "-q", "convert", filepath.Join(dir, "a.txt"), "--max-bytes", "160", "-o", out)
	if code != 1 || !strings.Contains(errOut, "a.txt: its line of JSON is ") || !strings.Contains(errOut, "over --max-bytes 160") {
		t.Errorf("exit %d, want 1; stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the output was written")
	}
	if code, _, errOut := runChild(t, "-q", "convert", filepath.Join(dir, "a.txt"), "--max-bytes", "400", "-o", out); code != 0 {
		t.Errorf("--max-bytes 400: exit %d; stderr:\n%s", code, errOut)
	}
}

// convert leaves out what an earlier dedup run wrote into an input
// directory, as dedup does.
func TestConvertLeavesOutEarlierResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := filepath.Join(dir, "w")
	os.Mkdir(w, 0o755)
	os.WriteFile(filepath.Join(w, "a.txt"), []byte(story(1, 1)), 0o644)
	os.WriteFile(filepath.Join(w, "b.txt"), []byte(story(1, 2)), 0o644)
	if code, _, errOut := runChild(t, "-q", "dedup", w, "-o", filepath.Join(w, "results")); code != 0 {
		t.Fatalf("dedup: exit %d; stderr:\n%s", code, errOut)
	}
	out := filepath.Join(dir, "w.jsonl")
	code, _, errOut := runChild(t, "-q", "convert", w, "-o", out)
	if code != 0 {
		t.Fatalf("convert: exit %d; stderr:\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") != 2 {
		t.Errorf("converted:\n%s\nwant the lines of a.txt and b.txt", b)
	}
}

// convert says what dedup says of what its inputs held that was not read
// (dates in no form it reads, a directory of nothing read), and its
// --strict error is dedup's, job.ErrStrict.
func TestConvertSaysWhatWasNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "a.csv")
	os.WriteFile(in, []byte("id,text,date\na,one text,yesterday\nb,another text,2024-05-01\n"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	var warn bytes.Buffer
	o := convertOptions{Inputs: []string{in, empty}, Out: filepath.Join(dir, "out.jsonl"), Warn: &warn}
	if err := runConvert(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`warning: dates not read: 1 (e.g. "yesterday" at ` + in + `:2)`,
		"warning: " + empty + ": no .jsonl", "nothing read from this directory; the other inputs are read"} {
		if !strings.Contains(warn.String(), want) {
			t.Errorf("warnings:\n%s\nwant in them: %s", warn.String(), want)
		}
	}
	os.WriteFile(in, []byte("id,text,date\na,one text,yesterday\nb,,2024-05-01\n"), 0o644)
	warn.Reset()
	o = convertOptions{Inputs: []string{in}, Out: filepath.Join(dir, "out.jsonl"), Strict: true, Warn: &warn}
	if err := runConvert(t.Context(), o); !errors.Is(err, job.ErrStrict) {
		t.Errorf("--strict: %v, want job.ErrStrict", err)
	}
	if strings.Contains(warn.String(), "dates not read") { // dedup notes them only after a reading that succeeds
		t.Errorf("a failed conversion noted what it did not read:\n%s", warn.String())
	}
}

// Of the columns that are a standard name but for case or spaces, only the
// one read is written under the standard name; the others are kept as
// they are, and a field left empty is written empty, so that a reader of
// the line reads what dedup read: converting the output again gives it
// back.
func TestConvertKeepsColumnsNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out, again := filepath.Join(dir, "a.csv"), filepath.Join(dir, "o.jsonl"), filepath.Join(dir, "o2.jsonl")
	os.WriteFile(in, []byte("id,text,date,Date ,DATE,Title\na,one text,2024-05-01,x,y,\n"), 0o644)
	for _, args := range [][]string{{in, "-o", out}, {out, "-o", again}} {
		if err := runConvert(t.Context(), convertOptions{Inputs: args[:1], Out: args[2]}); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"id":"a","text":"one text","date":"2024-05-01T00:00:00","title":"","Date ":"x","DATE":"y","Title":""}` + "\n"
	for _, f := range []string{out, again} {
		if b, _ := os.ReadFile(f); string(b) != want {
			t.Errorf("%s:\n%s\nwant\n%s", filepath.Base(f), b, want)
		}
	}
}
