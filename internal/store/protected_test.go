package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// An index this process may not write, opened when no process wrote it,
// is read as immutable, with no lock and its pages cached: once its owner
// has written it, a read reads what it holds now. It read a mix of before
// and after: "the index file is damaged (database disk image is
// malformed)", or 500 documents of the 3,495 it held; then every read
// failed with ErrWrittenMeanwhile until the index was opened again.
func TestProtectedIndexWrittenMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	st := open(t, path)
	addTexts(t, st, 0, 500)
	st.Close() // no log beside it
	p, err := store.OpenProtected(t.Context(), path, "this process may not write it")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	count := func() (docs, each int, err error) { return countDocs(t.Context(), p) }
	if docs, each, err := count(); docs != 500 || each != 500 || err != nil {
		t.Fatalf("before: %d documents, %d read, %v; want 500", docs, each, err)
	}
	p.View(t.Context(), func(r store.Reader) error { _, err := r.Counts(); return err }) // some pages cached
	w := open(t, path)                                                                   // its owner
	addTexts(t, w, 500, 3000)
	update(t, w, func(w store.Writer) error { _, err := w.Remove([]int64{1, 2, 3, 300, 400}); return err })
	w.Close() // the log copied into the file
	if docs, each, err := count(); docs != 3495 || each != 3495 || err != nil {
		t.Errorf("after: %d documents, %d read, %v; want 3495", docs, each, err)
	}
	if f, err := p.Check(t.Context()); f.Total != 0 || err != nil {
		t.Errorf("check after: %v, %v; want no faults", f.List, err)
	}
}

// An index this process may not write, opened when no process wrote it,
// follows the adds and removals of a process that may, while that
// process has it open and after it closed it, and no read reads a mix:
// each read counts as many documents as it reads, or fails with
// ErrWrittenMeanwhile when a writer began while it read the file as
// immutable, and the reads after a write read it. Every read failed once
// the first write was made (ErrWrittenMeanwhile).
func TestProtectedIndexFollowsItsWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	next := 0
	add := func(st store.Store, n int) {
		addTexts(t, st, next, n)
		next += n
	}
	w := open(t, path)
	add(w, 200)
	w.Close() // no log beside it: read as immutable
	p, err := store.OpenProtected(t.Context(), path, "this process may not write it")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	count := func(ctx context.Context) (docs, each int, err error) { return countDocs(ctx, p) }
	// A reader reads all along, as a server would.
	var reads, faults atomic.Int64
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			docs, each, err := count(ctx)
			if ctx.Err() != nil {
				return
			}
			reads.Add(1)
			if errors.Is(err, store.ErrWrittenMeanwhile) {
				faults.Add(1) // a writer began while it read: no mix
				continue
			}
			if err != nil || docs != each {
				faults.Add(1)
				t.Errorf("a read meanwhile: %d documents, %d read, %v", docs, each, err)
			}
		}
	}()
	want := 200
	for round := range 6 {
		w := open(t, path)
		add(w, 300)
		want += 300
		if docs, each, err := count(t.Context()); docs != want || each != want || err != nil {
			t.Errorf("round %d, its writer open: %d documents, %d read, %v; want %d", round, docs, each, err, want)
		}
		var ords []int64
		for i := range 50 {
			ords = append(ords, int64(next-i*5))
		}
		update(t, w, func(w store.Writer) error { _, err := w.Remove(ords); return err })
		want -= 50
		if round%2 == 0 {
			w.Close() // the log copied into the file, and removed when no other process holds it open
		}
		if docs, each, err := count(t.Context()); docs != want || each != want || err != nil {
			t.Errorf("round %d, after its writer: %d documents, %d read, %v; want %d", round, docs, each, err, want)
		}
		w.Close()
	}
	stop()
	<-done
	if f, err := p.Check(t.Context()); f.Total != 0 || err != nil {
		t.Errorf("check: %v, %v; want no faults", f.List, err)
	}
	t.Logf("%d reads meanwhile, %d failed", reads.Load(), faults.Load())
}

// addTexts stores n documents with texts, d<from+1> to d<from+n>, in st,
// made an index of minhash first when from is 0.
func addTexts(t *testing.T, st store.Store, from, n int) {
	t.Helper()
	text := strings.Repeat("harbour ferry tide pier quay berth dock wharf jetty ", 40)
	update(t, st, func(w store.Writer) error {
		if from == 0 {
			if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1, StoreText: true}); err != nil {
				return err
			}
		}
		for i := from + 1; i <= from+n; i++ {
			d := doc(fmt.Sprint("d", i), int64(1000+i))
			d.Text = text
			if _, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}}); err != nil {
				return err
			}
		}
		return nil
	})
}

// countDocs returns how many documents st counts, and how many it reads
// one by one, in one read.
func countDocs(ctx context.Context, st store.Store) (docs, each int, err error) {
	err = st.View(ctx, func(r store.Reader) error {
		c, err := r.Counts()
		docs = c.Documents
		if err != nil {
			return err
		}
		return r.EachDoc(true, func(*store.Doc) error { each++; return nil })
	})
	return docs, each, err
}
