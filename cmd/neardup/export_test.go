package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportMatchesDedupLayout pins an export that wrote the documents not
// compared (too short) into kept.jsonl, and wrote no removed.jsonl or
// rejects.jsonl: an export lists the same ids as dedup of the same
// documents in kept.jsonl, removed.jsonl and rejects.jsonl.
func TestExportMatchesDedupLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 30)
	short := filepath.Join(dir, "short.jsonl")
	if err := os.WriteFile(short, []byte(`{"id":"short1","text":"tiny"}`+"\n"+`{"id":"short2","text":"also tiny text"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	batch := filepath.Join(dir, "batch")
	runOK(t, "dedup", corpus, short, "-o", batch)
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, corpus, short)
	out := filepath.Join(dir, "export")
	runOK(t, "index", "export", "--db", db, "-o", out)
	for _, tc := range []struct {
		file string
		want []string // ids that must be there, beside dedup's
	}{
		{"kept.jsonl", nil},
		{"removed.jsonl", nil},
		{"rejects.jsonl", []string{"short1", "short2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, want := idsIn(t, filepath.Join(out, tc.file)), idsIn(t, filepath.Join(batch, tc.file))
			if !slices.Equal(got, want) {
				t.Errorf("export's %s: %q, dedup's %q", tc.file, got, want)
			}
			for _, id := range tc.want {
				if !slices.Contains(got, id) {
					t.Errorf("export's %s: %q, want %s in it", tc.file, got, id)
				}
			}
		})
	}
}

// idsIn returns the sorted ids of the lines of a JSONL file.
func idsIn(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r struct{ ID, Reason string }
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestOutputDirNotStdout: -o -, which names stdout wherever neardup writes
// one file, is a mistake in the command line for the commands that write
// a directory of results; index export and dedup made a directory named
// "-" and wrote the six files into it.
func TestOutputDirNotStdout(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.jsonl": `{"id":"a","text":"Ferry line opens on Monday."}` + "\n"})
	for _, args := range [][]string{
		{"index", "export", "--db", "news.db", "-o", "-"},
		{"dedup", "a.jsonl", "-o", "-"},
	} {
		code, _, errOut := runChildIn(t, dir, args...)
		if code != 2 || !strings.Contains(errOut, "-o -: the results are six files") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 naming -o", args, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
			t.Errorf("%q made a directory named -", args)
		}
	}
}
