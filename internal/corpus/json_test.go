package corpus

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONFiles(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want        []rec
	}{
		{"one object, pretty-printed", "{\n  \"id\": \"a\",\n  \"title\": \"T\",\n  \"text\": \"one\\ntwo\"\n}\n",
			[]rec{{ID: "a", Title: "T", Text: "one\ntwo", Origin: "in.json:1", Raw: `{"id":"a","title":"T","text":"one\ntwo"}`}}},
		{"an array over lines", "[\n  {\"id\": \"a\", \"text\": \"x\"},\n  {\n    \"id\": \"b\",\n    \"text\": \"y\"\n  }\n]\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:2", Raw: `{"id": "a", "text": "x"}`},
				{ID: "b", Text: "y", Origin: "in.json:3", Raw: `{"id":"b","text":"y"}`}}},
		{"JSON Lines named .json", "{\"id\":\"a\",\"text\":\"x\"}\n\n{\"id\":\"b\",\"text\":\"y\"}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "b", Text: "y", Origin: "in.json:3", Raw: `{"id":"b","text":"y"}`}}},
		{"braces, brackets and quotes in strings", `[{"id":"a","text":"} ] { [ \" \\"}]`,
			[]rec{{ID: "a", Text: `} ] { [ " \`, Origin: "in.json:1", Raw: `{"id":"a","text":"} ] { [ \" \\"}`}}},
		{"nested values", `{"id":"a","text":"x","tags":["a",{"b":[1,2]}],"meta":{"k":{}}}`,
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x","tags":["a",{"b":[1,2]}],"meta":{"k":{}}}`}}},
		{"elements that are not objects", "[1, \"s\", null, [2], {\"id\":\"a\",\"text\":\"x\"}]",
			[]rec{{ID: "in.json:1", Origin: "in.json:1", Raw: "1", Skip: "malformed", Err: "in.json:1: malformed: not a JSON object"},
				{ID: "in.json:1#2", Origin: "in.json:1#2", Raw: `"s"`, Skip: "malformed", Err: "in.json:1#2: malformed: not a JSON object"},
				{ID: "in.json:1#3", Origin: "in.json:1#3", Raw: "null", Skip: "malformed", Err: "in.json:1#3: malformed: not a JSON object"},
				{ID: "in.json:1#4", Origin: "in.json:1#4", Raw: "[2]", Skip: "malformed", Err: "in.json:1#4: malformed: not a JSON object"},
				{ID: "a", Text: "x", Origin: "in.json:1#5", Raw: `{"id":"a","text":"x"}`}}},
		// Regression: the objects of an array on one line (as json.dump
		// writes one) without ids of their own were all "in.json:1", and
		// the run stopped at the second as a repeated id.
		{"an array on one line, objects without ids", "[{\"text\":\"x\"},{\"text\":\"y\"},\n{\"text\":\"z\"}]\n",
			[]rec{{ID: "in.json:1", Text: "x", Origin: "in.json:1", Raw: `{"text":"x"}`},
				{ID: "in.json:1#2", Text: "y", Origin: "in.json:1#2", Raw: `{"text":"y"}`},
				{ID: "in.json:2", Text: "z", Origin: "in.json:2", Raw: `{"text":"z"}`}}},
		{"an object cut short", "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\": \"b\",\n \"text\": \"y",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:2", Origin: "in.json:2", Skip: "malformed", Err: "in.json:2: malformed: the file ends inside a JSON value: lines 2 to 3 (2 lines) are not read"}}},
		// Regression (reviewer's finding): the array's reject named the line
		// after the file's end, and a last object cut short was told twice
		// (its own reject, then the array's).
		{"an array cut short", "[{\"id\":\"a\",\"text\":\"x\"},\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:1", Origin: "in.json:1", Skip: "malformed", Err: "in.json:1: malformed: the file ends inside an array (no closing ])"}}},
		{"an array cut after its last whole object", "[\n {\"id\": \"a\", \"text\": \"x\"},\n {\"id\": \"b\", \"text\": \"y\"}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:2", Raw: `{"id": "a", "text": "x"}`},
				{ID: "b", Text: "y", Origin: "in.json:3", Raw: `{"id": "b", "text": "y"}`},
				{ID: "in.json:1", Origin: "in.json:1", Skip: "malformed", Err: "in.json:1: malformed: the file ends inside an array (no closing ])"}}},
		{"an array cut inside its last object", "[\n {\"id\": \"a\", \"text\": \"x\"},\n {\"id\": \"b\",\n  \"text\": \"y",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:2", Raw: `{"id": "a", "text": "x"}`},
				{ID: "in.json:3", Origin: "in.json:3", Skip: "malformed", Err: "in.json:3: malformed: the file ends inside a JSON value: lines 3 to 4 (2 lines) are not read"}}},
		// Regression: in JSON Lines named .json, a line without its closing
		// brace, or with a stray quote, took every line after it with it,
		// said to be a file that ends inside a value.
		{"JSON Lines named .json, a line without its }", "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\",\"text\":\"y\"\n{\"id\":\"c\",\"text\":\"z\"}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:2", Origin: "in.json:2", Skip: "malformed",
					Err: "in.json:2: malformed: the next line starts an object before this value ends (a missing } or ], or a stray quote)"},
				{ID: "c", Text: "z", Origin: "in.json:3", Raw: `{"id":"c","text":"z"}`}}},
		{"JSON Lines named .json, a stray quote", "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\",\"text\":\"y\"\"}\n{\"id\":\"c\",\"text\":\"z\"}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:2", Origin: "in.json:2", Skip: "malformed",
					Err: "in.json:2: malformed: a line break inside a string (a missing or stray quote)"},
				{ID: "c", Text: "z", Origin: "in.json:3", Raw: `{"id":"c","text":"z"}`}}},
		{"JSON Lines named .json, the first line without its }", "{\"id\":\"a\",\"text\":\"x\"\n{\"id\":\"b\",\"text\":\"y\"}\n",
			[]rec{{ID: "in.json:1", Origin: "in.json:1", Skip: "malformed",
				Err: "in.json:1: malformed: the next line starts an object before this value ends (a missing } or ], or a stray quote)"},
				{ID: "b", Text: "y", Origin: "in.json:2", Raw: `{"id":"b","text":"y"}`}}},
		{"JSON Lines named .json, a broken line, then an object over lines", "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\"\n{\n  \"id\": \"c\",\n  \"text\": \"z\"\n}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:2", Origin: "in.json:2", Skip: "malformed",
					Err: "in.json:2: malformed: the next line starts an object before this value ends (a missing } or ], or a stray quote)"},
				{ID: "c", Text: "z", Origin: "in.json:3", Raw: `{"id":"c","text":"z"}`}}},
		// Regression: an object pretty-printed without indent among one-line
		// records (Python's indent=0) starts the objects of its arrays at a
		// line's start: it was cut there, and its inner objects read as
		// records.
		{"JSON Lines named .json, an object printed with indent 0", "{\"id\":\"a\",\"text\":\"x\"}\n{\n\"id\": \"b\",\n\"text\": \"y\",\n\"items\": [\n{\n\"n\": 1\n},\n{\n\"n\": 2\n}\n]\n}\n{\"id\":\"c\",\"text\":\"z\"}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "b", Text: "y", Origin: "in.json:2", Raw: `{"id":"b","text":"y","items":[{"n":1},{"n":2}]}`},
				{ID: "c", Text: "z", Origin: "in.json:14", Raw: `{"id":"c","text":"z"}`}}},
		// A first object broken where the next begins is no value over
		// lines: the file is read as JSON Lines.
		{"objects over lines, the first without its }", "{\n  \"id\": \"a\",\n  \"text\": \"x\"\n\n{\n  \"id\": \"b\",\n  \"text\": \"y\"\n}\n",
			[]rec{{ID: "in.json:1", Origin: "in.json:1", Skip: "malformed",
				Err: "in.json:1: malformed: the next line starts an object before this value ends (a missing } or ], or a stray quote): lines 1 to 4 (4 lines) are not read"},
				{ID: "b", Text: "y", Origin: "in.json:5", Raw: `{"id":"b","text":"y"}`}}},
		{"objects over lines, a later one without its }", "{\n \"id\": \"a\",\n \"text\": \"x\"\n}\n{\n \"id\": \"b\",\n \"text\": \"y\"\n\n{\n \"id\": \"c\",\n \"text\": \"z\"\n}\n",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: `{"id":"a","text":"x"}`},
				{ID: "in.json:5", Origin: "in.json:5", Skip: "malformed",
					Err: "in.json:5: malformed: the file ends inside a JSON value: lines 5 to 12 (8 lines) are not read"}}},
		// Regression: bytes that are not UTF-8 outside the title, text and
		// id went to kept.jsonl as they were.
		{"invalid UTF-8 in another field", "[{\"id\":\"a\",\"text\":\"x\",\"by\":\"Jos\xe9\"},\n {\"id\":\"b\",\"text\":\"y\"}]",
			[]rec{{ID: "a", Text: "x", Origin: "in.json:1", Raw: "{\"id\":\"a\",\"text\":\"x\",\"by\":\"Jos\xe9\"}", Skip: "invalid-utf8",
				Err: `in.json:1: field "by": invalid UTF-8`},
				{ID: "b", Text: "y", Origin: "in.json:2", Raw: `{"id":"b","text":"y"}`}}},
		{"bad JSON inside an object", "{\"id\": \"a\", \"text\": nope}\n{\"id\":\"b\",\"text\":\"y\"}",
			[]rec{{ID: "in.json:1", Origin: "in.json:1", Raw: `{"id": "a", "text": nope}`, Skip: "malformed",
				Err: "in.json:1: malformed JSON at byte 22: invalid character 'o' in literal null (expecting 'u')"},
				{ID: "b", Text: "y", Origin: "in.json:2", Raw: `{"id":"b","text":"y"}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.json": tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{"in.json"}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			for _, r := range got {
				if r.Skip == "" && (strings.Contains(r.Raw, "\n") || !json.Valid([]byte(r.Raw))) {
					t.Errorf("%s: Raw %q is not one JSON line", r.Origin, r.Raw)
				}
			}
		})
	}
}

// A record over the limit is skipped without being held, and reading goes
// on after it.
func TestJSONRecordTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("word ", 200)
	writeFiles(t, dir, map[string]string{"in.json": `[{"id":"big","text":"` + big + `"}, {"id":"b","text":"y"}]`})
	t.Chdir(dir)
	got, err := readAll(t, []string{"in.json"}, Options{MaxBytes: 100}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Skip != "too-large" || got[1].ID != "b" {
		t.Errorf("got %+v, want the big record skipped as too large and b read", got)
	}
}

// Every format the container table names can be forced, on standard input
// too; an unknown one is refused naming them all.
func TestEveryFormatCanBeForced(t *testing.T) {
	for _, f := range []string{"jsonl", "json", "csv", "tsv", "parquet", "txt", "html", "warc", "sgml", "feed"} {
		if _, err := OpenReader("stdin", strings.NewReader(""), Options{Format: f}); err != nil {
			t.Errorf("--format %s: %v", f, err)
		}
	}
	_, err := OpenReader("stdin", strings.NewReader(""), Options{Format: "xml"})
	if want := `corpus: unknown format "xml" (want jsonl, json, csv, tsv, parquet, txt, html, warc, sgml or feed)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	got, err := readAll(t, []string{"-"}, Options{Format: "json"}, config{stdin: strings.NewReader(`[{"text":"a"},{"text":"b"}]`)})
	if err != nil || len(got) != 2 {
		t.Errorf("JSON on standard input: %+v, %v", got, err)
	}
}

// compactSeeds are JSON values with white space in every place it may be,
// and strings holding what could end them early.
var compactSeeds = []string{
	"{\n  \"id\": \"a\",\n  \"text\": \"two\\nlines, a \\\"quote\\\" and a \\\\ backslash\\\\\"\n}",
	"[ 1 , 2.5e-3 ,\r\n\t true, false , null , \"\" , { } , [ ] ]",
	"{\"a\" :{\"b\":[ \"\\\\\", \"\\\"\" , \"\\u0022 \\u005c\"]}\n}",
	"{\"text\": \"  spaces  inside\\t\", \"n\" : -0 }",
	"\"caf\u00e9 \\ud83d\\ude00\"",
}

// TestCompactJSON holds compactJSON to json.Compact on valid JSON.
func TestCompactJSON(t *testing.T) {
	for _, s := range compactSeeds {
		checkCompact(t, []byte(s))
	}
}

func FuzzCompactJSON(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkCompact)
}

func checkCompact(t *testing.T, src []byte) {
	if !json.Valid(src) {
		return
	}
	var want bytes.Buffer
	if err := json.Compact(&want, src); err != nil {
		t.Fatal(err)
	}
	if got := compactJSON(nil, src); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("compactJSON(%q) = %q, want %q", src, got, want.Bytes())
	}
}
