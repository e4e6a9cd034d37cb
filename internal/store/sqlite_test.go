package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// A SQLite index merges its full-text segments eight at a time, a setting
// its full-text index keeps; an index opened only for reading is left as
// it is.
func TestSQLiteSearchAutomerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	automerge := func() string {
		t.Helper()
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var v string
		if err := db.QueryRow(`SELECT COALESCE((SELECT v FROM search_config WHERE k = 'automerge'), 'none')`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	st, err := store.Open(t.Context(), path, store.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if v := automerge(); v != "8" {
		t.Fatalf("automerge %s, want 8", v)
	}

	// An index made before the setting: only a writable open records it.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM search_config WHERE k = 'automerge'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := store.Open(t.Context(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if v := automerge(); v != "none" {
		t.Fatalf("a read-only open set automerge %s", v)
	}
	open(t, path)
	if v := automerge(); v != "8" {
		t.Fatalf("automerge %s after a writable open, want 8", v)
	}
}

// TestOpenNewFileAtOnce opens one new index file from several stores at
// once, as two processes started together on a fresh index do: every open
// succeeds, the ones that find the file being created waiting for it as a
// writer waits for another.
func TestOpenNewFileAtOnce(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("new%d.db", round))
		errs := make(chan error, 4)
		for range cap(errs) {
			go func() {
				s, err := store.Open(t.Context(), path, store.Options{})
				if err == nil {
					err = s.Close()
				}
				errs <- err
			}()
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
}

// TestOpenInMissingDirectory: a new index in a directory that does not
// exist is an error saying so, not one of an index that cannot be
// written (ErrReadOnly), which SQLite's "cannot open" read as.
func TestOpenInMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "index.db")
	_, err := store.Open(t.Context(), path, store.Options{})
	if err == nil || errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), "no directory") {
		t.Errorf("got %v, want an error saying there is no directory", err)
	}
}
