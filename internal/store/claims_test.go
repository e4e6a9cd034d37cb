package store_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestClaimedURLKeysMigration upgrades a store of schema version 10 to
// version 11, on both engines: a document whose id is an http(s) URL (the
// watcher's id, its item's link) and whose URL names another page (the
// watcher's of a page that named another URL as its own) keeps its content
// key only, and loses the others (its URL's, its slugs'); every other
// document keeps every key: one whose URL is its id, or that has none, one
// whose id is no URL (a library's "doc-17", the watcher's "link-<sha>" of a
// long link), one whose id and URL name one page in two forms (scheme,
// host case, www., a trailing slash, tracking parameters); the documents
// stay.
//
// Regression (reviewer's finding): every document whose URL was not its id
// lost its URL's key, a library's documents of ids that are no URLs too,
// and a re-crawl of them no longer matched by URL.
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
				{store.Doc{ID: "doc-17", URL: "https://lib.example/a/17", Hash: 4}, []uint64{41, 42}},
				{store.Doc{ID: "link-0123456789abcdef0123456789abcdef", URL: "https://site.example/a/" + strings.Repeat("x", 600),
					Hash: 5}, []uint64{51}},
				{store.Doc{ID: "http://site.example/news/x/", URL: "https://WWW.Site.example/news/x?utm_source=feed&fbclid=1",
					Hash: 6}, []uint64{61}},
				{store.Doc{ID: "https://site.example/news/y?b=2&a=1", URL: "https://site.example/news/y?a=1&b=2", Hash: 7},
					[]uint64{71}},
				{store.Doc{ID: "https://site.example/news/z?id=1", URL: "https://site.example/news/z?id=2", Hash: 8},
					[]uint64{81}},
				{store.Doc{ID: "HTTPS://site.example/news/w", URL: "https://other.example/news/w", Hash: 9}, []uint64{91}},
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
		storetest.Exec(t, dsn, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 10`)
		st = open(t, dsn)
		want := maps.Clone(keys)
		for _, k := range []uint64{11, 12, 13, 81, 91} {
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
			if err != nil || n != 9 {
				t.Errorf("%d documents after the upgrade, want 9: %v", n, err)
			}
			return nil
		})
	})
}
