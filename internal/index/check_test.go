package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
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
