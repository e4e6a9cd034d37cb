package corpus

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCSV(t *testing.T) {
	for _, tc := range []struct {
		name    string
		file    string
		input   string
		opts    Options
		cfg     config
		want    []rec
		wantErr string
	}{
		{
			name:  "all fields, raw object in header order",
			file:  "news.csv",
			input: "date,text,title,id,url,source,extra\n2024-03-05,Body.,T,a1,http://x/1,AP,e\n",
			want: []rec{{ID: "a1", Title: "T", Text: "Body.", URL: "http://x/1", Source: "AP", Date: "2024-03-05T00:00:00", Origin: "news.csv:2",
				Raw: `{"date":"2024-03-05","text":"Body.","title":"T","id":"a1","url":"http://x/1","source":"AP","extra":"e"}`}},
		},
		{
			name:  "field mapping, header matched ignoring case and spaces",
			file:  "news.csv",
			input: "Guid, Body ,HEADLINE\n7,B,H\n",
			opts:  Options{IDField: "guid", TitleField: "headline", TextField: "body"},
			want:  []rec{{ID: "7", Title: "H", Text: "B", Origin: "news.csv:2", Raw: `{"Guid":"7"," Body ":"B","HEADLINE":"H"}`}},
		},
		{
			name:  "missing ids, quoted multi-line fields, origin is the row's first line",
			file:  "news.csv",
			input: "title,text\nA,\"one\ntwo\"\n\nB,\"say \"\"hi\"\"\"\n",
			want: []rec{
				{ID: "news.csv:2", Title: "A", Text: "one\ntwo", Origin: "news.csv:2", Raw: `{"title":"A","text":"one\ntwo"}`},
				{ID: "news.csv:5", Title: "B", Text: `say "hi"`, Origin: "news.csv:5", Raw: `{"title":"B","text":"say \"hi\""}`},
			},
		},
		{
			name:  "CRLF and BOM",
			file:  "news.csv",
			input: "\ufeffid,text\r\n1,a\r\n2,\"b\r\nc\"\r\n",
			want: []rec{
				{ID: "1", Text: "a", Origin: "news.csv:2", Raw: `{"id":"1","text":"a"}`},
				{ID: "2", Text: "b\nc", Origin: "news.csv:3", Raw: `{"id":"2","text":"b\nc"}`},
			},
		},
		{
			name:  "semicolons, as spreadsheets of comma-decimal locales write",
			file:  "news.csv",
			input: "id;title;text\n1;A, and B;\"x; y\"\n",
			want:  []rec{{ID: "1", Title: "A, and B", Text: "x; y", Origin: "news.csv:2", Raw: `{"id":"1","title":"A, and B","text":"x; y"}`}},
		},
		{
			name:  "tabs in a .csv",
			file:  "news.csv",
			input: "id\ttext\n1\ta, b\n",
			want:  []rec{{ID: "1", Text: "a, b", Origin: "news.csv:2", Raw: `{"id":"1","text":"a, b"}`}},
		},
		{
			name:  "the separator that names the text column wins",
			file:  "news.csv",
			input: "id,text;note;more;fields\n1,a;b;c;d\n",
			want:  []rec{{ID: "1", Text: "a;b;c;d", Origin: "news.csv:2", Raw: `{"id":"1","text;note;more;fields":"a;b;c;d"}`}},
			opts:  Options{TextField: "text;note;more;fields"},
		},
		{
			name:  "semicolons without the extension",
			file:  "news",
			input: "id;text\n1;a, b\n",
			want:  []rec{{ID: "1", Text: "a, b", Origin: "news:2", Raw: `{"id":"1","text":"a, b"}`}},
		},
		{
			name:  "lazy quotes",
			file:  "news.csv",
			input: "id,text\n1,a \"quoted\" word\n2,\"bare \" quote\"\n",
			want: []rec{
				{ID: "1", Text: `a "quoted" word`, Origin: "news.csv:2", Raw: `{"id":"1","text":"a \"quoted\" word"}`},
				{ID: "2", Text: `bare " quote`, Origin: "news.csv:3", Raw: `{"id":"2","text":"bare \" quote"}`},
			},
		},
		{
			// A stray quote in a quoted field would make the field run on to
			// the next quote, taking in the rows between: the row is refused,
			// naming the lines it took, and the rows after it are read.
			name: "a stray quote that runs a row on",
			file: "news.csv",
			input: "id,title,text\n1,t1,\"two \"\"quoted\"\"\nlines\"\n2,\"t2,\"broken\n3,\"t3\",\"taken in\"\n" +
				"4,t4,\"after\"\n",
			want: []rec{
				{ID: "1", Title: "t1", Text: "two \"quoted\"\nlines", Origin: "news.csv:2", Raw: `{"id":"1","title":"t1","text":"two \"quoted\"\nlines"}`},
				{ID: "news.csv:4", Origin: "news.csv:4", Skip: "malformed", Err: "news.csv:4: malformed: a quoted field holds a quote that is neither " +
					"doubled nor its end, or is never closed (seen on line 4): the row runs on to line 5, and lines 4 to 5 are not read"},
				{ID: "4", Title: "t4", Text: "after", Origin: "news.csv:6", Raw: `{"id":"4","title":"t4","text":"after"}`},
			},
		},
		{
			name:  "a quoted field never closed",
			file:  "news.csv",
			input: "id,text\n1,ok\n\n2,\"never closed,\n3,lost\n",
			want: []rec{
				{ID: "1", Text: "ok", Origin: "news.csv:2", Raw: `{"id":"1","text":"ok"}`},
				{ID: "news.csv:4", Origin: "news.csv:4", Skip: "malformed", Err: "news.csv:4: malformed: a quoted field holds a quote that is neither " +
					"doubled nor its end, or is never closed (seen on line 4): the row runs on to line 5, and lines 4 to 5 are not read"},
			},
		},
		{
			// A repeated column name gets a suffix in the row's object, so
			// that kept.jsonl holds no key twice; the first is the field.
			name:  "a column name repeated",
			file:  "news.csv",
			input: "id,text,text,text_2\n1,a,b,c\n",
			want:  []rec{{ID: "1", Text: "a", Origin: "news.csv:2", Raw: `{"id":"1","text":"a","text_3":"b","text_2":"c"}`}},
		},
		{
			name:  "rows with too many or too few fields",
			file:  "news.csv",
			input: "id,title,text\n1,t,a,extra\n2,t\n3,t,ok\n",
			want: []rec{
				{ID: "news.csv:2", Origin: "news.csv:2", Skip: "malformed", Err: "news.csv:2: malformed: 4 fields, the header has 3"},
				// Short of a column, even one it could do without: a
				// row cut short, whose fields may not be the header's.
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "malformed", Err: "news.csv:3: malformed: 2 fields, the header has 3"},
				{ID: "3", Title: "t", Text: "ok", Origin: "news.csv:4", Raw: `{"id":"3","title":"t","text":"ok"}`},
			},
		},
		{
			name:  "skip reasons",
			file:  "news.csv",
			input: "id,title,text\n1,t,\xff\n2,\xfe,ok\n3,t,a\x00b\n4,t,\"  \"\n",
			opts:  Options{Charset: "utf-8"},
			want: []rec{
				{ID: "1", Title: "t", Text: "\xff", Origin: "news.csv:2", Skip: "invalid-utf8", Err: `news.csv:2: field "text": invalid UTF-8`},
				{ID: "2", Title: "\xfe", Text: "ok", Origin: "news.csv:3", Skip: "invalid-utf8", Err: `news.csv:3: field "title": invalid UTF-8`},
				{ID: "3", Title: "t", Text: "a\x00b", Origin: "news.csv:4", Skip: "binary", Err: `news.csv:4: field "text": NUL byte (binary data)`},
				{ID: "4", Title: "t", Text: "  ", Origin: "news.csv:5", Skip: "empty", Err: `news.csv:5: field "text": empty`},
			},
		},
		{
			name:  "too large",
			file:  "news.csv",
			input: "title,text\n12345,123456\n",
			opts:  Options{MaxBytes: 10},
			want: []rec{{ID: "news.csv:2", Title: "12345", Text: "123456", Origin: "news.csv:2", Skip: "too-large",
				Err: "news.csv:2: title and text are 11 bytes, over the limit of 10"}},
		},
		{
			name:  "TSV",
			file:  "news.tsv",
			input: "id\ttitle\ttext\n1\tT\ta, b\n",
			want:  []rec{{ID: "1", Title: "T", Text: "a, b", Origin: "news.tsv:2", Raw: `{"id":"1","title":"T","text":"a, b"}`}},
		},
		{
			name:  "empty file",
			file:  "news.csv",
			input: "",
		},
		{
			name:    "no text column",
			file:    "news.csv",
			input:   "id,headline,body\n1,h,b\n",
			wantErr: `news.csv: no "text" column (the text) in the header (columns: "id", "headline", "body")`,
		},
		{
			name:    "an unclosed quote stops at the limit",
			file:    "news.csv",
			input:   "id,text\n1,ok\n2,\"never closed\n" + strings.Repeat("line\n", 100),
			opts:    Options{MaxBytes: 10},
			cfg:     config{bufSize: 16, slack: 100},
			want:    []rec{{ID: "1", Text: "ok", Origin: "news.csv:2", Raw: `{"id":"1","text":"ok"}`}},
			wantErr: "reading news.csv: the row after line 2 is over 110 bytes and never ends (an unclosed quote?)",
		},
		{
			// A row over the limit (and the CSV reader's 4 KiB buffer) is
			// skipped without being held, and the rows after it are read,
			// their lines counted through it.
			name:  "a row over the limit is skipped",
			file:  "news.csv",
			input: "id,text\n1,ok\n2,\"" + strings.Repeat("line\n", 1000) + "end\"\n3,after\n4,\"two\nlines\"\n5,\"\"\"q\"\"\"\n",
			opts:  Options{MaxBytes: 10},
			cfg:   config{bufSize: 16, slack: 100},
			want: []rec{
				{ID: "1", Text: "ok", Origin: "news.csv:2", Raw: `{"id":"1","text":"ok"}`},
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "too-large", Err: "news.csv:3: 5007 bytes, too large to read (the limit is 10 bytes a record)"},
				{ID: "3", Text: "after", Origin: "news.csv:1004", Raw: `{"id":"3","text":"after"}`},
				{ID: "4", Text: "two\nlines", Origin: "news.csv:1005", Raw: `{"id":"4","text":"two\nlines"}`},
				{ID: "5", Text: `"q"`, Origin: "news.csv:1007", Raw: `{"id":"5","text":"\"q\""}`},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.file}, tc.opts, tc.cfg)
			if errString(err) != tc.wantErr {
				t.Errorf("error %q, want %q", errString(err), tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestStrayQuote checks the quoting rules a run-on row breaks, and that
// encoding/csv's strict reading agrees on every row it reads without a
// bare quote: no error where strayQuote finds none, ErrQuote where it does.
func TestStrayQuote(t *testing.T) {
	for _, tc := range []struct {
		row  string
		want int
	}{
		{"1,plain,row\n", 0},
		{"1,\"quoted\",\"with, comma\"\n", 0},
		{"1,\"two\nlines\"\n", 0},
		{"1,\"doubled \"\"quotes\"\"\nover lines\"\n", 0},
		{"1,\"\"\n", 0},
		{"1,\"\"\"\"\n", 0},
		{"1,\"crlf\r\nend\"\r\n", 0},
		{"1,\"at the end\"", 0},
		{"1,\"at the end\"\r", 0},
		{"1,\"stray \" quote\"\n", 1},
		{"1,\"two\nlines, \"stray\" on the second\"\n", 2},
		{"1,\"t2,\"broken\n3,\"t3\",\"taken in\"\n", 1},
		{"1,ok,\"never closed\nmore\n", 1},
		{"1,ok\n2,\"opens on the second line\n", 2},
		{"1,\"quoted\"x,after\n", 1},
	} {
		if got := strayQuote([]byte(tc.row), ','); got != tc.want {
			t.Errorf("strayQuote(%q) = %d, want %d", tc.row, got, tc.want)
		}
		cr := csv.NewReader(strings.NewReader(tc.row))
		cr.FieldsPerRecord = -1
		var err error
		for err == nil {
			_, err = cr.Read()
		}
		var pe *csv.ParseError
		switch {
		case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrQuote):
			if tc.want == 0 {
				t.Errorf("%q: encoding/csv finds %v, strayQuote nothing", tc.row, err)
			}
		case err == io.EOF:
			if tc.want != 0 {
				t.Errorf("%q: encoding/csv reads it, strayQuote finds a fault on line %d", tc.row, tc.want)
			}
		default:
			t.Errorf("%q: %v", tc.row, err)
		}
	}
}
