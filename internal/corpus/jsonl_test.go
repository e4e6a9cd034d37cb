package corpus

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONL(t *testing.T) {
	long := `{"text":"` + strings.Repeat("a", 300) + `"}`
	for _, tc := range []struct {
		name  string
		input string
		opts  Options
		cfg   config
		want  []rec
	}{
		{
			name:  "all fields",
			input: `{"id":"a1","title":"T","text":"Body.","url":"http://x/1","source":"AP","date":"2024-03-05T10:00:00Z","extra":[1,{"k":null}]}` + "\n",
			want: []rec{{ID: "a1", Title: "T", Text: "Body.", URL: "http://x/1", Source: "AP", Date: "2024-03-05T10:00:00Z", Origin: "news.jsonl:1",
				Raw: `{"id":"a1","title":"T","text":"Body.","url":"http://x/1","source":"AP","date":"2024-03-05T10:00:00Z","extra":[1,{"k":null}]}`}},
		},
		{
			name:  "field mapping",
			input: `{"guid":7,"headline":"H","body":"B","link":"L","site":"S","published":"2024-03-05"}`,
			opts:  Options{IDField: "guid", TitleField: "headline", TextField: "body", URLField: "link", SourceField: "site", DateField: "published"},
			want: []rec{{ID: "7", Title: "H", Text: "B", URL: "L", Source: "S", Date: "2024-03-05T00:00:00", Origin: "news.jsonl:1",
				Raw: `{"guid":7,"headline":"H","body":"B","link":"L","site":"S","published":"2024-03-05"}`}},
		},
		{
			name: "dotted paths into nested objects",
			input: `{"_id":"e1","_source":{"headline":"H","body":{"text":"B"},"published":"2024-03-05"}}` + "\n" +
				`{"_id":"e2","_source":{"headline":7,"body":"not an object"}}` + "\n" +
				`{"_id":"e3","_source.headline":"literal","_source":{"body":{"text":"C"}}}` + "\n" +
				`{"_id":"e4","_source.headline":"literal, no object","_source.body.text":"D"}` + "\n",
			opts: Options{IDField: "_id", TitleField: "_source.headline", TextField: "_source.body.text", DateField: "_source.published"},
			want: []rec{
				{ID: "e1", Title: "H", Text: "B", Date: "2024-03-05T00:00:00", Origin: "news.jsonl:1",
					Raw: `{"_id":"e1","_source":{"headline":"H","body":{"text":"B"},"published":"2024-03-05"}}`},
				{ID: "e2", Origin: "news.jsonl:2", Skip: "malformed", Raw: `{"_id":"e2","_source":{"headline":7,"body":"not an object"}}`,
					Err: `news.jsonl:2: field "_source.headline": want a string, got number`},
				{ID: "e3", Text: "C", Origin: "news.jsonl:3", Raw: `{"_id":"e3","_source.headline":"literal","_source":{"body":{"text":"C"}}}`},
				{ID: "e4", Title: "literal, no object", Text: "D", Origin: "news.jsonl:4",
					Raw: `{"_id":"e4","_source.headline":"literal, no object","_source.body.text":"D"}`},
			},
		},
		{
			name:  "missing, null and empty ids come from the origin",
			input: "{\"text\":\"a\"}\n{\"id\":null,\"text\":\"b\"}\n{\"id\":\"\",\"text\":\"c\"}\n{\"id\":1.5e3,\"text\":\"d\"}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Origin: "news.jsonl:1", Raw: `{"text":"a"}`},
				{ID: "news.jsonl:2", Text: "b", Origin: "news.jsonl:2", Raw: `{"id":null,"text":"b"}`},
				{ID: "news.jsonl:3", Text: "c", Origin: "news.jsonl:3", Raw: `{"id":"","text":"c"}`},
				{ID: "1.5e3", Text: "d", Origin: "news.jsonl:4", Raw: `{"id":1.5e3,"text":"d"}`},
			},
		},
		{
			name:  "blank lines, CRLF and BOM",
			input: "\ufeff{\"text\":\"a\"}\r\n\r\n   \n{\"text\":\"b\"}\r\n\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Origin: "news.jsonl:1", Raw: `{"text":"a"}`},
				{ID: "news.jsonl:4", Text: "b", Origin: "news.jsonl:4", Raw: `{"text":"b"}`},
			},
		},
		{
			name:  "last line without newline",
			input: "{\"text\":\"a\"}\n{\"text\":\"b\"}",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Origin: "news.jsonl:1", Raw: `{"text":"a"}`},
				{ID: "news.jsonl:2", Text: "b", Origin: "news.jsonl:2", Raw: `{"text":"b"}`},
			},
		},
		{
			name:  "escapes",
			input: `{"title":"\"q\" \\ \/ \b\f\n\r\t","text":"\u00e9\u0416\ud83d\ude00 \ud800x"}`,
			want: []rec{{ID: "news.jsonl:1", Title: "\"q\" \\ / \b\f\n\r\t", Text: "éЖ😀 \ufffdx", Origin: "news.jsonl:1",
				Raw: `{"title":"\"q\" \\ \/ \b\f\n\r\t","text":"\u00e9\u0416\ud83d\ude00 \ud800x"}`}},
		},
		{
			name:  "exact key wins over one ignoring case, last duplicate wins",
			input: `{"Text":"folded","text":"first","TEXT":"ignored","text":"last","Title":"t"}`,
			want: []rec{{ID: "news.jsonl:1", Title: "t", Text: "last", Origin: "news.jsonl:1",
				Raw: `{"Text":"folded","text":"first","TEXT":"ignored","text":"last","Title":"t"}`}},
		},
		{
			name:  "url, source and date of other types are ignored",
			input: `{"text":"a","url":5,"source":{"name":"BBC"},"date":"yesterday"}`,
			want:  []rec{{ID: "news.jsonl:1", Text: "a", Origin: "news.jsonl:1", Raw: `{"text":"a","url":5,"source":{"name":"BBC"},"date":"yesterday"}`}},
		},
		{
			// Regression: a source that is a number was ignored, so that
			// --source-col publisher_id read no source, and records of
			// "1" and 1 were of two sources.
			name: "a source that is a number is read as its text, as an id is",
			input: `{"text":"a","publisher_id":1}` + "\n" + `{"text":"b","publisher_id":"1"}` + "\n" +
				`{"text":"c","publisher_id":-2.50}` + "\n" + `{"text":"d","publisher_id":true}` + "\n",
			opts: Options{SourceField: "publisher_id"},
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Source: "1", Origin: "news.jsonl:1", Raw: `{"text":"a","publisher_id":1}`},
				{ID: "news.jsonl:2", Text: "b", Source: "1", Origin: "news.jsonl:2", Raw: `{"text":"b","publisher_id":"1"}`},
				{ID: "news.jsonl:3", Text: "c", Source: "-2.50", Origin: "news.jsonl:3", Raw: `{"text":"c","publisher_id":-2.50}`},
				{ID: "news.jsonl:4", Text: "d", Origin: "news.jsonl:4", Raw: `{"text":"d","publisher_id":true}`},
			},
		},
		{
			name:  "unix dates",
			input: "{\"text\":\"a\",\"date\":1700000000}\n{\"text\":\"b\",\"date\":1700000000000}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Date: "2023-11-14T22:13:20Z", Origin: "news.jsonl:1", Raw: `{"text":"a","date":1700000000}`},
				{ID: "news.jsonl:2", Text: "b", Date: "2023-11-14T22:13:20Z", Origin: "news.jsonl:2", Raw: `{"text":"b","date":1700000000000}`},
			},
		},
		{
			// Regression: a negative Unix time (before 1970) was no date,
			// as a number and as text; the epoch and year 1 stay none.
			name: "negative unix dates",
			input: "{\"text\":\"a\",\"date\":-86400}\n{\"text\":\"b\",\"date\":\"-1709634030\"}\n" +
				"{\"text\":\"c\",\"date\":-1709634030000}\n{\"text\":\"d\",\"date\":-1.5}\n" +
				"{\"text\":\"e\",\"date\":-62135596800}\n{\"text\":\"f\",\"date\":-0}\n" +
				// Regression: milliseconds with a fraction were cut toward
				// 1970 (a millisecond later), seconds floored.
				"{\"text\":\"g\",\"date\":-1709634030000.5}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", Date: "1969-12-31T00:00:00Z", Origin: "news.jsonl:1", Raw: `{"text":"a","date":-86400}`},
				{ID: "news.jsonl:2", Text: "b", Date: "1915-10-29T13:39:30Z", Origin: "news.jsonl:2", Raw: `{"text":"b","date":"-1709634030"}`},
				{ID: "news.jsonl:3", Text: "c", Date: "1915-10-29T13:39:30Z", Origin: "news.jsonl:3", Raw: `{"text":"c","date":-1709634030000}`},
				{ID: "news.jsonl:4", Text: "d", Date: "1969-12-31T23:59:58Z", Origin: "news.jsonl:4", Raw: `{"text":"d","date":-1.5}`},
				{ID: "news.jsonl:5", Text: "e", Origin: "news.jsonl:5", Raw: `{"text":"e","date":-62135596800}`},
				{ID: "news.jsonl:6", Text: "f", Origin: "news.jsonl:6", Raw: `{"text":"f","date":-0}`},
				{ID: "news.jsonl:7", Text: "g", Date: "1915-10-29T13:39:29Z", Origin: "news.jsonl:7", Raw: `{"text":"g","date":-1709634030000.5}`},
			},
		},
		{
			name:  "malformed JSON",
			input: "{\"text\":\"a\",}\n",
			want: []rec{{ID: "news.jsonl:1", Origin: "news.jsonl:1", Raw: `{"text":"a",}`, Skip: "malformed",
				Err: `news.jsonl:1: malformed JSON at byte 13: invalid character '}' looking for beginning of object key string`}},
		},
		{
			name:  "not an object",
			input: "[1,2]\n\"text\"\n",
			want: []rec{
				{ID: "news.jsonl:1", Origin: "news.jsonl:1", Raw: `[1,2]`, Skip: "malformed", Err: `news.jsonl:1: malformed: not a JSON object`},
				{ID: "news.jsonl:2", Origin: "news.jsonl:2", Raw: `"text"`, Skip: "malformed", Err: `news.jsonl:2: malformed: not a JSON object`},
			},
		},
		{
			name:  "wrong types",
			input: "{\"id\":true,\"text\":\"a\"}\n{\"text\":1}\n{\"title\":[],\"text\":\"a\"}\n",
			want: []rec{
				{ID: "news.jsonl:1", Origin: "news.jsonl:1", Raw: `{"id":true,"text":"a"}`, Skip: "malformed", Err: `news.jsonl:1: field "id": want a string or number, got boolean`},
				{ID: "news.jsonl:2", Origin: "news.jsonl:2", Raw: `{"text":1}`, Skip: "malformed", Err: `news.jsonl:2: field "text": want a string, got number`},
				{ID: "news.jsonl:3", Origin: "news.jsonl:3", Raw: `{"title":[],"text":"a"}`, Skip: "malformed", Err: `news.jsonl:3: field "title": want a string, got array`},
			},
		},
		{
			name:  "invalid UTF-8",
			input: "{\"text\":\"a\xffb\"}\n{\"title\":\"\xc3\",\"text\":\"ok\"}\n{\"id\":\"\xfe\",\"text\":\"ok\"}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a\xffb", Origin: "news.jsonl:1", Raw: "{\"text\":\"a\xffb\"}", Skip: "invalid-utf8", Err: `news.jsonl:1: field "text": invalid UTF-8`},
				{ID: "news.jsonl:2", Title: "\xc3", Text: "ok", Origin: "news.jsonl:2", Raw: "{\"title\":\"\xc3\",\"text\":\"ok\"}", Skip: "invalid-utf8", Err: `news.jsonl:2: field "title": invalid UTF-8`},
				{ID: "\xfe", Text: "ok", Origin: "news.jsonl:3", Raw: "{\"id\":\"\xfe\",\"text\":\"ok\"}", Skip: "invalid-utf8", Err: `news.jsonl:3: field "id": invalid UTF-8`},
			},
		},
		// Regression: an escaped lone surrogate in an id was read as
		// U+FFFD, so that two ids that differ there were one, the second
		// a conflict; in a URL or a source it changed them too. A pair is
		// a character, and a title or text keeps U+FFFD for a lone one.
		{
			name: "lone surrogate escaped in the id, URL or source",
			input: `{"id":"sur\ud800","text":"a"}` + "\n" + `{"id":"b","url":"http://x/\udc00","text":"b"}` + "\n" +
				`{"id":"c","source":"wire\ud83d","text":"c"}` + "\n" + `{"id":"d\ud83d\ude00","title":"cut \ud83d","text":"d\udfff"}` + "\n",
			want: []rec{
				{ID: "sur\ufffd", Text: "a", Origin: "news.jsonl:1", Raw: `{"id":"sur\ud800","text":"a"}`, Skip: "invalid-utf8",
					Err: `news.jsonl:1: field "id": invalid UTF-8: a lone surrogate escaped (\ud800 to \udfff, not in a pair), which is no character`},
				{ID: "b", URL: "http://x/\ufffd", Text: "b", Origin: "news.jsonl:2", Raw: `{"id":"b","url":"http://x/\udc00","text":"b"}`, Skip: "invalid-utf8",
					Err: `news.jsonl:2: field "url": invalid UTF-8: a lone surrogate escaped (\ud800 to \udfff, not in a pair), which is no character`},
				{ID: "c", Source: "wire\ufffd", Text: "c", Origin: "news.jsonl:3", Raw: `{"id":"c","source":"wire\ud83d","text":"c"}`, Skip: "invalid-utf8",
					Err: `news.jsonl:3: field "source": invalid UTF-8: a lone surrogate escaped (\ud800 to \udfff, not in a pair), which is no character`},
				{ID: "d\U0001F600", Title: "cut \ufffd", Text: "d\ufffd", Origin: "news.jsonl:4", Raw: `{"id":"d\ud83d\ude00","title":"cut \ud83d","text":"d\udfff"}`},
			},
		},
		// Regression: a line whose bytes were not UTF-8 outside its title,
		// text and id was kept, and copied so to kept.jsonl, which was then
		// neither UTF-8 nor JSON.
		{
			name: "invalid UTF-8 in another field or a key skips the line",
			input: "{\"text\":\"a\",\"url\":\"u\xff\",\"source\":\"s\xfe\"}\n" +
				"{\"text\":\"b\",\"meta\":{\"author\":\"Jos\xe9\"}}\n" +
				"{\"text\":\"c\",\"\\u0041\xffkey\":1}\n" +
				"{\"text\":\"d\",\"ok\":\"Jos\u00e9 \\ud800\"}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a", URL: "u\xff", Source: "s\xfe", Origin: "news.jsonl:1", Raw: "{\"text\":\"a\",\"url\":\"u\xff\",\"source\":\"s\xfe\"}",
					Skip: "invalid-utf8", Err: `news.jsonl:1: field "url": invalid UTF-8`},
				{ID: "news.jsonl:2", Text: "b", Origin: "news.jsonl:2", Raw: "{\"text\":\"b\",\"meta\":{\"author\":\"Jos\xe9\"}}",
					Skip: "invalid-utf8", Err: `news.jsonl:2: field "meta": invalid UTF-8`},
				{ID: "news.jsonl:3", Text: "c", Origin: "news.jsonl:3", Raw: "{\"text\":\"c\",\"\\u0041\xffkey\":1}",
					Skip: "invalid-utf8", Err: `news.jsonl:3: field "A\xffkey": invalid UTF-8 in the key`},
				{ID: "news.jsonl:4", Text: "d", Origin: "news.jsonl:4", Raw: "{\"text\":\"d\",\"ok\":\"Jos\u00e9 \\ud800\"}"},
			},
		},
		{
			name:  "NUL bytes",
			input: "{\"text\":\"a\\u0000b\"}\n{\"text\":\"a\x00b\"}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: "a\x00b", Origin: "news.jsonl:1", Raw: `{"text":"a\u0000b"}`, Skip: "binary", Err: `news.jsonl:1: field "text": NUL byte (binary data)`},
				{ID: "news.jsonl:2", Origin: "news.jsonl:2", Raw: "{\"text\":\"a\x00b\"}", Skip: "malformed",
					Err: `news.jsonl:2: malformed JSON at byte 11: invalid character '\x00' in string literal`},
			},
		},
		{
			// No field of a usable record holds a NUL byte: PostgreSQL
			// stores none in text.
			name:  "NUL bytes in id, url and source",
			input: "{\"id\":\"a\\u0000\",\"text\":\"ok\"}\n{\"text\":\"ok\",\"url\":\"u\\u0000\",\"source\":\"\\u0000s\"}\n",
			want: []rec{
				{ID: "a\x00", Text: "ok", Origin: "news.jsonl:1", Raw: `{"id":"a\u0000","text":"ok"}`, Skip: "binary", Err: `news.jsonl:1: field "id": NUL byte (binary data)`},
				{ID: "news.jsonl:2", Text: "ok", URL: "u\ufffd", Source: "\ufffds", Origin: "news.jsonl:2", Raw: `{"text":"ok","url":"u\u0000","source":"\u0000s"}`},
			},
		},
		{
			name:  "empty and missing text",
			input: "{\"text\":\" \\n\\t \"}\n{\"title\":\"t\"}\n{\"text\":null}\n",
			want: []rec{
				{ID: "news.jsonl:1", Text: " \n\t ", Origin: "news.jsonl:1", Raw: `{"text":" \n\t "}`, Skip: "empty", Err: `news.jsonl:1: field "text": empty`},
				{ID: "news.jsonl:2", Title: "t", Origin: "news.jsonl:2", Raw: `{"title":"t"}`, Skip: "empty", Err: `news.jsonl:2: field "text": missing`},
				{ID: "news.jsonl:3", Origin: "news.jsonl:3", Raw: `{"text":null}`, Skip: "empty", Err: `news.jsonl:3: field "text": missing`},
			},
		},
		{
			name:  "too large title and text",
			input: `{"title":"12345","text":"123456"}` + "\n" + `{"title":"12345","text":"12345"}`,
			opts:  Options{MaxBytes: 10},
			cfg:   config{slack: 100},
			want: []rec{
				{ID: "news.jsonl:1", Title: "12345", Text: "123456", Origin: "news.jsonl:1", Raw: `{"title":"12345","text":"123456"}`, Skip: "too-large",
					Err: `news.jsonl:1: title and text are 11 bytes, over the limit of 10`},
				{ID: "news.jsonl:2", Title: "12345", Text: "12345", Origin: "news.jsonl:2", Raw: `{"title":"12345","text":"12345"}`},
			},
		},
		{
			name:  "line over the limit is skipped and reading goes on",
			input: long + "\r\n" + `{"text":"after"}` + "\n" + long,
			opts:  Options{MaxBytes: 10},
			cfg:   config{bufSize: 16, slack: 100},
			want: []rec{
				{ID: "news.jsonl:1", Origin: "news.jsonl:1", Skip: "too-large", Err: `news.jsonl:1: 311 bytes, too large to read (the limit is 10 bytes a record, --max-bytes)`},
				{ID: "news.jsonl:2", Text: "after", Origin: "news.jsonl:2", Raw: `{"text":"after"}`},
				{ID: "news.jsonl:3", Origin: "news.jsonl:3", Skip: "too-large", Err: `news.jsonl:3: 311 bytes, too large to read (the limit is 10 bytes a record, --max-bytes)`},
			},
		},
		// Regression: a line that fit the read buffer was measured by its
		// title and text alone, and kept however long its other fields.
		{
			name:  "line within the buffer over the limit is skipped",
			input: `{"text":"ok","extra":"` + strings.Repeat("z", 40) + `"}` + "\n" + `{"text":"after"}` + "\n",
			opts:  Options{MaxBytes: 20},
			want: []rec{
				{ID: "news.jsonl:1", Origin: "news.jsonl:1", Skip: "too-large", Err: `news.jsonl:1: 64 bytes, too large to read (the limit is 20 bytes a record, --max-bytes)`},
				{ID: "news.jsonl:2", Text: "after", Origin: "news.jsonl:2", Raw: `{"text":"after"}`},
			},
		},
		{
			name:  "lines longer than the buffer",
			input: long + "\n" + strings.Repeat(" ", 40) + "\n" + `{"text":"after"}`,
			cfg:   config{bufSize: 16},
			want: []rec{
				{ID: "news.jsonl:1", Text: strings.Repeat("a", 300), Origin: "news.jsonl:1", Raw: long},
				{ID: "news.jsonl:3", Text: "after", Origin: "news.jsonl:3", Raw: `{"text":"after"}`},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"news.jsonl": tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{"news.jsonl"}, tc.opts, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// NextRawShared gives the lines NextRaw gives, each valid until the next
// call: those read ahead to check the fields, lines longer than the read
// buffer, and those of a second file and of a gzipped one.
func TestNextRawSharedSameLines(t *testing.T) {
	var b strings.Builder
	for i := range 250 {
		text := fmt.Sprint("story ", i)
		if i%7 == 3 {
			text = strings.Repeat("long ", 20+i%30)
		}
		fmt.Fprintf(&b, "{\"id\":\"d%d\",\"text\":%q}\n", i, text)
		if i%50 == 10 {
			b.WriteString("\n   \nnot json\n")
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.jsonl": b.String(), "b.jsonl": "{\"text\":\"x\"}\n", "c.jsonl.gz": gz(t, b.String())})
	paths := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl.gz")}
	lines := func(shared bool) []string {
		r, err := open(paths, nil, Options{}, config{bufSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var got []string
		for {
			next := r.NextRaw
			if shared {
				next = r.NextRawShared
			}
			raw, err := next()
			if err == io.EOF {
				return got
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, raw.Origin+" "+string(raw.JSONLine()))
		}
	}
	want, got := lines(false), lines(true)
	if len(want) != 2*(250+5)+1 {
		t.Fatalf("%d records", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-NextRaw +NextRawShared)\n%s", diff)
	}
}

// TestNextRawIn: a line that fits the buffer's spare capacity is read into
// it, one that does not has its own copy, the lines read ahead to check
// the fields among them, and each reads as NextRaw reads it.
func TestNextRawIn(t *testing.T) {
	var input strings.Builder
	var want []string
	for i := range 3 * checkRecords {
		line := fmt.Sprintf(`{"id":"d%d","text":"%s"}`, i, strings.Repeat("x", i%7*40))
		want = append(want, line)
		input.WriteString(line + "\n")
	}
	r, err := OpenReader("news.jsonl", strings.NewReader(input.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 0, 1000)
	inBuf := 0
	for i := 0; ; i++ {
		start := len(buf)
		raw, got, err := r.NextRawIn(buf)
		if err == io.EOF {
			if i != len(want) {
				t.Fatalf("%d lines, want %d", i, len(want))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		line := raw.JSONLine()
		if string(line) != want[i] {
			t.Fatalf("line %d: %q, want %q", i, line, want[i])
		}
		switch {
		case len(got) == start:
			if i >= checkRecords && cap(buf)-start >= len(line) {
				t.Errorf("line %d fit the buffer and was not read into it", i)
			}
		case i < checkRecords:
			t.Errorf("line %d, read ahead to check the fields, was read into the buffer", i)
		case string(got[start:]) != want[i] || &got[start] != &line[0]:
			t.Errorf("line %d: the buffer holds %q, not the line's own bytes", i, got[start:])
		default:
			inBuf++
		}
		if buf = got; cap(buf)-len(buf) < 100 {
			buf = buf[:0] // written over: the lines before are not read again
		}
	}
	if inBuf == 0 {
		t.Error("no line was read into the buffer")
	}
}
