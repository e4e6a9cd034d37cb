package store_test

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
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

// TestNewFilePageSize: a new index file has pages of 8 KiB and is in WAL
// mode. The driver runs its list of pragmas sorted by name, so a
// journal_mode among them switched the file to WAL, which fixes its page
// size, before page_size ran: new files had pages of 4 KiB.
func TestNewFilePageSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	st, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var size int
	var mode string
	if err := db.QueryRow(`SELECT (SELECT page_size FROM pragma_page_size), (SELECT journal_mode FROM pragma_journal_mode)`).Scan(&size, &mode); err != nil {
		t.Fatal(err)
	}
	if size != 8192 || mode != "wal" {
		t.Errorf("page size %d, journal mode %s; want 8192, wal", size, mode)
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

// TestOpenThroughALinkIntoAMissingDirectory: a new index named by a
// symbolic link that leads into a directory that does not exist is an
// error saying so, naming the link and where it leads, as of a plain path
// in a missing directory, where it said the index could not be written.
func TestOpenThroughALinkIntoAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	to := filepath.Join(dir, "no", "such", "index.db")
	link := filepath.Join(dir, "news.db")
	if err := os.Symlink(to, link); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(t.Context(), link, store.Options{})
	want := link + " (a symbolic link to " + to + "): no directory " + filepath.Dir(to)
	if err == nil || errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error saying %q", err, want)
	}
}

// TestOpenThroughALinkInALinkedDirectory pins the bug where a new index
// through a relative link ("../x/t.db") in a directory reached through
// another link was refused, "no directory": the link's ".." was taken for
// the parent the path spells, not the linked directory's own.
func TestOpenThroughALinkInALinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"real/sub", "real/x"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "real", "sub"), filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "x", "t.db"), filepath.Join(dir, "real", "sub", "l")); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), filepath.Join(dir, "a", "l"), store.Options{})
	if err != nil {
		t.Fatalf("a new index through a/l: %v", err)
	}
	st.Close()
	if _, err := os.Stat(filepath.Join(dir, "real", "x", "t.db")); err != nil {
		t.Errorf("the index is not where the link leads: %v", err)
	}
}

// TestCutShortFileNotWritten pins a writable open of an index file cut
// short under its log (the -wal file beside it holds the latest commits, as
// a copy of a file in use holds them), which succeeded: SQLite reads the
// database's size from the log and the pages past the file's end as zeros,
// and feeds add wrote to it. A writable open of such a file is refused,
// naming it, and changes nothing; a read-only one reads it. A file whose
// log holds the pages past its end, as the file of an index in use is,
// opens as before, and so does a copy of it; one cut short with no log is
// refused as cut short, where SQLite said only "malformed".
func TestCutShortFileNotWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "news.db")
	add := func(st store.Store, from, to int) {
		t.Helper()
		update(t, st, func(w store.Writer) error {
			if from == 0 {
				if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1}); err != nil {
					return err
				}
			}
			for i := from; i < to; i++ {
				d := doc(fmt.Sprintf("d%d", i), int64(i))
				d.Text = strings.Repeat(fmt.Sprintf("word%d ", i), 500)
				if _, err := w.Insert(d, &store.Sketch{Index: []byte("index"), Detail: bytes.Repeat([]byte{byte(i)}, 1000)}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	st := open(t, path)
	add(st, 0, 400)
	st.Close() // the log copied into the file and removed
	closed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// A copy of the file and its log taken while the index is in use,
	// after adds that grew it: the pages they added are in the log alone.
	st = open(t, path)
	add(st, 400, 600)
	whole, cut, noLog := filepath.Join(t.TempDir(), "whole.db"), filepath.Join(t.TempDir(), "cut.db"), filepath.Join(t.TempDir(), "nolog.db")
	for _, name := range []string{whole, cut} {
		copyFile(t, path, name)
		copyFile(t, path+"-wal", name+"-wal")
	}
	st.Close()
	if fi, err := os.Stat(whole); err != nil || fi.Size() != int64(len(closed)) {
		t.Fatalf("the copy holds %v bytes (%v), want the %d of the file before the adds", fi.Size(), err, len(closed))
	}
	if err := os.Truncate(cut, int64(len(closed)/2)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noLog, closed[:len(closed)/2], 0o644); err != nil {
		t.Fatal(err)
	}

	ws := open(t, whole)
	view(t, ws, func(r store.Reader) error {
		if last, _, err := r.Head(); err != nil || last != 600 {
			t.Errorf("the copy in use: last ordinal %d (%v), want 600", last, err)
		}
		return nil
	})
	ws.Close()

	for _, tc := range []struct {
		name     string
		path     string
		readable bool // a read-only open succeeds
	}{
		{"under a log", cut, true},
		{"no log", noLog, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fileBytes(t, tc.path)
			_, err := store.Open(t.Context(), tc.path, store.Options{})
			var ce *store.CutShortError
			if !errors.As(err, &ce) || !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), tc.path) ||
				!strings.Contains(err.Error(), "restore it from a backup") {
				t.Fatalf("open: %v, want an error saying %s is cut short", err, tc.path)
			}
			if ce.Size != int64(len(closed)/2) || ce.Want < int64(len(closed)) {
				t.Errorf("cut short at %d bytes of %d, want %d of %d or more", ce.Size, ce.Want, len(closed)/2, len(closed))
			}
			if after := fileBytes(t, tc.path); !bytes.Equal(before, after) {
				t.Error("the open changed the file or its log")
			}
			ro, err := store.Open(t.Context(), tc.path, store.Options{ReadOnly: true})
			if err == nil {
				ro.Close()
			}
			if (err == nil) != tc.readable || (err != nil && !errors.As(err, &ce)) {
				t.Errorf("read-only open: %v, want it to succeed: %v (or fail as cut short)", err, tc.readable)
			}
		})
	}
}

// copyFile copies the file at from to to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fileBytes returns the bytes of the file at path and of its log, if any.
func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(path + "-wal")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return append(data, wal...)
}

// TestOpenNotARegularFile pins an index path that names a named pipe, whose
// open blocked until a writer came (neardup index add --db FIFO hung), and
// a device, read as a disk error: each is refused at once, saying what it
// is.
func TestOpenNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "is not a regular file (a pipe or FIFO)"},
		{os.DevNull, "is not a regular file (a character device)"},
	} {
		for _, ro := range []bool{false, true} {
			errc := make(chan error, 1)
			go func() {
				s, err := store.Open(t.Context(), tc.path, store.Options{ReadOnly: ro})
				if err == nil {
					s.Close()
				}
				errc <- err
			}()
			select {
			case err := <-errc:
				if err == nil || !strings.Contains(err.Error(), tc.path+" "+tc.want) {
					t.Errorf("%s (read-only %v): %v, want an error saying it %s", tc.path, ro, err, tc.want)
				}
			case <-time.After(5 * time.Second):
				// Unblock the open, which waits for a writer.
				if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					f.Close()
				}
				t.Fatalf("%s (read-only %v): the open still waits after 5s", tc.path, ro)
			}
		}
	}
}

// TestLockedIndexIsNamed: a write that finds another process holding the
// index's write lock fails with ErrLocked naming the index, as every other
// error of a write does ("store: news.db: committing to the index: …").
// Regression: it read "writing to the index: store: another process is
// writing to the index (database is locked …)", no file named, and then
// "store: news.db: writing to the index: store: another process …".
func TestLockedIndexIsNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	st, err := store.Open(t.Context(), path, store.Options{BusyTimeoutMillis: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	storetest.HoldWriteLock(t, path)
	err = st.Update(t.Context(), func(w store.Writer) error {
		_, err := w.NewCluster()
		return err
	})
	if !errors.Is(err, store.ErrLocked) || !strings.HasPrefix(err.Error(), "store: "+path+": ") || strings.Count(err.Error(), "store:") != 1 {
		t.Errorf("got %v, want ErrLocked naming %s, saying store: once", err, path)
	}
}
