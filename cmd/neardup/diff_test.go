package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

func TestRunDiff(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.txt":       "Rates rose on Monday. Markets fell.",
		"b.json":      `{"id": 42, "title": "Rates", "text": "Rates rose on Tuesday. Markets fell."}`,
		"notext.json": `{"title": "no body"}`,
		"latin1.txt":  "Rates rose on Monday. Markets fell. Caf\xe9",
		"image.bin":   "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
		"a.html": `<html><head><title>Rates</title></head><body><nav>Home | Sport | Weather</nav>
<article><h1>Rates</h1><p>Rates rose on Monday. Markets fell.</p></article><footer>Subscribe now</footer></body></html>`,
		"b.html": `<html><head><title>Rates up</title></head><body><nav>News | Sign in</nav>
<article><h1>Rates up</h1><p>Rates rose on Tuesday. Markets fell.</p></article></body></html>`,
		"page": `<!DOCTYPE html><html><body><article><p>Rates rose on Monday. Markets fell.</p></article></body></html>`,
		"news.jsonl": `{"id":"x","title":"X","text":"Rates rose on Monday. Markets fell."}
{"id":"y","text":"Rates rose on Monday."}
{"id":"empty","text":""}
`,
		"dups.jsonl": `{"id":"x","text":"Rates rose on Monday."}
{"id":"y","text":"Rates rose."}
{"id":"x","text":"Markets fell."}
`,
		"malformed.jsonl": `{"id":"x","text":"Rates rose on Monday."}
{"id":"y","text":"Rates rose.
{"id":"z","text":"Markets fell."}
`,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name    string
		corpus  string
		a, b    string
		want    [2]string  // ids of the sides
		overlap [2]float64 // overlap ratios
		wantErr string     // substring of the error
		stdin   string     // what "-" reads
		text    string     // a substring of the diff
		format  string     // --format
	}{
		{name: "text and JSON files", a: p("a.txt"), b: p("b.json"), want: [2]string{p("a.txt"), "42"}, overlap: [2]float64{5.0 / 6, 5.0 / 6}},
		{name: "ids in a corpus", corpus: p("news.jsonl"), a: "y", b: "x", want: [2]string{"y", "x"}, overlap: [2]float64{1, 4.0 / 6}},
		{name: "missing file", a: p("a.txt"), b: p("nope.txt"), wantErr: "nope.txt"},
		{name: "JSON without text", a: p("notext.json"), b: p("a.txt"), wantErr: `notext.json: its one record has no field "text"`},
		{name: "HTML pages: their articles", a: p("a.html"), b: p("b.html"), want: [2]string{"a.html", "b.html"}, overlap: [2]float64{5.0 / 6, 5.0 / 6}},
		{name: "a page without an extension", a: p("page"), b: p("a.txt"), want: [2]string{"page", p("a.txt")}, overlap: [2]float64{1, 1}},
		{name: "a file of many documents", a: p("news.jsonl"), b: p("a.txt"), wantErr: "holds 2 documents: compare two of them with neardup diff --corpus"},
		{name: "not UTF-8: converted", a: p("a.txt"), b: p("latin1.txt"), want: [2]string{p("a.txt"), p("latin1.txt")}, overlap: [2]float64{1, 6.0 / 7}, text: "Café"},
		{name: "a binary file", a: p("a.txt"), b: p("image.bin"), wantErr: "image.bin: binary, not text"},
		{name: "standard input", a: "-", b: p("a.txt"), stdin: "Rates rose on Monday. Markets fell.", want: [2]string{"-", p("a.txt")}, overlap: [2]float64{1, 1}},
		{name: "a page on standard input", a: p("b.json"), b: "-", stdin: `<!DOCTYPE html><html><body><article><p>Rates rose on Monday. Markets fell.</p></article></body></html>`,
			want: [2]string{"42", "-"}, overlap: [2]float64{5.0 / 6, 5.0 / 6}},
		{name: "standard input twice", a: "-", b: "-", stdin: "Rates rose.", wantErr: "standard input (-) can hold one of the two documents, not both"},
		{name: "an id twice in a corpus", corpus: p("dups.jsonl"), a: "y", b: "x", wantErr: `id "x" repeats in ` + p("dups.jsonl") + " (" + p("dups.jsonl") + ":1 and " + p("dups.jsonl") + ":3)"},
		{name: "missing ids", corpus: p("news.jsonl"), a: "x", b: "zz", wantErr: `no document with id "zz" in ` + p("news.jsonl")},
		{name: "both ids missing", corpus: p("news.jsonl"), a: "q", b: "r", wantErr: `no document with id "q" or "r"`},
		// It said no document had the id, silent of the line it could not read.
		{name: "an id on a malformed line", corpus: p("malformed.jsonl"), a: "x", b: "y",
			wantErr: `no document with id "y" in ` + p("malformed.jsonl") + " (1 record not read, malformed, the first at " + p("malformed.jsonl") + ":2: it may be one of them)"},
		{name: "skipped document", corpus: p("news.jsonl"), a: "x", b: "empty", wantErr: `document "empty" in ` + p("news.jsonl") + " cannot be compared (empty)"},
		{name: "missing corpus", corpus: p("none.jsonl"), a: "x", b: "y", wantErr: "none.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			var corpora []string
			if tc.corpus != "" {
				corpora = []string{tc.corpus}
			}
			o := diffOptions{corpora: corpora, read: corpus.Options{SinglePass: true, Format: tc.format}, by: diff.ByWord, format: "json", out: &out,
				stdin: strings.NewReader(tc.stdin)}
			err := runDiff(context.Background(), o, tc.a, tc.b)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.text) {
				t.Errorf("the diff does not hold %q:\n%s", tc.text, out.String())
			}
			var got struct {
				A, B struct {
					ID      string
					Overlap float64
				}
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			round := func(x float64) float64 { return float64(int(x*1e4+0.5)) / 1e4 }
			if diff := cmp.Diff(
				[]any{tc.want[0], tc.want[1], round(tc.overlap[0]), round(tc.overlap[1])},
				[]any{got.A.ID, got.B.ID, got.A.Overlap, got.B.Overlap}); diff != "" {
				t.Errorf("ids and overlaps (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunDiffFormats(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.txt": "One & two < three.", "b.txt": "One two four."})
	tests := []struct {
		name   string
		format string
		color  bool
		want   []string // substrings of the output
	}{
		{"plain text", "text", false, []string{"--- " + filepath.Join(dir, "a.txt"), "One [-&-] two [-<-] [-three-] {+four+}."}},
		{"coloured text", "text", true, []string{"\x1b[31mthree\x1b[0m \x1b[32mfour\x1b[0m"}},
		{"html", "html", false, []string{"<!DOCTYPE html>",
			"One <span class=\"nd-a\">&amp;</span> two <span class=\"nd-a\">&lt;</span> <span class=\"nd-a\">three</span>."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, info bytes.Buffer
			o := diffOptions{format: tc.format, color: tc.color, out: &out, info: &info}
			if err := runDiff(context.Background(), o, filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if tc.format == "html" && !strings.Contains(info.String(), "66.7% of 3 words shared") {
				t.Errorf("summary = %q, want the overlap ratios", info.String())
			}
		})
	}
}

// TestDiffSaysOneWord: a document of one word is "1 word" in the text and
// HTML headers and in the summary on stderr that follows HTML or JSON.
// Regression: they said "1 words".
func TestDiffSaysOneWord(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.txt": "Hello.", "b.txt": "Hello world."})
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	for _, format := range []string{"text", "html", "json"} {
		t.Run(format, func(t *testing.T) {
			var out, info bytes.Buffer
			if err := runDiff(context.Background(), diffOptions{format: format, out: &out, info: &info}, a, b); err != nil {
				t.Fatal(err)
			}
			if format != "json" && (!strings.Contains(out.String(), "1 word, 100.0% shared") ||
				!strings.Contains(out.String(), "2 words, 50.0% shared")) {
				t.Errorf("headers lack \"1 word, 100.0%% shared\" and \"2 words, 50.0%% shared\":\n%s", out.String())
			}
			if format == "text" {
				return // the headers say it; no summary follows
			}
			want := a + ": 100.0% of 1 word shared; " + b + ": 50.0% of 2 words shared\n"
			if diff := cmp.Diff(want, info.String()); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiffShowsOtherSpellings: neardup diff of two files that differ only
// in how they spell words (case, full-width digits) says every word is
// shared, as before, and its text shows both spellings, so that it reads
// as either file; the JSON's ops are as before, one equal op. Regression:
// the text showed the first file's spelling alone, with no mark.
func TestDiffShowsOtherSpellings(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.txt": "Officials said the PRESIDENT will visit Paris on Monday; turnout was 34 percent.\n",
		"b.txt": "Officials said the president will visit paris on monday; turnout was \uff13\uff14 percent.\n",
	})
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	var out, info bytes.Buffer
	if err := runDiff(context.Background(), diffOptions{format: "text", out: &out}, a, b); err != nil {
		t.Fatal(err)
	}
	want := "--- " + a + "  13 words, 100.0% shared\n+++ " + b + "  13 words, 100.0% shared\n\n" +
		"Officials said the [-PRESIDENT-] {+president+} will visit [-Paris-] {+paris+} on [-Monday-] {+monday+}; " +
		"turnout was [-34-] {+\uff13\uff14+} percent.\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	out.Reset()
	if err := runDiff(context.Background(), diffOptions{format: "json", out: &out, info: &info}, a, b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		A, B struct{ Overlap float64 }
		Ops  []struct{ Op string }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.A.Overlap != 1 || got.B.Overlap != 1 || len(got.Ops) != 1 || got.Ops[0].Op != "equal" {
		t.Errorf("JSON overlaps %v, %v and ops %v; want 1, 1 and one equal op", got.A.Overlap, got.B.Overlap, got.Ops)
	}
	if !strings.Contains(info.String(), "100.0% of 13 words shared") {
		t.Errorf("summary = %q, want every word shared", info.String())
	}
}

// TestDiffCorpusNamesIDsAsDedup: diff --corpus finds a document by the id
// neardup dedup gave it under the same --on-duplicate-id and --id-scope,
// and, --corpus given once for each input, among the same inputs;
// regressions: the "4#2" of a pair of dedup --on-duplicate-id rename could
// not be looked up, diff saying "4" repeats; a second --corpus replaced the
// first, so that the ids of a run over two inputs (d1/news.jsonl:1, wire#2
// of the second input) were not found.
func TestDiffCorpusNamesIDsAsDedup(t *testing.T) {
	t.Parallel()
	story := strings.Repeat("The central bank raised interest rates on Tuesday, surprising markets that had expected a pause. ", 3)
	line := func(id, text string) string { return fmt.Sprintf(`{"id":%q,"text":%q}`+"\n", id, text) }
	dir := writeTree(t, map[string]string{
		"news.jsonl": line("4", story) + line("5", "Heavy rain flooded streets in the old town overnight, the fire brigade said.") +
			line("4", story+"A spokesman declined to comment."),
		"shards/a.jsonl": line("0", story),
		"shards/b.jsonl": line("0", story+"A spokesman declined to comment."),
		"d1/news.jsonl":  fmt.Sprintf(`{"text":%q}`+"\n", story),
		"d2/news.jsonl":  fmt.Sprintf(`{"text":%q}`+"\n", story+"A spokesman declined to comment."),
		"wire.jsonl":     line("wire", story),
		"wire.csv":       "id,text\nwire,\"" + story + "A spokesman declined to comment.\"\n",
	})
	file := func(name string) string { return filepath.Join(dir, name) }
	news := file("news.jsonl")
	for _, tc := range []struct {
		name  string
		in    []string
		flags []string
		pair  [2]string // the ids dedup gives the pair
	}{
		{"rename", []string{news}, []string{"--on-duplicate-id", "rename"}, [2]string{"4", "4#2"}},
		{"id scope file", []string{file("shards")}, []string{"--id-scope", "file"},
			[2]string{"shards/a.jsonl#0", "shards/b.jsonl#0"}},
		{"records without an id in two inputs", []string{file("d1/news.jsonl"), file("d2/news.jsonl")}, nil,
			[2]string{"d1/news.jsonl:1", "d2/news.jsonl:1"}},
		{"rename across two inputs", []string{file("wire.jsonl"), file("wire.csv")}, []string{"--on-duplicate-id", "rename"},
			[2]string{"wire", "wire#2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append(append([]string{"dedup", "-q"}, tc.in...), "-o", out)
			if code, _, stderr := runChild(t, append(args, tc.flags...)...); code != 0 {
				t.Fatalf("dedup: exit %d\n%s", code, stderr)
			}
			pairs, _ := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
			var p struct{ A, B string }
			if err := json.Unmarshal(bytes.SplitN(pairs, []byte("\n"), 2)[0], &p); err != nil {
				t.Fatalf("pairs.jsonl %q: %v", pairs, err)
			}
			if p.A != tc.pair[0] || p.B != tc.pair[1] {
				t.Fatalf("dedup's pair %s, %s; want %s, %s", p.A, p.B, tc.pair[0], tc.pair[1])
			}
			args = []string{"diff", "-q", "--json"}
			for _, in := range tc.in {
				args = append(args, "--corpus", in)
			}
			code, stdout, stderr := runChild(t, append(append(args, tc.flags...), p.A, p.B)...)
			var d struct {
				A, B struct {
					ID    string
					Words int
				}
			}
			if err := json.Unmarshal([]byte(stdout), &d); code != 0 || err != nil {
				t.Fatalf("diff %s %s: exit %d, %v\n%s", p.A, p.B, code, err, stderr)
			}
			if d.A.ID != p.A || d.B.ID != p.B || d.B.Words != d.A.Words+5 {
				t.Errorf("diff of %s and %s: %+v; want the two records, the later one 5 words longer", p.A, p.B, d)
			}
		})
	}
	// Pages shorter than --min-chars of dedup's default: a run at
	// --min-chars 50 pairs them, and diff --corpus compares them, as it
	// compares such pages given by their files. Regression: it refused
	// them as too short, pointing at a --min-chars diff does not have.
	page := func(extra string) string {
		return "<html><head><title>Rates</title></head><body><article><p>" + story[:200] + extra + "</p></article></body></html>"
	}
	pages := writeTree(t, map[string]string{"pages/a.html": page(""), "pages/b.html": page(" Markets fell.")})
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runChild(t, "dedup", "-q", filepath.Join(pages, "pages"), "--min-chars", "50", "-o", out); code != 0 {
		t.Fatalf("dedup of short pages: exit %d\n%s", code, stderr)
	}
	if pairs, _ := os.ReadFile(filepath.Join(out, "pairs.jsonl")); !bytes.Contains(pairs, []byte(`"a":"pages/a.html","b":"pages/b.html"`)) {
		t.Fatalf("dedup of short pages: pairs %s", pairs)
	}
	if code, _, stderr := runChild(t, "diff", "-q", "--corpus", filepath.Join(pages, "pages"), "pages/a.html", "pages/b.html"); code != 0 {
		t.Errorf("diff --corpus of short pages: exit %d\n%s", code, stderr)
	}
	// Without the flag, the id that is not found says which one finds it.
	code, _, stderr := runChild(t, "diff", "-q", "--corpus", news, "5", "4#2")
	if code != 1 || !strings.Contains(stderr, `no document with id "4#2"`) || !strings.Contains(stderr, "--on-duplicate-id rename") {
		t.Errorf("exit %d, stderr %q; want 1, 4#2 not found and the flag that finds it", code, stderr)
	}
}

// TestDiffShowsControlCharactersOnStderr: the summary line and the errors
// of neardup diff show the control characters of ids and file names
// visibly. Regression: an id holding ESC ]0; passed into the summary raw,
// and retitled the terminal.
func TestDiffShowsControlCharactersOnStderr(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"esc.jsonl": `{"id":"e1\u001b]0;owned\u0007","text":"Hello world. Evil text here."}` + "\n" +
			`{"id":"e2","text":"Hello world. Good text here."}` + "\n",
		"x\x1b[2J.jsonl": `{"id":"a","text":"Hello world."}` + "\n",
	})
	controls := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f })
	}
	var out, info bytes.Buffer
	o := diffOptions{corpora: []string{filepath.Join(dir, "esc.jsonl")}, read: corpus.Options{SinglePass: true}, format: "json", out: &out, info: &info}
	if err := runDiff(context.Background(), o, "e1\x1b]0;owned\x07", "e2"); err != nil {
		t.Fatal(err)
	}
	if controls(info.String()) || !strings.Contains(info.String(), `e1\x1b]0;owned\a: 80.0% of 5 words shared`) {
		t.Errorf("summary %q: want the id's control characters escaped", info.String())
	}
	code, _, stderr := runChild(t, "diff", "--corpus", filepath.Join(dir, "x\x1b[2J.jsonl"), "a", "b")
	if code != 1 || controls(stderr) || !strings.Contains(stderr, `x\x1b[2J.jsonl`) {
		t.Errorf("exit %d, stderr %q: want 1 and the file name's ESC escaped", code, stderr)
	}
}

// TestDiffShowsLineEndsOfIdsOnOneLine: the summary line neardup diff
// writes on stderr shows an id's line feeds, carriage returns and tabs
// escaped, and stays one line.
// Regression: an id holding a line feed wrote a line of its own, which
// could pass for another summary.
func TestDiffShowsLineEndsOfIdsOnOneLine(t *testing.T) {
	spoof := "wire-7: 100.0% of 15 words shared\ncourier-1: 100.0% of 15 words shared\r\n\t"
	line, err := json.Marshal(map[string]string{"id": spoof, "text": "Shares in the mining company fell sharply."})
	if err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{
		"spoof.jsonl": string(line) + "\n" + `{"id":"courier-1","text":"The city council voted on Tuesday."}` + "\n",
	})
	var out, info bytes.Buffer
	o := diffOptions{corpora: []string{filepath.Join(dir, "spoof.jsonl")}, read: corpus.Options{SinglePass: true}, format: "json", out: &out, info: &info}
	if err := runDiff(context.Background(), o, spoof, "courier-1"); err != nil {
		t.Fatal(err)
	}
	want := `wire-7: 100.0% of 15 words shared\ncourier-1: 100.0% of 15 words shared\r\n\t: 14.3% of 7 words shared; ` +
		"courier-1: 16.7% of 6 words shared\n"
	if info.String() != want {
		t.Errorf("summary %q, want %q", info.String(), want)
	}
}

// TestDiffHintsRenameOnlyForARepeatedID: an id that is not found is told
// of --on-duplicate-id rename only when it is ID#n of an id that repeats
// in the corpus. Regression: once any id repeated, every "no document"
// error gave the hint, for an unrelated id too.
func TestDiffHintsRenameOnlyForARepeatedID(t *testing.T) {
	dir := writeTree(t, map[string]string{"dups.jsonl": `{"id":"x","text":"Rates rose on Monday."}
{"id":"y","text":"Rates rose."}
{"id":"x","text":"Markets fell."}
{"id":"z","text":"Markets rose."}
{"id":"z","text":"Markets rose again."}
`})
	tests := []struct {
		name, a, b string
		hint       string // "": none
	}{
		{"an unrelated id", "y", "zz", ""},
		{"ID#n of an id that does not repeat", "y#2", "x", ""},
		{"not a number after #", "x#b", "y", ""},
		{"ID#2 of an id that repeats", "y", "x#2", `("x" repeats in it: the x#2 that neardup dedup --on-duplicate-id rename gave`},
		{"ID#3", "z#3", "y", `("z" repeats in it: the z#3`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := diffOptions{corpora: []string{filepath.Join(dir, "dups.jsonl")}, read: corpus.Options{SinglePass: true}, ids: job.IDNamer{OnDuplicate: job.DuplicateSkip},
				format: "json", out: &bytes.Buffer{}}
			err := runDiff(context.Background(), o, tc.a, tc.b)
			if err == nil || !strings.Contains(err.Error(), "no document with id") {
				t.Fatalf("error %v, want no document with id", err)
			}
			if got := strings.Contains(err.Error(), "rename"); got != (tc.hint != "") || !strings.Contains(err.Error(), tc.hint) {
				t.Errorf("error %q; want the hint %q", err, tc.hint)
			}
		})
	}
}

// TestDiffReadsTextThatLooksLikeJSON: a file of no known name, or standard
// input, that starts with "[", "{" or "<" and is no JSON and no page is
// compared as text; --format says what a file holds whatever its name or
// content. Regression: "[UPDATE 1] Shares rose ..." was refused as
// malformed JSON, and diff had no --format.
func TestDiffReadsTextThatLooksLikeJSON(t *testing.T) {
	const story = "Shares of Acme rose 5 percent on Monday after results."
	dir := writeTree(t, map[string]string{
		"upd":       "[UPDATE 1] " + story + "\n",
		"draft":     "{Draft} " + story + "\n",
		"tag":       "<UPDATE> " + story + "\nSecond line.\n",
		"plain":     story + "\n",
		"obj":       `{"id":"j1","text":"` + story + `"}`,
		"lines":     `{"id":"j1","text":"` + story + `"}` + "\n{broken\n",
		"pretty":    "{\n  \"id\": \"j2\",\n  \"text\": \"" + story + "\"\n}\n",
		"story.txt": `{"id":"j1","text":"` + story + `"}`,
		"bad.json":  "[UPDATE 1] " + story,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name, a, b, stdin, format string
		wantA                     string // id of side A
		words                     int    // words of side A
		wantErr                   string
	}{
		{name: "[ text in a file", a: p("upd"), wantA: p("upd"), words: 12},
		{name: "[ text on standard input", a: "-", stdin: "[UPDATE 1] " + story, wantA: "-", words: 12},
		{name: "{ text", a: p("draft"), wantA: p("draft"), words: 11},
		{name: "< text, not a page", a: p("tag"), wantA: p("tag"), words: 13},
		{name: "a JSON object", a: p("obj"), wantA: "j1", words: 10},
		{name: "a JSON object on standard input", a: "-", stdin: `{"id":"j1","text":"` + story + `"}`, wantA: "j1", words: 10},
		{name: "JSON Lines by the first line", a: p("lines"), wantA: "j1", words: 10},
		{name: "pretty-printed JSON", a: p("pretty"), wantA: "j2", words: 10},
		{name: "--format txt of JSON", a: p("obj"), format: "txt", wantA: p("obj"), words: 13},
		{name: "--format json of a .txt file", a: p("story.txt"), b: p("obj"), format: "json", wantA: "j1", words: 10},
		{name: "--format json of text", a: p("upd"), format: "json", wantErr: "malformed JSON"},
		{name: "a .json file that is not JSON", a: p("bad.json"), wantErr: "malformed JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			o := diffOptions{read: corpus.Options{SinglePass: true, Format: tc.format}, format: "json", out: &out, stdin: strings.NewReader(tc.stdin)}
			b := tc.b
			if b == "" {
				b = p("plain")
			}
			err := runDiff(context.Background(), o, tc.a, b)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				A struct {
					ID    string
					Words int
				}
			}
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			if d.A.ID != tc.wantA || d.A.Words != tc.words {
				t.Errorf("side A %q of %d words, want %q of %d", d.A.ID, d.A.Words, tc.wantA, tc.words)
			}
		})
	}
}

// TestDiffReadsDocumentsAsDedup: diff takes the flags of dedup that say how
// a document is read (--format, --charset, --max-bytes, --rules ...), and
// reads a UTF-8 file with a stray byte as UTF-8, as dedup does.
// Regression: diff had none of these flags, and one stray byte made a
// UTF-8 file read as Windows-1252 ("CafÃ©").
func TestDiffReadsDocumentsAsDedup(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"page.html": `<html lang=en><head><title>Ferry</title></head><body><article><h1>Ferry</h1>` +
			`<p>The harbour authority said on Monday that the new ferry line would start in spring, linking the two islands.</p>` +
			`<div class="note"><p>Timetables are posted at both piers and online every week.</p></div></article></body></html>`,
		"note.txt":   "Timetables are posted at both piers and online every week.\n",
		"rules.yaml": "version: 1\nrules:\n  - name: port\n    body: \".note\"\n",
		"cp.txt":     "\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0",
		"stray.txt":  "Caf\xc3\xa9 au lait is served.\xff The r\xc3\xa9sum\xc3\xa9 arrived.",
		"good.txt":   "Café au lait is served. The résumé arrived.",
		"obj":        `{"id":"j1","text":"Timetables are posted at both piers and online every week."}`,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name string
		args []string
		want string // in the JSON diff
	}{
		{"--rules", []string{"--rules", p("rules.yaml"), p("page.html"), p("note.txt")}, "\"overlap\": 1\n"},
		{"--charset", []string{"--charset", "koi8-r", p("cp.txt"), p("cp.txt")}, `"a_text": "оПХБЕР ЛХП"`},
		{"a stray byte", []string{p("stray.txt"), p("good.txt")},
			"\"a_text\": \"Café au lait is served\",\n      \"b_text\": \"Café au lait is served\""},
		{"--format", []string{"--format", "txt", p("obj"), p("note.txt")}, `"id": "` + p("obj") + `"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runChild(t, append([]string{"diff", "-q", "--json"}, tc.args...)...)
			if code != 0 || !strings.Contains(stdout, tc.want) {
				t.Errorf("exit %d, stderr %q; want 0 and a diff holding %s:\n%s", code, stderr, tc.want, stdout)
			}
		})
	}
	for _, file := range []string{"page.html", "good.txt"} {
		code, _, stderr := runChild(t, "diff", "-q", "--max-bytes", "40", p(file), p("note.txt"))
		if code != 1 || !strings.Contains(stderr, "over 40 bytes") {
			t.Errorf("--max-bytes 40: exit %d, stderr %q; want 1, %s too large", code, stderr, file)
		}
	}
}

// TestDiffWarnsOfAnIncompleteAlignment: when the alignment runs out of its
// work budget, diff warns on stderr and the JSON says "incomplete": true.
// Regression: the budget ran out silently, and the overlap of two texts
// of a few distinct words showed ~0 %.
func TestDiffWarnsOfAnIncompleteAlignment(t *testing.T) {
	t.Parallel()
	// Two texts of 100,000 words of five, drawn with this seed, have gaps
	// between the runs of words they share that outgrow the budget.
	rng := rand.New(rand.NewPCG(9, 10))
	words := func() string {
		vocab := []string{"a", "of", "and", "the", "to"}
		w := make([]string, 100000)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	dir := writeTree(t, map[string]string{"a.txt": words(), "b.txt": words(), "c.txt": "Rates rose on Monday."})
	for _, tc := range []struct {
		a, b string
		warn bool
	}{{"a.txt", "b.txt", true}, {"c.txt", "c.txt", false}} {
		var out, warn bytes.Buffer
		o := diffOptions{format: "json", out: &out, warn: &warn}
		if err := runDiff(context.Background(), o, filepath.Join(dir, tc.a), filepath.Join(dir, tc.b)); err != nil {
			t.Fatal(err)
		}
		var d struct{ Incomplete bool }
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if d.Incomplete != tc.warn || strings.Contains(warn.String(), "aligned in full") != tc.warn {
			t.Errorf("%s, %s: incomplete %v, warning %q; want %v", tc.a, tc.b, d.Incomplete, warn.String(), tc.warn)
		}
	}
}

// TestDiffReadsCompressedTextAsItsText: a text file compressed, on
// standard input or in an archive, is compared as the file itself is:
// whole, its first line too; --format txt reads what a compressed file
// holds as text, as dedup does. Regression: a.txt.gz, gzipped standard
// input and a zip holding a.txt alone lost their first line to a title,
// comparing 10 words of 14, and a.txt.gz under --format txt was refused as
// "binary, not text".
func TestDiffReadsCompressedTextAsItsText(t *testing.T) {
	const text = "Harbour bridge to close\n\nThe council said the bridge will close for six weeks.\n"
	var gz, zipped bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	aw := zip.NewWriter(&zipped)
	w, _ := aw.Create("a.txt")
	w.Write([]byte(text))
	aw.Close()
	dir := writeTree(t, map[string]string{"a.txt": text, "a.txt.gz": gz.String(), "a.zip": zipped.String(), "b.txt": text})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name, a, stdin, format string
		wantA                  string
	}{
		{name: "a text file", a: p("a.txt"), wantA: p("a.txt")},
		{name: "gzip", a: p("a.txt.gz"), wantA: "a.txt.gz"},
		{name: "gzip, --format txt", a: p("a.txt.gz"), format: "txt", wantA: "a.txt.gz"},
		{name: "gzip on standard input", a: "-", stdin: gz.String(), wantA: "-"},
		{name: "a zip holding the file alone", a: p("a.zip"), wantA: "a.zip/a.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			o := diffOptions{read: corpus.Options{SinglePass: true, Format: tc.format}, format: "json", out: &out,
				stdin: strings.NewReader(tc.stdin)}
			if err := runDiff(context.Background(), o, tc.a, p("b.txt")); err != nil {
				t.Fatal(err)
			}
			var d struct{ A, B jsonSide }
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			want := jsonSide{ID: tc.wantA, Words: 14, Shared: 14, Overlap: 1}
			if diff := cmp.Diff(want, d.A); diff != "" {
				t.Errorf("side A (-want +got):\n%s", diff)
			}
		})
	}
}

// jsonSide is a side of diff --json.
type jsonSide struct {
	ID, Title            string
	Words, Shared, Moved int
	Overlap              float64
}

// TestDiffCorpusReadsAnIndex: --corpus naming an index (a SQLite file, by
// its content whatever its name, or a PostgreSQL URL) diffs the documents
// stored under the two ids, from their stored texts, so that any pair the
// index reports can be diffed; an id not stored is named, an index that
// stores no texts says where the texts are, and an index beside other
// inputs is refused. Regression: a SQLite index was read as one binary
// document ("no document with id … in news.db").
func TestDiffCorpusReadsAnIndex(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	lines := `{"id":"wire-7","title":"Rates rise","text":"The central bank raised its main rate on Wednesday. The governor said inflation was still too high."}
{"id":"courier-1","title":"Rates up","text":"The central bank raised its main rate on Thursday. The governor said inflation was still too high."}
`
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			db := storetest.DSN(t, e)
			if e == "sqlite" {
				db = filepath.Join(dir, "news.idx") // by its content, not its name
			}
			if code, _, stderr := runChild(t, "-q", "index", "add", "--db", db, in); code != 0 {
				t.Fatalf("index add: exit code %d\n%s", code, stderr)
			}
			code, stdout, stderr := runChild(t, "diff", "--json", "--corpus", db, "wire-7", "courier-1")
			var d struct{ A, B struct{ ID, Title string } }
			if err := json.Unmarshal([]byte(stdout), &d); code != 0 || err != nil || d.A.ID != "wire-7" || d.B.Title != "Rates up" ||
				!strings.Contains(stdout, "Wednesday") || !strings.Contains(stdout, "Thursday") {
				t.Errorf("diff --corpus %s: exit code %d, %v, want the two stored documents diffed\n%s\n%s", db, code, err, stdout, stderr)
			}
			code, _, stderr = runChild(t, "diff", "--corpus", db, "wire-7", "nope")
			if want := `no document with id "nope" in the index`; code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("an id not stored: exit code %d, want 1 and %q\n%s", code, want, stderr)
			}
			code, _, stderr = runChild(t, "diff", "--corpus", db, "--corpus", in, "wire-7", "courier-1")
			if want := "is an index, whose stored documents are diffed: give it alone"; code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("an index beside an input: exit code %d, want 2 and %q\n%s", code, want, stderr)
			}
		})
	}
	noText := filepath.Join(dir, "notext.db")
	if code, _, stderr := runChild(t, "-q", "index", "add", "--no-store-text", "--db", noText, in); code != 0 {
		t.Fatalf("index add --no-store-text: exit code %d\n%s", code, stderr)
	}
	code, _, stderr := runChild(t, "diff", "--corpus", noText, "wire-7", "courier-1")
	if want := "is an index that stores no texts"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("an index without texts: exit code %d, want 1 and %q\n%s", code, want, stderr)
	}
}

// TestDiffCorpusIndexHidesItsPassword: the messages of diff --corpus naming
// a PostgreSQL index show its URL without the password: the refusal of an
// index beside another input, that of an index storing no texts (with its
// advice's ids quoted for a shell) and that of an id not stored.
// Regression: all three printed the URL as given, password and all.
func TestDiffCorpusIndexHidesItsPassword(t *testing.T) {
	const pw = "s3cret-pw"
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	lines := `{"id":"wire 7","title":"Rates rise","text":"The central bank raised its main rate on Wednesday. The governor said inflation was still too high."}
{"id":"courier-1","title":"Rates up","text":"The central bank raised its main rate on Thursday. The governor said inflation was still too high."}
`
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	withPassword := func(dsn string) string {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword(u.User.Username(), pw)
		return u.String()
	}
	// No server needed: the index beside an input is refused first.
	db := withPassword("postgres://neardup@127.0.0.1:1/news")
	code, _, stderr := runChild(t, "diff", "--corpus", db, "--corpus", in, "wire 7", "courier-1")
	if want := "is an index, whose stored documents are diffed: give it alone"; code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, pw) {
		t.Errorf("an index beside an input: exit code %d, want 2 and %q, without the password\n%s", code, want, stderr)
	}
	// And so are the reading flags, which an index does not read with.
	code, _, stderr = runChild(t, "diff", "--corpus", db, "--id-col", "key", "--charset", "latin1", "wire 7", "courier-1")
	if want := "not read as an input: drop --charset, --id-col"; code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, pw) {
		t.Errorf("reading flags with an index: exit code %d, want 2 and %q, without the password\n%s", code, want, stderr)
	}

	for _, noText := range []bool{false, true} {
		db := withPassword(storetest.PostgresDSN(t))
		args := []string{"-q", "index", "add", "--db", db, in}
		if noText {
			args = append(args[:3], append([]string{"--no-store-text"}, args[3:]...)...)
		}
		if code, _, stderr := runChild(t, args...); code != 0 {
			t.Fatalf("%v: exit code %d\n%s", args, code, stderr)
		}
		code, _, stderr := runChild(t, "diff", "--corpus", db, "wire 7", "nope")
		want := `no document with id "nope" in the index PostgreSQL at`
		if noText {
			want = `stores no texts (made with index add --no-store-text): diff the documents from the inputs they were added from, ` +
				`neardup diff --corpus INPUT 'wire 7' nope`
		}
		if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, pw) {
			t.Errorf("no texts %v: exit code %d, want 1 and %q, without the password\n%s", noText, code, want, stderr)
		}
	}
}

// TestDiffCorpusIndexWritesNothing: diff --corpus opens an index
// read-only: its file stays byte for byte as it was, an index of an older
// schema is refused (not upgraded) with the advice to open it once for
// writing, and an index of an older sketch format, which a query refuses
// until it is built again, has its stored texts diffed. Regression: the
// diff opened the index as a query does, upgrading an older schema in
// place, loading every sketch, and refusing every older sketch format.
func TestDiffCorpusIndexWritesNothing(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("..", "..", "internal", "store", "testdata", "v11.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	old, upgraded := filepath.Join(dir, "old.db"), filepath.Join(dir, "upgraded.db")
	for _, p := range []string{old, upgraded} {
		if err := os.WriteFile(p, fixture, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(t.Context(), upgraded, store.DefaultOptions()) // the schema upgraded, the sketches as they were
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// The older schema's index says it holds sketches of the format this
	// binary makes, as one of the last schema would before its upgrade:
	// a query would upgrade it.
	in := filepath.Join(dir, "news.jsonl")
	if err := os.WriteFile(in, []byte(`{"id":"x","text":"A text of a few words."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	current := filepath.Join(dir, "current.db")
	if code, _, stderr := runChild(t, "-q", "index", "add", "--db", current, in); code != 0 {
		t.Fatalf("index add: exit code %d\n%s", code, stderr)
	}
	db, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`ATTACH DATABASE ? AS current`, current)
	if err == nil {
		_, err = db.Exec(`UPDATE main.meta SET value = json_set(value, '$.sketch_format',
			(SELECT json_extract(value, '$.sketch_format') FROM current.meta WHERE name = 'index')) WHERE name = 'index'`)
	}
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	if fixture, err = os.ReadFile(old); err != nil {
		t.Fatal(err)
	}
	unchanged := func(path string, before []byte) {
		t.Helper()
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%s changed by a diff (%v)", path, err)
		}
	}

	code, _, stderr := runChild(t, "diff", "--corpus", old, "fixture-1", "fixture-2")
	if want := "schema version 11 must be upgraded to"; code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "open it once for writing") {
		t.Errorf("an index of an older schema: exit code %d, want 1 and %q\n%s", code, want, stderr)
	}
	unchanged(old, fixture)

	before, err := os.ReadFile(upgraded)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runChild(t, "diff", "--json", "--corpus", upgraded, "fixture-1", "fixture-2")
	var d struct{ A, B struct{ ID, Title string } }
	if err := json.Unmarshal([]byte(stdout), &d); code != 0 || err != nil || d.A.ID != "fixture-1" || d.B.Title != "Second" ||
		!strings.Contains(stdout, "near the first") {
		t.Errorf("an index of an older sketch format: exit code %d, %v, want its stored texts diffed\n%s\n%s", code, err, stdout, stderr)
	}
	unchanged(upgraded, before)
}

// TestDiffOfAURLWithoutCorpus: without --corpus, a PostgreSQL URL given as
// a document is a file that does not exist, a usage error as any missing
// file is. Regression: it was skipped as an index, and then opened as a
// file, exit 1.
func TestDiffOfAURLWithoutCorpus(t *testing.T) {
	b := filepath.Join(t.TempDir(), "b.txt")
	if err := os.WriteFile(b, []byte("Some text."), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runChild(t, "diff", "postgres://neardup@127.0.0.1:1/news", b)
	if want := "postgres://neardup@127.0.0.1:1/news: no such file"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("a URL without --corpus: exit code %d, want 2 and %q\n%s", code, want, stderr)
	}
}
