package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --db URL the store would misread is refused as a mistake in the
// command line (exit 2) by every command, saying how to write it, before
// anything is connected to or made, and never with the password.
// Regressions: "hunter@TopSecret99" as a password made the driver look up
// the host "TopSecret99@127.0.0.1", printed in the error; a POSTGRES:// or
// postgresql+psycopg2:// URL was a SQLite file's path, printed whole.
func TestCommandsRefuseAMisreadURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(corpus, []byte(`{"id":"a","text":"a story about a ferry"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, db, says string }{
		{"@ in the password", "postgres://neardup:hunter@TopSecret99@127.0.0.1:1/news?sslmode=disable", "write it as %40"},
		{"psycopg2", "postgresql+psycopg2://neardup:TopSecret99@127.0.0.1:1/news", `"postgresql+psycopg2://" is not a PostgreSQL URL's scheme`},
		{"typo", "postgress://neardup:TopSecret99@127.0.0.1:1/news", "write postgres:// or postgresql://"},
	} {
		for _, args := range [][]string{
			{"index", "stats", "--db", tc.db},
			{"index", "add", "--db", tc.db, corpus},
			{"index", "export", "--db", tc.db, "-o", filepath.Join(dir, "out")},
			{"feeds", "list", "--db", tc.db},
			{"serve", "--db", tc.db, "--addr", "127.0.0.1:0"},
		} {
			code, stdout, stderr := runChildIn(t, dir, args...)
			if code != 2 || !strings.Contains(stderr, tc.says) || strings.Contains(stdout+stderr, "TopSecret99") {
				t.Errorf("%s: %s: exit code %d (want 2), stderr:\n%s", tc.name, strings.Join(args[:2], " "), code, stderr)
			}
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the commands made files: %v", entries)
	}
}

// A TLS file the URL names that cannot be read is said so, naming it,
// not taken for a missing index. Regression: "cannot parse `…`: failed to
// configure TLS (…) (neardup index add creates one)".
func TestIndexStatsNamesAMissingTLSFile(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "root.crt")
	code, _, stderr := runChild(t, "index", "stats", "--db", "postgres://neardup@127.0.0.1:1/news?sslmode=verify-full&sslrootcert="+missing)
	if code != 1 || !strings.Contains(stderr, "cannot read the TLS file "+missing+" (sslrootcert in the URL)") ||
		strings.Contains(stderr, "creates one") || strings.Contains(stderr, "cannot parse") {
		t.Errorf("exit code %d (want 1), stderr:\n%s", code, stderr)
	}
}
