package dedup

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/neardup/neardup"
)

// BenchmarkBatch measures a whole Batch (sketch on every CPU, add, match,
// group) per method at 20,000 and 200,000 generated articles, a third of
// them edited copies, from 16 sources. Run it with -benchtime 1x; the
// end-to-end figures on resampled news are in the README.
func BenchmarkBatch(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		corpus := sync.OnceValue(func() []neardup.Document { // made only if a benchmark runs
			docs := newsCorpus(31, n)
			for i := range docs {
				docs[i].Source = fmt.Sprint("site", i%16)
			}
			return docs
		})
		for _, m := range Methods {
			b.Run(fmt.Sprintf("%s/%d", m, n), func(b *testing.B) {
				docs := corpus()
				b.ResetTimer()
				opts := Options{Method: m}
				if m == MethodRareWords {
					opts.MinWords = 20 // the generated articles are short
				}
				for b.Loop() {
					batchOf(b, opts, docs)
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "docs/s")
			})
		}
	}
}

// batchOf runs a Batch over docs, sketching on every CPU.
func batchOf(b *testing.B, opts Options, docs []neardup.Document) *Result {
	batch, err := NewBatch(opts)
	if err != nil {
		b.Fatal(err)
	}
	sketches := make([]Sketch, len(docs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			sk := batch.NewSketcher()
			for i := w; i < len(docs); i += workers {
				sketches[i] = sk.Sketch(&docs[i])
			}
		})
	}
	wg.Wait()
	for i := range docs {
		if err := batch.Add(&docs[i], sketches[i]); err != nil {
			b.Fatal(err)
		}
	}
	res, err := batch.Finish(b.Context(), nil)
	if err != nil {
		b.Fatal(err)
	}
	return res
}
