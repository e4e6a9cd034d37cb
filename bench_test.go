package neardup_test

import (
	"context"
	"flag"
	"iter"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup"
)

var (
	benchDocs  = flag.Int("docs", 20000, "documents of the Dedup benchmarks")
	benchWords = flag.Int("words", 450, "words a generated document of the Dedup benchmarks (450: about 3 KB, news-sized)")
)

// generated yields the first n generated documents, making each as it is
// asked for.
func generated(n, words int) iter.Seq2[neardup.Document, error] {
	return func(yield func(neardup.Document, error) bool) {
		for i := range n {
			if !yield(genDoc(i, words), nil) {
				return
			}
		}
	}
}

// BenchmarkDedupMemory reports the peak heap of a Dedup run of -docs
// generated documents held by the caller in a slice, and of a DedupSeq run
// of the same documents made one at a time:
//
//	go test -run '^$' -bench DedupMemory -benchtime 1x -docs 200000 .
func BenchmarkDedupMemory(b *testing.B) {
	n, words := *benchDocs, *benchWords
	b.Run("slice", func(b *testing.B) {
		for b.Loop() {
			peak := heapPeak(func() {
				if _, err := neardup.Dedup(b.Context(), corpus(n, words), neardup.Options{}); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		}
	})
	b.Run("stream", func(b *testing.B) {
		for b.Loop() {
			peak := heapPeak(func() {
				if _, err := neardup.DedupSeq(b.Context(), generated(n, words), neardup.Options{}); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		}
	})
}

// heapPeak runs f and returns the most bytes of heap objects seen while it
// ran, sampled every 10 ms.
func heapPeak(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
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
	return peak.Load()
}

// BenchmarkDedupCancel reports how long DedupSeq takes to return once its
// context is cancelled half way through each stage of a run of -docs
// generated documents (the stage's length taken from a run to the end):
//
//	go test -run '^$' -bench DedupCancel -benchtime 1x -docs 200000 .
func BenchmarkDedupCancel(b *testing.B) {
	n, words := *benchDocs, *benchWords
	// A run to the end gives each stage's start and length.
	start := time.Now()
	starts := map[string]time.Duration{}
	var order []string
	if _, err := neardup.DedupSeq(b.Context(), generated(n, words), neardup.Options{OnProgress: func(p neardup.Progress) {
		if _, ok := starts[p.Stage]; !ok {
			starts[p.Stage] = time.Since(start)
			order = append(order, p.Stage)
		}
	}}); err != nil {
		b.Fatal(err)
	}
	end := time.Since(start)
	for i, stage := range order {
		length := end - starts[stage]
		if i+1 < len(order) {
			length = starts[order[i+1]] - starts[stage]
		}
		b.Run(stage, func(b *testing.B) {
			if length < 20*time.Millisecond {
				b.Skipf("the stage took %v: too short to cancel half way", length)
			}
			for b.Loop() {
				ctx, cancel := context.WithCancel(b.Context())
				var cancelled atomic.Int64
				var timer *time.Timer
				_, err := neardup.DedupSeq(ctx, generated(n, words), neardup.Options{OnProgress: func(p neardup.Progress) {
					if p.Stage == stage && timer == nil {
						timer = time.AfterFunc(length/2, func() {
							cancelled.Store(time.Now().UnixNano())
							cancel()
						})
					}
				}})
				returned := time.Now().UnixNano()
				cancel()
				if err == nil || cancelled.Load() == 0 {
					b.Fatalf("the run ended (%v) before the cancel half way through %s (%v)", err, stage, length)
				}
				b.ReportMetric(float64(returned-cancelled.Load())/1e6, "ms-to-return")
				b.ReportMetric(length.Seconds()*1000, "stage-ms")
			}
		})
	}
}
