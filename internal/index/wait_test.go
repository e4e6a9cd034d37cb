package index_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// A removal or an expiry waiting for the writer lock another process holds
// (a rescore, an import) keeps no check waiting, as an add does not: it
// held the Index exclusively while it waited, up to the busy timeout, and
// serve's checks, stats and pages waited behind each DELETE.
func TestChecksRunWhileARemovalWaits(t *testing.T) {
	for _, op := range []string{"remove", "expire"} {
		t.Run(op, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "news.db")
			x, err := index.Open(t.Context(), path, store.Options{Sync: "normal", BusyTimeoutMillis: 10000}, specs, index.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			g := enginetest.NewTextGen(7)
			text := g.Text(120)
			add(t, x, core.Document{ID: "a", Text: text, Date: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})

			release := storetest.HoldWriteLock(t, path)
			done := make(chan error, 1)
			go func() {
				var err error
				if op == "remove" {
					_, err = x.Remove(t.Context(), []string{"a"})
				} else {
					_, err = x.Expire(t.Context(), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC))
				}
				done <- err
			}()
			time.Sleep(200 * time.Millisecond) // the removal waits for the lock
			ms, err := x.Query(t.Context(), []core.Document{{ID: "q", Text: text}})
			select {
			case err := <-done:
				t.Fatalf("the %s ended while the lock was held: %v", op, err)
			default:
			}
			if err != nil || len(ms) != 1 || len(ms[0].Pairs) != 1 {
				t.Errorf("a check while the %s waits: %+v, %v; want the stored copy", op, ms, err)
			}
			if n := x.Len(); n != 1 {
				t.Errorf("Len while the %s waits: %d, want 1", op, n)
			}
			release()
			if err := <-done; err != nil {
				t.Errorf("the %s: %v", op, err)
			}
			if n := x.Len(); n != 0 {
				t.Errorf("Len after the %s: %d, want 0", op, n)
			}
		})
	}
}

// pausing is a store whose next armed Update stops after its fn ran,
// before it commits, until released (with the error to end it with).
type pausing struct {
	store.Store
	armed   bool
	paused  chan struct{}
	release chan error
}

func (p *pausing) Update(ctx context.Context, fn func(w store.Writer) error) error {
	return p.Store.Update(ctx, func(w store.Writer) error {
		if err := fn(w); err != nil {
			return err
		}
		if p.armed {
			p.armed = false
			close(p.paused)
			return <-p.release
		}
		return nil
	})
}

// A check beside a removal whose transaction is open (the in-memory index
// changed, the store's snapshot not yet) reports what stands before the
// removal or after it, never a mix: it found neither the original, gone
// from memory, nor the copy taking its place, whose sketch the snapshot
// lacked, and after a removal rolled back reported the original gone.
func TestCheckBesideAnOpenRemoval(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story, other := g.Sentences(10), g.Sentences(10)
	for _, e := range storetest.Engines {
		for _, tc := range []struct {
			name  string
			heirs bool
			fail  bool
		}{{"a copy takes the place", true, false}, {"rolled back", false, true}} {
			t.Run(e+"/"+tc.name, func(t *testing.T) {
				st, err := store.Open(t.Context(), storetest.DSN(t, e), store.Options{Sync: "normal"})
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				p := &pausing{Store: st, paused: make(chan struct{}), release: make(chan error)}
				x, err := index.OpenIndex(t.Context(), p, specs, index.OpenOptions{StoreText: true})
				if err != nil {
					t.Fatal(err)
				}
				ex := index.AddOptions{Exact: true}
				if _, err := x.Add(t.Context(), []core.Document{storyDoc("a", story, 1), storyDoc("c", other, 1)}, ex); err != nil {
					t.Fatal(err)
				}
				if tc.heirs {
					if _, err := x.Add(t.Context(), []core.Document{storyDoc("b", story, 3), storyDoc("b2", story, 4)}, ex); err != nil {
						t.Fatal(err)
					}
				}
				q := []core.Document{storyDoc("q", story, 5)}
				p.armed = true
				removed := make(chan error, 1)
				go func() { _, err := x.Remove(context.Background(), []string{"a"}); removed <- err }()
				<-p.paused
				type answer struct {
					ms  []index.Match
					err error
				}
				checked := make(chan answer, 1)
				go func() { ms, err := x.Query(t.Context(), q); checked <- answer{ms, err} }()
				time.Sleep(100 * time.Millisecond) // the check under way beside the open removal
				var failure error
				if tc.fail {
					failure = errors.New("a failure before the commit")
				}
				p.release <- failure
				if err := <-removed; (err != nil) != tc.fail {
					t.Errorf("the removal: %v", err)
				}
				ans := <-checked
				if ans.err != nil || len(ans.ms) != 1 || len(ans.ms[0].Pairs) == 0 {
					t.Errorf("a check beside the open removal: %+v, %v; want a pair with a (before) or b (after)", ans.ms, ans.err)
				}
			})
		}
	}
}
