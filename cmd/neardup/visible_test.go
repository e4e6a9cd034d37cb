package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesOnStderrShowControlCharacters: the warnings and errors of
// dedup, index add and extract show the control characters of the file and
// member names they quote as Go escapes, a line end among them, while
// rejects.jsonl keeps each name as it is. Regression: a zip member named
// "\x1b]0;pwned\x07…" retitled the terminal, and one named "…\nwarning: all
// good" printed a line of its own.
func TestNamesOnStderrShowControlCharacters(t *testing.T) {
	t.Parallel()
	forged := []string{"\x1b]0;pwned\x07\x1b[2J\x1b[31mx.txt", "\rwarning: all good\x1b[K.txt", "nl\nwarning: forged.txt"}
	dir := t.TempDir()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range append(forged, "ok.txt") {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "ok.txt" {
			w.Write([]byte("Title\nThe city council voted on Tuesday to approve a new budget for public transport.\n"))
		} // the others are empty: skipped, with a warning naming them
	}
	// An encrypted member, refused: extract logs it.
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "sec\nwarning: forged\x1b[2J.html", Method: zip.Store, Flags: 0x1,
		CompressedSize64: 14, UncompressedSize64: 2})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("0123456789abcd"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	esc := filepath.Join(dir, "esc.zip")
	if err := os.WriteFile(esc, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file the run stops at: its error names it.
	bad := filepath.Join(dir, "bad", "nl\nwarning: forged\x07.zip")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("PK\x03\x04 not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // in stderr
	}{
		{"dedup warnings", []string{"dedup", "-q", esc, "-o", out}, 0,
			[]string{`esc.zip/\x1b]0;pwned\a\x1b[2J\x1b[31mx.txt`, `esc.zip/\rwarning: all good\x1b[K.txt`, `esc.zip/nl\nwarning: forged.txt`}},
		{"index add warnings", []string{"index", "add", "-q", "--db", filepath.Join(dir, "i.db"), esc}, 0,
			[]string{`esc.zip/nl\nwarning: forged.txt`}},
		{"extract log", []string{"extract", "-q", "-o", filepath.Join(dir, "pages.jsonl"), esc}, 0,
			[]string{`esc.zip/sec\nwarning: forged\x1b[2J.html: refused: encrypted`}},
		{"an error", []string{"dedup", "-q", filepath.Join(dir, "bad"), "-o", filepath.Join(dir, "out2")}, 1,
			[]string{`nl\nwarning: forged\a.zip`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runChild(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, stderr)
			}
			if i := strings.IndexFunc(stderr, func(r rune) bool {
				return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f
			}); i >= 0 {
				t.Errorf("a control character reaches the terminal at byte %d: %q", i, stderr)
			}
			for line := range strings.Lines(stderr) {
				if strings.HasPrefix(line, "warning: all good") || strings.HasPrefix(line, "warning: forged") {
					t.Errorf("a name forged a line: %q", line)
				}
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %s:\n%s", want, stderr)
				}
			}
		})
	}
	// The result files keep the names as they are.
	data, err := os.ReadFile(filepath.Join(out, "rejects.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for line := range strings.Lines(string(data)) {
		var r struct{ File string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		files = append(files, strings.TrimPrefix(r.File, esc+"/"))
	}
	if !strings.Contains(strings.Join(files, "|"), strings.Join(forged, "|")) {
		t.Errorf("rejects.jsonl names %q, want %q as they are", files, forged)
	}
}
