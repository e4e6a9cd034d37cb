package neardup_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
)

// TestIndexAPI runs every method of the public Index once, as a Go program
// using the package would: what each returns, and what the index holds
// after it.
// An index takes Options.Link with its first document and keeps it: opening it
// again with another policy is an error, with none it links as created.
func TestOpenLink(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{Link: "majority"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Add(t.Context(), neardup.Document{ID: "a", Text: "A story about the local harbour, long enough to compare."}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	if y, err := neardup.Open(t.Context(), db, neardup.Options{Link: "any"}); err == nil || !strings.Contains(err.Error(), "links by majority") {
		t.Errorf("reopened with any: %v, want an error naming majority", err)
		if err == nil {
			y.Close()
		}
	}
	if _, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "y.db"), neardup.Options{Link: "bogus"}); err == nil {
		t.Error("Link bogus: no error")
	}
	y, err := neardup.Open(t.Context(), db, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	y.Close()
}

func TestIndexAPI(t *testing.T) {
	ctx := t.Context()
	if got := neardup.Methods(); len(got) == 0 || got[0] != minhash.Name || !slices.Contains(got, sentences.Name) {
		t.Errorf("Methods() = %v, want minhash first and sentences among them", got)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	opts := sentences.Defaults()
	x, err := neardup.Open(ctx, db, neardup.Options{Method: opts, StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	name, stored, err := x.Method()
	if err != nil || name != sentences.Name || !reflect.DeepEqual(stored, opts) {
		t.Errorf("Method() = %q, %+v, %v; want sentences with its defaults", name, stored, err)
	}

	day := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	other := "Heavy rain flooded several streets in the old town overnight, the fire brigade said on Monday."
	ms, err := x.Add(ctx,
		neardup.Document{ID: "a", Text: story, Date: day},
		neardup.Document{ID: "b", Text: "NORTHPORT (Wire) - " + story, Date: day.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Status != neardup.Added || len(ms[1].Pairs) != 1 || ms[1].Pairs[0].A != "a" || ms[1].Pairs[0].Label != neardup.Duplicate {
		t.Fatalf("Add: %+v, want b a duplicate of a", ms)
	}
	if n := x.Len(); n != 2 {
		t.Errorf("Len() = %d after two documents added, want 2", n)
	}

	ms, err = x.Query(ctx, neardup.Document{ID: "q", Text: story})
	if err != nil || len(ms) != 1 || ms[0].Status != neardup.Checked || len(ms[0].Pairs) != 2 {
		t.Errorf("Query: %+v, %v; want q checked against a and b", ms, err)
	}

	// A field no index can store is an error naming it, and nothing of the
	// call is stored.
	if _, err := x.Add(ctx, neardup.Document{ID: "c", Text: other}, neardup.Document{ID: "d", Text: "a\x00b"}); err == nil ||
		!strings.Contains(err.Error(), `document 2 (id "d"): the text holds a NUL character`) {
		t.Errorf("Add of a NUL: %v", err)
	}
	// So is an id the HTTP API could not name.
	for _, c := range []struct{ id, why string }{
		{strings.Repeat("i", 513), "the id is longer than 512 bytes"},
		{"a\x01b", "the id holds a control character"},
		{" ", "the id is blank"},
	} {
		var ue *neardup.UnstorableError
		if _, err := x.Add(ctx, neardup.Document{ID: c.id, Text: other}); !errors.As(err, &ue) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("Add of id %.20q: %v, want %q", c.id, err, c.why)
		}
	}
	if ms, err := x.Query(ctx, neardup.Document{ID: "q", Text: other}); err != nil || len(ms) != 1 || len(ms[0].Pairs) != 0 {
		t.Errorf("after the refused Add, other matches %+v, %v; want nothing stored", ms, err)
	}

	ms, err = x.Replace(ctx, neardup.Document{ID: "b", Text: other, Date: day})
	if err != nil || len(ms) != 1 || ms[0].Status != neardup.Replaced || len(ms[0].Pairs) != 0 {
		t.Errorf("Replace: %+v, %v; want b replaced, matching nothing", ms, err)
	}

	// A copy published a month later pairs with a, unless a window of a
	// day keeps them apart.
	late := neardup.Document{ID: "late", Text: story, Date: day.AddDate(0, 1, 0)}
	x.SetWindow(24 * time.Hour)
	if ms, err = x.Query(ctx, late); err != nil || len(ms[0].Pairs) != 0 {
		t.Errorf("Query with a window of a day: %+v, %v; want no pair", ms, err)
	}
	x.SetWindow(0)
	if ms, err = x.Add(ctx, late); err != nil || len(ms[0].Pairs) != 1 || ms[0].Pairs[0].A != "a" {
		t.Errorf("Add without a window: %+v, %v; want late paired with a", ms, err)
	}

	if faults, err := x.Verify(ctx, nil); err != nil || faults.Total != 0 {
		t.Errorf("Verify: %v, %v", faults, err)
	}
	if _, err := x.Rescore(ctx, nil); err != nil {
		t.Errorf("Rescore: %v", err)
	}
	st, err := x.Stats(ctx)
	if err != nil || st.Documents != 3 || st.Clusters != 1 || st.Marks[neardup.Duplicate] != 1 || !st.StoreText {
		t.Errorf("Stats: %+v, %v; want 3 documents, 1 cluster, 1 duplicate mark, texts stored", st, err)
	}

	out := filepath.Join(dir, "out")
	if err := x.Export(ctx, out); err != nil {
		t.Fatal(err)
	}
	pairs, err := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
	if err != nil || strings.Count(string(pairs), "\n") != 1 || !strings.Contains(string(pairs), `"late"`) {
		t.Errorf("exported pairs.jsonl: %q, %v; want the one pair a~late", pairs, err)
	}

	removed, err := x.Remove(ctx, "late", "nope")
	if err != nil || !reflect.DeepEqual(removed, []string{"late"}) {
		t.Errorf("Remove(late, nope) = %v, %v; want [late]", removed, err)
	}
	// a is dated before the second day; b (replaced) is dated the first
	// day too.
	n, err := x.Expire(ctx, day.AddDate(0, 0, 1))
	if err != nil || n != 2 {
		t.Errorf("Expire: %d, %v; want 2", n, err)
	}
	if st, err := x.Stats(ctx); err != nil || st.Documents != 0 || st.Clusters != 0 {
		t.Errorf("Stats after Remove and Expire: %+v, %v; want nothing left", st, err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}

	// The method is fixed when the index is created.
	if y, err := neardup.Open(ctx, db, neardup.Options{Method: minhash.Defaults()}); err == nil {
		y.Close()
		t.Error("opening a sentences index as minhash succeeded")
	}
}

// TestOpenExistingCreatesNothing: Open with Existing refuses a missing
// SQLite file without making one.
func TestOpenExistingCreatesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	if _, err := neardup.Open(t.Context(), path, neardup.Options{Existing: true}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(Existing) of a missing file: %v, want os.ErrNotExist", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(Existing) left a file behind: %v", err)
	}
}

// TestVerifyAfterSearch: Verify after a search and then adds finds the
// index sound. SQLite's integrity check of a full-text index uses the
// index's structure as the connection last read it: a connection of the
// pool that had searched before the adds reported a fault
// ("fts5: checksum mismatch", "corruption found reading blob") in a sound
// file, which `neardup index verify`, opening it afresh, found sound.
func TestVerifyAfterSearch(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "news.db"), neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	add := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			doc := neardup.Document{ID: fmt.Sprintf("d%d", i), Title: fmt.Sprintf("T %d", i%7), Text: fmt.Sprintf("Report %d. ", i) + story}
			if _, err := x.Add(ctx, doc); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(0, 20)
	if res, err := x.Search(ctx, "harbour", neardup.Page{}); err != nil || res.Total != 20 {
		t.Fatalf("Search: %d found, %v; want 20", res.Total, err)
	}
	add(20, 60)
	for range 2 {
		if f, err := x.Verify(ctx, nil); err != nil || f.Total != 0 {
			t.Fatalf("Verify: %v, %v; want no faults", f, err)
		}
	}
}

// TestFailedAddReturnsNoMatches: an add that fails stores nothing and
// returns no matches. It returned one Match a document, each "added", with
// the error (a feed write of AddOptions.Then that failed, a sketch of
// another index), and the error of a document without an origin began
// ": engine: ..." instead of naming it. A sketch made for another document
// was stored as the given document's (its copies found with score 1), and
// a query with one answered for the other document.
func TestFailedAddReturnsNoMatches(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	x, err := neardup.Open(ctx, filepath.Join(dir, "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	y, err := neardup.Open(ctx, filepath.Join(dir, "y.db"), neardup.Options{Method: sentences.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	doc := neardup.Document{ID: "d1", Text: story}
	other := neardup.Document{ID: "d2", Text: "Markets rallied in Asia as oil slipped back and bonds gained after the central bank held rates steady."}
	feedsDown := errors.New("feeds down")
	for _, tc := range []struct {
		name    string
		sks     []neardup.Sketch
		o       neardup.AddOptions
		wantErr string
	}{
		{name: "Then fails", o: neardup.AddOptions{Then: func(neardup.FeedWriter, []neardup.Match) error { return feedsDown }},
			wantErr: "feeds down"},
		{name: "sketch of another index", sks: []neardup.Sketch{y.NewSketcher().Sketch(&doc)},
			wantErr: `document 1 (id "d1"): engine: a sketch made by another index (sentences) given to the minhash index`},
		{name: "sketch of another document", sks: []neardup.Sketch{x.NewSketcher().Sketch(&other)},
			wantErr: `document 1 (id "d1"): index: a sketch made for another document`},
		{name: "query with a sketch of another document", sks: []neardup.Sketch{x.NewSketcher().Sketch(&other)},
			o: neardup.AddOptions{Query: true}, wantErr: `document 1 (id "d1"): index: a sketch made for another document`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := x.AddSketched(ctx, []neardup.Document{doc}, tc.sks, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one holding %q", err, tc.wantErr)
			}
			if ms != nil {
				t.Errorf("matches %+v with the error, want none", ms)
			}
			if _, err := x.Document(ctx, doc.ID); !errors.Is(err, neardup.ErrNotFound) {
				t.Errorf("Document after the failed add: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestUseAfterClose: every call on an Index after its Close is ErrClosed,
// whether or not it would read the store (a text that shares nothing with
// what is stored); it was database/sql's own error, which no one can test
// for.
func TestUseAfterClose(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "news.db"), neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Add(ctx, neardup.Document{ID: "d1", Text: story}); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	other := neardup.Document{ID: "d9", Text: "Nothing here is like the stored story: a recipe for bread, flour and water and salt and time."}
	calls := map[string]func() error{
		"Add":            func() error { _, err := x.Add(ctx, neardup.Document{ID: "d2", Text: story}); return err },
		"Query":          func() error { _, err := x.Query(ctx, neardup.Document{ID: "d3", Text: story}); return err },
		"Query of other": func() error { _, err := x.Query(ctx, other); return err },
		"Document":       func() error { _, err := x.Document(ctx, "d1"); return err },
		"Stats":          func() error { _, err := x.Stats(ctx); return err },
		"RecentStats":    func() error { _, err := x.RecentStats(ctx); return err },
		"Search":         func() error { _, err := x.Search(ctx, "harbour", neardup.Page{}); return err },
		"Remove":         func() error { _, err := x.Remove(ctx, "d1"); return err },
		"Verify":         func() error { _, err := x.Verify(ctx, nil); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, neardup.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if err := x.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestRescoreStatsAsDedup is the regression test of the statistics
// Rescore returns: they counted a document too short to compare as kept,
// and no record read. They are now Dedup's on the same documents.
func TestRescoreStatsAsDedup(t *testing.T) {
	ctx := t.Context()
	docs := []neardup.Document{{ID: "a", Text: story}, {ID: "b", Text: "WIRE - " + story}, {ID: "short", Text: "Too short."}}
	res, err := neardup.Dedup(ctx, docs, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.Add(ctx, docs...); err != nil {
		t.Fatal(err)
	}
	st, err := x.Rescore(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := res.Stats
	if st.Kept != 1 || st.Read != 3 || st.Kept != want.Kept || st.Read != want.Read || st.Documents != want.Documents ||
		!reflect.DeepEqual(st.Skipped, want.Skipped) || st.Clusters != want.Clusters {
		t.Errorf("Rescore's stats: read %d, documents %d, skipped %v, clusters %d, kept %d; want Dedup's: %d, %d, %v, %d, %d",
			st.Read, st.Documents, st.Skipped, st.Clusters, st.Kept, want.Read, want.Documents, want.Skipped, want.Clusters, want.Kept)
	}
}

// TestOpenErrorsSayWhatIsWrong is the regression test of two errors of
// Open: a Sync that is neither full nor normal did not name the option,
// and a file that is no index said "store:" twice ("store: x.db: store:
// not a neardup index").
func TestOpenErrorsSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	if _, err := neardup.Open(t.Context(), filepath.Join(dir, "a.db"), neardup.Options{Sync: "bogus"}); err == nil ||
		!strings.Contains(err.Error(), `Options.Sync "bogus"`) {
		t.Errorf("Sync bogus: %v, want an error naming Options.Sync", err)
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("junk junk junk, no database"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := neardup.Open(t.Context(), junk, neardup.Options{})
	if err == nil || strings.Count(err.Error(), "store:") != 1 || !strings.Contains(err.Error(), "junk.db: not a neardup index") {
		t.Errorf("a file of junk: %v, want one \"store:\" and the file named", err)
	}
}

// A wait for another process's writer lock longer than the engines take
// (2^31-1 ms, 24 days) waits that long: a month failed every PostgreSQL
// write (invalid value for parameter "lock_timeout"). A negative one is
// refused.
func TestLockWaitLongest(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x, err := neardup.Open(t.Context(), storetest.DSN(t, e), neardup.Options{LockWait: 30 * 24 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			doc := neardup.Document{ID: "a", Text: "The harbour authority said on Monday that the new quay would open in spring."}
			if _, err := x.Add(t.Context(), doc); err != nil {
				t.Errorf("an add waiting a month at most: %v", err)
			}
		})
	}
	if _, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), neardup.Options{LockWait: -time.Second}); err == nil || !strings.Contains(err.Error(), "LockWait") {
		t.Errorf("a negative wait: %v", err)
	}
}

// TestAddWithoutSourcesRefused: an add to a rarewords index (made without
// SameSource) after which no document it holds has a source is refused
// with a *rarewords.SourceError, as Dedup refuses such a batch, and stores
// nothing; once a document with a source (its own, or its URL's host) is
// stored, documents without one are added and compared with it.
// Regression: such an add stored the documents and found no pair, ever,
// without a word.
func TestAddWithoutSourcesRefused(t *testing.T) {
	text := strings.Join(vocab[:250], " ")
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ctx := t.Context()
			x, err := neardup.Open(ctx, storetest.DSN(t, e), neardup.Options{Method: rarewords.Defaults()})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			var se *rarewords.SourceError
			for _, docs := range [][]neardup.Document{
				{{ID: "a", Text: text}, {ID: "b", Text: text}},
				{{ID: "a", Text: text}},
			} {
				ms, err := x.Add(ctx, docs...)
				if !errors.As(err, &se) || se.Source != "" || ms != nil || x.Len() != 0 {
					t.Fatalf("add of %d documents without a source: %v, %d stored; want a *rarewords.SourceError, none stored", len(docs), err, x.Len())
				}
			}
			if ms, err := x.Add(ctx, neardup.Document{ID: "skipped", Text: "too short"}); err != nil || ms[0].Skip == "" {
				t.Errorf("add of a document not compared: %+v, %v; want it skipped, no error", ms, err)
			}
			if _, err := x.Add(ctx, neardup.Document{ID: "w", URL: "https://www.wire.example/a", Text: text}); err != nil {
				t.Fatalf("add of a document with a URL's host: %v", err)
			}
			ms, err := x.Add(ctx, neardup.Document{ID: "a", Text: text}, neardup.Document{ID: "b", Text: text})
			if err != nil || len(ms[0].Pairs) != 1 || ms[0].Pairs[0].A != "w" {
				t.Errorf("add without sources beside one with a source: %+v, %v; want a paired with w", ms, err)
			}

			same := rarewords.Defaults()
			same.SameSource = true
			y, err := neardup.Open(ctx, storetest.DSN(t, e), neardup.Options{Method: same})
			if err != nil {
				t.Fatal(err)
			}
			defer y.Close()
			if _, err := y.Add(ctx, neardup.Document{ID: "a", Text: text}, neardup.Document{ID: "b", Text: text}); err != nil {
				t.Errorf("add without sources to an index of SameSource: %v", err)
			}
		})
	}
}

// TestOpenRefusedCreatesNothing: Open of a new SQLite index with options
// it refuses (a minhash threshold of 0, a nil *minhash.Options, given or
// made by Configure) returns the error and leaves no file, so that a later
// Open with other options creates the index. Regression: an empty file
// with no tables was left, which every later Open refused ("no index
// there: it holds none of neardup's tables"); nil options panicked inside
// Open, leaving the file with its -wal and -shm.
func TestOpenRefusedCreatesNothing(t *testing.T) {
	zero := minhash.Defaults()
	zero.Threshold = 0
	for _, tc := range []struct {
		name string
		o    neardup.Options
		want string
	}{
		{"threshold 0", neardup.Options{Method: zero}, "threshold"},
		{"nil options", neardup.Options{Method: (*minhash.Options)(nil)}, "nil"},
		{"nil options made", neardup.Options{Configure: func(neardup.MethodOptions) (neardup.MethodOptions, error) {
			return (*minhash.Options)(nil), nil
		}}, "nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "x.db")
			x, err := func() (x *neardup.Index, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return neardup.Open(t.Context(), db, tc.o)
			}()
			if err == nil {
				x.Close()
				t.Fatal("Open: no error")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.HasPrefix(err.Error(), "panic") {
				t.Errorf("Open: %v; want an error about %s", err, tc.want)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("files left: %v", left)
			}
			if _, err := neardup.Open(t.Context(), db, neardup.Options{Existing: true}); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Open of the existing index after: %v; want fs.ErrNotExist", err)
			}
			x, err = neardup.Open(t.Context(), db, neardup.Options{})
			if err != nil {
				t.Fatalf("Open with the defaults after: %v", err)
			}
			x.Close()
		})
	}
}

// TestWritableAfterClose: once the index is closed, Writable returns the
// error its writes return, ErrClosed. Regression: it returned nil, as if an
// add could succeed.
func TestWritableAfterClose(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x, err := neardup.Open(t.Context(), storetest.DSN(t, e), neardup.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Writable(); err != nil {
				t.Fatalf("Writable of the open index: %v", err)
			}
			if err := x.Close(); err != nil {
				t.Fatal(err)
			}
			_, addErr := x.Add(t.Context(), neardup.Document{ID: "a", Text: "A story about the local harbour, long enough to compare."})
			if err := x.Writable(); !errors.Is(err, neardup.ErrClosed) || !errors.Is(addErr, neardup.ErrClosed) {
				t.Errorf("after Close: Writable %v, Add %v; want both ErrClosed", err, addErr)
			}
		})
	}
}

// TestOpenStoreTextOfAnIndexWithout: StoreText asked of an existing index
// created without texts is an error that says what to do; StoreTextIfNew
// opens it as it is. Regression: the error ended "it cannot start",
// naming neither the option nor a way out.
func TestOpenStoreTextOfAnIndexWithout(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Add(t.Context(), neardup.Document{ID: "a", Text: "A story about the local harbour, long enough to compare."}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	_, err = neardup.Open(t.Context(), db, neardup.Options{StoreText: true})
	for _, want := range []string{"x.db: the index was created without storing texts", "open it without StoreText",
		"StoreTextIfNew", "add the documents to a new index"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open with StoreText: %v; want an error saying %q", err, want)
		}
	}
	x, err = neardup.Open(t.Context(), db, neardup.Options{StoreTextIfNew: true})
	if err != nil {
		t.Fatalf("Open with StoreTextIfNew: %v", err)
	}
	defer x.Close()
	if x.StoresText() {
		t.Error("the index stores texts after StoreTextIfNew; want its own choice, none")
	}
}
