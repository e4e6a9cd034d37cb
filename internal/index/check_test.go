package index_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/tfidf"
)

// Checks run beside a writer: each finds every document whose add returned
// before it began, and none of an add that failed after changing the
// in-memory index (its transaction rolled back).
func TestChecksBesideWrites(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{})
			g := enginetest.NewTextGen(5)
			add(t, x, enginetest.Background(g, 20)...)
			const n = 60
			docs := make([]core.Document, n)
			failing := make([]core.Document, n/4)
			for i := range docs {
				docs[i] = enginetest.Doc(fmt.Sprint("a", i), g.Sentences(10))
			}
			for i := range failing {
				failing[i] = enginetest.Doc(fmt.Sprint("f", i), g.Sentences(10))
			}
			boom := errors.New("boom")

			var mu sync.Mutex
			acked := 0 // docs[:acked] were added
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := range docs {
					if i%4 == 0 {
						_, err := x.Add(t.Context(), failing[i/4:i/4+1], index.AddOptions{
							Then: func(store.FeedWriter, []index.Match) error { return boom }})
						if !errors.Is(err, boom) {
							t.Errorf("a failing add: %v, want %v", err, boom)
						}
					}
					if _, err := x.Add(t.Context(), docs[i:i+1], index.AddOptions{}); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					acked = i + 1
					mu.Unlock()
				}
			}()

			var wg sync.WaitGroup
			for c := range 8 { // more than the store's connections
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := rand.New(rand.NewPCG(uint64(c), 9))
					for checks := 0; ; checks++ {
						select {
						case <-done:
							if checks > 0 {
								return
							}
						default:
						}
						mu.Lock()
						k := acked
						mu.Unlock()
						q := []core.Document{failing[r.IntN(len(failing))]}
						want := ""
						if k > 0 {
							d := docs[r.IntN(k)]
							want = d.ID
							q = append(q, d)
						}
						for i := range q {
							q[i].ID = fmt.Sprint("q", i)
						}
						ms, err := x.Query(t.Context(), q)
						if err != nil {
							t.Error(err)
							return
						}
						found := false
						for _, m := range ms {
							for _, p := range m.Pairs {
								if strings.HasPrefix(p.A, "f") {
									t.Errorf("a check matched %s, whose add failed", p.A)
								}
								found = found || p.A == want && p.Label == core.Duplicate
							}
						}
						if want != "" && !found {
							t.Errorf("a check of a copy of %s, added before it began, did not find it: %+v", want, ms)
						}
					}
				}()
			}
			wg.Wait()
			<-done
			if got, want := x.Len(), 20+n; got != want {
				t.Errorf("%d documents indexed, want %d", got, want)
			}
		})
	}
}

// A check sees what another process (another Index over the same store)
// added and removed before it began.
func TestCheckSeesOtherWriters(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			a, b := open(t, dsn, index.OpenOptions{}), open(t, dsn, index.OpenOptions{})
			g := enginetest.NewTextGen(8)
			add(t, a, enginetest.Background(g, 10)...)
			d := enginetest.Doc("other", g.Sentences(10))
			add(t, b, d)
			q := d
			q.ID = "q"
			check := func() []core.Pair {
				ms, err := a.Query(t.Context(), []core.Document{q})
				if err != nil {
					t.Fatal(err)
				}
				return ms[0].Pairs
			}
			if ps := check(); len(ps) != 1 || ps[0].A != "other" {
				t.Errorf("after another process added it: %+v, want a match with other", ps)
			}
			if _, err := b.Remove(t.Context(), []string{"other"}); err != nil {
				t.Fatal(err)
			}
			if ps := check(); len(ps) != 0 {
				t.Errorf("after another process removed it: %+v, want none", ps)
			}
		})
	}
}

// A query of a stored document is matched with the other stored documents,
// with statistics that count it once, in place of its stored copy: by every
// method that weighs by the corpus, it gets the pairs, scores and evidence
// that a query of it gets from an index of the other documents alone,
// whether its text is the one stored or a new one, on both engines; and the
// index is as it was afterwards. Regression: the query's words were counted
// beside its stored copy's, every word of it in two documents, so that in a
// small source rarewords found none of them rare and no match (herald-port,
// three duplicates stored, matched none), and tfidf, cosine and weighted
// sentences weighed its words less.
func TestQueryOfAStoredDocumentCountsItOnce(t *testing.T) {
	weighted := sentences.Defaults()
	weighted.Weighted = true
	rare := rarewords.Defaults()
	rare.MinWords = 20
	methods := []struct {
		spec engine.Spec
		o    engine.Config
	}{
		{sentences.Spec, weighted}, {tfidf.Spec, tfidf.Defaults()}, {cosine.Spec, cosine.Defaults()}, {rarewords.Spec, rare},
	}
	// Three sources, so that the stored document's counts are those of a
	// source other documents share: the later query, of its source, reads
	// them (rarewords' rare words are rare within a source).
	sources := []string{"wire", "herald", "post"}
	g := enginetest.NewTextGen(44)
	others := enginetest.Background(g, 20)
	for i := range others {
		others[i].Source = sources[i%len(sources)]
	}
	story, title := g.Sentences(12), g.Sentence()
	doc := func(id, source string, s []string) core.Document {
		d := enginetest.Doc(id, s)
		d.Title, d.Source = title, source
		return d
	}
	for i := range 3 {
		s := slices.Clone(story)
		s[i] = g.Sentence()
		others = append(others, doc(fmt.Sprint("copy", i), sources[1+i%2], s))
	}
	stored := doc("story", "wire", story)
	edited := slices.Clone(story)
	edited[11] = g.Sentence()
	// Another text under the stored ID is a conflict (see
	// TestQueryOfAnotherDocumentUnderAStoredID), matched all the same.
	queries := map[string]struct {
		doc    core.Document
		status index.Status
	}{"the stored text": {stored, index.Exists}, "a new text": {doc("story", "wire", edited), index.Conflict}}
	later := doc("later", "wire", story[2:])
	for _, m := range methods {
		for _, e := range storetest.Engines {
			t.Run(m.spec.Name+"/"+e, func(t *testing.T) {
				openWith := func(dsn string) *index.Index {
					x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{m.spec}, index.OpenOptions{Method: m.o})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { x.Close() })
					return x
				}
				dsn := storetest.DSN(t, e)
				x, without := openWith(dsn), openWith(storetest.DSN(t, e))
				add(t, x, append(slices.Clone(others), stored)...)
				add(t, without, others...)
				pairs := func(x *index.Index, d core.Document, status index.Status) string {
					t.Helper()
					ms, err := x.Query(t.Context(), []core.Document{d})
					if err != nil {
						t.Fatal(err)
					}
					if ms[0].Status != status {
						t.Errorf("%s: %s, want %s", d.ID, ms[0].Status, status)
					}
					b, err := json.Marshal(ms[0].Pairs)
					if err != nil {
						t.Fatal(err)
					}
					return string(b)
				}
				for name, q := range queries {
					got, want := pairs(x, q.doc, q.status), pairs(without, q.doc, index.Checked)
					if got != want {
						t.Errorf("%s: a query of the stored document\n%s\nwant, as of it in an index of the others\n%s", name, got, want)
					}
					if want == "[]" {
						t.Errorf("%s: no pair to compare", name)
					}
				}
				if got, want := pairs(x, later, index.Checked), pairs(openWith(dsn), later, index.Checked); got != want {
					t.Errorf("after the queries, another\n%s\nwant, as in the index opened afresh\n%s", got, want)
				}
			})
		}
	}
}
