package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// TestInputsEndToEnd pins, through the command line, the failures of
// reading that used to pass in silence: a .tar.gz of articles read as
// nothing, a Reuters .sgm file read as one garbage page, a field name that
// matches nothing giving zero documents, exit 0 and wiped results, an
// evaluation whose ids match nothing scoring zero.
func TestInputsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	out := filepath.Join(dir, "out")
	runOK(t, "dedup", example, "-o", out)
	before, err := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}

	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, name := range []string{"bbc/001.txt", "bbc/002.txt"} {
		body := []byte("A headline\n\nThe same story about markets, rates and the bank, told twice over in full.\n")
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write(body)
	}
	tw.Close()
	zw.Close()
	archive := filepath.Join(dir, "bbc.tar.gz")
	os.WriteFile(archive, b.Bytes(), 0o644)
	sgm := filepath.Join(dir, "reut2-000.sgm")
	os.WriteFile(sgm, []byte(`<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS NEWID="1"><DATE>26-FEB-1987 15:01:01.79</DATE><TEXT><TITLE>COCOA</TITLE><BODY>Showers continued in the Bahia cocoa zone.
 Reuter
&#3;</BODY></TEXT></REUTERS>
<REUTERS NEWID="2"><DATE>26-FEB-1987 15:02:20.00</DATE><TEXT><TITLE>COCOA</TITLE><BODY>Showers continued in the Bahia cocoa zone.
 Reuter
&#3;</BODY></TEXT></REUTERS>
`), 0o644)
	crawl := filepath.Join(dir, "crawl")
	os.Mkdir(crawl, 0o755)
	for i, name := range []string{"a.json", "b.json"} {
		// a crawler's file per article, pretty-printed, with its own names
		os.WriteFile(filepath.Join(crawl, name), fmt.Appendf(nil, `{
  "url": "https://news.example/%d",
  "title": "Markets",
  "maintext": "The same story about markets, rates and the bank, told twice over in full, word for word."
}
`, i+1), 0o644)
	}
	truth := filepath.Join(dir, "truth.jsonl")
	os.WriteFile(truth, []byte("{\"id\":\"x1\",\"cluster\":\"1\"}\n{\"id\":\"x2\",\"cluster\":\"1\"}\n"), 0o644)

	for _, tc := range []struct {
		name string
		args []string
		want int
		// pairs is what pairs.jsonl of the run's own output must hold.
		pairs string
	}{
		// Regression: the ids were the absolute path given and the member's path.
		{"tar.gz of articles", []string{"dedup", archive}, 0, `"a":"bbc.tar.gz/bbc/001.txt"`},
		{"Reuters SGML", []string{"dedup", sgm}, 0, `"a":"1","b":"2"`},
		{"JSON files", []string{"dedup", crawl, "--id-col", "url", "--text-col", "maintext"}, 0,
			`"a":"https://news.example/1","b":"https://news.example/2"`},
		{"text field typo", []string{"dedup", example, "--text-col", "txet", "-o", out}, 1, ""},
		{"id field typo", []string{"dedup", example, "--id-col", "nope", "-o", out}, 1, ""},
		{"index add, field typo", []string{"index", "add", "--db", filepath.Join(dir, "x.db"), "--id-col", "nope", example}, 1, ""},
		{"eval, no id in the truth", []string{"eval", "--truth", truth, "--pred", filepath.Join(out, "pairs.jsonl")}, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			own := filepath.Join(t.TempDir(), "out")
			if tc.pairs != "" {
				args = append(args, "-o", own)
			}
			if got := run(t.Context(), append([]string{"-q"}, args...)); got != tc.want {
				t.Fatalf("exit code %d, want %d", got, tc.want)
			}
			if tc.pairs != "" {
				pairs, _ := os.ReadFile(filepath.Join(own, "pairs.jsonl"))
				if !bytes.Contains(pairs, []byte(tc.pairs)) {
					t.Errorf("pairs.jsonl lacks %s:\n%s", tc.pairs, pairs)
				}
			}
		})
	}
	after, _ := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
	if !bytes.Equal(before, after) {
		t.Error("a failed run changed the earlier results")
	}
}

// TestUnreadFieldWarnings pins the warning of a run whose inputs hold a
// title, date, … under a name other than the one looked for: which flag
// reads it, for dedup and index add; and none once the flag names it.
func TestUnreadFieldWarnings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	csv := filepath.Join(dir, "news.csv")
	os.WriteFile(csv, []byte("text,headline,publish_date\nRates rose again today.,Markets,2024-01-02\n"), 0o644)
	title := `warning: ` + csv + `: no "title" field, so no titles are read; --title-col headline reads the title from "headline"`
	date := `warning: ` + csv + `: no "date" field, so no dates are read; --date-col publish_date reads the date from "publish_date"`
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"dedup", csv, "-o", filepath.Join(dir, "out")}, []string{title, date}},
		{[]string{"index", "add", "--db", filepath.Join(dir, "x.db"), csv}, []string{title, date, `warning: documents without an id of their own: 1, ` +
			`named by where they were read (e.g. news.csv:2): such names depend on the inputs given, and a file of the same name ` +
			`added in another run gets the same ones, which the index takes for the documents stored under them (reported ` +
			`conflict, or replaced with --replace); give each record an id (an "id" field, or the field or column --id-col names)`}},
		{[]string{"dedup", csv, "-o", filepath.Join(dir, "out2"), "--title-col", "headline", "--date-col", "publish_date"}, nil},
	} {
		cmd := child(t, append([]string{"-q"}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%v: %v; stderr:\n%s", tc.args, err, &stderr)
			continue
		}
		var got []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(l, "warning: ") {
				got = append(got, l)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%v: warnings (-want +got)\n%s", tc.args, diff)
		}
	}
}

// TestFieldHints pins the line that follows an error about a field the
// inputs lack: the flag that names it, with the name most probably meant.
func TestFieldHints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	csv := filepath.Join(dir, "news.csv")
	os.WriteFile(csv, []byte("url,headline,body\nhttps://a,Markets,Rates rose again today.\n"), 0o644)
	jsonl := filepath.Join(dir, "news.jsonl")
	os.WriteFile(jsonl, []byte(`{"id":"1","Article Body":"Rates rose again today."}`+"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dedup", csv}, `neardup: --text-col body reads the text from "body"`},
		{[]string{"dedup", jsonl}, `neardup: --text-col 'Article Body' reads the text from "Article Body"`},
		{[]string{"dedup", csv, "--text-col", "body", "--title-col", "heading"},
			`neardup: --title-col headline reads the title from "headline"`},
		{[]string{"index", "add", "--db", filepath.Join(dir, "x.db"), jsonl, "--text-col", "Article Body", "--id-col", "zzz"},
			"neardup: --id-col NAME reads the id from the field or column NAME; without --id-col a document without an id is named by its place (file:line)"},
	} {
		cmd := child(t, append(tc.args, "-q", "-o", filepath.Join(dir, "out"))...)
		if tc.args[0] == "index" {
			cmd = child(t, append([]string{"-q"}, tc.args...)...)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("%v: %v, want exit code 1; stderr:\n%s", tc.args, err, &stderr)
			continue
		}
		if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 2 || lines[1] != tc.want {
			t.Errorf("%v: stderr\n%s\nwant its second line %s", tc.args, &stderr, tc.want)
		}
	}
}

// TestParquetColumnsOfOtherTypes is the reviewer's finding through the
// command line: a Parquet file whose date is INT64 Unix seconds, or whose
// source is a struct, stopped the run (exit 1), --date-col "" and
// --source-col "" too, while the same rows as JSON Lines were read. Now
// they are read as JSON Lines reads them, with one warning for the
// source; a flag that names such a column is still an error.
func TestParquetColumnsOfOtherTypes(t *testing.T) {
	t.Parallel()
	type src struct {
		Name string `parquet:"name"`
	}
	type row struct {
		ID     string `parquet:"id"`
		Text   string `parquet:"text"`
		Date   int64  `parquet:"date"`
		Source src    `parquet:"source"`
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.parquet")
	text := "Rates rose again today as the central bank met in the capital."
	writeParquet(t, path, []row{{"a", text, 1709251200, src{"AP"}}, {"b", text, 1709337600, src{"AP"}}})
	warning := `warning: ` + path + `: column "source" is a struct, not a string, so no sources are read; --source-col NAME reads the source from a string column`
	for i, tc := range []struct {
		args []string
		rc   int
		want string
	}{
		{nil, 0, warning},
		{[]string{"--date-col", "", "--source-col", ""}, 0, warning},
		{[]string{"--source-col", "Source"}, 1, `neardup: reading ` + path + `: column "source" (the source) is a struct, and a source column holds a string`},
	} {
		out := filepath.Join(dir, fmt.Sprint("out", i))
		cmd := child(t, append([]string{"-q", "dedup", path, "-o", out, "--keep", "earliest"}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if rc := cmd.ProcessState.ExitCode(); rc != tc.rc || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d (%v), want %d; stderr:\n%s\nwant in it: %s", tc.args, rc, err, tc.rc, &stderr, tc.want)
			continue
		}
		if tc.rc == 0 {
			clusters, _ := os.ReadFile(filepath.Join(out, "clusters.jsonl"))
			if !bytes.Contains(clusters, []byte(`"representative":"a","original":"a"`)) || !bytes.Contains(clusters, []byte(`oldest date`)) {
				t.Errorf("%q: the earlier date did not choose a:\n%s", tc.args, clusters)
			}
		}
	}
}

// Regression (reviewer's finding): dedup news.jsonl empty/ (or a directory
// of .xml and .png files only) failed, exit 1, news.jsonl unread. The
// directory is a warning naming it and the run goes on; a run whose every
// input is such a directory fails as any run that reads no document.
func TestDirectoryWithoutInputsWarns(t *testing.T) {
	t.Parallel()
	text := "This is a reasonably long text about the harbour bridge and its cost overrun in the city."
	dir := writeTree(t, map[string]string{
		"news.jsonl":     `{"id":"a","text":"` + text + `"}` + "\n" + `{"id":"b","text":"` + text + `!"}` + "\n",
		"feeds/site.xml": "<rss version=\"2.0\"><channel></channel></rss>",
		"feeds/logo.png": "x",
	})
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		warns []string
	}{
		{"an empty directory", []string{"dedup", "news.jsonl", "empty", "-o", "out1"}, 0, []string{"warning: empty: no .jsonl"}},
		{"a directory of .xml and .png", []string{"dedup", "news.jsonl", "feeds", "-o", "out2"}, 0, []string{"warning: feeds: no .jsonl", "files not read: 2"}},
		{"no other input", []string{"dedup", "empty", "-o", "out3"}, 1, []string{"warning: empty: no .jsonl", "no documents: the inputs hold no records"}},
	} {
		code, _, errOut := runChildIn(t, dir, tc.args...)
		if code != tc.code {
			t.Errorf("%s: exit code %d, want %d; stderr:\n%s", tc.name, code, tc.code, errOut)
		}
		for _, w := range tc.warns {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, errOut)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "out1", "stats.json")); err != nil || !strings.Contains(string(data), `"documents": 2`) {
		t.Errorf("out1/stats.json: %v\n%s", err, data)
	}
}

// Regression (reviewer's finding): --date-col date on a BOOLEAN column
// named date, or --source-col source on a struct, gave only the warning of
// a column under its default name with no flag naming it (the second
// advising the flag just given), exit 0. A flag given is an explicit
// choice even of the default name: the error docs/parquet.md quotes. No
// flag, or one given empty, still reads the file with the warning.
func TestParquetFlagNamingTheDefaultColumn(t *testing.T) {
	t.Parallel()
	type src struct {
		Name string `parquet:"name"`
	}
	type row struct {
		ID     string `parquet:"id"`
		Text   string `parquet:"text"`
		Date   bool   `parquet:"date"`
		Source src    `parquet:"source"`
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	text := "This is a reasonably long text about the harbour bridge and its cost overrun in the city council meeting today."
	writeParquet(t, path, []row{{ID: "a", Text: text}, {ID: "b", Text: text + " x"}})
	for i, tc := range []struct {
		args []string
		rc   int
		want string
	}{
		{nil, 0, `column "source" is a struct, not a string, so no sources are read`},
		{[]string{"--date-col", "", "--source-col", ""}, 0, `column "source" is a struct, not a string, so no sources are read`},
		{[]string{"--date-col", "date"}, 1, `neardup: reading ` + path + `: column "date" (the date) is BOOLEAN, and a date column holds`},
		{[]string{"--source-col", "source"}, 1, `neardup: reading ` + path + `: column "source" (the source) is a struct, and a source column holds a string`},
	} {
		code, _, errOut := runChild(t, append([]string{"-q", "dedup", path, "-o", filepath.Join(dir, fmt.Sprint("out", i))}, tc.args...)...)
		if code != tc.rc || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, want %d; stderr:\n%s\nwant in it: %s", tc.args, code, tc.rc, errOut, tc.want)
		}
	}
}

// writeParquet writes rows to a Parquet file at path.
func writeParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
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
