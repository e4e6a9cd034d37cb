package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "modernc.org/sqlite"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// forEachEngine runs f against a new store of every engine.
func forEachEngine(t *testing.T, f func(t *testing.T, dsn string)) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) { f(t, storetest.DSN(t, e)) })
	}
}

func open(t *testing.T, dsn string) store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), dsn, store.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func update(t *testing.T, st store.Store, fn func(w store.Writer) error) {
	t.Helper()
	if err := st.Update(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}

func view(t *testing.T, st store.Store, fn func(r store.Reader) error) {
	t.Helper()
	if err := st.View(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}

func doc(id string, date int64) *store.Doc {
	return &store.Doc{ID: id, Source: "wire", URL: "https://example.com/" + id, Title: "Title " + id, Date: date,
		Added: 1000, Lang: "en", Hash: 1 << 63, Length: 42}
}

func TestDocumentsAndSketches(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		meta := store.Meta{Method: "minhash", Options: `{"threshold":0.45}`, Format: 1, HashVersion: 1, Created: 7}
		var ords []int64
		update(t, st, func(w store.Writer) error {
			if _, ok, err := w.Meta(); ok || err != nil {
				t.Errorf("a new store has settings: %v", err)
			}
			if err := w.Init(meta); err != nil {
				return err
			}
			for i, id := range []string{"a", "b", "c"} {
				d := doc(id, int64(100*i))
				var sk *store.Sketch
				if id != "b" {
					sk = &store.Sketch{Index: []byte("index " + id), Detail: []byte("detail " + id)}
				} else {
					d.Skip = core.SkipTooShort
				}
				if id == "c" {
					d.Text = "the text of c"
				}
				ord, err := w.Insert(d, sk)
				if err != nil {
					return err
				}
				ords = append(ords, ord)
			}
			return nil
		})
		if !slices.IsSorted(ords) || ords[0] < 1 {
			t.Fatalf("ordinals %v", ords)
		}
		view(t, st, func(r store.Reader) error {
			got, ok, err := r.Meta()
			if !ok || err != nil || got != meta {
				t.Errorf("meta %+v, %v, %v", got, ok, err)
			}
			last, _, err := r.Head()
			if err != nil || last != ords[2] {
				t.Errorf("head %d, %v", last, err)
			}
			var seen []int64
			if err := r.Indexes(ords[0], func(ord int64, data []byte) error {
				seen = append(seen, ord)
				if want := "index c"; string(data) != want {
					t.Errorf("index of %d: %q", ord, data)
				}
				return nil
			}); err != nil {
				return err
			}
			if !slices.Equal(seen, ords[2:]) {
				t.Errorf("indexes after %d: %v (a skipped document has none)", ords[0], seen)
			}
			if d, err := r.Detail(ords[0]); err != nil || string(d) != "detail a" {
				t.Errorf("detail %q %v", d, err)
			}
			if _, err := r.Detail(ords[1]); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the detail of a skipped document: %v", err)
			}
			d, err := r.Doc("c")
			want := *doc("c", 200)
			want.Ord, want.Text = ords[2], "the text of c"
			if err != nil || d != want {
				t.Errorf("Doc: %v\n%s", err, cmp.Diff(want, d))
			}
			if _, err := r.Doc("nope"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("missing document: %v", err)
			}
			docs, err := r.Docs([]int64{ords[2], 999, ords[0]})
			if err != nil || len(docs) != 2 || docs[0].ID != "c" || docs[1].ID != "a" || docs[1].Date != 0 {
				t.Errorf("Docs: %+v %v", docs, err)
			}
			ids, err := r.Lookup([]string{"a", "zz", "b"})
			if err != nil || !cmp.Equal(ids, map[string]int64{"a": ords[0], "b": ords[1]}) {
				t.Errorf("Lookup: %v %v", ids, err)
			}
			c, err := r.Counts()
			if err != nil || c.Documents != 3 || c.Skipped[core.SkipTooShort] != 1 {
				t.Errorf("counts %+v %v", c, err)
			}
			return nil
		})
	})
}

func TestMarksClustersAndRemoval(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var a, b, c int64
		update(t, st, func(w store.Writer) error {
			var err error
			for _, p := range []*int64{&a, &b, &c} {
				if *p, err = w.Insert(doc(fmt.Sprint("d", len(fmt.Sprint(*p))+int(a+b)), 0), &store.Sketch{Index: []byte{1}}); err != nil {
					return err
				}
			}
			if err := w.AddMarks([]store.Mark{
				{A: a, B: b, Method: "minhash", Score: 0.9, Label: core.Duplicate, Evidence: []byte(`{"jaccard":0.9}`), At: 5},
				{A: b, B: c, Method: "minhash", Score: 0.4, Label: core.Similar, Evidence: []byte(`{}`), At: 6},
			}); err != nil {
				return err
			}
			id, err := w.NewCluster()
			if err != nil {
				return err
			}
			id2, err := w.NewCluster()
			if err != nil || id2 == id {
				return fmt.Errorf("cluster ids %d %d: %v", id, id2, err)
			}
			if err := w.SetCluster([]int64{a}, id2); err != nil {
				return err
			}
			if err := w.SetCluster([]int64{b}, id); err != nil {
				return err
			}
			return w.MoveCluster(id2, id)
		})
		var cluster int64
		view(t, st, func(r store.Reader) error {
			ms, err := r.MarksOf(b)
			if err != nil || len(ms) != 2 {
				t.Errorf("marks of b: %+v %v", ms, err)
			}
			var order [][2]int64
			if err := r.EachMark(func(m *store.Mark) error {
				order = append(order, [2]int64{m.A, m.B})
				return nil
			}); err != nil {
				return err
			}
			if !cmp.Equal(order, [][2]int64{{a, b}, {b, c}}) {
				t.Errorf("marks in order %v", order)
			}
			docs, _ := r.Docs([]int64{a})
			cluster = docs[0].Cluster
			members, err := r.Members(cluster)
			if err != nil || !slices.Equal(members, []int64{a, b}) {
				t.Errorf("members of %d: %v %v", cluster, members, err)
			}
			cs, err := r.Counts()
			if err != nil || cs.Clusters != 1 || cs.Clustered != 2 || cs.Marks[core.Duplicate] != 1 {
				t.Errorf("counts %+v %v", cs, err)
			}
			return nil
		})
		update(t, st, func(w store.Writer) error {
			clusters, err := w.Remove([]int64{b})
			if err != nil || !slices.Equal(clusters, []int64{cluster}) {
				return fmt.Errorf("remove returned clusters %v: %v", clusters, err)
			}
			return nil
		})
		view(t, st, func(r store.Reader) error {
			rs, err := r.Removals(0)
			if err != nil || len(rs) != 1 || rs[0].Ord != b || !slices.Equal(rs[0].Index, []byte{1}) {
				t.Errorf("removal log %+v %v", rs, err)
			}
			if ms, _ := r.MarksOf(a); len(ms) != 0 {
				t.Errorf("marks of a removed document left: %+v", ms)
			}
			if _, rem, _ := r.Head(); rem != rs[0].Seq {
				t.Errorf("head's removal %d, log %d", rem, rs[0].Seq)
			}
			return nil
		})
	})
}

// TestSetSketchIsLoggedWithTheSketch: a document given a sketch is logged
// in the change log with the sketch's index part, told from a removal
// (Sketched), so that another process loads it without reading the
// document; the entry passes the check of the log's checksums, and a
// document given no sketch is not logged. Regression: it was logged as a
// removal without a sketch, which every process catching up told from
// one by reading the document, a query a document removed without a
// sketch.
func TestSetSketchIsLoggedWithTheSketch(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var a, b int64
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash", Format: 1, HashVersion: 1}); err != nil {
				return err
			}
			var err error
			if a, err = w.Insert(doc("a", 100), nil); err != nil {
				return err
			}
			b, err = w.Insert(doc("b", 200), nil)
			return err
		})
		update(t, st, func(w store.Writer) error {
			if err := w.SetSketch(a, core.SkipNone, &store.Sketch{Index: []byte{7, 7}, Detail: []byte{8}}); err != nil {
				return err
			}
			return w.SetSketch(b, core.SkipTooShort, nil)
		})
		view(t, st, func(r store.Reader) error {
			rs, err := r.Removals(0)
			if err != nil || len(rs) != 1 || rs[0].Ord != a || !rs[0].Sketched || !slices.Equal(rs[0].Index, []byte{7, 7}) {
				t.Errorf("change log %+v %v; want document %d given a sketch", rs, err, a)
			}
			if sk, err := r.Sketch(a); err != nil || !slices.Equal(sk.Index, []byte{7, 7}) || !slices.Equal(sk.Detail, []byte{8}) {
				t.Errorf("the sketch given: %+v %v", sk, err)
			}
			return nil
		})
		if faults, err := st.Check(t.Context()); err != nil || faults.Total > 0 {
			t.Errorf("check: %q %v", faults.List, err)
		}
		// A binary that knows no such rows reads a removal of a document
		// it never held (ordinal -a), sound: its checksum is the row's as
		// stored. It was the document's, and such a binary took the index
		// for damaged.
		driver := "sqlite"
		if strings.HasPrefix(dsn, "postgres") {
			driver = "pgx"
		}
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var ord int64
		var data []byte
		var crc int32
		if err := db.QueryRow(`SELECT ord, data, crc FROM removals`).Scan(&ord, &data, &crc); err != nil {
			t.Fatal(err)
		}
		if ord != -a || crc != store.IndexSum(ord, data) {
			t.Errorf("the row: ordinal %d, checksum %d; want %d, the row's own %d", ord, crc, -a, store.IndexSum(ord, data))
		}
		storetest.Exec(t, dsn, `UPDATE removals SET crc = NULL`)
		want := fmt.Sprintf("document of ordinal %d: the index part of its sketch in the removal log has no checksum", a)
		if faults, err := st.Check(t.Context()); err != nil || !slices.Equal(faults.List, []string{want}) {
			t.Errorf("check of the entry without its checksum: %q %v; want %q", faults.List, err, want)
		}
	})
}

// A failed Update writes nothing: not the rows, not the counters.
func TestUpdateRollsBack(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		boom := errors.New("boom")
		err := st.Update(t.Context(), func(w store.Writer) error {
			if _, err := w.Insert(doc("x", 0), nil); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("got %v", err)
		}
		view(t, st, func(r store.Reader) error {
			last, _, err := r.Head()
			c, _ := r.Counts()
			if last != 0 || c.Documents != 0 || err != nil {
				t.Errorf("after a failed update: head %d, %d documents, %v", last, c.Documents, err)
			}
			return nil
		})
		update(t, st, func(w store.Writer) error {
			_, err := w.Insert(doc("x", 0), nil)
			return err
		})
		err = st.Update(t.Context(), func(w store.Writer) error {
			_, err := w.Insert(doc("x", 0), nil)
			return err
		})
		if err == nil {
			t.Error("a second document of the same id was stored")
		}
	})
}

func TestOlderAndDeleteMarks(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var ords []int64
		update(t, st, func(w store.Writer) error {
			for i, date := range []int64{500, 0, 2000} { // the undated one counts from Added, 1000
				o, err := w.Insert(doc(fmt.Sprint(i), date), nil)
				if err != nil {
					return err
				}
				ords = append(ords, o)
			}
			return w.AddMarks([]store.Mark{{A: ords[0], B: ords[2], Method: "m", Label: core.Duplicate, Evidence: []byte("{}")}})
		})
		view(t, st, func(r store.Reader) error {
			got, err := r.Older(1500)
			if err != nil || !slices.Equal(got, ords[:2]) {
				t.Errorf("older than 1500: %v %v", got, err)
			}
			return nil
		})
		update(t, st, func(w store.Writer) error { return w.DeleteMarks("m") })
		view(t, st, func(r store.Reader) error {
			if c, _ := r.Counts(); len(c.Marks) != 0 {
				t.Errorf("marks left: %v", c.Marks)
			}
			return nil
		})
	})
}

// Two handles on one index: writers wait for each other and every write
// lands, with distinct ordinals.
func TestConcurrentWriters(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		a, b := open(t, dsn), open(t, dsn)
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for i, st := range []store.Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range 20 {
					if err := st.Update(t.Context(), func(w store.Writer) error {
						_, err := w.Insert(doc(fmt.Sprintf("w%d-%d", i, k), 0), &store.Sketch{Index: []byte{byte(i)}})
						return err
					}); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		view(t, a, func(r store.Reader) error {
			n := 0
			err := r.Indexes(0, func(int64, []byte) error { n++; return nil })
			last, _, _ := r.Head()
			if n != 40 || last != 40 || err != nil {
				t.Errorf("%d documents, last ordinal %d: %v", n, last, err)
			}
			return nil
		})
	})
}

func TestReadOnly(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		open(t, dsn) // create it
		ro, err := store.Open(t.Context(), dsn, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		err = ro.Update(t.Context(), func(w store.Writer) error { return nil })
		if !errors.Is(err, store.ErrReadOnly) {
			t.Errorf("a write to a read-only store: %v", err)
		}
	})
}

func TestNewerSchemaRefused(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		open(t, dsn).Close()
		driver, src := "sqlite", dsn
		if store.IsPostgres(dsn) {
			driver = "pgx"
		}
		db, err := sql.Open(driver, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("UPDATE schema_version SET version = 99"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		_, err = store.Open(t.Context(), dsn, store.Options{})
		if !errors.Is(err, store.ErrTooNew) {
			t.Errorf("opening a newer schema: %v", err)
		}
	})
}

// TestDamagedSchemaVersionRefused opens an index whose schema_version
// reads a version no index has, below 1: every open, for writing or
// reading, is refused with ErrCorrupt naming the index and the version,
// where one with -1 panicked (the migrations' index out of range) and
// one with 0 was taken for an empty store ("no index there", or the
// schema made again: "table schema_version already exists"); a SQLite
// file is left byte for byte as it was, with no log beside it.
func TestDamagedSchemaVersionRefused(t *testing.T) {
	for _, version := range []int{-1, 0} {
		t.Run(fmt.Sprint(version), func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, dsn string) {
				open(t, dsn).Close()
				storetest.Exec(t, dsn, fmt.Sprintf("UPDATE schema_version SET version = %d", version))
				var before []byte
				if !store.IsPostgres(dsn) {
					before = fileBytes(t, dsn)
				}
				for _, o := range []store.Options{{}, {Existing: true}, {ReadOnly: true}} {
					st, err := store.Open(t.Context(), dsn, o)
					if err == nil {
						st.Close()
					}
					want := fmt.Sprintf("schema version reads %d", version)
					if !errors.Is(err, store.ErrCorrupt) || !errors.As(err, new(*store.NamedError)) || !strings.Contains(fmt.Sprint(err), want) {
						t.Errorf("opening with %+v: %v, want %v naming the index and saying %q", o, err, store.ErrCorrupt, want)
					}
				}
				if store.IsPostgres(dsn) {
					return
				}
				if after := fileBytes(t, dsn); !slices.Equal(before, after) {
					t.Error("opening the index changed it")
				}
				for _, suffix := range []string{"-wal", "-shm"} {
					if _, err := os.Stat(dsn + suffix); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s%s is there: %v", filepath.Base(dsn), suffix, err)
					}
				}
			})
		})
	}
}

// TestForeignFilesRefused opens files that are not neardup indexes, for
// writing and for reading: each is refused with an error naming it, and
// stays byte for byte as it was, with no log, shared-memory or journal file
// left beside it.
func TestForeignFilesRefused(t *testing.T) {
	dir := t.TempDir()
	sqlite := func(name string, stmts ...string) string {
		path := filepath.Join(dir, name)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
	file := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	random := make([]byte, 8192)
	for i := range random {
		random[i] = byte(i*7919>>3 ^ i)
	}
	cases := map[string]string{
		"text":                              file("text.db", []byte("this is not a database file at all, just some text to fill a page")),
		"random bytes":                      file("random.db", random),
		"random bytes with a SQLite header": file("header.db", append([]byte("SQLite format 3\x00"), random[16:]...)),
		"another program's database": sqlite("other.db", `CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)`,
			`INSERT INTO invoices VALUES (1, 9.5)`),
		"another program's database in WAL mode": sqlite("wal.db", `PRAGMA journal_mode=WAL`,
			`CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)`),
		"another program's empty database": sqlite("app.db", `PRAGMA application_id = 1234`),
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				_, err := store.Open(t.Context(), path, store.Options{ReadOnly: ro})
				if !errors.Is(err, store.ErrNotIndex) || !strings.Contains(fmt.Sprint(err), path) {
					t.Errorf("read-only %v: %v, want %v naming %s", ro, err, store.ErrNotIndex, path)
				}
			}
			if after, _ := os.ReadFile(path); !slices.Equal(before, after) {
				t.Error("opening a foreign file changed it")
			}
			for _, suffix := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(path + suffix); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s%s is there: %v", filepath.Base(path), suffix, err)
				}
			}
		})
	}
	if _, err := store.Open(t.Context(), dir, store.Options{}); err == nil {
		t.Error("a directory opened as an index")
	}
}

// An empty file, or a SQLite database with nothing in it, becomes an index.
func TestEmptyFileBecomesIndex(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	blank := filepath.Join(dir, "blank.db")
	db, err := sql.Open("sqlite", blank)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (a); DROP TABLE t`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, path := range []string{empty, blank} {
		st := open(t, path)
		update(t, st, func(w store.Writer) error { return w.Init(store.Meta{Method: "minhash"}) })
	}
}

// fixtureVersions are the schema versions of the indexes kept in testdata
// as v<N>.db, each written by the store of its version (see
// TestWriteFixture): every later version must open (migrate) and read them.
// Version 1's holds two documents, a mark and a cluster; the later ones also
// texts, a skipped document and a removal; from version 8, a host's pause.
var fixtureVersions = []int{1, 4, 5, 6, 8, 9, 10, 11}

func TestFixtures(t *testing.T) {
	for _, v := range fixtureVersions {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			st := openFixture(t, v)
			view(t, st, func(r store.Reader) error {
				m, ok, err := r.Meta()
				if !ok || err != nil || m.Method != "minhash" {
					t.Errorf("meta %+v %v %v", m, ok, err)
				}
				d, err := r.Doc("fixture-2")
				if err != nil || d.Title != "Second" || d.Cluster == 0 || d.Place != 0 { // no place before version 12
					t.Errorf("doc %+v %v", d, err)
				}
				ms, err := r.MarksOf(d.Ord)
				if err != nil || len(ms) != 1 || string(ms[0].Evidence) != `{"shared":1}` && v > 1 {
					t.Errorf("marks %+v %v", ms, err)
				}
				if v == 1 {
					return nil
				}
				if d.Text != "The second text, near the first." {
					t.Errorf("text %q", d.Text)
				}
				sk, err := r.Sketch(d.Ord)
				if err != nil || !slices.Equal(sk.Index, []byte{2, 1}) || !slices.Equal(sk.Detail, []byte{2, 2, 2}) {
					t.Errorf("sketch %v %v", sk, err)
				}
				if index, err := r.IndexPart(d.Ord); err != nil || !slices.Equal(index, []byte{2, 1}) {
					t.Errorf("index part %v %v", index, err)
				}
				rs, err := r.Removals(0)
				if err != nil || len(rs) != 1 || !slices.Equal(rs[0].Index, []byte{4, 1}) {
					t.Errorf("removals %+v %v", rs, err)
				}
				n := 0
				if err := r.EachDoc(true, func(d *store.Doc) error { n++; return nil }); err != nil || n != 3 {
					t.Errorf("%d documents: %v", n, err)
				}
				want := map[string]int64{}
				if v >= 8 {
					want["paused.example"] = fixturePause
				}
				if pauses, err := r.HostPauses(0); err != nil || !maps.Equal(pauses, want) {
					t.Errorf("host pauses %v, want %v: %v", pauses, want, err)
				}
				return nil
			})
			if faults, err := st.Check(t.Context()); faults.Total > 0 || err != nil {
				t.Errorf("check: %q %v", faults.List, err)
			}
		})
	}
}

// openFixture opens a copy of testdata/v<version>.db.
func openFixture(t *testing.T, version int) store.Store {
	name := fmt.Sprintf("v%d.db", version)
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return open(t, path)
}

// TestWriteFixture writes testdata/v<N>.db, an index of the current schema
// version N, with NEARDUP_WRITE_FIXTURE=1: run it when a migration is added,
// before changing what it writes, and add N to fixtureVersions.
func TestWriteFixture(t *testing.T) {
	if os.Getenv("NEARDUP_WRITE_FIXTURE") == "" {
		t.Skip("set NEARDUP_WRITE_FIXTURE=1 to write testdata/v<N>.db")
	}
	path := filepath.Join(t.TempDir(), "fixture.db")
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	update(t, st, writeFixture)
	st.Close()
	db, _ := sql.Open("sqlite", path)
	db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	db.Exec("PRAGMA journal_mode=DELETE")
	db.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("v%d.db", store.SchemaVersion)
	if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFixture writes what TestFixtures reads.
func writeFixture(w store.Writer) error {
	if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1, StoreText: true}); err != nil {
		return err
	}
	a, err := w.Insert(&store.Doc{ID: "fixture-1", Title: "First", Added: 1, Text: "The first text."},
		&store.Sketch{Index: []byte{1, 1}, Detail: []byte{1, 1, 1}})
	if err != nil {
		return err
	}
	b, err := w.Insert(&store.Doc{ID: "fixture-2", Title: "Second", Added: 2, Text: "The second text, near the first."},
		&store.Sketch{Index: []byte{2, 1}, Detail: []byte{2, 2, 2}})
	if err != nil {
		return err
	}
	if _, err := w.Insert(&store.Doc{ID: "fixture-3", Title: "Short", Added: 3, Skip: core.SkipTooShort, Text: "Short."}, nil); err != nil {
		return err
	}
	gone, err := w.Insert(&store.Doc{ID: "fixture-4", Title: "Gone", Added: 4, Text: "Removed."},
		&store.Sketch{Index: []byte{4, 1}, Detail: []byte{4, 4}})
	if err != nil {
		return err
	}
	c, err := w.NewCluster()
	if err != nil {
		return err
	}
	if err := w.AddMarks([]store.Mark{{A: a, B: b, Method: "minhash", Score: 0.75, Label: core.Duplicate,
		Evidence: []byte(`{"shared":1}`), At: 5}}); err != nil {
		return err
	}
	if err := w.SetCluster([]int64{a, b}, c); err != nil {
		return err
	}
	if _, err = w.Remove([]int64{gone}); err != nil {
		return err
	}
	return w.PauseHost("paused.example", fixturePause, 5) // from version 8
}

// fixturePause is when the host pause of the fixtures of version 8 and
// later ends: far ahead, so that it is read whenever the test runs.
const fixturePause = 1 << 40

func TestFeedsAndExactKeys(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var id int64
		update(t, st, func(w store.Writer) error {
			var err error
			id, err = w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{"interval":"15m"}`), State: []byte(`{}`), NextPoll: 5})
			if err != nil {
				return err
			}
			if _, err := w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)}); !errors.Is(err, store.ErrExists) {
				t.Errorf("a second feed of one URL: %v", err)
			}
			if err := w.SaveItems([]store.FeedItem{{Feed: id, Item: "g1", Seen: 7, Outcome: "added", Doc: "d1"},
				{Feed: id, Item: "g2", Seen: 7, Outcome: "error", Tries: 1, Detail: "timeout"}}); err != nil {
				return err
			}
			ord, err := w.Insert(doc("d1", 0), nil)
			if err != nil {
				return err
			}
			return w.AddExact([]uint64{1 << 63, 42}, ord)
		})
		update(t, st, func(w store.Writer) error {
			f := store.Feed{ID: id, URL: "https://a.example/rss", Config: []byte(`{"interval":"1h"}`), State: []byte(`{"etag":"x"}`), NextPoll: 9}
			if err := w.SaveFeed(&f); err != nil {
				return err
			}
			return w.SaveItems([]store.FeedItem{{Feed: id, Item: "g2", Seen: 8, Outcome: "added", Doc: "d2", Lang: "en"}})
		})
		view(t, st, func(r store.Reader) error {
			fs, err := r.Feeds()
			if err != nil || len(fs) != 1 || string(fs[0].State) != `{"etag":"x"}` || fs[0].NextPoll != 9 {
				t.Errorf("feeds %+v %v", fs, err)
			}
			items, err := r.FeedItems(id, []string{"g1", "g2", "g3"})
			if err != nil || len(items) != 2 || items["g2"] != (store.FeedItem{Feed: id, Item: "g2", Seen: 8, Outcome: "added", Doc: "d2", Lang: "en"}) || items["g1"].Doc != "d1" {
				t.Errorf("items %+v %v", items, err)
			}
			recent, err := r.RecentItems(id, 5)
			if err != nil || len(recent) != 2 || recent[0].Item != "g2" || recent[1].Item != "g1" {
				t.Errorf("recent items %+v %v", recent, err)
			}
			counts, err := r.ItemCounts()
			if err != nil || len(counts) != 1 || counts[id]["added"] != 2 || len(counts[id]) != 1 {
				t.Errorf("item counts %v %v", counts, err)
			}
			ex, err := r.Exact([]uint64{1 << 63, 42, 7})
			if err != nil || len(ex) != 2 {
				t.Errorf("exact %v %v", ex, err)
			}
			return nil
		})
		update(t, st, func(w store.Writer) error {
			ids, _ := w.Lookup([]string{"d1"})
			if _, err := w.Remove([]int64{ids["d1"]}); err != nil {
				return err
			}
			return w.DeleteFeed(id)
		})
		view(t, st, func(r store.Reader) error {
			if ex, _ := r.Exact([]uint64{42}); len(ex) != 0 {
				t.Errorf("exact keys of a removed document left: %v", ex)
			}
			if fs, _ := r.Feeds(); len(fs) != 0 {
				t.Errorf("deleted feed left: %+v", fs)
			}
			return nil
		})
	})
}

// TestSavePoll pins the write-back of a poll: it changes a feed's state and
// next poll only, never its settings, which Feed reads back, and neither it
// nor SaveItems stores anything of a feed deleted meanwhile.
func TestSavePoll(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var id int64
		update(t, st, func(w store.Writer) error {
			var err error
			id, err = w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{"interval":"15m"}`), State: []byte(`{}`)})
			if err != nil {
				return err
			}
			return w.SaveFeed(&store.Feed{ID: id, URL: "https://a.example/rss", Config: []byte(`{"interval":"2h"}`), State: []byte(`{}`)})
		})
		update(t, st, func(w store.Writer) error { return w.SavePoll(id, []byte(`{"polls":1}`), 99) })
		view(t, st, func(r store.Reader) error {
			fs, err := r.Feeds()
			want := store.Feed{ID: id, URL: "https://a.example/rss", Config: []byte(`{"interval":"2h"}`), State: []byte(`{"polls":1}`), NextPoll: 99}
			if err != nil || len(fs) != 1 || fmt.Sprint(fs[0]) != fmt.Sprint(want) {
				t.Errorf("feeds %+v %v, want %+v", fs, err, want)
			}
			if f, err := r.Feed(id); err != nil || fmt.Sprint(f) != fmt.Sprint(want) {
				t.Errorf("feed %d: %+v %v, want %+v", id, f, err, want)
			}
			return err
		})
		update(t, st, func(w store.Writer) error { return w.DeleteFeed(id) })
		view(t, st, func(r store.Reader) error {
			if _, err := r.Feed(id); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Feed of a deleted feed: %v, want ErrNotFound", err)
			}
			return nil
		})
		err := st.Update(t.Context(), func(w store.Writer) error { return w.SavePoll(id, []byte(`{}`), 1) })
		if !errors.Is(err, store.ErrFeedGone) || !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SavePoll of a deleted feed: %v, want ErrFeedGone, an ErrNotFound", err)
		}
		err = st.Update(t.Context(), func(w store.Writer) error {
			return w.SaveItems([]store.FeedItem{{Feed: id, Item: "g1", Outcome: "added"}})
		})
		if !errors.Is(err, store.ErrFeedGone) || !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SaveItems of a deleted feed: %v, want ErrFeedGone, an ErrNotFound", err)
		}
		view(t, st, func(r store.Reader) error {
			counts, err := r.ItemCounts()
			if len(counts) != 0 {
				t.Errorf("items of a deleted feed stored: %v", counts)
			}
			return err
		})
	})
}

// An empty DSN is refused: for SQLite it would open a temporary database
// that vanishes with the connection, and every read would find no index.
func TestOpenEmptyDSN(t *testing.T) {
	if st, err := store.Open(t.Context(), "", store.Options{}); err == nil {
		st.Close()
		t.Fatal("Open(\"\"): no error")
	}
}

// TestRedacted: a PostgreSQL URL is shown without its password; a SQLite
// path as it is.
func TestRedacted(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ann:s3cret@db.example:5432/news?sslmode=disable": "postgres://ann:xxxxx@db.example:5432/news?sslmode=disable",
		"postgresql://ann@db.example/news":                           "postgresql://ann@db.example/news",
		"news.db":                                                    "news.db",
		// Regression: a password given as a parameter was shown.
		"postgres://db.example/news?user=ann&password=s3cret": "postgres://db.example/news?user=ann&password=xxxxx",
		"postgres://db.example/news?sslpassword=s3cret":       "postgres://db.example/news?sslpassword=xxxxx",
		// Regressions: read as net/url reads it, not as the driver does,
		// a password's tail after a "#" or "?" was shown.
		"postgres://ann:1234#s3cret@db.example/news":  "postgres://ann:xxxxx@db.example/news",
		"postgres://ann:p?s3cret@db.example/news":     "postgres://(a URL that cannot be read)",
		"postgres://db.example?password=p@s3cret&a=b": "postgres://(a URL that cannot be read)",
		"postgres:/ann:s3cret@db.example/news":        "postgres://(a URL that cannot be read)",
	} {
		if got := store.Redacted(in); got != want || strings.Contains(got, "s3cret") {
			t.Errorf("Redacted(%q) = %q, want %q", in, got, want)
		}
	}
}

// A transaction whose context is cancelled while it runs fails with the
// context's error: database/sql closes the transaction, and the statements
// prepared in it, as soon as the context is done, and a statement used again
// after that failed with "sql: statement is closed", which a caller cannot
// tell from a fault of the index.
func TestCancelledMidTransactionSaysSo(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			_, err := w.Insert(doc("x", 500), nil)
			return err
		})
		for name, run := range map[string]func(ctx context.Context, fn func(r store.Reader) error) error{
			"update": func(ctx context.Context, fn func(r store.Reader) error) error {
				return st.Update(ctx, func(w store.Writer) error { return fn(w) })
			},
			"view": st.View,
		} {
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				err := run(ctx, func(r store.Reader) error {
					if _, err := r.Older(1000); err != nil { // prepares the statement
						return err
					}
					cancel()
					time.Sleep(50 * time.Millisecond) // database/sql closes the transaction meanwhile
					_, err := r.Older(1000)
					return err
				})
				if !errors.Is(err, context.Canceled) {
					t.Errorf("got %v, want an error wrapping context.Canceled", err)
				}
			})
		}
	})
}

// SQLite's names of a database that is no plain path are refused, saying
// so: ":memory:" opened a database of its own on each connection, so that
// the schema made on one was missing on the next ("SQL logic error: no
// such table: meta"), and a "file:" URI was taken for a path in a
// directory named "file:".
func TestOpenSQLiteNamesRefused(t *testing.T) {
	for _, dsn := range []string{":memory:", "file::memory:", "file:" + filepath.Join(t.TempDir(), "index.db") + "?mode=rwc"} {
		st, err := store.Open(t.Context(), dsn, store.Options{})
		if err == nil {
			st.Close()
			t.Errorf("Open(%q): no error", dsn)
			continue
		}
		if !strings.Contains(err.Error(), "path of a file") {
			t.Errorf("Open(%q): %v, want an error asking for the path of a file", dsn, err)
		}
	}
}
