package corpus

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repeat is an endless stream of one byte.
type repeat byte

func (b repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// huge is a stream of prefix, n bytes of c, and suffix.
func huge(prefix string, c byte, n int64, suffix string) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeat(c), n), strings.NewReader(suffix))
}

// TestLongInputsAreNotBuffered reads a 24 MB (long tests: 100 MB) line, file and CSV field with a
// 1 MB limit and checks that what reading allocated depends on the limit,
// not the input: a record over the limit is skipped without being held (a
// CSV row that never ends fails).
func TestLongInputsAreNotBuffered(t *testing.T) {
	// 24 MB, 100 MB in the long tests: either way many times what
	// reading may allocate.
	n := int64(24 << 20)
	if os.Getenv("NEARDUP_LONG") != "" {
		n = 100 << 20
	}
	for _, tc := range []struct {
		name     string
		file     string
		input    io.Reader
		want     []rec
		wantErr  string
		maxAlloc uint64 // bytes reading may allocate; 0: 16 MB, under the input in either size
	}{
		{
			name:  "JSONL line",
			file:  "big.jsonl",
			input: huge(`{"text":"`, 'a', n, "\"}\n{\"text\":\"after\"}\n"),
			want: []rec{
				{ID: "big.jsonl:1", Origin: "big.jsonl:1", Skip: "too-large", Err: fmt.Sprintf("big.jsonl:1: %d bytes, too large to read (the limit is 1048576 bytes a record, --max-bytes)", n+11)},
				{ID: "big.jsonl:2", Text: "after", Origin: "big.jsonl:2", Raw: `{"text":"after"}`},
			},
		},
		{
			// A line a little over the limit is not held either: the limit
			// bounds memory, not only what is kept.
			name:  "JSONL line three times the limit",
			file:  "big.jsonl",
			input: huge(`{"text":"`, 'a', 3<<20, "\"}\n"),
			want: []rec{
				{ID: "big.jsonl:1", Origin: "big.jsonl:1", Skip: "too-large", Err: "big.jsonl:1: 3145739 bytes, too large to read (the limit is 1048576 bytes a record, --max-bytes)"},
			},
			maxAlloc: 3 << 20, // under the line's own size
		},
		{
			name:  "text file",
			file:  "big.txt",
			input: huge("Title\n", 'a', n, ""),
			want:  []rec{{ID: "big.txt", Origin: "big.txt", Skip: "too-large", Err: "big.txt: over 1048576 bytes, too large to read (the limit is 1048576 bytes a record, --max-bytes)"}},
		},
		{
			name:  "CSV field",
			file:  "big.csv",
			input: huge("id,text\n1,\"", 'a', n, "\"\n2,after\n"),
			want: []rec{
				{ID: "big.csv:2", Origin: "big.csv:2", Skip: "too-large", Err: fmt.Sprintf("big.csv:2: %d bytes, too large to read (the limit is 1048576 bytes a record, --max-bytes)", n+4)},
				{ID: "2", Text: "after", Origin: "big.csv:3", Raw: `{"id":"2","text":"after"}`},
			},
		},
		{
			name:  "CSV row unquoted",
			file:  "big.csv",
			input: huge("id,text\n1,", 'a', n, "\n2,\"after\"\n"),
			want: []rec{
				{ID: "big.csv:2", Origin: "big.csv:2", Skip: "too-large", Err: fmt.Sprintf("big.csv:2: %d bytes, too large to read (the limit is 1048576 bytes a record, --max-bytes)", n+2)},
				{ID: "2", Text: "after", Origin: "big.csv:3", Raw: `{"id":"2","text":"after"}`},
			},
		},
		{
			name:    "CSV field with an unclosed quote",
			file:    "big.csv",
			input:   huge("id,text\n1,\"", 'a', n, "\n2,after\n"),
			wantErr: "reading big.csv: the row after line 1 is over 1048576 bytes and never ends (an unclosed quote?)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, tc.input, Options{MaxBytes: 1 << 20, SinglePass: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := drain(t, r)
			runtime.ReadMemStats(&after)
			if errString(err) != tc.wantErr {
				t.Errorf("error %q, want %q", errString(err), tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			// A line or row is held up to MaxBytes = 1 MiB.
			alloc := after.TotalAlloc - before.TotalAlloc
			if tc.maxAlloc == 0 {
				tc.maxAlloc = 16 << 20
			}
			if alloc > tc.maxAlloc {
				t.Errorf("allocated %d MB reading %d MB", alloc>>20, n>>20)
			}
			t.Logf("allocated %d MB reading %d MB", alloc>>20, n>>20)
		})
	}
}

func TestSinglePass(t *testing.T) {
	r, err := open([]string{"-"}, nil, Options{SinglePass: true}, config{stdin: pipe("{\"text\":\"a\"}\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := drain(t, r)
	if err != nil || len(got) != 1 {
		t.Fatalf("%v, %v", got, err)
	}
	if err := r.Rewind(); errString(err) != "corpus: Rewind of stdin, opened with SinglePass" {
		t.Errorf("Rewind: %v", err)
	}
	// A zip archive in a single-pass stream is copied to a temporary file.
	r, err = OpenReader("x", strings.NewReader(zipOf(t, member{"a.txt", "A\nbody"})), Options{SinglePass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rc, err := r.Next()
	if err != nil || rc.Doc.ID != "x/a.txt" || rc.Doc.Text != "body" {
		t.Errorf("got %+v, %v; want x/a.txt", rc, err)
	}
}
