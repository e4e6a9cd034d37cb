package store_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	st = open(t, path)
	if v := automerge(); v != "8" {
		t.Fatalf("automerge %s after a writable open, want 8", v)
	}
}

// A SQLite index copies its log into the database file in the background,
// while it is open: writes reach the file without a commit waiting for the
// copy, and without closing the index.
func TestSQLiteCheckpointsInBackground(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	st := open(t, path)
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	text := strings.Repeat("The central bank raised its rates again. ", 50)
	update(t, st, func(w store.Writer) error {
		for i := range 500 {
			d := doc(fmt.Sprint("d", i), 0)
			d.Text = text
			if _, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte(text)}); err != nil {
				return err
			}
		}
		return nil
	})
	if after := size(); after != before {
		t.Fatalf("the commit wrote into the file (%d bytes, was %d): the log should hold it", after, before)
	}
	deadline := time.Now().Add(30 * time.Second)
	for size() < before+500*int64(len(text)) {
		if time.Now().After(deadline) {
			t.Fatalf("the file holds %d bytes (was %d) after 30 s: the log was not copied into it", size(), before)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
