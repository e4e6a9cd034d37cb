package dedup

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/core"
)

// BenchmarkBatch measures a whole Batch (sketch on every CPU, add, match,
// group) per method at 20,000 and 200,000 generated articles (see
// zipfCorpus) from 16 sources. Run it with -benchtime 1x. It measures the
// pipeline on word frequencies like those of news; the end-to-end figures
// on resampled news are in the README.
func BenchmarkBatch(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		corpus := sync.OnceValue(func() []core.Document { return zipfCorpus(31, n) }) // made only if needed
		for _, m := range Methods {
			b.Run(fmt.Sprintf("%s/%d", m, n), func(b *testing.B) {
				docs := corpus()
				b.ResetTimer()
				for b.Loop() {
					batchOf(b, Options{Method: m}, docs)
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "docs/s")
			})
		}
	}
}

// zipfCorpus returns n articles whose words follow Zipf's law over a
// vocabulary of 200,000 made-up words, as word frequencies in news do (the
// suite's text generator, with its 4,096 names, makes every pair of a large
// corpus share words): originals of 8 title and 150 to 450 body words, and
// a third of copies of earlier articles with a tenth of their body words
// replaced. Sources rotate over 16 sites.
func zipfCorpus(seed uint64, n int) []core.Document {
	r := rand.New(rand.NewPCG(seed, 3))
	zipf := rand.NewZipf(r, 1.07, 2, 199999)
	words := func(k int) []string {
		w := make([]string, k)
		for i := range w {
			w[i] = "w" + strconv.FormatUint(zipf.Uint64(), 36)
		}
		return w
	}
	docs := make([]core.Document, n)
	for i := range docs {
		d := core.Document{ID: fmt.Sprint("z", i), Source: fmt.Sprint("site", i%16)}
		if i > 0 && r.IntN(3) == 0 {
			src := docs[r.IntN(i)]
			body := strings.Fields(src.Text)
			for e := len(body) / 10; e > 0; e-- {
				body[r.IntN(len(body))] = words(1)[0]
			}
			d.Title, d.Text = src.Title, strings.Join(body, " ")
		} else {
			d.Title, d.Text = strings.Join(words(8), " "), strings.Join(words(150+r.IntN(300)), " ")
		}
		docs[i] = d
	}
	return docs
}

// batchOf runs a Batch over docs, sketching on every CPU.
func batchOf(b *testing.B, opts Options, docs []core.Document) *Result {
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
