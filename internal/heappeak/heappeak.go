// Package heappeak measures the peak heap of a piece of work, for
// benchmarks that report memory beside time.
package heappeak

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Of runs f and returns the most bytes of heap objects seen while it ran,
// garbage not yet collected included, and the most bytes the collector
// found live, sampled every interval (and once at the end).
func Of(interval time.Duration, f func()) (objects, live uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	var peak, peakLive atomic.Uint64
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
		if v := sample[1].Value.Uint64(); v > peakLive.Load() {
			peakLive.Store(v)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				read()
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	read()
	return peak.Load(), peakLive.Load()
}
