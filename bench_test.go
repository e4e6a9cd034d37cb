package neardup_test

import (
	"context"
	"flag"
	"github.com/neardup/neardup/internal/heappeak"
	"iter"
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
			var text int
			peak, live := heapPeak(func() {
				docs := corpus(n, words)
				for _, d := range docs {
					text += len(d.Text) + len(d.ID)
				}
				if _, err := neardup.Dedup(b.Context(), docs, neardup.Options{}); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
			b.ReportMetric(float64(text)/(1<<20), "texts-MiB")
		}
	})
	b.Run("stream", func(b *testing.B) {
		for b.Loop() {
			peak, live := heapPeak(func() {
				if _, err := neardup.DedupSeq(b.Context(), generated(n, words), neardup.Options{}); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
		}
	})
}

// heapPeak runs f and returns the most bytes of heap objects seen while it
// ran, garbage not yet collected included, and the most bytes the
// collector found live, sampled every 10 ms.
func heapPeak(f func()) (objects, live uint64) { return heappeak.Of(10*time.Millisecond, f) }

// BenchmarkDedupCancel reports how long DedupSeq takes to return once its
// context is cancelled within each stage of a run of -docs generated
// documents: reading, once half of them are read; matching, at its first
// progress report after the start (on 2 cores, after 8 blocks of 512
// documents); results, at the first pair handed on.
//
//	go test -run '^$' -bench DedupCancel -benchtime 1x -docs 20000 .
func BenchmarkDedupCancel(b *testing.B) {
	n, words := *benchDocs, *benchWords
	for _, stage := range []string{"reading", "matching", "results"} {
		b.Run(stage, func(b *testing.B) {
			for b.Loop() {
				ctx, cancel := context.WithCancel(b.Context())
				var cancelled time.Time
				stop := func() {
					if cancelled.IsZero() {
						cancelled = time.Now()
						cancel()
					}
				}
				_, err := neardup.DedupSeq(ctx, generated(n, words), neardup.Options{
					OnProgress: func(p neardup.Progress) {
						if p.Stage == stage && (stage == "reading" && p.Done >= n/2 || stage == "matching" && p.Done > 0) {
							stop()
						}
					},
					OnPair: func(neardup.Pair) {
						if stage == "results" {
							stop()
						}
					},
				})
				returned := time.Now()
				cancel()
				if err == nil || cancelled.IsZero() {
					b.Fatalf("the run ended (%v) without a cancel during %s", err, stage)
				}
				b.ReportMetric(float64(returned.Sub(cancelled).Microseconds())/1000, "ms-to-return")
			}
		})
	}
}
