package index_test

import (
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// TestRefusedIndexIsLeftAsItWas: an index of an older schema (8) whose
// sketches this binary cannot compare (format 1) is refused ("build a new
// index") by every open, existing or not, and left as it was: not
// upgraded, not written at all. Regression (reviewer's finding): Open
// upgraded the schema to version 9 before it refused the sketches, so that
// the binary that made the index, which could use it, refused it then as
// written by a newer version.
func TestRefusedIndexIsLeftAsItWas(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			add(t, x, enginetest.Doc("a", enginetest.NewTextGen(61).Sentences(12)))
			x.Close()
			storetest.Exec(t, dsn, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 8`,
				fmt.Sprintf(`UPDATE meta SET value = replace(value, '"sketch_format":%d', '"sketch_format":1') WHERE name = 'index'`,
					minhash.Spec.Format))
			before := snapshot(t, dsn)
			if !strings.Contains(before, "version 8") {
				t.Fatalf("the index made older: %s", before)
			}
			for _, o := range []index.OpenOptions{{Existing: true}, {}, {StoreTextIfNew: true}} {
				_, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, o)
				if err == nil || !strings.Contains(err.Error(), "sketches of format 1") || !strings.Contains(err.Error(), "build a new index") {
					t.Errorf("open %+v: %v, want the sketches refused", o, err)
				}
				if after := snapshot(t, dsn); after != before {
					t.Errorf("open %+v: the index changed:\n%s\nwant\n%s", o, after, before)
				}
			}
		})
	}
}

// Regression (tester's finding): an index whose sketches a newer binary
// made (a format past this binary's) was refused with "build a new index
// of its documents", the advice for an older format, where an older binary
// should not rebuild a newer index: it is refused as written by a newer
// version, and left as it was.
func TestNewerSketchFormatIsTooNew(t *testing.T) {
	newer := map[string][2]string{ // what is raised in the index's settings, and what the refusal names
		"format":       {fmt.Sprintf(`'"sketch_format":%d', '"sketch_format":%d'`, minhash.Spec.Format, minhash.Spec.Format+1), fmt.Sprintf("format %d", minhash.Spec.Format+1)},
		"hash version": {fmt.Sprintf(`'"hash_version":%d', '"hash_version":%d'`, analysis.HashVersion, analysis.HashVersion+1), fmt.Sprintf("hash version %d", analysis.HashVersion+1)},
	}
	for _, e := range storetest.Engines {
		for what, tc := range newer {
			t.Run(e+" "+what, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				x := open(t, dsn, index.OpenOptions{StoreText: true})
				add(t, x, enginetest.Doc("a", enginetest.NewTextGen(61).Sentences(12)))
				x.Close()
				storetest.Exec(t, dsn, fmt.Sprintf(`UPDATE meta SET value = replace(value, %s) WHERE name = 'index'`, tc[0]))
				before := snapshot(t, dsn)
				for _, o := range []index.OpenOptions{{Existing: true}, {}} {
					_, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, o)
					if !errors.Is(err, store.ErrTooNew) || !strings.Contains(err.Error(), tc[1]) || strings.Contains(err.Error(), "build a new index") {
						t.Errorf("open %+v: %v, want it refused as written by a newer version", o, err)
					}
					if after := snapshot(t, dsn); after != before {
						t.Errorf("open %+v: the index changed", o)
					}
				}
			})
		}
	}
}

// TestStatsSayTheSketchFormat: stats give the sketch format an index holds
// and the one the binary makes, so that an index of an older format (which
// reads as the binary that made it read) can be told from its stats.
func TestStatsSayTheSketchFormat(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{StoreText: true})
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(61).Sentences(12)))
	st, err := x.Stats(t.Context())
	x.Close()
	if err != nil || st.SketchFormat != minhash.Spec.Format || st.BinaryFormat != minhash.Spec.Format {
		t.Fatalf("a new index: stats %+v, %v; want formats %d and %d", st, err, minhash.Spec.Format, minhash.Spec.Format)
	}
	older := minhash.Spec.Format - 1
	storetest.Exec(t, dsn, fmt.Sprintf(`UPDATE meta SET value = replace(value, '"sketch_format":%d', '"sketch_format":%d') WHERE name = 'index'`,
		minhash.Spec.Format, older))
	x = open(t, dsn, index.OpenOptions{Existing: true})
	defer x.Close()
	if st, err = x.Stats(t.Context()); err != nil || st.SketchFormat != older || st.BinaryFormat != minhash.Spec.Format {
		t.Errorf("an index of format %d: stats %+v, %v; want formats %d and %d", older, st, err, older, minhash.Spec.Format)
	}
}

// TestStatsSayTheHashVersion: stats give the hash version an index holds,
// beside the sketch formats, in JSON as hash_version: the version a binary
// of another refuses the index for (of a newer one, store.ErrTooNew).
func TestStatsSayTheHashVersion(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{StoreText: true})
	defer x.Close()
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(61).Sentences(12)))
	st, err := x.Stats(t.Context())
	if err != nil || st.HashVersion != analysis.HashVersion {
		t.Fatalf("stats %+v, %v; want hash version %d", st, err, analysis.HashVersion)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"hash_version":%d`, analysis.HashVersion); !strings.Contains(string(data), want) {
		t.Errorf("stats as JSON: %s; want %s", data, want)
	}
}

// snapshot describes the store at dsn as a write would change it: a
// SQLite file's bytes and the files beside it, a PostgreSQL schema's
// version, columns and settings.
func snapshot(t *testing.T, dsn string) string {
	t.Helper()
	driver := "pgx"
	if !store.IsPostgres(dsn) {
		data, err := os.ReadFile(dsn)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(dsn + "*")
		slices.Sort(files)
		for i := range files {
			files[i] = filepath.Base(files[i])
		}
		dsn, driver = "file:"+dsn+"?mode=ro&immutable=1", "sqlite"
		return fmt.Sprintf("sha256 %x, files %v, %s", sha256.Sum256(data), files, schemaOf(t, driver, dsn, false))
	}
	return schemaOf(t, driver, dsn, true)
}

// schemaOf reads the schema version, the settings and the columns of docs.
func schemaOf(t *testing.T, driver, dsn string, pg bool) string {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version int
	var meta string
	if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT value FROM meta WHERE name = 'index'`).Scan(&meta); err != nil {
		t.Fatal(err)
	}
	q := `SELECT name FROM pragma_table_info('docs') ORDER BY name`
	if pg {
		q = `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'docs' ORDER BY column_name`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	return fmt.Sprintf("version %d, settings %s, columns of docs %v", version, meta, cols)
}
