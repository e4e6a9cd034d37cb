package corpus

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  string
		input string
		opts  Options
		cfg   config
		want  []rec
	}{
		{
			name:  "title is the first non-blank line",
			file:  "a.txt",
			input: "\n  \nThe Title  \n\nFirst paragraph.\n\nSecond.\n\n",
			want: []rec{{ID: "a.txt", Title: "The Title", Text: "First paragraph.\n\nSecond.", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"The Title","text":"First paragraph.\n\nSecond."}`}},
		},
		{
			name:  "CRLF and BOM",
			file:  "a.txt",
			input: "\ufeffTitle\r\n\r\nBody\r\nmore\r\n",
			want: []rec{{ID: "a.txt", Title: "Title", Text: "Body\r\nmore", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"Title","text":"Body\r\nmore"}`}},
		},
		{
			// Regression: a file of lone CR line ends had no title, its
			// title line read as the start of its text.
			name:  "lone CR line ends, as old Mac files end theirs",
			file:  "a.txt",
			input: "\r\rTitle \r\rBody\rmore\r",
			want: []rec{{ID: "a.txt", Title: "Title", Text: "Body\rmore", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"Title","text":"Body\rmore"}`}},
		},
		{
			// Regression: one LF appended to a file of lone CR line ends
			// made LF its only line end, and its title part of its text.
			name:  "lone CR line ends and one LF at the end",
			file:  "a.txt",
			input: "Title\rBody line one.\rMore body.\n",
			want: []rec{{ID: "a.txt", Title: "Title", Text: "Body line one.\rMore body.", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"Title","text":"Body line one.\rMore body."}`}},
		},
		{
			// Regression: a stray CR in the first line of a file of LF line
			// ends split its title there, the rest of it taken for text.
			name:  "a stray CR in the title line of a file of LF line ends",
			file:  "a.txt",
			input: "Markets rally\ron rate hopes\nStocks rose.\r\n",
			want: []rec{{ID: "a.txt", Title: "Markets rally\ron rate hopes", Text: "Stocks rose.", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"Markets rally\ron rate hopes","text":"Stocks rose."}`}},
		},
		{
			name:  "one line is all text",
			file:  "a.txt",
			input: "Only a line.\n",
			want:  []rec{{ID: "a.txt", Text: "Only a line.", Origin: "a.txt", Raw: `{"id":"a.txt","title":"","text":"Only a line."}`}},
		},
		{
			name:  "markdown heading",
			file:  "a.md",
			input: "## Heading\nBody \"quoted\".\n",
			want:  []rec{{ID: "a.md", Title: "Heading", Text: `Body "quoted".`, Origin: "a.md", Raw: `{"id":"a.md","title":"Heading","text":"Body \"quoted\"."}`}},
		},
		{
			// Regression: a Markdown file's YAML front matter was read as
			// text, its title "---".
			name:  "regression: markdown front matter was read as text",
			file:  "a.md",
			input: "---\ntitle: \"Council approves bridge\"\ndate: 2024-03-05\n---\n\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Council approves bridge", Text: "The council voted.", Date: "2024-03-05T00:00:00", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Council approves bridge","text":"The council voted.","date":"2024-03-05"}`}},
		},
		{
			name:  "markdown front matter without a title",
			file:  "a.md",
			input: "---\ndate: 2024-03-05\n...\n# Heading\nBody.\n",
			want: []rec{{ID: "a.md", Title: "Heading", Text: "Body.", Date: "2024-03-05T00:00:00", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Heading","text":"Body.","date":"2024-03-05"}`}},
		},
		{
			// Regression: a Markdown file's front matter gave its title
			// alone; its date:, source: and url: were left out.
			name: "regression: markdown front matter date, source and url were not read",
			file: "a.md",
			input: "---\ntitle: Bridge\ndate: \"2024-03-05T10:00:00+01:00\"\nsource: >-\n  Coast\n  Gazette\n" +
				"url: 'https://coast.example/bridge'\nsource: later\ntags: [a]\n---\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Bridge", Text: "The council voted.", URL: "https://coast.example/bridge", Source: "Coast Gazette",
				Date: "2024-03-05T10:00:00+01:00", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Bridge","text":"The council voted.","url":"https://coast.example/bridge",` +
					`"source":"Coast Gazette","date":"2024-03-05T10:00:00+01:00"}`}},
		},
		{
			// Regression: a relative url: (as Hugo writes one), or one of
			// another scheme, became the document's URL, and index add
			// skipped the file for it.
			name:  "regression: a markdown front matter url that is not absolute http(s) was taken",
			file:  "a.md",
			input: "---\ntitle: Bridge\nurl: /posts/bridge/\nsource: Coast Gazette\n---\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Bridge", Text: "The council voted.", Source: "Coast Gazette", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Bridge","text":"The council voted.","source":"Coast Gazette"}`}},
		},
		{
			name:  "regression: a markdown front matter javascript: url was taken",
			file:  "a.md",
			input: "---\nurl: \"javascript:alert(1)\"\n---\nThe council voted.\nMore.\n",
			want: []rec{{ID: "a.md", Title: "The council voted.", Text: "More.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"The council voted.","text":"More."}`}},
		},
		{
			name:  "regression: a markdown front matter mailto: url was taken",
			file:  "a.md",
			input: "---\nurl: mailto:desk@coast.example\n---\nThe council voted.\nMore.\n",
			want: []rec{{ID: "a.md", Title: "The council voted.", Text: "More.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"The council voted.","text":"More."}`}},
		},
		{
			// Regression: a comment after a value was part of it.
			name:  "regression: a markdown front matter comment was read as part of the value",
			file:  "a.md",
			input: "---\ntitle: Bridge # draft\nsource: \"Coast # Gazette\" # quoted\ndate: 2024-03-05 # day\n---\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Bridge", Text: "The council voted.", Source: "Coast # Gazette", Date: "2024-03-05T00:00:00", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Bridge","text":"The council voted.","source":"Coast # Gazette","date":"2024-03-05"}`}},
		},
		{
			// Regression: escapes YAML has and Go has not (\/, a surrogate
			// pair) left every escape of the value unread.
			name: "regression: markdown front matter escapes were read as Go's",
			file: "a.md",
			input: "---\ntitle: " + `"Caf\u00e9 \/ news \ud83d\ude00"` + "\nsource: " + `"Coast\x20Gazette"` +
				"\nurl: " + `"https://coast.example/\q"` + "\n---\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Café / news \U0001F600", Text: "The council voted.", Source: "Coast Gazette", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Café / news ` + "\U0001F600" + `","text":"The council voted.","source":"Coast Gazette"}`}},
		},
		{
			name:  "markdown front matter: a # inside a word is text",
			file:  "a.md",
			input: "---\ntitle: Bridge#1 'open'\nsource: 'Coast''s Gazette'\n---\nThe council voted.\n",
			want: []rec{{ID: "a.md", Title: "Bridge#1 'open'", Text: "The council voted.", Source: "Coast's Gazette", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Bridge#1 'open'","text":"The council voted.","source":"Coast's Gazette"}`}},
		},
		{
			// Regression: null and ~ were read as text, and an empty key
			// gave way to a repeat of it.
			name: "regression: markdown front matter null, ~ and empty values were read, or a repeated key",
			file: "a.md",
			input: "---\ntitle: null\nsource: ~\ndate:\nurl: \"\"\ntags: [a]\n" +
				"title: Later\nsource: Later\ndate: 2024-03-05\nurl: https://coast.example/later\n---\nThe council voted.\nMore.\n",
			want: []rec{{ID: "a.md", Title: "The council voted.", Text: "More.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"The council voted.","text":"More."}`}},
		},
		{
			// Regression: a list, a map, an anchor or a tag was read as text.
			name: "regression: markdown front matter values that are no text were read",
			file: "a.md",
			input: "---\ntitle: &t Anchored\nsource: [Coast, Gazette]\ndate: !!timestamp 2024-03-05\nurl: {href: x}\n---\n" +
				"The council voted.\nMore.\n",
			want: []rec{{ID: "a.md", Title: "The council voted.", Text: "More.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"The council voted.","text":"More."}`}},
		},
		{
			name:  "markdown front matter: a list or a map below a key is no value",
			file:  "a.md",
			input: "---\nsource:\n  - Coast\n  - Gazette\ntitle:\n  text: Bridge\n---\nThe council voted.\nMore.\n",
			want: []rec{{ID: "a.md", Title: "The council voted.", Text: "More.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"The council voted.","text":"More."}`}},
		},
		{
			// Regression: a plain value going on in indented lines, or given
			// below its key, was cut to its first line, or read as absent.
			name: "regression: a markdown front matter plain value on more lines was not read",
			file: "a.md",
			input: "---\ntitle: Harbour\n  reopens\n\n  today\nsource:\n  # the paper\n  Coast\n  Gazette\ndate:\n  2024-03-05\n---\n" +
				"The council voted.\n",
			want: []rec{{ID: "a.md", Title: "Harbour reopens today", Text: "The council voted.", Source: "Coast Gazette", Date: "2024-03-05T00:00:00", Origin: "a.md",
				Raw: `{"id":"a.md","title":"Harbour reopens today","text":"The council voted.","source":"Coast Gazette","date":"2024-03-05"}`}},
		},
		{
			name:  "markdown front matter keys only at a line's start, in lower case",
			file:  "a.md",
			input: "---\nSource: A\nmeta:\n  source: B\nsources: C\n---\nBody line.\nMore.\n",
			want:  []rec{{ID: "a.md", Title: "Body line.", Text: "More.", Origin: "a.md", Raw: `{"id":"a.md","title":"Body line.","text":"More."}`}},
		},
		{
			// Regression: a file opening with a horizontal rule and holding
			// another lost the text between them as front matter.
			name:  "regression: markdown text between two rules was read as front matter",
			file:  "a.md",
			input: "---\nThe storm closed the harbour: ships waited.\n\n- a list item\n---\n\nRepairs began.\n",
			want: []rec{{ID: "a.md", Title: "---", Text: "The storm closed the harbour: ships waited.\n\n- a list item\n---\n\nRepairs began.", Origin: "a.md",
				Raw: `{"id":"a.md","title":"---","text":"The storm closed the harbour: ships waited.\n\n- a list item\n---\n\nRepairs began."}`}},
		},
		{
			// Regression: a block scalar title (title: |) gave the title "|".
			name:  "regression: a markdown front matter block scalar title was read as its indicator",
			file:  "a.md",
			input: "---\ntitle: >-\n  Multi line\n  title\ntags:\n  - news # a comment\n\"quoted key\": 1\n---\nBody.\n",
			want:  []rec{{ID: "a.md", Title: "Multi line title", Text: "Body.", Origin: "a.md", Raw: `{"id":"a.md","title":"Multi line title","text":"Body."}`}},
		},
		{
			name:  "markdown opening with a rule never closed is text",
			file:  "a.md",
			input: "---\nTitle line\nBody.\n",
			want:  []rec{{ID: "a.md", Title: "---", Text: "Title line\nBody.", Origin: "a.md", Raw: `{"id":"a.md","title":"---","text":"Title line\nBody."}`}},
		},
		{
			name:  "TextWhole: the whole file the text, no title",
			file:  "a.md",
			input: "## Heading\n\nBody.\n",
			opts:  Options{TextWhole: true},
			want: []rec{{ID: "a.md", Text: "## Heading\n\nBody.\n", Origin: "a.md",
				Raw: `{"id":"a.md","title":"","text":"## Heading\n\nBody.\n"}`}},
		},
		{
			name:  "empty file",
			file:  "a.txt",
			input: "",
			want:  []rec{{ID: "a.txt", Origin: "a.txt", Skip: "empty", Err: `a.txt: field "text": empty`}},
		},
		{
			name:  "NUL byte",
			file:  "a.txt",
			input: "T\nab\x00c",
			want:  []rec{{ID: "a.txt", Title: "T", Text: "ab\x00c", Origin: "a.txt", Skip: "binary", Err: `a.txt: field "text": NUL byte (binary data)`}},
		},
		{
			name:  "invalid UTF-8",
			file:  "a.txt",
			input: "T\xff\nbody",
			opts:  Options{Charset: "UTF-8"},
			want:  []rec{{ID: "a.txt", Title: "T\xff", Text: "body", Origin: "a.txt", Skip: "invalid-utf8", Err: `a.txt: field "title": invalid UTF-8`}},
		},
		{
			name:  "too large to read",
			file:  "a.txt",
			input: strings.Repeat("x", 200),
			opts:  Options{MaxBytes: 50},
			cfg:   config{slack: 10},
			want:  []rec{{ID: "a.txt", Origin: "a.txt", Skip: "too-large", Err: `a.txt: over 60 bytes, too large to read (the limit is 50 bytes a record, --max-bytes)`}},
		},
		{
			name:  "too large",
			file:  "a.txt",
			input: "title\n" + strings.Repeat("x", 50),
			opts:  Options{MaxBytes: 50},
			cfg:   config{slack: 10},
			want: []rec{{ID: "a.txt", Title: "title", Text: strings.Repeat("x", 50), Origin: "a.txt", Skip: "too-large",
				Err: `a.txt: title and text are 55 bytes, over the limit of 50`}},
		},
		{
			name:  "format forced",
			file:  "a.jsonl",
			input: "{\"text\":\"x\"}\n{}",
			opts:  Options{Format: "txt"},
			want:  []rec{{ID: "a.jsonl", Title: `{"text":"x"}`, Text: "{}", Origin: "a.jsonl", Raw: `{"id":"a.jsonl","title":"{\"text\":\"x\"}","text":"{}"}`}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.file}, tc.opts, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		name    string
		input   string
		want    []rec
		wantErr string
	}{
		{
			name:  "JSON lines",
			input: "\n  {\"text\":\"a\"}\n",
			want:  []rec{{ID: "data:2", Text: "a", Origin: "data:2", Raw: `  {"text":"a"}`}},
		},
		{
			name:  "CSV header with the text column",
			input: "id,\"Text\"\n1,a\n",
			want:  []rec{{ID: "1", Text: "a", Origin: "data:2", Raw: `{"id":"1","Text":"a"}`}},
		},
		{
			name:  "CSV header cut by bars, the text column among them",
			input: "id|text\n1|a\n",
			want:  []rec{{ID: "1", Text: "a", Origin: "data:2", Raw: `{"id":"1","text":"a"}`}},
		},
		{
			name:  "TSV header with the text column",
			input: "id\ttext\n1\ta,b\n",
			want:  []rec{{ID: "1", Text: "a,b", Origin: "data:2", Raw: `{"id":"1","text":"a,b"}`}},
		},
		{
			name:  "text without such a header",
			input: "Title, with a comma\nbody",
			want:  []rec{{ID: "data", Title: "Title, with a comma", Text: "body", Origin: "data", Raw: `{"id":"data","title":"Title, with a comma","text":"body"}`}},
		},
		// Regression: a header naming its text as news corpora do, not as
		// the reader looks for it, made the stream one text, stored.
		{
			name:    "CSV header with the text under another name",
			input:   "id,title,body\n1,Ferry,The pier closes.\n",
			wantErr: `data: no "text" column (the text) in the header (columns: "id", "title", "body")`,
		},
		{
			name:    "TSV header with the text under another name",
			input:   "id\tcontent\n1\tThe pier closes.\n",
			wantErr: `data: no "text" column (the text) in the header (columns: "id", "content")`,
		},
		{
			name:  "text whose title is such a word and one comma",
			input: "Story, part one\nShe came home late, and the house was dark.\n",
			want:  []rec{{ID: "data", Title: "Story, part one", Text: "She came home late, and the house was dark.", Origin: "data", Raw: `{"id":"data","title":"Story, part one","text":"She came home late, and the house was dark."}`}},
		},
		{
			name:  "text whose title has commas and such a word",
			input: "Content, context and meaning\nThe text goes on, and on.\n",
			want:  []rec{{ID: "data", Title: "Content, context and meaning", Text: "The text goes on, and on.", Origin: "data", Raw: `{"id":"data","title":"Content, context and meaning","text":"The text goes on, and on."}`}},
		},
		{
			name:  "binary",
			input: "\x7fELF\x00\x01" + strings.Repeat("\x00", 100),
			want:  []rec{{ID: "data", Origin: "data", Skip: "binary", Err: "data: binary data (a NUL byte in the first 8 KiB)"}},
		},
		{
			name:  "xz, refused by its magic",
			input: "\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F",
			want: []rec{{ID: "data", Origin: "data", Skip: "refused",
				Err: "data: refused: xz-compressed, which is not read: decompress it (xz -d), or recompress it with zstd or gzip"}},
		},
		{
			name:  "gzip by its magic",
			input: "GZ",
			want:  []rec{{ID: "data:1", Text: "z", Origin: "data:1", Raw: `{"text":"z"}`}},
		},
		{
			name:  "zip by its magic",
			input: "ZIP",
			want:  []rec{{ID: "data/m.txt", Title: "T", Text: "body", Origin: "data/m.txt", Raw: `{"id":"data/m.txt","title":"T","text":"body"}`}},
		},
		{
			name:  "empty",
			input: " \n",
		},
		{
			name:  "JSON array",
			input: "[{\"text\":\"a\"},\n {\"text\": \"b\"}]",
			want: []rec{{ID: "data:1", Text: "a", Origin: "data:1", Raw: `{"text":"a"}`},
				{ID: "data:2", Text: "b", Origin: "data:2", Raw: `{"text": "b"}`}},
		},
		{
			name:  "JSON object pretty-printed",
			input: "{\n  \"id\": \"x\",\n  \"text\": \"a b\"\n}\n",
			want:  []rec{{ID: "x", Text: "a b", Origin: "data:1", Raw: `{"id":"x","text":"a b"}`}},
		},
		{
			name:  "JSON objects over lines, the first key on the brace's line",
			input: "{\"id\": \"x\",\n \"text\": \"a b\"}\n{\"id\": \"y\",\n \"text\": \"c\"}\n",
			want: []rec{{ID: "x", Text: "a b", Origin: "data:1", Raw: `{"id":"x","text":"a b"}`},
				{ID: "y", Text: "c", Origin: "data:3", Raw: `{"id":"y","text":"c"}`}},
		},
		{
			name:  "JSON object over lines, longer than the look ahead",
			input: "{\"id\": \"x\",\n \"text\": \"" + strings.Repeat("a ", 5000) + "\"}\n",
			want: []rec{{ID: "x", Text: strings.Repeat("a ", 5000), Origin: "data:1",
				Raw: `{"id":"x","text":"` + strings.Repeat("a ", 5000) + `"}`}},
		},
		{
			name:  "JSON lines, the first malformed",
			input: "{\"id\": \"x\", \"text\": \"a\"\n{\"id\": \"y\", \"text\": \"b\"}\n",
			want: []rec{{ID: "data:1", Origin: "data:1", Raw: `{"id": "x", "text": "a"`, Skip: "malformed",
				Err: "data:1: malformed JSON at byte 23: unexpected end of JSON input"},
				{ID: "y", Text: "b", Origin: "data:2", Raw: `{"id": "y", "text": "b"}`}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := tc.input
			switch input {
			case "GZ":
				input = gz(t, `{"text":"z"}`)
			case "ZIP":
				input = zipOf(t, member{"m.txt", "T\nbody"})
			}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"data": input})
			t.Chdir(dir)
			got, err := readAll(t, []string{"data"}, Options{}, config{})
			if errString(err) != tc.wantErr {
				t.Errorf("error %q, want %q", errString(err), tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestReadAtMostLargestLimit pins that the largest limit reads a stream
// whole; limit plus one used to overflow and panic.
func TestReadAtMostLargestLimit(t *testing.T) {
	for _, size := range []int64{-1, 3} {
		b, err := readAtMost(strings.NewReader("abc"), math.MaxInt, size)
		if err != nil || string(b) != "abc" {
			t.Errorf("size %d: %q, %v", size, b, err)
		}
	}
}

// Regression: a Markdown file's front matter date: was not read. One no
// layout reads leaves the document undated and is counted and named as a
// date field's (UnreadDates, Record.UnreadDate).
func TestMarkdownFrontMatterDateNotRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"d/a.md": "---\ndate: 2024-05-01\n---\nTitle\nText.\n",
		"d/b.md": "---\ndate: the 1st of May\n---\nTitle\nText.\n",
		"d/c.md": "---\ndate: |\n  March 5, 2024\n---\nTitle\nText.\n",
	})
	t.Chdir(dir)
	r, err := Open([]string{"d"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var dates, notes []string
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		dates = append(dates, core.FormatDate(rec.Doc.Date, time.RFC3339))
		notes = append(notes, rec.UnreadDate)
	}
	if diff := cmp.Diff([]string{"2024-05-01T00:00:00", "0001-01-01T00:00:00Z", "2024-03-05T00:00:00"}, dates); diff != "" {
		t.Errorf("dates (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", `"the 1st of May" at d/b.md`, ""}, notes); diff != "" {
		t.Errorf("notes (-want +got)\n%s", diff)
	}
	if n, first := r.UnreadDates(); n != 1 || first != `"the 1st of May" at d/b.md` {
		t.Errorf("UnreadDates %d, %q; want 1, the 1st of May at d/b.md", n, first)
	}
}
