package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

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
				{ID: "2", Text: "b\r\nc", Origin: "news.csv:3", Raw: `{"id":"2","text":"b\r\nc"}`},
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
			// the next quote, taking in the rows between: its first line is
			// read alone, refused when its fields are not the header's, and
			// the next line is read as a row.
			name: "a stray quote that runs a row on",
			file: "news.csv",
			input: "id,title,text\n1,t1,\"two \"\"quoted\"\"\nlines\"\n2,\"t2,\"broken\n3,\"t3\",\"taken in\"\n" +
				"4,t4,\"after\"\n",
			want: []rec{
				{ID: "1", Title: "t1", Text: "two \"quoted\"\nlines", Origin: "news.csv:2", Raw: `{"id":"1","title":"t1","text":"two \"quoted\"\nlines"}`},
				{ID: "news.csv:4", Origin: "news.csv:4", Skip: "malformed", Err: "news.csv:4: malformed: a quoted field holds a quote that is neither " +
					"doubled nor its end (seen on line 4), so the row runs on past line 4; read alone, the line has 2 fields, the header has 3; " +
					"reading goes on at line 5"},
				{ID: "3", Title: "t3", Text: "taken in", Origin: "news.csv:5", Raw: `{"id":"3","title":"t3","text":"taken in"}`},
				{ID: "4", Title: "t4", Text: "after", Origin: "news.csv:6", Raw: `{"id":"4","title":"t4","text":"after"}`},
			},
		},
		{
			// Regression: read alone, the first line of a row whose quoted
			// field runs on past a stray quote ends inside that field; the
			// lines after it were read as rows, the text's middle made a
			// document ("Second", " \"quoted\" part of para.").
			name:  "a stray quote in a field that goes on past its line",
			file:  "news.csv",
			input: "id,text\n1,\"Para one.\nSecond, \"quoted\" part of para.\nThird para.\"\n2,\"Row two\"\n",
			want: []rec{
				{ID: "news.csv:2", Origin: "news.csv:2", Skip: "malformed", Err: "news.csv:2: malformed: a quoted field holds a quote that is neither " +
					"doubled nor its end (seen on line 3), so the row runs on past line 2; read alone, the line ends inside a quoted field; " +
					"read to that field's end, lines 2 to 4 are not read"},
				{ID: "2", Text: "Row two", Origin: "news.csv:5", Raw: `{"id":"2","text":"Row two"}`},
			},
		},
		{
			name:  "a quoted field never closed",
			file:  "news.csv",
			input: "id,text\n1,ok\n\n2,\"never closed,\n3,after\n",
			want: []rec{
				{ID: "1", Text: "ok", Origin: "news.csv:2", Raw: `{"id":"1","text":"ok"}`},
				{ID: "news.csv:4", Origin: "news.csv:4", Skip: "malformed", Err: "news.csv:4: malformed: a quoted field opened on line 4 is never closed; " +
					"read alone, the line ends inside a quoted field; reading goes on at line 5"},
				{ID: "3", Text: "after", Origin: "news.csv:5", Raw: `{"id":"3","text":"after"}`},
			},
		},
		{
			// The quote opening line 5 is a stray quote in the field opened
			// on line 3: read whole to its end, the field was never closed
			// and lines 3 to 7 (of 6) were skipped.
			name: "regression: a quoted field never closed took in the rows to the end of the file",
			file: "news.csv",
			input: "id,text\n1,plain\n2,\"Quote opened and never closed\n3,another\n4,\"A third quoted row.\n" +
				"5,last\n",
			want: []rec{
				{ID: "1", Text: "plain", Origin: "news.csv:2", Raw: `{"id":"1","text":"plain"}`},
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "malformed", Err: "news.csv:3: malformed: a quoted field opened on line 3 is never closed; " +
					"read alone, the line ends inside a quoted field; reading goes on at line 4"},
				{ID: "3", Text: "another", Origin: "news.csv:4", Raw: `{"id":"3","text":"another"}`},
				{ID: "news.csv:5", Origin: "news.csv:5", Skip: "malformed", Err: "news.csv:5: malformed: a quoted field opened on line 5 is never closed; " +
					"read alone, the line ends inside a quoted field; reading goes on at line 6"},
				{ID: "5", Text: "last", Origin: "news.csv:6", Raw: `{"id":"5","text":"last"}`},
			},
		},
		{
			// Regression: a last line cut short inside a quoted field was a
			// row, its text cut mid-sentence, when no line end followed it;
			// with one it was skipped. It is skipped either way, and its
			// note names no line after the file's last for reading to go on
			// at ("reading goes on at line 4" of 3 lines).
			name:  "a quoted field never closed on a last line without its line end",
			file:  "news.csv",
			input: "id,text\n1,\"whole\"\n2,\"cut short mid-sentence",
			want: []rec{
				{ID: "1", Text: "whole", Origin: "news.csv:2", Raw: `{"id":"1","text":"whole"}`},
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "malformed", Err: "news.csv:3: malformed: a quoted field opened on line 3 is never closed; " +
					"read alone, the line ends inside a quoted field"},
			},
		},
		{
			name:  "a quoted field never closed on a last line with its line end",
			file:  "news.csv",
			input: "id,text\n1,\"whole\"\n2,\"cut short mid-sentence\n",
			want: []rec{
				{ID: "1", Text: "whole", Origin: "news.csv:2", Raw: `{"id":"1","text":"whole"}`},
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "malformed", Err: "news.csv:3: malformed: a quoted field opened on line 3 is never closed; " +
					"read alone, the line ends inside a quoted field"},
			},
		},
		{
			// A stray quote on that line: the line read alone, as with a line end.
			name:  "a stray quote in a field never closed on a last line without its line end",
			file:  "news.csv",
			input: "id,text\n1,\"a \" b",
			want:  []rec{{ID: "1", Text: `"a " b`, Origin: "news.csv:2", Raw: `{"id":"1","text":"\"a \" b"}`}},
		},
		{
			name:  "a stray quote in a field never closed on a last line with its line end",
			file:  "news.csv",
			input: "id,text\n1,\"a \" b\n",
			want:  []rec{{ID: "1", Text: `"a " b`, Origin: "news.csv:2", Raw: `{"id":"1","text":"\"a \" b"}`}},
		},
		{
			// Read by the rules, the closing quote of "We will win," is kept
			// and the field runs on over the rows below; read alone, as
			// Python's csv module reads it, the line is a row.
			name: "regression: a text that opens with a quoted phrase swallowed the rows after it",
			file: "news.csv",
			input: "id,title,text\n1,A,plain\n2,B,\"We will win,\" he said. More\n3,C,after\n" +
				"4,D,\"q \"\"x\"\" y\"\n",
			want: []rec{
				{ID: "1", Title: "A", Text: "plain", Origin: "news.csv:2", Raw: `{"id":"1","title":"A","text":"plain"}`},
				{ID: "2", Title: "B", Text: `"We will win," he said. More`, Origin: "news.csv:3", Raw: `{"id":"2","title":"B","text":"\"We will win,\" he said. More"}`},
				{ID: "3", Title: "C", Text: "after", Origin: "news.csv:4", Raw: `{"id":"3","title":"C","text":"after"}`},
				{ID: "4", Title: "D", Text: `q "x" y`, Origin: "news.csv:5", Raw: `{"id":"4","title":"D","text":"q \"x\" y"}`},
			},
		},
		{
			name:  "regression: a TSV text that opens with a quoted phrase swallowed the rows after it",
			file:  "news.tsv",
			input: "id\ttext\n1\t\"Yes\" was all\n2\tafter\n",
			want: []rec{
				{ID: "1", Text: `"Yes" was all`, Origin: "news.tsv:2", Raw: `{"id":"1","text":"\"Yes\" was all"}`},
				{ID: "2", Text: "after", Origin: "news.tsv:3", Raw: `{"id":"2","text":"after"}`},
			},
		},
		{
			// A quote that opens a TSV field and is not closed as a quoted
			// field is closed took in the rows below up to the next quote
			// (MSRP's "the witness", of ...); a well-formed quoted field
			// is read whole, its line end kept.
			name: "regression: a TSV field opening with a quote never closed swallowed the rows after it",
			file: "news.tsv",
			input: "id\ttext\n1\t\"Quote opened and never closed\n2\tplain\n3\t\"A \"quoted\" start, he said\n" +
				"4\t\"In quotes, \"\"doubled\"\" inside\"\n5\t\"two\nlines\"\n",
			want: []rec{
				{ID: "1", Text: `"Quote opened and never closed`, Origin: "news.tsv:2", Raw: `{"id":"1","text":"\"Quote opened and never closed"}`},
				{ID: "2", Text: "plain", Origin: "news.tsv:3", Raw: `{"id":"2","text":"plain"}`},
				{ID: "3", Text: `"A "quoted" start, he said`, Origin: "news.tsv:4", Raw: `{"id":"3","text":"\"A \"quoted\" start, he said"}`},
				{ID: "4", Text: `In quotes, "doubled" inside`, Origin: "news.tsv:5", Raw: `{"id":"4","text":"In quotes, \"doubled\" inside"}`},
				{ID: "5", Text: "two\nlines", Origin: "news.tsv:6", Raw: `{"id":"5","text":"two\nlines"}`},
			},
		},
		{
			// Python's csv.writer(delimiter="\t") and pandas' to_csv(sep="\t")
			// quote a field that holds a line end or a tab; it was cut there.
			name:  "regression: a TSV field Python quotes, holding a line end or a tab, was cut",
			file:  "news.tsv",
			input: "id\ttext\n1\t\"Two paragraphs.\nSecond\"\n2\t\"a\ttab\"\n3\t\"He said \"\"yes\"\"\"\n4\tlast\n",
			want: []rec{
				{ID: "1", Text: "Two paragraphs.\nSecond", Origin: "news.tsv:2", Raw: `{"id":"1","text":"Two paragraphs.\nSecond"}`},
				{ID: "2", Text: "a\ttab", Origin: "news.tsv:4", Raw: `{"id":"2","text":"a\ttab"}`},
				{ID: "3", Text: `He said "yes"`, Origin: "news.tsv:5", Raw: `{"id":"3","text":"He said \"yes\""}`},
				{ID: "4", Text: "last", Origin: "news.tsv:6", Raw: `{"id":"4","text":"last"}`},
			},
		},
		{
			// A text opening with a quote that a later field's closing
			// quote seems to close, a tab or lines on, is read as written
			// when the row so read has the header's fields (as in MSRP).
			name: "TSV: a quote that seems to close a field a tab or lines on is text when that keeps the header's fields",
			file: "news.tsv",
			input: "id\ta\ttext\n1\t\"Writing safe.\tWriting.\"\n2\tx\t\"Of course, anxious.\n3\tnot based on one event.\"\tplain\n" +
				"4\t\"p\tq\"\tr\n",
			want: []rec{
				{ID: "1", Text: `Writing."`, Origin: "news.tsv:2", Raw: `{"id":"1","a":"\"Writing safe.","text":"Writing.\""}`},
				{ID: "2", Text: `"Of course, anxious.`, Origin: "news.tsv:3", Raw: `{"id":"2","a":"x","text":"\"Of course, anxious."}`},
				{ID: "3", Text: "plain", Origin: "news.tsv:4", Raw: `{"id":"3","a":"not based on one event.\"","text":"plain"}`},
				{ID: "4", Text: "r", Origin: "news.tsv:5", Raw: `{"id":"4","a":"p\tq","text":"r"}`},
			},
		},
		{
			// The row would run on past the limit: its line is read alone
			// before, and none of the rows below is lost.
			name:  "regression: a row that opens with a quoted phrase went past the limit and lost the rows after it",
			file:  "news.csv",
			input: "id,text\n1,\"We will win,\" he said\n" + strings.Repeat("2,plain words\n", 20) + "3,\"q\"\n",
			opts:  Options{MaxBytes: 40},
			cfg:   config{bufSize: 16},
			want: append(append([]rec{{ID: "1", Text: `"We will win," he said`, Origin: "news.csv:2", Raw: `{"id":"1","text":"\"We will win,\" he said"}`}},
				repeatRec(20, func(i int) rec {
					return rec{ID: "2", Text: "plain words", Origin: fmt.Sprintf("news.csv:%d", i+3), Raw: `{"id":"2","text":"plain words"}`}
				})...), rec{ID: "3", Text: "q", Origin: "news.csv:23", Raw: `{"id":"3","text":"q"}`}),
		},
		{
			// A line over the limit is skipped as such, and the rows after
			// it are read, whatever the count of its quotes.
			name:  "regression: a line of three quotes over the limit took in the rows after it",
			file:  "news.csv",
			input: "id,text\n1,\"We will win,\" he said \"again" + strings.Repeat(" again", 20) + "\n2,after\n",
			opts:  Options{MaxBytes: 10},
			cfg:   config{bufSize: 16, slack: 100},
			want: []rec{
				{ID: "news.csv:2", Origin: "news.csv:2", Skip: "too-large", Err: "news.csv:2: 151 bytes, too large to read (the limit is 10 bytes a record, --max-bytes)"},
				{ID: "2", Text: "after", Origin: "news.csv:3", Raw: `{"id":"2","text":"after"}`},
			},
		},
		{
			// Past the limit the row's lines are no longer held to be read
			// again: it is read to its end, and its lines are named.
			name:  "a stray quote past the limit",
			file:  "news.csv",
			input: "id,text\n1,\"" + strings.Repeat("line\n", 30) + "a \"stray\" quote\n2,b\n3,\"c\"\n4,after\n",
			opts:  Options{MaxBytes: 10},
			cfg:   config{bufSize: 16, slack: 100},
			want: []rec{
				{ID: "news.csv:2", Origin: "news.csv:2", Skip: "malformed", Err: "news.csv:2: malformed: a quoted field holds a quote that is neither doubled " +
					"nor its end (seen on line 32) after the row passed the limit of 110 bytes: the row runs on to line 34, and lines 2 to 34 are not read"},
				{ID: "4", Text: "after", Origin: "news.csv:35", Raw: `{"id":"4","text":"after"}`},
			},
		},
		{
			// A quoted field keeps its line ends as written (Excel and
			// Python write CRLF).
			name:  "regression: CRLF in a quoted field became LF",
			file:  "news.csv",
			input: "id,text\r\n1,\"a\r\nb\"\r\n2,\"c\nd\"\n3,\"e\rf\"\n",
			want: []rec{
				{ID: "1", Text: "a\r\nb", Origin: "news.csv:2", Raw: `{"id":"1","text":"a\r\nb"}`},
				{ID: "2", Text: "c\nd", Origin: "news.csv:4", Raw: `{"id":"2","text":"c\nd"}`},
				{ID: "3", Text: "e\rf", Origin: "news.csv:6", Raw: `{"id":"3","text":"e\rf"}`},
			},
		},
		{
			name:  "regression: a lone CR did not end a line",
			file:  "news.csv",
			input: "id,text\n1,a\r\n2,b\r3,c\n\r\r4,d\r",
			want: []rec{
				{ID: "1", Text: "a", Origin: "news.csv:2", Raw: `{"id":"1","text":"a"}`},
				{ID: "2", Text: "b", Origin: "news.csv:3", Raw: `{"id":"2","text":"b"}`},
				{ID: "3", Text: "c", Origin: "news.csv:4", Raw: `{"id":"3","text":"c"}`},
				{ID: "4", Text: "d", Origin: "news.csv:7", Raw: `{"id":"4","text":"d"}`},
			},
		},
		{
			name:  "regression: a file of lone CR line ends had no text column",
			file:  "news.csv",
			input: "id;text\r1;a, b, c, d, e\r2;\"c\rd\"\r",
			want: []rec{
				{ID: "1", Text: "a, b, c, d, e", Origin: "news.csv:2", Raw: `{"id":"1","text":"a, b, c, d, e"}`},
				{ID: "2", Text: "c\rd", Origin: "news.csv:3", Raw: `{"id":"2","text":"c\rd"}`},
			},
		},
		{
			// Only a field that goes past its line end runs on.
			name:  "regression: a stray quote in one field and a line break in another refused the row",
			file:  "news.csv",
			input: "id,title,text\n1,\"5\" screen\",\"two\nlines\"\n2,t,after\n",
			want: []rec{
				{ID: "1", Title: `5" screen`, Text: "two\nlines", Origin: "news.csv:2", Raw: `{"id":"1","title":"5\" screen","text":"two\nlines"}`},
				{ID: "2", Title: "t", Text: "after", Origin: "news.csv:4", Raw: `{"id":"2","title":"t","text":"after"}`},
			},
		},
		{
			name:  "regression: a file of lone CR line ends was not known for CSV without the extension",
			file:  "news",
			input: "id;text\r1;a, b\r",
			want:  []rec{{ID: "1", Text: "a, b", Origin: "news:2", Raw: `{"id":"1","text":"a, b"}`}},
		},
		{
			name:  "a header that opens with a quoted word",
			file:  "news.csv",
			input: "\"id\" no.,text\n1,a\n",
			opts:  Options{IDField: `"id" no.`},
			want:  []rec{{ID: "1", Text: "a", Origin: "news.csv:2", Raw: `{"\"id\" no.":"1","text":"a"}`}},
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
			cfg:   config{slack: 100}, // the row is held; its title and text are checked
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
			name:    "an unclosed quote on a last line without its line end stops at the limit",
			file:    "news.csv",
			input:   "id,text\n1,ok\n2,\"never closed " + strings.Repeat("word ", 100),
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
				{ID: "news.csv:3", Origin: "news.csv:3", Skip: "too-large", Err: "news.csv:3: 5007 bytes, too large to read (the limit is 10 bytes a record, --max-bytes)"},
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

// repeatRec returns n records made by f.
func repeatRec(n int, f func(i int) rec) []rec {
	out := make([]rec, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// TestLenientFields checks the reading of a line alone, as Python's csv
// module reads a quote that closes a field without ending it.
func TestLenientFields(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // nil: a quoted field not closed on the line
	}{
		{`1,plain,row`, []string{"1", "plain", "row"}},
		{`1,"quoted, with comma",""`, []string{"1", "quoted, with comma", ""}},
		{`1,"doubled ""q""",x`, []string{"1", `doubled "q"`, "x"}},
		{`2,B,"We will win," he said. More`, []string{"2", "B", `"We will win," he said. More`}},
		{`2,"Yes," she said, "no"`, []string{"2", `"Yes," she said`, ` "no"`}},
		{`2,"a ""b"" c" d,e`, []string{"2", `"a ""b"" c" d`, "e"}},
		{`1,a "b" c,`, []string{"1", `a "b" c`, ""}},
		{``, []string{""}},
		{`1,"never closed`, nil},
		{`1,"closed" then "open`, []string{"1", `"closed" then "open`}},
		{`"`, nil},
	} {
		got, ok := lenientFields([]byte(tc.line), ',')
		if ok != (tc.want != nil) {
			t.Errorf("%q: ok %v, want %v", tc.line, ok, tc.want != nil)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: (-want +got)\n%s", tc.line, diff)
		}
	}
}

// TestCSVReadSizes reads one file with reads of 1 to 9 bytes and of the
// usual size: every line end, doubled quote and run-on row falls across
// a read somewhere, and the rows read are the same.
func TestCSVReadSizes(t *testing.T) {
	input := "\ufeffid,text\r\n1,\"a\r\nb\"\r\n\r\n2,\"x \"\"q\"\"\"\r3,\"Go,\" she said\n4,\"c\rd\"\r5,e"
	want := []rec{
		{ID: "1", Text: "a\r\nb", Origin: "news.csv:2", Raw: `{"id":"1","text":"a\r\nb"}`},
		{ID: "2", Text: `x "q"`, Origin: "news.csv:5", Raw: `{"id":"2","text":"x \"q\""}`},
		{ID: "3", Text: `"Go," she said`, Origin: "news.csv:6", Raw: `{"id":"3","text":"\"Go,\" she said"}`},
		{ID: "4", Text: "c\rd", Origin: "news.csv:7", Raw: `{"id":"4","text":"c\rd"}`},
		{ID: "5", Text: "e", Origin: "news.csv:9", Raw: `{"id":"5","text":"e"}`},
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"news.csv": input})
	t.Chdir(dir)
	for _, size := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 0} {
		got, err := readAll(t, []string{"news.csv"}, Options{}, config{bufSize: size})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("reads of %d bytes: (-want +got)\n%s", size, diff)
		}
	}
}

// TestCSVKeptFieldsHoldNoRow: the fields of a CSV document that a run
// keeps past its record (id, title, URL, source) are strings of their
// own, not cut from the string of the whole row, which would keep the
// row's text alive as long as the document table holds its id. Regression:
// a CSV with an id column kept about a whole row a document, 269 MiB that
// --memory could not spill on 50,000 rows of 4 KB where JSON Lines kept
// none.
func TestCSVKeptFieldsHoldNoRow(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("The ferry sailed at dawn. ", 40)
	writeFiles(t, dir, map[string]string{"a.csv": "id,title,url,source,text\na1,Ferry,http://x.example/1,AP," + text + "\n"})
	r, err := open([]string{filepath.Join(dir, "a.csv")}, nil, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	raw, err := r.NextRaw()
	if err != nil {
		t.Fatal(err)
	}
	doc := r.Decode(raw).Doc
	if doc.Text != text {
		t.Fatalf("text %q", doc.Text)
	}
	// The row's string held the fields one after another, the text last.
	row := unsafe.StringData(doc.Text)
	rowStart := uintptr(unsafe.Pointer(row)) - uintptr(len("a1Ferryhttp://x.example/1AP"))
	rowEnd := uintptr(unsafe.Pointer(row)) + uintptr(len(doc.Text))
	for name, s := range map[string]string{"id": doc.ID, "title": doc.Title, "url": doc.URL, "source": doc.Source} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= rowStart && p < rowEnd {
			t.Errorf("%s %q lies inside the row's string", name, s)
		}
	}
}
