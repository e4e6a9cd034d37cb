package store_test

import (
	"database/sql"
	"maps"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// TestHostPauses: a host's pause is stored, a later one replaces it, an
// earlier one does not, only the pauses not ended are read, and a write
// deletes the ended ones (the table holds the hosts paused, not every host
// that ever was).
func TestHostPauses(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			for _, p := range []struct {
				host       string
				until, now int64
			}{
				{"a.example", 200, 100},
				{"a.example", 300, 100}, // later: kept
				{"a.example", 250, 100}, // earlier: left out
				{"b.example:8080", 150, 100},
				{"c.example", 90, 100}, // ended already: not stored
			} {
				if err := w.PauseHost(p.host, p.until, p.now); err != nil {
					return err
				}
			}
			return nil
		})
		pauses := func(now int64) map[string]int64 {
			var got map[string]int64
			view(t, st, func(r store.Reader) error {
				var err error
				got, err = r.HostPauses(now)
				return err
			})
			return got
		}
		if got, want := pauses(100), map[string]int64{"a.example": 300, "b.example:8080": 150}; !maps.Equal(got, want) {
			t.Errorf("pauses at 100: %v, want %v", got, want)
		}
		if got, want := pauses(150), map[string]int64{"a.example": 300}; !maps.Equal(got, want) {
			t.Errorf("pauses at 150: %v, want %v (a pause ends at its time)", got, want)
		}
		update(t, st, func(w store.Writer) error { return w.PauseHost("d.example", 400, 160) })
		var rows int
		db := rawDB(t, dsn)
		if err := db.QueryRow(`SELECT count(*) FROM host_pauses`).Scan(&rows); err != nil || rows != 2 {
			t.Errorf("%d rows after a write at 160, want 2 (b.example's pause ended): %v", rows, err)
		}
		if err := st.View(t.Context(), func(r store.Reader) error {
			return r.(store.Writer).PauseHost("e.example", 500, 160)
		}); err == nil {
			t.Error("PauseHost in a View: no error")
		}
	})
}

// TestHostPausesMigration upgrades a store of schema version 7 to version
// 8, which adds the host pauses, on both engines.
func TestHostPausesMigration(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		st.Close()
		db := rawDB(t, dsn)
		for _, q := range []string{`DROP TABLE host_pauses`, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 7`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		st = open(t, dsn)
		var version int
		if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&version); err != nil || version != store.SchemaVersion {
			t.Errorf("schema version %d, want %d: %v", version, store.SchemaVersion, err)
		}
		update(t, st, func(w store.Writer) error { return w.PauseHost("a.example", 200, 100) })
		view(t, st, func(r store.Reader) error {
			if got, err := r.HostPauses(100); err != nil || got["a.example"] != 200 {
				t.Errorf("after the upgrade, pauses %v: %v", got, err)
			}
			return nil
		})
	})
}

// rawDB opens the database at dsn directly, closed when t ends.
func rawDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	driver := "sqlite"
	if store.IsPostgres(dsn) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
