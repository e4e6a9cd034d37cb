package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store/storetest"
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
		{"@ after a ?", "postgres://neardup:p?s@TopSecret99@127.0.0.1:1/news", "write it as %40"},
		{"@ in the query, no path", "postgres://127.0.0.1:1?user=neardup&password=p@TopSecret99&sslmode=disable", "an @ after a ?"},
		{"one slash", "postgres:/neardup:TopSecret99@127.0.0.1:1/news", "mistyped PostgreSQL URL"},
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

// A PostgreSQL URL naming a socket directory where no server listens
// (host=/run/postgresql of a server not running) is a server out of reach,
// not a missing index: the commands that need an index that exists do not
// say that index add or feeds add creates one. Regression: the socket's
// "no such file or directory" was taken for a missing SQLite file's.
func TestMissingSocketIsNoMissingIndex(t *testing.T) {
	t.Parallel()
	db := "postgres://neardup@/news?host=" + url.QueryEscape(filepath.Join(t.TempDir(), "no-socket-here"))
	for _, args := range [][]string{
		{"index", "stats", "--db", db},
		{"index", "export", "--db", db, "-o", filepath.Join(t.TempDir(), "out")},
		{"feeds", "list", "--db", db},
	} {
		code, _, stderr := runChild(t, args...)
		if code != 1 || !strings.Contains(stderr, "connecting to the server") || strings.Contains(stderr, "creates one") {
			t.Errorf("%s: exit code %d (want 1), stderr:\n%s", strings.Join(args[:2], " "), code, stderr)
		}
	}
}

// The messages of index add that name the index name a PostgreSQL one as
// docs/index.md says, "PostgreSQL at host:port/db, schema S", never by its
// URL. Regression: the method's mismatch and the --no-store-text warning
// showed the URL, its password as "xxxxx" and its parameters reordered.
func TestIndexAddNamesPostgresIndex(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	name := "PostgreSQL at " + u.Hostname() + ":" + u.Port() + u.Path + ", schema " + q.Get("search_path")
	q.Set("password", "s3cret-pw") // trust authentication passes over it; a server that checks it skips below
	u.RawQuery = q.Encode()
	corpus, _ := writeCorpus(t, t.TempDir(), 4)
	// Its scheme in capitals is PostgreSQL's all the same.
	if code, _, stderr := runChild(t, "index", "add", "-q", "--db", "POSTGRES"+strings.TrimPrefix(dsn, "postgres"), corpus); code != 0 {
		t.Fatalf("index add: exit code %d:\n%s", code, stderr)
	}
	for _, run := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--method", "simhash"}, 1, "neardup: " + name + ": the index uses method minhash, not simhash"},
		{[]string{"--no-store-text"}, 0, "warning: --no-store-text: " + name + " stores texts"},
	} {
		args := append(append([]string{"index", "add", "-q", "--db", u.String()}, run.args...), corpus)
		code, _, stderr := runChild(t, args...)
		if strings.Contains(stderr, "password authentication failed") {
			t.Skip("the server checks passwords; the test gives one of its own")
		}
		if code != run.code || !strings.Contains(stderr, run.says) || strings.Contains(stderr, "xxxxx") || strings.Contains(stderr, "s3cret-pw") {
			t.Errorf("index add %s: exit code %d (want %d), want it to say %q:\n%s", strings.Join(run.args, " "), code, run.code, run.says, stderr)
		}
	}
}
