package corpus

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParquetDefaultColumnsReadAsJSONLines is the reviewer's finding: a
// column under a field's default name whose type JSON Lines would read
// (an INT64 date of Unix seconds), or would leave unread (a struct source,
// a list url, a struct date), stopped the run with an error, with no flag
// to leave the column out. Each file is read as the same rows written as
// JSON Lines (the records' Raw, as kept.jsonl holds them) are: the same
// documents, the same dates not read. A DOUBLE id of 1e6 or -0 was the
// id "1000000" or "0" but 1e+06 or -0 in kept.jsonl, read again as
// another id.
func TestParquetDefaultColumnsReadAsJSONLines(t *testing.T) {
	type src struct {
		ID   int64  `parquet:"id"`
		Name string `parquet:"name"`
	}
	type unixDates struct {
		ID     string   `parquet:"id"`
		Text   string   `parquet:"text"`
		Date   *int64   `parquet:"date,optional"`
		URL    []string `parquet:"url,list"`
		Source src      `parquet:"source"`
	}
	type doubles struct {
		ID   *float64 `parquet:"id,optional"`
		Text string   `parquet:"text"`
		Date float64  `parquet:"date"`
		URL  []string `parquet:"url"` // a repeated leaf
	}
	type structDate struct {
		Text string `parquet:"text"`
		Date *src   `parquet:"date,optional"`
	}
	type boolDate struct {
		Text string `parquet:"text"`
		Date bool   `parquet:"date"`
	}
	type clockDate struct {
		ID   string `parquet:"id"`
		Text string `parquet:"text"`
		Date int32  `parquet:"date,time(millisecond)"`
	}
	i64 := func(n int64) *int64 { return &n }
	f64 := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		name, file    string
		dates         int             // dates read
		unread        int             // dates not read
		ignored       []IgnoredColumn // Origin left out
		firstUnreadAt string          // the kind of the first date not read
	}{
		{"INT64 date, list url, struct source", parquetOf(t, []unixDates{
			{ID: "s", Text: "Seconds.", Date: i64(1709251200), URL: []string{"http://x"}, Source: src{1, "AP"}},
			{ID: "ms", Text: "Milliseconds.", Date: i64(1709251200123)},
			{ID: "null", Text: "No date."},
			{ID: "zero", Text: "The epoch is no date.", Date: i64(0)},
			{ID: "neg", Text: "Before it, a date of 1969.", Date: i64(-5)},
		}, 10), 3, 1, []IgnoredColumn{{Field: "URL", Name: "url", Type: "a list"}, {Field: "source", Name: "source", Type: "a struct"}}, `"0"`},
		{"DOUBLE id and date, repeated url", parquetOf(t, []doubles{
			{ID: f64(1), Text: "One.", Date: 1709251200.5, URL: []string{"http://x"}},
			{ID: f64(0.25), Text: "A quarter.", Date: 1.7e9},
			{Text: "No id."},
			{ID: f64(1e6), Text: "A million.", Date: 1.7e9},                   // kept.jsonl wrote 1e+06
			{ID: f64(math.Copysign(0, -1)), Text: "Minus zero.", Date: 1.7e9}, // and -0
		}, 10), 4, 1, []IgnoredColumn{{Field: "URL", Name: "url", Type: "a list (a repeated BYTE_ARRAY)"}}, `"0"`},
		{"struct date", parquetOf(t, []structDate{{Text: "One.", Date: &src{1, "x"}}, {Text: "Two."}}, 10),
			0, 1, nil, "a Parquet struct"},
		{"BOOLEAN date", parquetOf(t, []boolDate{{Text: "One.", Date: true}}, 10), 0, 1, nil, "a Parquet BOOLEAN"},
		{"TIME date", parquetOf(t, []clockDate{{"a", "One.", 37800250}, {"b", "Two.", 0}}, 10),
			0, 2, nil, "a Parquet TIME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.parquet": tc.file})
			pq, pqr := readNoting(t, filepath.Join(dir, "a.parquet"))
			var lines strings.Builder
			for _, r := range pq {
				lines.WriteString(r.Raw + "\n")
			}
			writeFiles(t, dir, map[string]string{"a.jsonl": lines.String()})
			js, jsr := readNoting(t, filepath.Join(dir, "a.jsonl"))
			dates := 0
			for i := range pq {
				if pq[i].Date != "" {
					dates++
				}
				pq[i].Origin, pq[i].Raw = "", ""
				js[i].Origin, js[i].Raw = "", ""
				// A row without an id is named as a line without one is,
				// by its path from the input's directory.
				pq[i].ID = strings.Replace(pq[i].ID, "a.parquet:", "a.jsonl:", 1)
			}
			if diff := cmp.Diff(js, pq); diff != "" {
				t.Errorf("documents (-jsonl +parquet)\n%s", diff)
			}
			n, first := pqr.UnreadDates()
			if jn, _ := jsr.UnreadDates(); n != jn || dates != tc.dates || n != tc.unread || !strings.HasPrefix(first, tc.firstUnreadAt) {
				t.Errorf("dates read %d, not read %d (e.g. %s), as JSON Lines %d; want %d and %d (%s)", dates, n, first, jn, tc.dates, tc.unread, tc.firstUnreadAt)
			}
			ignored := pqr.IgnoredColumns()
			for i := range ignored {
				ignored[i].Origin = ""
			}
			if diff := cmp.Diff(tc.ignored, ignored); diff != "" {
				t.Errorf("ignored columns (-want +got)\n%s", diff)
			}
		})
	}
}

// readNoting reads path to its end, keeping its reader for what it noted.
func readNoting(t *testing.T, path string) ([]rec, *Reader) {
	t.Helper()
	r, err := open([]string{path}, nil, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	recs, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	return recs, r
}

// TestParquetColumnTypeErrors pins that a column of a type its field does
// not read is an error when a flag named it, or when it is the text, the
// id or the title (whose records JSON Lines would skip each), naming the
// column, its type and what the field reads; "not a string" was said of a
// date or an id column, which read more than strings. A TIME named as the
// date was read as a number, each value a date not read, and is refused
// as a BOOLEAN is (named for what it is, not "INT64", which a date column
// reads).
func TestParquetColumnTypeErrors(t *testing.T) {
	type sub struct {
		B string `parquet:"b"`
	}
	type row struct {
		Text  string   `parquet:"text"`
		Extra sub      `parquet:"extra"`
		Flag  bool     `parquet:"flag"`
		Tags  []string `parquet:"tags,list"`
		Kind  map[string]string
		Clock int64 `parquet:"clock,time(microsecond)"`
	}
	type boolID struct {
		ID   bool   `parquet:"id"`
		Text string `parquet:"text"`
	}
	type intTitle struct {
		Title int64  `parquet:"title"`
		Text  string `parquet:"text"`
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.parquet":     parquetOf(t, []row{{Text: "x"}}, 10),
		"id.parquet":    parquetOf(t, []boolID{{Text: "x"}}, 10),
		"title.parquet": parquetOf(t, []intTitle{{Text: "x"}}, 10),
	})
	a := filepath.Join(dir, "a.parquet")
	for _, tc := range []struct {
		name, file string
		opts       Options
		want       string
	}{
		{"date named, BOOLEAN", a, Options{DateField: "flag"},
			`reading ` + a + `: column "flag" (the date) is BOOLEAN, and a date column holds a string, a TIMESTAMP, DATE or INT96, or a number of Unix seconds (or milliseconds)`},
		{"date named, TIME", a, Options{DateField: "clock"},
			`reading ` + a + `: column "clock" (the date) is a TIME, and a date column holds a string, a TIMESTAMP, DATE or INT96`},
		{"date named, struct", a, Options{DateField: "extra"}, `column "extra" (the date) is a struct, and a date column holds a string, a TIMESTAMP`},
		{"source named, list", a, Options{SourceField: "tags"}, `column "tags" (the source) is a list, and a source column holds a string`},
		{"url named, map", a, Options{URLField: "Kind"}, `column "Kind" (the URL) is a map, and a URL column holds a string`},
		{"text named, struct", a, Options{TextField: "extra"}, `column "extra" (the text) is a struct, and a text column holds a string`},
		{"id named, BOOLEAN", a, Options{IDField: "flag"}, `column "flag" (the id) is BOOLEAN, and an id column holds a string or a number`},
		{"id by default, BOOLEAN", filepath.Join(dir, "id.parquet"), Options{}, `column "id" (the id) is BOOLEAN, and an id column holds a string or a number`},
		{"title by default, INT64", filepath.Join(dir, "title.parquet"), Options{}, `column "title" (the title) is INT64, and a title column holds a string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, []string{tc.file}, tc.opts, config{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestParquetHintsNameUsableColumns pins that the column a hint names for
// a field is of a type the field reads: "did you mean" named the struct
// "extra" for --text-col extra.b, and an unread title was said to be in
// a struct "headline".
func TestParquetHintsNameUsableColumns(t *testing.T) {
	type sub struct {
		B string `parquet:"b"`
	}
	type row struct {
		Text     string `parquet:"text"`
		Extra    sub    `parquet:"extra"`
		Flag     bool   `parquet:"flag"`
		Headline sub    `parquet:"headline"`
		Datum    string `parquet:"datum"`
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.parquet")
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{Text: "x"}}, 10)})
	for _, tc := range []struct {
		name   string
		opts   Options
		likely string
	}{
		{"text in a struct", Options{TextField: "extra.b"}, ""},
		{"date near a BOOLEAN", Options{DateField: "flags"}, ""},
		{"date near a string", Options{DateField: "datam"}, "datum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, []string{path}, tc.opts, config{})
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got error %v, want a FieldError", err)
			}
			if got := fe.Likely(); got != tc.likely {
				t.Errorf("Likely() = %q, want %q (seen %q)", got, tc.likely, fe.Seen)
			}
		})
	}
	_, r := readNoting(t, path)
	if u := r.UnreadFields(); len(u) != 0 {
		t.Errorf("unread fields %+v, want none: the struct headline holds no title", u)
	}
}
