package corpus

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStdin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		opts  Options
		want  []rec
	}{
		{
			name:  "JSONL sniffed",
			input: "{\"text\":\"a\"}\n{\"text\":\"b\"}\n",
			want: []rec{
				{ID: "stdin:1", Text: "a", Origin: "stdin:1", Raw: `{"text":"a"}`},
				{ID: "stdin:2", Text: "b", Origin: "stdin:2", Raw: `{"text":"b"}`},
			},
		},
		{
			name:  "CSV forced",
			input: "body\nx\n",
			opts:  Options{Format: "csv", TextField: "body"},
			want:  []rec{{ID: "stdin:2", Text: "x", Origin: "stdin:2", Raw: `{"body":"x"}`}},
		},
		{
			name:  "text",
			input: "T\nbody",
			want:  []rec{{ID: "stdin", Title: "T", Text: "body", Origin: "stdin", Raw: `{"id":"stdin","title":"T","text":"body"}`}},
		},
		{
			name:  "gzip",
			input: "GZ",
			want:  []rec{{ID: "stdin:1", Text: "g", Origin: "stdin:1", Raw: `{"text":"g"}`}},
		},
		{
			name:  "zip",
			input: "ZIP",
			want: []rec{
				{ID: "stdin/a.txt", Title: "A", Text: "a body", Origin: "stdin/a.txt", Raw: `{"id":"stdin/a.txt","title":"A","text":"a body"}`},
				{ID: "stdin/b.jsonl:1", Text: "b", Origin: "stdin/b.jsonl:1", Raw: `{"text":"b"}`},
			},
		},
		{
			name:  "binary",
			input: "\x00\x01\x02" + strings.Repeat("z", 20000),
			want:  []rec{{ID: "stdin", Origin: "stdin", Skip: "binary", Err: "stdin: binary data (a NUL byte in the first 8 KiB)"}},
		},
		{
			name:  "empty",
			input: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := tc.input
			switch input {
			case "GZ":
				input = gz(t, `{"text":"g"}`)
			case "ZIP":
				input = zipOf(t, member{"a.txt", "A\na body"}, member{"b.jsonl", `{"text":"b"}`})
			}
			r, err := open([]string{"-"}, nil, tc.opts, config{stdin: pipe(input)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, total := r.Progress(); total != -1 {
				t.Errorf("total %d before reading stdin, want -1", total)
			}
			first, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, first); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if done, total := r.Progress(); done != int64(len(input)) || total != int64(len(input)) {
				t.Errorf("progress %d/%d after the first pass, want %d/%d", done, total, len(input), len(input))
			}
			second := again(t, r)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("second pass (-first +second)\n%s", diff)
			}
		})
	}
}

// TestRewind checks that a second pass yields the same records, whether the
// first pass was finished, stopped half-way, or never started.
func TestRewind(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.jsonl":      "{\"text\":\"1\"}\n{\"text\":\"2\"}\n{\"text\":\"3\"}\n",
		"b/c.txt":      "C\nc",
		"b/d.csv.gz":   gz(t, "text\n4\n5\n"),
		"e.zip":        zipOf(t, member{"f.md", "# F\nf"}, member{"g.tsv", "text\n6\n"}),
		"h.unknown":    "{\"text\":\"7\"}\n",
		"i.jsonl":      "{\"text\":\"8\"}\n",
		"stdin.jsonl":  "{\"text\":\"s1\"}\n{\"text\":\"s2\"}\n",
		"reader.jsonl": "{\"text\":\"r\"}\n",
	})
	t.Chdir(dir)
	paths := []string{"a.jsonl", "b", "-", "e.zip", "h.unknown", "i.jsonl"}
	stdin, _ := os.ReadFile("stdin.jsonl")
	reference := func() []rec {
		r, err := open(paths, nil, Options{}, config{stdin: pipe(string(stdin))})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got, err := drain(t, r)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}()
	if len(reference) != 12 {
		t.Fatalf("%d records in the first pass, want 12: %v", len(reference), reference)
	}
	for _, stop := range []int{0, 1, 4, 7, 12} {
		r, err := open(paths, nil, Options{}, config{stdin: pipe(string(stdin))})
		if err != nil {
			t.Fatal(err)
		}
		for range stop {
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
		}
		for pass := range 2 {
			got := again(t, r)
			if diff := cmp.Diff(reference, got); diff != "" {
				t.Errorf("stop after %d, pass %d: (-want +got)\n%s", stop, pass+2, diff)
			}
			done, total := r.Progress()
			if info, _ := os.Stat("stdin.jsonl"); total != sizeOf(t, paths)+info.Size() || done != total {
				t.Errorf("stop after %d: progress %d/%d", stop, done, total)
			}
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// sizeOf sums the sizes of the files under paths ("-" excluded).
func sizeOf(t *testing.T, paths []string) int64 {
	var n int64
	for _, p := range paths {
		filepath.Walk(p, func(_ string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				n += info.Size()
			}
			return nil
		})
	}
	return n
}

func TestOpenReader(t *testing.T) {
	r, err := OpenReader("upload.csv.gz", pipe(gz(t, "id,text\n1,a\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close() // removes the copy of the stream kept for the second pass
	first, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "1", Text: "a", Origin: "upload.csv.gz:2", Raw: `{"id":"1","text":"a"}`}}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	second := again(t, r)
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("second pass (-want +got)\n%s", diff)
	}
}

// TestOpenReaderRelativeIDs wants a record without an id, read from a
// stream named by a path, to take the id Open gives it: its origin
// relative to the directory holding the path (the Beam pipeline reads each
// file so, and must name documents as the batch does).
func TestOpenReaderRelativeIDs(t *testing.T) {
	r, err := OpenReader("/data/news/a.jsonl", strings.NewReader("{\"text\":\"a\"}\n"), Options{SinglePass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "a.jsonl:1", Text: "a", Origin: "/data/news/a.jsonl:1", Raw: `{"text":"a"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestTemporaryCopiesLeaveNoName pins that the temporary files reading
// makes (the copy of standard input for a second pass, a Parquet file and
// a zip archive inside a tar copied for random access) have no name in
// TMPDIR while they are written and read: a run killed with kill -9 left
// them there for good (a 25 GB corpus on standard input, 25 GB). Close
// leaves nothing either.
func TestTemporaryCopiesLeaveNoName(t *testing.T) {
	pq := parquetOf(t, []news{{ID: 1, Text: str("one")}, {ID: 2, Text: str("two")}}, 1)
	zp := zipOf(t, member{"c.jsonl", "{\"text\":\"three\"}\n"})
	for _, tc := range []struct {
		name, stdin string
		want        int // records a pass
	}{
		{"JSON Lines on standard input", "{\"text\":\"a\"}\n{\"text\":\"b\"}\n", 2},
		{"a tar of a Parquet file and a zip archive on standard input", tarOf(t, member{"a.parquet", pq}, member{"b.zip", zp}), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			r, err := open([]string{"-"}, nil, Options{}, config{stdin: pipe(tc.stdin)})
			if err != nil {
				t.Fatal(err)
			}
			for pass := range 2 {
				n := 0
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("pass %d: %v", pass+1, err)
					}
					n++
					if left := listFiles(t, tmp); len(left) != 0 && runtime.GOOS != "windows" {
						t.Errorf("pass %d, record %d: TMPDIR holds %q, want nothing", pass+1, n, left)
					}
				}
				if n != tc.want {
					t.Errorf("pass %d: %d records, want %d", pass+1, n, tc.want)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 2 {
				if err := r.Close(); err != nil {
					t.Errorf("Close %d: %v", i+1, err)
				}
			}
			if left := listFiles(t, tmp); len(left) != 0 {
				t.Errorf("after Close, TMPDIR holds %q, want nothing", left)
			}
			if _, err := r.NextRaw(); err == nil {
				t.Error("NextRaw after Close succeeded")
			}
		})
	}
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestFatalErrorIsSticky checks that after a fatal error NextRaw keeps
// returning it, and Rewind starts over.
func TestFatalErrorIsSticky(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.jsonl": "{\"text\":\"a\"}\n", "b.csv": "id\n1\n"})
	t.Chdir(dir)
	r, err := Open([]string{"a.jsonl", "b.csv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for pass := range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatalf("pass %d: %v", pass, err)
		}
		want := `b.csv: no "text" column (the text) in the header (columns: "id")`
		for range 2 {
			if _, err := r.NextRaw(); errString(err) != want {
				t.Fatalf("pass %d: error %q, want %q", pass, errString(err), want)
			}
		}
		if err := r.Rewind(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDecodeConcurrently decodes on several goroutines, as a pipeline does;
// run with -race.
func TestDecodeConcurrently(t *testing.T) {
	var in strings.Builder
	for i := range 500 {
		switch i % 3 {
		case 0:
			in.WriteString("{\"title\":\"t\",\"text\":\"body \\u00e9\",\"date\":\"2024-01-02\"}\n")
		case 1:
			in.WriteString("{\"text\":\"\xff\"}\n")
		default:
			in.WriteString("not json\n")
		}
	}
	r, err := OpenReader("x.jsonl", strings.NewReader(in.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var raws []Raw
	for {
		raw, err := r.NextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	serial := make([]rec, len(raws))
	for i, raw := range raws {
		serial[i] = flatten(r.Decode(raw))
	}
	parallel := make([]rec, len(raws))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(raws); i += 4 {
				parallel[i] = flatten(r.Decode(raws[i]))
			}
		})
	}
	wg.Wait()
	if diff := cmp.Diff(serial, parallel); diff != "" {
		t.Errorf("(-serial +parallel)\n%s", diff)
	}
}
