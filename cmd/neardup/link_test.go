package main

import (
	"path/filepath"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// index add --link stores the policy with a new index; the index keeps it,
// and asking it for another, or for none that exists, fails.
func TestIndexAddLink(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeCorpus(t, dir, 6)
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, "--link", "majority", path)
	runOK(t, "index", "add", "--db", db, path) // its own
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(t.Context(), func(r store.Reader) error {
		m, _, err := r.Meta()
		if m.Link != "majority" {
			t.Errorf("stored link %q, want majority", m.Link)
		}
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		link string
		code int
	}{{"anchor", 1}, {"bogus", 2}} {
		if code := run(t.Context(), []string{"-q", "index", "add", "--db", db, "--link", tc.link, path}); code != tc.code {
			t.Errorf("--link %s: exit code %d, want %d", tc.link, code, tc.code)
		}
	}
}
