package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestFullDiskNamesTheIndex fills a SQLite index to the most pages its
// writer may use (max_page_count, which fails a write as a full disk
// does: "database or disk is full"): the error of the write is
// ErrDiskFull naming the file, as the errors of a file size limit and of
// a lock do, where it named none ("committing to the index: store: the
// disk is full (…)").
func TestFullDiskNamesTheIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	st, err := Open(t.Context(), path, Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	if _, err := s.writer.ExecContext(t.Context(), `PRAGMA max_page_count = 1`); err != nil { // as few as it has
		t.Fatal(err)
	}
	err = st.Update(t.Context(), func(w Writer) error {
		_, err := w.Insert(&Doc{ID: "a", Text: strings.Repeat("text ", 1<<16), Length: 5 << 16}, nil)
		return err
	})
	var named *NamedError
	if !errors.Is(err, ErrDiskFull) || !errors.As(err, &named) || named.Name != path {
		t.Fatalf("a write to a full disk: %v, want %v naming %s", err, ErrDiskFull, path)
	}
}
