package index_test

import (
	"errors"
	"os"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestAddWithoutText: a document without text, or of white space alone,
// is skipped as empty and not stored, as neardup index add skips such a
// record; a stored document of its ID is left as it is, with Replace too,
// and a query of one says empty. Regression: it was stored, skipped as
// too-short, so that the same records added by the API and by index add
// made two indexes.
func TestAddWithoutText(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
			a := enginetest.Doc("a", enginetest.NewTextGen(5).Sentences(6))
			add(t, x, a)
			for _, replace := range []bool{false, true} {
				ms, err := x.Add(t.Context(), []core.Document{{ID: "none"}, {ID: "blank", Title: "A title", Text: " \n\t\u00a0"}, {ID: "a"}},
					index.AddOptions{Replace: replace})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					if m.Status != index.Skipped || m.Skip != core.SkipEmpty || m.Cluster != 0 || len(m.Pairs) != 0 || len(m.Differs) != 0 {
						t.Errorf("replace %v: %+v, want skipped, empty", replace, m)
					}
				}
			}
			st, err := x.Stats(t.Context())
			if err != nil || st.Documents != 1 || len(st.Skipped) != 0 {
				t.Errorf("stats %+v %v, want a alone", st.Counts, err)
			}
			if d, err := x.Document(t.Context(), "a"); err != nil || d.Text != a.Text {
				t.Errorf("a is not left as stored: %v", err)
			}
			ms, err := x.Query(t.Context(), []core.Document{{ID: "q"}})
			if err != nil || len(ms) != 1 || ms[0].Status != index.Checked || ms[0].Skip != core.SkipEmpty {
				t.Errorf("query: %+v %v, want checked, empty", ms, err)
			}
		})
	}
}

// TestExistingOfNoTables: Existing refuses a PostgreSQL schema without the
// index's tables, and an empty SQLite file, as store.ErrNoIndex, and
// creates nothing in either, so that a second try is refused alike and the
// file stays empty. Regression: index stats on a PostgreSQL database
// without an index made the tables and reported an index of no method.
func TestExistingOfNoTables(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			if e == "sqlite" {
				if err := os.WriteFile(dsn, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for try := range 2 {
				x, err := index.Open(t.Context(), dsn, store.Options{}, specs, index.OpenOptions{Existing: true})
				if err == nil {
					x.Close()
				}
				if !errors.Is(err, store.ErrNoIndex) {
					t.Fatalf("try %d: %v, want store.ErrNoIndex", try+1, err)
				}
			}
			if e == "sqlite" {
				if fi, err := os.Stat(dsn); err != nil || fi.Size() != 0 {
					t.Errorf("the empty file: %v, %v; want it left empty", fi, err)
				}
			}
			open(t, dsn, index.OpenOptions{}) // without Existing: made
		})
	}
	// An empty database another program marked as its own is no index
	// (store.ErrNotIndex), not one to make.
	other := storetest.DSN(t, "sqlite")
	storetest.Exec(t, other, "PRAGMA application_id = 1234")
	_, err := index.Open(t.Context(), other, store.Options{}, specs, index.OpenOptions{Existing: true})
	if !errors.Is(err, store.ErrNotIndex) || errors.Is(err, store.ErrNoIndex) {
		t.Errorf("another program's empty database: %v, want store.ErrNotIndex", err)
	}
}
