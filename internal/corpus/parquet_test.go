package corpus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	"github.com/neardup/neardup/core"
)

// news is a row of the Parquet files the tests write.
type news struct {
	ID    int64     `parquet:"id"`
	Title string    `parquet:"title"`
	Text  *string   `parquet:"text,optional"`
	Year  int32     `parquet:"year"`
	Score float64   `parquet:"score"`
	When  time.Time `parquet:"when,timestamp(millisecond)"`
	Tags  []string  `parquet:"tags,list"`
}

func str(s string) *string { return &s }

// parquetOf writes rows of type T as a Parquet file, rowsPerGroup rows a
// row group.
func parquetOf[T any](t testing.TB, rows []T, rowsPerGroup int) string {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b, parquet.MaxRowsPerRowGroup(int64(rowsPerGroup)))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestParquet(t *testing.T) {
	when := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	rows := []news{
		{ID: 7, Title: "A", Text: str("Body one."), Year: 2024, Score: 0.5, When: when, Tags: []string{"x", "y"}},
		{ID: 8, Title: "B", Text: nil, Year: 2023},
		{ID: 9, Title: "C", Text: str("Body three."), Year: 2022, Score: 1, Tags: []string{}},
	}
	file := parquetOf(t, rows, 2) // two row groups
	wantRaw := []string{
		`{"id":7,"title":"A","text":"Body one.","year":2024,"score":0.5,"when":"2024-03-05T10:00:00Z","tags":["x","y"]}`,
		"",
		`{"id":9,"title":"C","text":"Body three.","year":2022,"score":1,"when":"0001-01-01T00:00:00Z","tags":[]}`,
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"news.parquet": file, "in.zip": zipOf(t, member{"d/news.parquet", file}),
		"news.parquet.gz": gz(t, file), "shard": file})
	for _, tc := range []struct {
		name, path, origin string
		opts               Options
	}{
		{"in place", "news.parquet", "news.parquet", Options{}},
		{"in a zip archive", "in.zip", "in.zip/d/news.parquet", Options{}},
		{"gzipped", "news.parquet.gz", "news.parquet.gz", Options{}},
		{"by its magic, no extension", "shard", "shard", Options{}},
		{"forced", "shard", "shard", Options{Format: "parquet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, []string{filepath.Join(dir, tc.path)}, tc.opts, config{})
			if err != nil {
				t.Fatal(err)
			}
			o := filepath.Join(dir, tc.origin)
			want := []rec{
				{ID: "7", Title: "A", Text: "Body one.", Origin: o + ":1", Raw: wantRaw[0]},
				{ID: "8", Title: "B", Origin: o + ":2", Skip: "empty", Err: o + `:2: field "text": empty`},
				{ID: "9", Title: "C", Text: "Body three.", Origin: o + ":3", Raw: wantRaw[2]},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestParquetRowsWithoutIDNamedAsJSONLines is the regression test of
// Parquet rows without an id (null, or "") that were named by the path as
// typed ("/data/d/sub/a.parquet:2", "../d/sub/a.parquet:2"), so that one
// file read from two working directories gave its rows two ids: they are
// named as a JSON Lines record without an id is, relative to the
// directory holding the input given.
func TestParquetRowsWithoutIDNamedAsJSONLines(t *testing.T) {
	type row struct {
		ID   *string `parquet:"id,optional"`
		Text string  `parquet:"text"`
	}
	dir := t.TempDir()
	file := parquetOf(t, []row{{str("x"), "one"}, {nil, "two"}, {str(""), "three"}}, 10)
	lines := `{"id":"x","text":"one"}` + "\n" + `{"id":null,"text":"two"}` + "\n" + `{"id":"","text":"three"}` + "\n"
	writeFiles(t, dir, map[string]string{"d/sub/a.parquet": file, "d/sub/a.jsonl": lines,
		"in.zip": zipOf(t, member{"sub/a.parquet", file}, member{"sub/a.jsonl", lines})})
	t.Chdir(filepath.Join(dir, "d", "sub"))
	for _, tc := range []struct {
		name, path, named string // named: the id of the second row, "EXT" for the file's extension
	}{
		{"absolute path", filepath.Join(dir, "d", "sub", "a.EXT"), "a.EXT:2"},
		{"relative path", "a.EXT", "a.EXT:2"},
		{"path through its parent", "../sub/a.EXT", "a.EXT:2"},
		{"in a directory given", "../../d", "d/sub/a.EXT:2"},
		{"in an archive", filepath.Join(dir, "in.zip"), "in.zip/sub/a.EXT:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ext := range []string{"parquet", "jsonl"} {
				path := strings.ReplaceAll(tc.path, "EXT", ext)
				got, err := readAll(t, []string{path}, Options{}, config{})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, r := range got {
					if strings.Contains(r.Origin, "."+ext) {
						ids = append(ids, r.ID)
					}
				}
				second := strings.ReplaceAll(tc.named, "EXT", ext)
				want := []string{"x", second, strings.TrimSuffix(second, "2") + "3"}
				if diff := cmp.Diff(want, ids); diff != "" {
					t.Errorf("%s: ids (-want +got)\n%s", path, diff)
				}
			}
		})
	}
}

// TestParquetRowOverLimitKeepsItsID is the regression test of Parquet rows
// skipped as too large under a made-up id ("a.parquet:2", though the row's
// id is "d2"), with a message that said "too large to read" of a row that
// was read: such a row is read whole with its page, so it keeps the id it
// holds (a row without one is named as any is), and its message says its
// size and the limit.
//
// A row over the limit by an id longer than core.MaxIDBytes is named by
// its origin, and its message says why.
func TestParquetRowOverLimitKeepsItsID(t *testing.T) {
	type row struct {
		ID   *string `parquet:"id,optional"`
		Text string  `parquet:"text"`
	}
	long := strings.Repeat("word ", 40)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{
		{str("d1"), "Short."}, {str("d2"), long}, {nil, long}, {str(""), long},
		{str(strings.Repeat("x", core.MaxIDBytes+1)), "Short."}, {str(strings.Repeat("y", core.MaxIDBytes)), "Short."},
	}, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{MaxBytes: 100}, config{})
	if err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "a.parquet")
	over := func(n, size int) string {
		return fmt.Sprintf("%s:%d: a row of %d bytes, over the limit of 100 bytes a record (--max-bytes)", o, n, size)
	}
	want := []rec{
		{ID: "d1", Text: "Short.", Origin: o + ":1", Raw: `{"id":"d1","text":"Short."}`},
		{ID: "d2", Origin: o + ":2", Skip: "too-large", Err: over(2, 218)},
		{ID: "a.parquet:3", Origin: o + ":3", Skip: "too-large", Err: over(3, 216)},
		{ID: "a.parquet:4", Origin: o + ":4", Skip: "too-large", Err: over(4, 216)},
		// Over the limit by its id, longer than an id is kept: the id
		// was written whole into rejects.jsonl, of any length.
		{ID: "a.parquet:5", Origin: o + ":5", Skip: "too-large", Err: over(5, 535) +
			"; its id of 513 bytes is longer than 512 bytes, so the row is named by its origin"},
		{ID: strings.Repeat("y", core.MaxIDBytes), Origin: o + ":6", Skip: "too-large", Err: over(6, 534)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestParquetNonFiniteDatesNotRead is the regression test of a FLOAT or
// DOUBLE date that is NaN or infinite, which left its document undated
// without a note: it is a date not read, counted and named as 0 or a
// negative number is.
func TestParquetNonFiniteDatesNotRead(t *testing.T) {
	type row struct {
		ID    string  `parquet:"id"`
		Text  string  `parquet:"text"`
		Date  float64 `parquet:"date"`
		Float float32 `parquet:"f"`
	}
	inf := math.Inf(1)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{
		{"a", "One.", 1.7e9, 1.7e9}, {"b", "Two.", math.NaN(), float32(math.NaN())}, {"c", "Three.", inf, float32(inf)},
		{"d", "Four.", -inf, float32(-inf)}, {"e", "Five.", 0, 0},
	}, 10)})
	o := filepath.Join(dir, "a.parquet")
	for _, col := range []string{"date", "f"} {
		t.Run(col, func(t *testing.T) {
			r, err := open([]string{o}, nil, Options{DateField: col}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var dated, notes []string
			for {
				raw, err := r.NextRaw()
				if err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				rec := r.Decode(raw)
				if !rec.Doc.Date.IsZero() {
					dated = append(dated, rec.Doc.ID)
				}
				if rec.UnreadDate != "" {
					notes = append(notes, strings.Replace(rec.UnreadDate, o, "a.parquet", 1))
				}
			}
			if diff := cmp.Diff([]string{"a"}, dated); diff != "" {
				t.Errorf("documents dated (-want +got)\n%s", diff)
			}
			want := []string{`"NaN" at a.parquet:2`, `"+Inf" at a.parquet:3`, `"-Inf" at a.parquet:4`, `"0" at a.parquet:5`}
			if diff := cmp.Diff(want, notes); diff != "" {
				t.Errorf("notes (-want +got)\n%s", diff)
			}
			if n, _ := r.UnreadDates(); n != len(want) {
				t.Errorf("%d dates not read, want %d", n, len(want))
			}
		})
	}
}

// TestParquetFloatIDs is the regression test of ids of a FLOAT or DOUBLE
// column (pandas writes integer ids as float64 when the column holds a
// null) written with an exponent: 1e+06, 2.0240105e+07. An integral value
// is written as an integer, another as its shortest decimal, with an
// exponent only from 10²¹ or under 10⁻⁶: for a FLOAT, of its own 32 bits
// (float32(1e-6) was written 1e-06, tested as the float64 9.99999997e-07).
// A NaN or an infinity is no id.
func TestParquetFloatIDs(t *testing.T) {
	type row struct {
		ID   *float64 `parquet:"id,optional"`
		F    float32  `parquet:"f"`
		Text string   `parquet:"text"`
	}
	num := func(f float64) *float64 { return &f }
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{
		{num(999999), 999999, "1"}, {num(1e6), 1e6, "2"}, {num(1234567), 1234567, "3"},
		{num(20240105), 16777216, "4"}, {num(0.5), 0.5, "5"}, {num(-12.25), -12.25, "6"},
		{num(1e21), 1e21, "7"}, {num(1e-7), 1e-7, "8"}, {num(math.Copysign(0, -1)), 0.1, "9"},
		{nil, 0, "10"}, {num(math.NaN()), float32(math.NaN()), "11"},
		{num(math.Inf(1)), float32(math.Inf(-1)), "12"}, {num(1e-6), 1e-6, "13"}, {num(123456789), 123456789, "14"},
	}, 10)})
	o := filepath.Join(dir, "a.parquet")
	for _, tc := range []struct {
		col  string
		want []string
	}{
		{"id", []string{"999999", "1000000", "1234567", "20240105", "0.5", "-12.25", "1e+21", "1e-07", "0",
			"a.parquet:10", "a.parquet:11", "a.parquet:12", "0.000001", "123456789"}},
		// float32(1e-6) is 9.99999997e-07 as a float64, and 123456789 is
		// stored as 123456792, the shortest decimal of which is 123456790.
		{"f", []string{"999999", "1000000", "1234567", "16777216", "0.5", "-12.25", "1e+21", "1e-07", "0.1",
			"0", "a.parquet:11", "a.parquet:12", "0.000001", "123456790"}},
	} {
		t.Run(tc.col, func(t *testing.T) {
			got, err := readAll(t, []string{o}, Options{IDField: tc.col}, config{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("ids (-want +got)\n%s", diff)
			}
		})
	}
}

// TestParquetUnsignedIntegers is the regression test of unsigned Parquet
// integers (INT(n, false)) read as signed: an id 18446744073709551615 was
// "-1", a uint32 2147483649 in kept.jsonl -2147483647. Each is read as
// the value written, as the id, the date and in the record, nested ones
// too.
func TestParquetUnsignedIntegers(t *testing.T) {
	type u64Row struct {
		ID   uint64   `parquet:"id"`
		Text string   `parquet:"text"`
		H32  uint32   `parquet:"h32"`
		H16  uint16   `parquet:"h16"`
		H8   uint8    `parquet:"h8"`
		Date uint64   `parquet:"date"`
		List []uint64 `parquet:"list,list"`
	}
	type u32Row struct {
		ID   uint32 `parquet:"id"`
		Text string `parquet:"text"`
	}
	type u16Row struct {
		ID   uint16 `parquet:"id"`
		Text string `parquet:"text"`
	}
	type u8Row struct {
		ID   uint8  `parquet:"id"`
		Text string `parquet:"text"`
	}
	for _, tc := range []struct {
		name, file string
		want       rec
	}{
		{"uint64 id, every width passed through", parquetOf(t, []u64Row{{ID: math.MaxUint64, Text: "One.", H32: 1<<31 + 1, H16: math.MaxUint16,
			H8: math.MaxUint8, Date: 1772524800, List: []uint64{1<<63 + 5}}}, 10),
			rec{ID: "18446744073709551615", Text: "One.", Date: "2026-03-03T08:00:00Z",
				Raw: `{"id":18446744073709551615,"text":"One.","h32":2147483649,"h16":65535,"h8":255,"date":1772524800,"list":[9223372036854775813]}`}},
		{"uint32 id", parquetOf(t, []u32Row{{ID: math.MaxUint32, Text: "One."}}, 10),
			rec{ID: "4294967295", Text: "One.", Raw: `{"id":4294967295,"text":"One."}`}},
		{"uint16 id", parquetOf(t, []u16Row{{ID: math.MaxUint16, Text: "One."}}, 10),
			rec{ID: "65535", Text: "One.", Raw: `{"id":65535,"text":"One."}`}},
		{"uint8 id", parquetOf(t, []u8Row{{ID: math.MaxUint8, Text: "One."}}, 10),
			rec{ID: "255", Text: "One.", Raw: `{"id":255,"text":"One."}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.parquet": tc.file})
			got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Origin = filepath.Join(dir, "a.parquet:1")
			if diff := cmp.Diff([]rec{tc.want}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestParquetUUID is the regression test of a UUID id column
// (FIXED_LEN_BYTE_ARRAY(16) of the UUID logical type) whose every row was
// skipped as `field "id": NUL byte (binary data)`: a UUID is read as its
// canonical text, as the id and in the record, nested ones too.
func TestParquetUUID(t *testing.T) {
	type ref struct {
		U [16]byte `parquet:"u,uuid"`
	}
	type row struct {
		ID   [16]byte `parquet:"id,uuid"`
		Text string   `parquet:"text"`
		Refs []ref    `parquet:"refs,list"`
	}
	id := [16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf}
	r := ref{[16]byte{0xde, 0xad, 0xbe, 0xef, 15: 0xab}}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{ID: id, Text: "One.", Refs: []ref{r}}}, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "00010203-0405-0607-0809-0a0b0c0d0e0f", Text: "One.", Origin: filepath.Join(dir, "a.parquet:1"),
		Raw: `{"id":"00010203-0405-0607-0809-0a0b0c0d0e0f","text":"One.","refs":[{"u":"deadbeef-0000-0000-0000-0000000000ab"}]}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestParquetFixedLengthText pins that bytes of a fixed length that are no
// UUID are read as a string is, each value for itself: a fixed-width code
// is its text, and a value holding a NUL skips its row as binary.
func TestParquetFixedLengthText(t *testing.T) {
	type row struct {
		ID   [4]byte `parquet:"id"`
		Text string  `parquet:"text"`
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{ID: [4]byte{'A', 'B', 'C', 'D'}, Text: "One."},
		{ID: [4]byte{0xff, 0, 1, 2}, Text: "Two."}}, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "ABCD" || got[0].Skip != "" || got[1].Skip != string(core.SkipBinary) {
		t.Errorf("records %+v, want ABCD read and the second skipped as binary", got)
	}
}

// TestParquetTimeOfDay is the regression test of TIME columns written to
// the record as their count of units since midnight (37800000 for 10:30):
// a time of day is its clock, "10:30:00.25", whatever its unit, nested ones
// too; as an id (--id-col) it is that clock.
func TestParquetTimeOfDay(t *testing.T) {
	type at struct {
		T int64 `parquet:"t,time(microsecond)"`
	}
	type row struct {
		ID    string `parquet:"id"`
		Text  string `parquet:"text"`
		Milli int32  `parquet:"milli,time(millisecond)"`
		Micro int64  `parquet:"micro,time(microsecond)"`
		Nano  int64  `parquet:"nano,time(nanosecond)"`
		Times []at   `parquet:"times,list"`
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{ID: "a", Text: "One.", Milli: 37800250,
		Micro: 86399999999, Nano: 1, Times: []at{{0}, {3600000000}}}}, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "a", Text: "One.", Origin: filepath.Join(dir, "a.parquet:1"),
		Raw: `{"id":"a","text":"One.","milli":"10:30:00.25","micro":"23:59:59.999999","nano":"00:00:00.000000001","times":[{"t":"00:00:00"},{"t":"01:00:00"}]}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// A TIME is an id as its clock.
	got, err = readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{IDField: "milli"}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "10:30:00.25" {
		t.Errorf("records %+v, want one of the id 10:30:00.25", got)
	}
}

func TestParquetColumns(t *testing.T) {
	type mapped struct {
		GUID    string    `parquet:"guid"`
		Body    string    `parquet:"Body"`
		Site    string    `parquet:"site"`
		Printed time.Time `parquet:"printed,timestamp(microsecond)"`
	}
	file := parquetOf(t, []mapped{{GUID: "g1", Body: "Text.", Site: "AP", Printed: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}}, 10)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": file})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")},
		Options{IDField: "guid", TextField: "body", SourceField: "site", DateField: "printed"}, config{})
	if err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "a.parquet:1")
	want := []rec{{ID: "g1", Text: "Text.", Source: "AP", Date: "2024-01-02T03:04:05Z", Origin: o,
		Raw: `{"guid":"g1","Body":"Text.","site":"AP","printed":"2024-01-02T03:04:05Z"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestParquetErrors(t *testing.T) {
	type noText struct {
		ID   string `parquet:"id"`
		Body string `parquet:"body"`
	}
	type intText struct {
		ID   string `parquet:"id"`
		Text int64  `parquet:"text"`
	}
	type listText struct {
		Text []string `parquet:"text,list"`
	}
	good := parquetOf(t, []news{{ID: 1, Text: str("x")}, {ID: 2, Text: str("y")}}, 1)
	// A row group's pages cut short: the footer still reads, the rows do not.
	footer := len(good) - 8 - int(uint32(good[len(good)-8])|uint32(good[len(good)-7])<<8|uint32(good[len(good)-6])<<16|uint32(good[len(good)-5])<<24)
	damaged := []byte(good)
	for i := 4; i < footer; i++ {
		damaged[i] = 0xff
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"no-text.parquet":   parquetOf(t, []noText{{"1", "x"}}, 10),
		"int-text.parquet":  parquetOf(t, []intText{{"1", 5}}, 10),
		"list-text.parquet": parquetOf(t, []listText{{[]string{"a"}}}, 10),
		"truncated.parquet": good[:len(good)/2],
		"damaged.parquet":   string(damaged),
	})
	for _, tc := range []struct{ file, want string }{
		{"no-text.parquet", `no-text.parquet: no "text" column (the text) in the Parquet schema (columns: "id", "body")`},
		{"int-text.parquet", `reading ` + filepath.Join(dir, "int-text.parquet") + `: column "text" (the text) is INT64, and a text column holds a string`},
		{"list-text.parquet", `column "text" (the text) is a list, and a text column holds a string`},
		{"truncated.parquet", `reading ` + filepath.Join(dir, "truncated.parquet") + `: not a Parquet file that can be read`},
		{"damaged.parquet", `reading ` + filepath.Join(dir, "damaged.parquet") + `: row group 1 (rows 1 to 1), after row 0: `},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := readAll(t, []string{filepath.Join(dir, tc.file)}, Options{}, config{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestParquetTooShortIsAnError reads a Parquet file of 0 to 3 bytes
// after another input: its error names it, and is not io.EOF, which
// ended the inputs without one and dropped those after it.
func TestParquetTooShortIsAnError(t *testing.T) {
	dir := t.TempDir()
	good := parquetOf(t, []news{{ID: 1, Text: str("a text long enough to read")}}, 1)
	for _, short := range []string{"", "P", "PAR"} {
		writeFiles(t, dir, map[string]string{"a.parquet": good, "b.parquet": short, "c.jsonl": `{"id":"c","text":"x"}` + "\n"})
		r, err := Open([]string{filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet"), filepath.Join(dir, "c.jsonl")}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for {
			_, err = r.NextRaw()
			if err != nil {
				break
			}
			n++
		}
		r.Close()
		want := "reading " + filepath.Join(dir, "b.parquet") + ": not a Parquet file that can be read"
		if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), want) || n != 1 {
			t.Errorf("%d bytes: %d records, then %v (io.EOF: %t), want 1 and an error with %q", len(short), n, err, errors.Is(err, io.EOF), want)
		}
	}
}

// TestParquetRewind reads a Parquet file from standard input twice: the
// first pass copies it, the second reads the copy.
func TestParquetRewind(t *testing.T) {
	file := parquetOf(t, []news{{ID: 1, Text: str("one")}, {ID: 2, Text: str("two")}}, 1)
	r, err := open([]string{"-"}, nil, Options{}, config{stdin: pipe(file)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	second := again(t, r)
	if len(first) != 2 || first[1].Text != "two" || first[1].Origin != "stdin:2" {
		t.Fatalf("first pass: %+v", first)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("second pass (-first +second)\n%s", diff)
	}
}

// FuzzParquet reads damaged Parquet files: every one ends in records or an
// error naming the file, never a panic.
func FuzzParquet(f *testing.F) {
	good := parquetOf(f, []news{{ID: 1, Title: "A", Text: str("one two"), Tags: []string{"x"}}, {ID: 2, Text: str("three")}}, 1)
	f.Add([]byte(good), 100, byte(0xff))
	f.Add([]byte(good), len(good)-20, byte(0))
	f.Fuzz(func(t *testing.T, data []byte, at int, b byte) {
		if len(data) > 0 {
			data = bytes.Clone(data)
			data[(at%len(data)+len(data))%len(data)] = b
		}
		r, err := OpenReader("f.parquet", bytes.NewReader(data), Options{SinglePass: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for {
			raw, err := r.NextRaw()
			if err != nil {
				if err != io.EOF && !strings.Contains(err.Error(), "f.parquet") {
					t.Fatalf("error %q does not name the file", err)
				}
				return
			}
			r.Decode(raw)
		}
	})
}

// TestParquetUnreadFields pins that a Parquet schema's columns are noted
// as unread fields as a CSV header's are.
func TestParquetUnreadFields(t *testing.T) {
	type row struct {
		Text     string `parquet:"text"`
		Headline string `parquet:"headline"`
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{Text: "Text.", Headline: "H"}}, 10)})
	r, err := open([]string{filepath.Join(dir, "a.parquet")}, nil, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := drain(t, r); err != nil {
		t.Fatal(err)
	}
	want := []UnreadField{{Field: "title", Name: "title", Alias: "headline", Origin: filepath.Join(dir, "a.parquet")}}
	if diff := cmp.Diff(want, r.UnreadFields()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestParquetNestedJSON pins how the groups of a Parquet row (lists, maps,
// structs, at any depth) are written in the record's JSON: each leaf as a
// top-level column is, a struct's fields in schema order. Reconstructing
// them into map[string]any wrote a map's string values in base64 ("v" as
// "dg=="), a nested timestamp as its count of milliseconds, a map's integer
// keys as the characters they number (65 as "A"), bytes that are not UTF-8
// with U+FFFD, and a top-level decimal as its unscaled integer (12.34 as
// 1234).
func TestParquetNestedJSON(t *testing.T) {
	type author struct {
		Name  string  `parquet:"name"`
		Email *string `parquet:"email,optional"`
	}
	type inner struct {
		Lang string    `parquet:"lang"`
		When time.Time `parquet:"when,timestamp(millisecond)"`
		Blob []byte    `parquet:"blob"`
	}
	type row struct {
		Text    string              `parquet:"text"`
		Price   int64               `parquet:"price,decimal(2:18)"`
		Cents   int32               `parquet:"cents,decimal(3:9)"`
		Meta    map[string]string   `parquet:"meta"`
		Counts  map[int32]string    `parquet:"counts"`
		Lists   map[string][]string `parquet:"lists"`
		Authors []author            `parquet:"authors,list"`
		Grid    [][]int32           `parquet:"grid,list"`
		Inner   inner               `parquet:"inner"`
		Maybe   *inner              `parquet:"maybe,optional"`
		Tags    []string            `parquet:"tags,list"`
		Bare    []string            `parquet:"bare"`
	}
	when := time.Date(2024, 3, 5, 10, 0, 0, 123e6, time.UTC)
	rows := []row{
		{Text: "One.", Price: 1234, Cents: -5, Meta: map[string]string{"k": "v"}, Counts: map[int32]string{65: "a"},
			Lists: map[string][]string{"x": {"p", "q"}}, Authors: []author{{Name: "Jane", Email: str("j@x")}, {Name: "Bob"}},
			Grid: [][]int32{{1, 2}, {}, {3}}, Inner: inner{Lang: "en", When: when, Blob: []byte{0xff, 'a'}},
			Maybe: &inner{Lang: "fr", When: when, Blob: []byte("b")}, Tags: []string{"t"}, Bare: []string{"u", "w"}},
		{Text: "Two.", Price: -7, Cents: 1000, Meta: map[string]string{}, Inner: inner{Blob: []byte{}}},
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, rows, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"text":"One.","price":12.34,"cents":-0.005,"meta":{"k":"v"},"counts":{"65":"a"},"lists":{"x":["p","q"]},` +
			`"authors":[{"name":"Jane","email":"j@x"},{"name":"Bob","email":null}],"grid":[[1,2],[],[3]],` +
			`"inner":{"lang":"en","when":"2024-03-05T10:00:00.123Z","blob":"/2E="},` +
			`"maybe":{"lang":"fr","when":"2024-03-05T10:00:00.123Z","blob":"b"},"tags":["t"],"bare":["u","w"]}`,
		`{"text":"Two.","price":-0.07,"cents":1.000,"meta":{},"counts":{},"lists":{},"authors":[],"grid":[],` +
			`"inner":{"lang":"","when":"0001-01-01T00:00:00Z","blob":""},"maybe":null,"tags":[],"bare":[]}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if diff := cmp.Diff(want[i], got[i].Raw); diff != "" {
			t.Errorf("row %d (-want +got)\n%s", i+1, diff)
		}
	}
}

// TestParquetInt96 pins that an INT96 column, the timestamp Impala, Hive
// and older Spark write, is a time: the date a --date-col names, in RFC 3339
// in the record. It was refused as the date ("is INT96, not a string") and
// written as the 96-bit integer it is stored as.
func TestParquetInt96(t *testing.T) {
	type row struct {
		Text string           `parquet:"text"`
		When deprecated.Int96 `parquet:"when"`
	}
	nanos := uint64(36000)*1e9 + 5e8 // 10:00:00.5
	when := deprecated.Int96{uint32(nanos), uint32(nanos >> 32), 2460375}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.parquet": parquetOf(t, []row{{Text: "Text.", When: when}}, 10)})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{DateField: "when"}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "a.parquet:1", Text: "Text.", Date: "2024-03-05T10:00:00Z", Origin: filepath.Join(dir, "a.parquet:1"),
		Raw: `{"text":"Text.","when":"2024-03-05T10:00:00.5Z"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestParquetFooterLengthBounded: a Parquet file whose footer's length,
// in its last bytes, is more than the file holds (damage, or a hostile
// file of a few kilobytes) is refused naming the file, without a buffer of
// that length: it took 4 GiB for 0xffffffff.
func TestParquetFooterLengthBounded(t *testing.T) {
	data := []byte(parquetOf(t, []news{{ID: 1, Title: "A", Text: str("one two")}}, 1))
	binary.LittleEndian.PutUint32(data[len(data)-8:], 0xffffffff)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := OpenReader("f.parquet", bytes.NewReader(data), Options{SinglePass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.NextRaw()
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "f.parquet") {
		t.Errorf("error %v, want one naming the file", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("%d MiB allocated for a file of %d bytes", n>>20, len(data))
	}
}

// TestDateWithoutZone: a Parquet TIMESTAMP not adjusted to UTC and a date
// text without a zone are written without an offset in the record and the
// document's date, which orders as UTC would; a date with a zone, "+00:00"
// too, keeps it. They were written with "Z", claiming UTC.
func TestDateWithoutZone(t *testing.T) {
	type row struct {
		Text  string    `parquet:"text"`
		When  time.Time `parquet:"when,timestamp(millisecond:local)"`
		Stamp time.Time `parquet:"stamp,timestamp(millisecond)"`
	}
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.parquet": parquetOf(t, []row{{Text: "Text.", When: when, Stamp: when}}, 10),
		"b.jsonl": `{"text":"T.","date":"2024-01-02 03:04:05"}` + "\n" + `{"text":"T.","date":"2024-01-02T03:04:05+00:00"}` + "\n" +
			`{"text":"T.","date":"2024-01-02T03:04:05Z"}` + "\n",
	})
	got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{DateField: "when"}, config{})
	if err != nil {
		t.Fatal(err)
	}
	origin := filepath.Join(dir, "a.parquet:1")
	want := []rec{{ID: "a.parquet:1", Text: "Text.", Date: "2024-01-02T03:04:05", Origin: origin,
		Raw: `{"text":"Text.","when":"2024-01-02T03:04:05","stamp":"2024-01-02T03:04:05Z"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parquet (-want +got)\n%s", diff)
	}
	r, err := Open([]string{filepath.Join(dir, "b.jsonl")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, want := range []string{"2024-01-02T03:04:05", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"} {
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := core.FormatDate(rec.Doc.Date, time.RFC3339); got != want || !rec.Doc.Date.Equal(when) {
			t.Errorf("%s: date %s (%v), want %s, the instant %v", rec.Doc.Origin, got, rec.Doc.Date, want, when)
		}
	}
}
