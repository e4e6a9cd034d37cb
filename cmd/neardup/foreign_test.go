package main

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForeignFilesUntouched runs every command that opens an index on files
// that are not one (another program's SQLite database, random bytes): each
// fails with a message naming the file, which stays byte for byte as it
// was, with no log, shared-memory or journal file left beside it.
func TestForeignFilesUntouched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 10)
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)`, `INSERT INTO invoices VALUES (1, 9.5)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	random := filepath.Join(dir, "random.db")
	noise := make([]byte, 8192)
	for i := range noise {
		noise[i] = byte(i*2654435761>>13 ^ i)
	}
	if err := os.WriteFile(random, noise, 0o644); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"index", "stats"}, {"index", "verify"}, {"index", "add", corpus}, {"index", "query", corpus},
		{"index", "export", "-o", filepath.Join(dir, "out")}, {"index", "rescore"}, {"feeds", "list"},
		{"serve", "--addr", "127.0.0.1:0"},
	}
	for _, path := range []string{other, random} {
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range commands {
			args = append(args, "--db", path)
			out, err := child(t, args...).CombinedOutput()
			name := strings.Join(args, " ")
			if err == nil {
				t.Errorf("neardup %s succeeded:\n%s", name, out)
			}
			if !bytes.Contains(out, []byte(path+": ")) || !bytes.Contains(out, []byte("not a neardup index")) {
				t.Errorf("neardup %s says:\n%s\nwant a message naming %s as not a neardup index", name, out, path)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Fatalf("neardup %s changed %s", name, path)
			}
			for _, suffix := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(path + suffix); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("neardup %s left %s%s: %v", name, filepath.Base(path), suffix, err)
				}
			}
		}
	}
}
