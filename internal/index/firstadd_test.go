package index_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
)

// storedSettings returns the settings the store at dsn holds (ok false:
// none), and the IDs of its documents by whether their texts are stored,
// read through a fresh handle.
func storedSettings(t *testing.T, dsn string) (m store.Meta, ok bool, withText, without []string) {
	t.Helper()
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.View(t.Context(), func(r store.Reader) (err error) {
		if m, ok, err = r.Meta(); err != nil {
			return err
		}
		return r.EachDoc(true, func(d *store.Doc) error {
			if d.Text != "" {
				withText = append(withText, d.ID)
			} else {
				without = append(without, d.ID)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, ok, withText, without
}

// docsOf returns n documents whose IDs start with prefix.
func docsOf(g *enginetest.TextGen, prefix string, n int) []core.Document {
	var docs []core.Document
	for i := range n {
		docs = append(docs, enginetest.Doc(fmt.Sprint(prefix, i), g.Sentences(10)))
	}
	return docs
}

// TestFailedFirstAddLeavesTheIndexUnbound: a new index's settings are stored
// in the transaction of its first documents, so that a first add that
// stores none (it fails and rolls back, or every document is empty) leaves
// an index bound to no method or options, which an add with others then
// fills. Regression: the settings were stored when the first add opened the
// index, and a rerun with a corrected --method or threshold after a first
// add that failed (every line malformed, interrupted) was refused as if the
// index held documents made with the first options.
func TestFailedFirstAddLeavesTheIndexUnbound(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			g := enginetest.NewTextGen(41)
			x := open(t, dsn, index.OpenOptions{Method: minhash.Defaults(), StoreText: true})
			failed := errors.New("the add fails after its documents")
			_, err := x.Add(t.Context(), docsOf(g, "m", 3), index.AddOptions{Then: func(store.FeedWriter, []index.Match) error { return failed }})
			if !errors.Is(err, failed) {
				t.Fatalf("add: %v, want %v", err, failed)
			}
			if ms := add(t, x, core.Document{ID: "empty"}); ms[0].Status != index.Skipped {
				t.Fatalf("an empty document: %+v", ms)
			}
			if m, ok, docs, _ := storedSettings(t, dsn); ok || len(docs) > 0 {
				t.Fatalf("after a first add that stored nothing the index holds settings %+v (%v) and documents %v, want none", m, ok, docs)
			}
			// Another process adds with other options: accepted, as to a
			// new index.
			other := sentences.Defaults()
			other.Threshold = 0.7
			y := open(t, dsn, index.OpenOptions{Method: other})
			add(t, y, docsOf(g, "s", 3)...)
			m, ok, withText, without := storedSettings(t, dsn)
			if !ok || m.Method != sentences.Name || !strings.Contains(m.Options, `"threshold":0.7`) || m.StoreText {
				t.Errorf("settings stored by the add with other options: %+v (%v), want sentences of threshold 0.7, no texts", m, ok)
			}
			if len(withText) != 0 || len(without) != 3 {
				t.Errorf("documents stored with texts %v, without %v; want s0..s2 without", withText, without)
			}
			// The first Index, opened when the index held none, is now
			// refused with Open's error, and stores nothing.
			_, err = x.Add(t.Context(), docsOf(g, "m", 3), index.AddOptions{})
			if err == nil || !strings.Contains(err.Error(), "the index uses method sentences, not minhash") {
				t.Errorf("an add with the first options once others are stored: %v, want a refusal", err)
			}
			if _, _, withText, without := storedSettings(t, dsn); len(withText)+len(without) != 3 {
				t.Errorf("documents stored: %v %v, want s0..s2", withText, without)
			}
			// The same Index adds again after a failed first add, storing
			// its settings then.
			dsn2 := storetest.DSN(t, e)
			z := open(t, dsn2, index.OpenOptions{Method: minhash.Defaults()})
			if _, err := z.Add(t.Context(), docsOf(g, "m", 2), index.AddOptions{Then: func(store.FeedWriter, []index.Match) error { return failed }}); !errors.Is(err, failed) {
				t.Fatalf("add: %v, want %v", err, failed)
			}
			add(t, z, docsOf(g, "m", 2)...)
			add(t, z, docsOf(g, "n", 2)...)
			if m, ok, withText, without := storedSettings(t, dsn2); !ok || m.Method != minhash.Name || len(withText)+len(without) != 4 {
				t.Errorf("the add after a failed one stored settings %+v (%v) and %d documents, want minhash and 4", m, ok, len(withText)+len(without))
			}
			if faults, err := z.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify: %v %v", faults, err)
			}
		})
	}
}

// TestConcurrentFirstAdds: two writers that opened a new index, neither
// having stored its settings, add at the same time. With the same options
// both store every document; with the texts asked of a new index alone
// (StoreTextIfNew) both store every document as the first to commit chose;
// with other methods, the first to commit stores its documents and
// settings, and the other is refused with Open's error, storing nothing.
// Nothing is deleted and nothing lost. Regression guard for binding the
// settings to the first documents: a first add that stored nothing once
// left them bound, and a fix that deleted such a file lost a concurrent
// writer's documents.
func TestConcurrentFirstAdds(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			rounds := 6
			if testing.Short() {
				rounds = 2
			}
			for _, tc := range []struct {
				name string
				a, b index.OpenOptions
				// refused is set when one of the two must be refused.
				refused bool
			}{
				{"same options", index.OpenOptions{StoreText: true}, index.OpenOptions{StoreText: true}, false},
				{"texts if new", index.OpenOptions{}, index.OpenOptions{StoreTextIfNew: true}, false},
				{"other method", index.OpenOptions{MethodName: minhash.Name}, index.OpenOptions{MethodName: sentences.Name}, true},
			} {
				t.Run(tc.name, func(t *testing.T) {
					for round := range rounds {
						firstAddsRace(t, storetest.DSN(t, e), tc.a, tc.b, tc.refused, uint64(round))
					}
				})
			}
		})
	}
}

// firstAddsRace runs one round of TestConcurrentFirstAdds on the new store
// at dsn.
func firstAddsRace(t *testing.T, dsn string, oa, ob index.OpenOptions, refused bool, seed uint64) {
	t.Helper()
	g := enginetest.NewTextGen(60 + seed)
	xs := []*index.Index{open(t, dsn, oa), open(t, dsn, ob)}
	docs := [][]core.Document{docsOf(g, "a", 12), docsOf(g, "b", 12)}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := 0; lo < len(docs[i]) && errs[i] == nil; lo += 4 {
				_, errs[i] = xs[i].Add(t.Context(), docs[i][lo:lo+4], index.AddOptions{})
			}
		}()
	}
	wg.Wait()
	m, ok, withText, without := storedSettings(t, dsn)
	stored := len(withText) + len(without)
	if !ok {
		t.Fatalf("round %d: no settings stored", seed)
	}
	if !refused {
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: adds of one index's options: %v, %v", seed, errs[0], errs[1])
		}
		if stored != 24 {
			t.Errorf("round %d: %d documents stored, want 24", seed, stored)
		}
		if m.StoreText && len(without) > 0 || !m.StoreText && len(withText) > 0 {
			t.Errorf("round %d: the index stores texts: %v, and holds documents with texts %v, without %v", seed, m.StoreText, withText, without)
		}
		for i, x := range xs {
			if got := x.Meta(); got.StoreText != m.StoreText || got.Created != m.Created {
				t.Errorf("round %d: writer %d holds settings %+v, the store %+v", seed, i, got, m)
			}
		}
	} else {
		won := 0
		if errs[0] != nil {
			won = 1
		}
		lost := 1 - won
		if errs[won] != nil || errs[lost] == nil || !strings.Contains(errs[lost].Error(), "its method is fixed when it is created") {
			t.Fatalf("round %d: adds of two methods: %v, %v; want one refused as Open refuses it", seed, errs[0], errs[1])
		}
		if want := xs[won].Meta().Method; m.Method != want || stored != 12 {
			t.Errorf("round %d: the index holds method %s and %d documents, want %s and the 12 of its writer", seed, m.Method, stored, want)
		}
	}
	for _, x := range xs {
		x.Close()
	}
	x := open(t, dsn, index.OpenOptions{Existing: true})
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("round %d: verify: %v %v", seed, faults, err)
	}
}

// TestBindOnOpen: an Index opened with BindOnOpen on a new index (a server
// or a watcher that runs long) stores its settings as it opens, so that
// another handle asking for another method is refused when it opens, and
// the first goes on adding. Regression: the settings waited for the first
// add, and a server that opened a new index had each of its adds refused
// once another process stored a document of another method.
func TestBindOnOpen(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreTextIfNew: true, BindOnOpen: true})
			if m, ok, _, _ := storedSettings(t, dsn); !ok || m.Method != specs[0].Name || !m.StoreText {
				t.Fatalf("after an open with BindOnOpen the store holds settings %+v (%v), want %s storing texts", m, ok, specs[0].Name)
			}
			_, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, index.OpenOptions{Method: sentences.Defaults()})
			if err == nil || !strings.Contains(err.Error(), "its method is fixed when it is created") {
				t.Errorf("another method opened beside it: %v, want refused", err)
			}
			same := open(t, dsn, index.OpenOptions{BindOnOpen: true}) // a second server: the stored settings
			g := enginetest.NewTextGen(43)
			add(t, same, docsOf(g, "s", 2)...)
			add(t, x, docsOf(g, "x", 2)...)
			if _, _, docs, _ := storedSettings(t, dsn); len(docs) != 4 {
				t.Errorf("stored %v, want 4 documents", docs)
			}
		})
	}
}

// TestExistingEmptyIndexRefusesSettingsStoredSince: an Index opened with
// Existing on a store that holds nothing (a first add that stored nothing
// left it) chose no method; once another handle's first add stores
// documents of a method, its queries, adds and pings are refused with
// ErrSettingsChanged, saying to open it again, which reads them.
// Regressions: it loaded the other method's sketches as its own and failed
// with "corrupt data"; its pings answered nil and its adds ErrNoSettings,
// saying to open it without Existing, which would not have helped.
func TestExistingEmptyIndexRefusesSettingsStoredSince(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			st, err := store.Open(t.Context(), dsn, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			r := open(t, dsn, index.OpenOptions{Existing: true})
			g := enginetest.NewTextGen(47)
			if _, err := r.Add(t.Context(), docsOf(g, "r", 1), index.AddOptions{}); !errors.Is(err, index.ErrNoSettings) {
				t.Errorf("add to the empty index opened Existing: %v, want ErrNoSettings", err)
			}
			if err := r.Ping(t.Context()); err != nil {
				t.Errorf("ping of the empty index opened Existing: %v", err)
			}
			docs := docsOf(g, "s", 3)
			add(t, open(t, dsn, index.OpenOptions{Method: sentences.Defaults()}), docs...)
			if _, err := r.Query(t.Context(), docs[:1]); !errors.Is(err, index.ErrSettingsChanged) {
				t.Errorf("query after another's first add: %v, want ErrSettingsChanged", err)
			}
			if err := r.Ping(t.Context()); !errors.Is(err, index.ErrSettingsChanged) {
				t.Errorf("ping after another's first add: %v, want ErrSettingsChanged", err)
			}
			if _, err := r.Add(t.Context(), docsOf(g, "t", 1), index.AddOptions{}); !errors.Is(err, index.ErrSettingsChanged) {
				t.Errorf("add after another's first add: %v, want ErrSettingsChanged", err)
			}
			again := open(t, dsn, index.OpenOptions{Existing: true})
			if ms, err := again.Query(t.Context(), docs[:1]); err != nil || ms[0].Status != index.Exists {
				t.Errorf("query opened again: %+v, %v", ms, err)
			}
		})
	}
}

// TestSettingsStoredSinceRefusedOnce: an Index whose store another
// process's first add gave settings it cannot add with since it opened
// (one opened Existing on a store that held nothing; one of another method
// opened on a new store) refuses its queries and adds with
// ErrSettingsChanged, the reason said once. Regressions: a query repeated
// the whole message after "rebuilding the in-memory index: ", and the
// refusals of the Index of another method were not ErrSettingsChanged.
func TestSettingsStoredSinceRefusedOnce(t *testing.T) {
	for _, e := range storetest.Engines {
		for _, tc := range []struct {
			name   string
			o      index.OpenOptions
			reason string // said once
		}{
			{"existing, empty", index.OpenOptions{Existing: true}, "since it was opened"},
			{"another method", index.OpenOptions{MethodName: minhash.Name}, "its method is fixed"},
		} {
			t.Run(e+"/"+tc.name, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				st, err := store.Open(t.Context(), dsn, store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				st.Close()
				r := open(t, dsn, tc.o)
				g := enginetest.NewTextGen(53)
				docs := docsOf(g, "s", 3)
				add(t, open(t, dsn, index.OpenOptions{Method: sentences.Defaults()}), docs...)
				_, qerr := r.Query(t.Context(), docs[:1])
				_, aerr := r.Add(t.Context(), docsOf(g, "t", 1), index.AddOptions{})
				for call, err := range map[string]error{"query": qerr, "add": aerr} {
					// Only an Index that read no settings must be opened
					// again (the server's answer says so); another
					// method's is refused as Open refuses it.
					if errors.Is(err, index.ErrSettingsChanged) != tc.o.Existing {
						t.Errorf("%s after another's first add: %v, want ErrSettingsChanged: %v", call, err, tc.o.Existing)
					}
					if err == nil || strings.Count(err.Error(), tc.reason) != 1 {
						t.Errorf("%s after another's first add: %q, want its reason once", call, err)
					}
				}
			})
		}
	}
}
