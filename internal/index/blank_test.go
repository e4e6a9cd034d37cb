package index_test

import (
	"database/sql"
	"errors"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/sentences"
)

// TestCreationCutShortIsAnEmptyIndex: an open whose settings are refused
// leaves no schema; and a store that holds a schema and nothing else, as a
// first add that stored nothing leaves it (or an older binary's creation
// cut short), opens with Existing as an empty index of no method: it
// verifies sound, counts no document, and the first add chooses the
// method. Regression (reviewer's finding): a kill -9 of the first index
// add between the two commits left a file that index verify, stats,
// export and query refused with exit 1 ("no method chosen yet ... only
// feeds if anything").
func TestCreationCutShortIsAnEmptyIndex(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			// An open that fails once the schema is made: the method's
			// options are refused.
			bad := errors.New("bad option")
			_, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, index.OpenOptions{
				MethodName: sentences.Name, Flags: func(c engine.Config) (engine.Config, error) { return nil, bad }})
			if !errors.Is(err, bad) {
				t.Fatalf("open: %v, want %v", err, bad)
			}
			if n := tables(t, dsn); n != 0 {
				t.Errorf("a failed creation left %d tables, want none", n)
			}
			// What the older binary's creation cut short left: a schema
			// without settings.
			st, err := store.Open(t.Context(), dsn, store.Options{Sync: "normal"})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, index.OpenOptions{Existing: true})
			if err != nil {
				t.Fatalf("Existing of a store that holds nothing: %v, want an empty index", err)
			}
			if faults, err := x.Verify(t.Context(), nil); err != nil || len(faults.List) != 0 {
				t.Errorf("verify: %v, %v; want sound", faults, err)
			}
			if stats, err := x.Stats(t.Context()); err != nil || stats.Counts.Documents != 0 || stats.Method != "" {
				t.Errorf("stats: %+v, %v; want no document, no method", stats, err)
			}
			ms, err := x.Query(t.Context(), []core.Document{enginetest.Doc("q", enginetest.NewTextGen(71).Sentences(12))})
			if err != nil || len(ms) != 1 || ms[0].Status != index.Checked {
				t.Errorf("query: %+v, %v", ms, err)
			}
			x.Close()
			if y := open(t, dsn, index.OpenOptions{MethodName: sentences.Name}); y.Meta().Method != sentences.Name {
				t.Errorf("the first add's open made method %q, want sentences", y.Meta().Method)
			}
		})
	}
}

// tables counts the tables of the store at dsn.
func tables(t *testing.T, dsn string) int {
	t.Helper()
	driver, q := "sqlite", `SELECT count(*) FROM sqlite_master WHERE type = 'table'`
	if store.IsPostgres(dsn) {
		driver, q = "pgx", `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
