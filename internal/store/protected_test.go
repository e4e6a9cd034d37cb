package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// An index this process may not write, opened when no process wrote it,
// is read as immutable, with no lock and its pages cached: once its owner
// has written it, a read fails saying so. It read a mix of before and
// after: "the index file is damaged (database disk image is malformed)",
// or 500 documents of the 3,495 it held.
func TestProtectedIndexWrittenMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	text := strings.Repeat("harbour ferry tide pier quay berth dock wharf jetty ", 40)
	add := func(st store.Store, from, n int) {
		update(t, st, func(w store.Writer) error {
			if from == 0 {
				if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1, StoreText: true}); err != nil {
					return err
				}
			}
			for i := from; i < from+n; i++ {
				d := doc(fmt.Sprint("d", i), int64(1000+i))
				d.Text = text
				if _, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	st := open(t, path)
	add(st, 0, 500)
	st.Close() // no log beside it
	p, err := store.OpenProtected(t.Context(), path, "this process may not write it")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	count := func() (docs, each int, err error) {
		err = p.View(t.Context(), func(r store.Reader) error {
			c, err := r.Counts()
			docs = c.Documents
			if err != nil {
				return err
			}
			return r.EachDoc(true, func(*store.Doc) error { each++; return nil })
		})
		return docs, each, err
	}
	if docs, each, err := count(); docs != 500 || each != 500 || err != nil {
		t.Fatalf("before: %d documents, %d read, %v; want 500", docs, each, err)
	}
	p.View(t.Context(), func(r store.Reader) error { _, err := r.Counts(); return err }) // some pages cached
	w := open(t, path)                                                                   // its owner
	add(w, 500, 3000)
	update(t, w, func(w store.Writer) error { _, err := w.Remove([]int64{1, 2, 3, 300, 400}); return err })
	w.Close() // the log copied into the file
	if docs, each, err := count(); !errors.Is(err, store.ErrWrittenMeanwhile) && (docs != 3495 || each != 3495 || err != nil) {
		t.Errorf("after: %d documents, %d read, %v; want 3495, or %v", docs, each, err, store.ErrWrittenMeanwhile)
	}
	if _, err := p.Check(t.Context()); !errors.Is(err, store.ErrWrittenMeanwhile) {
		t.Errorf("check after: %v, want %v", err, store.ErrWrittenMeanwhile)
	}
}
