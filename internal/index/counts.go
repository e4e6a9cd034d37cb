package index

import (
	"context"
	"sync"
	"time"

	"github.com/neardup/neardup/internal/store"
)

// How RecentStats counts: an index counted in under quickCount is counted
// afresh on every call; a slower one at most every countsMaxAge, in the
// background, within countTimeout.
const (
	quickCount   = 100 * time.Millisecond
	countsMaxAge = 10 * time.Second
	countTimeout = time.Minute
)

// counts remembers an index's last Stats for RecentStats.
type counts struct {
	mu       sync.Mutex
	stats    IndexStats
	err      error
	at       time.Time     // when the last count started; zero before the first
	took     time.Duration // how long it took
	counting bool          // a count runs in the background
	done     chan struct{} // closed when that count ends
	closed   bool
	wg       sync.WaitGroup
}

// RecentStats returns the index's Stats for a page or a metrics scrape to
// show. Counting reads every stored document, seconds at a million, so
// once a count has taken longer than a tenth of a second the last counts
// are returned at once, and counted again in the background when older than
// ten seconds; a smaller index is counted afresh on every call, exactly.
// After Close it fails with store.ErrClosed, as every other call does.
func (x *Index) RecentStats(ctx context.Context) (IndexStats, error) {
	c := &x.counts
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return IndexStats{}, store.ErrClosed
	}
	if c.at.IsZero() && c.counting {
		// The first count runs in the background (CountInBackground):
		// wait for it rather than count beside it.
		done := c.done
		c.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return IndexStats{}, ctx.Err()
		}
		c.mu.Lock()
	}
	if c.at.IsZero() || c.took < quickCount {
		c.mu.Unlock()
		start := time.Now()
		st, err := x.Stats(ctx)
		if err == nil || ctx.Err() == nil {
			c.mu.Lock()
			c.stats, c.err, c.at, c.took = st, err, start, time.Since(start)
			c.mu.Unlock()
		}
		return st, err
	}
	defer c.mu.Unlock()
	if time.Since(c.at) > countsMaxAge {
		c.start(x)
	}
	return c.stats, c.err
}

// CountInBackground starts the first count of the index for RecentStats
// in the background, as a server does when it starts, so that its first
// page or scrape waits only for what is left of it; it does nothing once
// the index was counted or while a count runs.
func (x *Index) CountInBackground() {
	c := &x.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		c.start(x)
	}
}

// start counts x in the background unless a count runs or the index is
// closing; c.mu is held.
func (c *counts) start(x *Index) {
	if c.counting || c.closed {
		return
	}
	c.counting = true
	c.done = make(chan struct{})
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), countTimeout)
		defer cancel()
		start := time.Now()
		st, err := x.Stats(ctx)
		c.mu.Lock()
		c.stats, c.err, c.at, c.took, c.counting = st, err, start, time.Since(start), false
		close(c.done)
		c.mu.Unlock()
	}()
}

// stop waits for a count in the background and starts no other.
func (c *counts) stop() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.wg.Wait()
}
