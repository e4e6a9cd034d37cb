package store_test

import (
	"maps"
	"testing"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestClaimedURLKeysMigration upgrades a store of schema version 10 to
// version 11, on both engines: a document whose URL is not its id (the
// watcher's of a page that named another URL as its own) keeps its content
// key only, and loses the others (its URL's, its slugs'); a document whose
// URL is its id, or that has none, keeps every key; the documents stay.
func TestClaimedURLKeysMigration(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		keys := map[uint64]int64{}
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash"}); err != nil {
				return err
			}
			for _, d := range []struct {
				doc  store.Doc
				more []uint64 // its keys beside its content hash
			}{
				{store.Doc{ID: "https://evil.example/b/1", URL: "https://victim.example/a/1", Hash: 1 << 63}, []uint64{11, 12, 13}},
				{store.Doc{ID: "https://site.example/a/2", URL: "https://site.example/a/2", Hash: 2}, []uint64{21, 1<<63 | 22}},
				{store.Doc{ID: "doc-3", Hash: 3}, []uint64{31}},
			} {
				ord, err := w.Insert(&d.doc, nil)
				if err != nil {
					return err
				}
				ks := append([]uint64{d.doc.Hash}, d.more...)
				if err := w.AddExact(ks, ord); err != nil {
					return err
				}
				for _, k := range ks {
					keys[k] = ord
				}
			}
			return nil
		})
		st.Close()
		storetest.Exec(t, dsn, `UPDATE schema_version SET version = 10`)
		st = open(t, dsn)
		want := maps.Clone(keys)
		for _, k := range []uint64{11, 12, 13} {
			delete(want, k)
		}
		all := make([]uint64, 0, len(keys))
		for k := range keys {
			all = append(all, k)
		}
		view(t, st, func(r store.Reader) error {
			got, err := r.Exact(all)
			if err != nil || !maps.Equal(got, want) {
				t.Errorf("exact keys after the upgrade %v, want %v: %v", got, want, err)
			}
			n := 0
			err = r.EachDoc(false, func(*store.Doc) error { n++; return nil })
			if err != nil || n != 3 {
				t.Errorf("%d documents after the upgrade, want 3: %v", n, err)
			}
			return nil
		})
	})
}
