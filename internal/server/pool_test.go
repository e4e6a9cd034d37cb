package server

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestBusySaysHowManyRunAndWait pins the 503 of a full pool, which said "1
// heavy requests run and 1 wait" whatever the numbers: it is said in the
// singular of one.
func TestBusySaysHowManyRunAndWait(t *testing.T) {
	for _, tc := range []struct {
		workers, queue int
		want           string
	}{
		{1, 1, "the server is busy: 1 heavy request runs and 1 waits: try again shortly (see Retry-After)"},
		{2, 3, "the server is busy: 2 heavy requests run and 3 wait: try again shortly (see Retry-After)"},
		{1, 0, "the server is busy: 1 heavy request runs and none wait: try again shortly (see Retry-After)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			p := newPool(tc.workers, tc.queue, time.Hour)
			for range tc.workers {
				if _, err := p.acquire(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{}, tc.queue)
			for range tc.queue {
				go func() {
					p.acquire(ctx)
					done <- struct{}{}
				}()
			}
			for p.waiting.Load() < int64(tc.queue) {
				runtime.Gosched() // until every waiter waits
			}
			_, err := p.acquire(t.Context())
			cancel()
			for range tc.queue {
				<-done
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
