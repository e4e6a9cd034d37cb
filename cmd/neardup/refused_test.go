package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRefusedIndexLeftUnwritten: every command that opens an index, on the
// repository's fixture of schema version 8 holding minhash sketches of
// format 1 (not in WAL mode, as such indexes were made), refuses it,
// saying how to get its documents out, and leaves the file byte for byte as
// it was, with nothing created beside it. Regression (reviewer's
// finding): even index stats upgraded the file to schema version 9 (and
// switched it to WAL mode) before it refused it, and the feeds commands,
// which refused nothing, upgraded it.
func TestRefusedIndexLeftUnwritten(t *testing.T) {
	t.Parallel()
	fixture, err := os.ReadFile(filepath.Join("..", "..", "internal", "store", "testdata", "v8.db"))
	if err != nil {
		t.Fatal(err)
	}
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	for _, args := range [][]string{
		{"index", "stats"}, {"index", "verify"}, {"index", "export", "-o", "out"}, {"index", "query", example},
		{"index", "add", example}, {"index", "rescore"}, {"index", "remove", "fixture-1"},
		// The feed tables alone too: feeds list and add upgraded the schema.
		{"feeds", "list"}, {"feeds", "add", "http://127.0.0.1:9/feed.xml", "--no-check"}, {"feeds", "export"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			db := filepath.Join(dir, "old.db")
			if err := os.WriteFile(db, fixture, 0o644); err != nil {
				t.Fatal(err)
			}
			if args[1] == "export" {
				args = append(args[:2:2], "-o", filepath.Join(dir, "out"))
			}
			code, _, stderr := runChild(t, append(args, "--db", db)...)
			if code != 1 || !strings.Contains(stderr, "sketches of format 1") || !strings.Contains(stderr, "shows how to read them out of this one") {
				t.Errorf("exit code %d, want 1 and the sketches refused:\n%s", code, stderr)
			}
			got, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, fixture) {
				t.Errorf("the file changed")
			}
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{"old.db"}) {
				t.Errorf("files %v, want old.db alone", names)
			}
		})
	}
}
