package index_test

import (
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
