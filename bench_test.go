package neardup_test

import (
	"context"
	"flag"
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/heappeak"
)

var (
	benchDocs   = flag.Int("docs", 20000, "documents of the Dedup benchmarks")
	benchWords  = flag.Int("words", 450, "words a generated document of the Dedup benchmarks (450: about 3 KB, news-sized)")
	benchMethod = flag.String("method", "minhash", "the method of BenchmarkDedupCancel, at its defaults")
	benchLong   = flag.Int("long", 10_000_000, "bytes of the long document of BenchmarkDedupLong")
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

// BenchmarkDedupCopies reports the time and peak heap of a DedupSeq run of
// -docs exact copies of one generated document (a page crawled again and
// again), beside a run of as many different documents as the baseline:
//
//	go test -run '^$' -bench DedupCopies -benchtime 1x -docs 200000 .
func BenchmarkDedupCopies(b *testing.B) {
	n, words := *benchDocs, *benchWords
	for _, kind := range []string{"distinct", "copies"} {
		b.Run(kind, func(b *testing.B) {
			first := genDoc(0, words)
			docs := func(yield func(neardup.Document, error) bool) {
				for i := range n {
					d := genDoc(i, words)
					if kind == "copies" {
						d.Title, d.Text, d.Date = first.Title, first.Text, first.Date
					}
					if !yield(d, nil) {
						return
					}
				}
			}
			for b.Loop() {
				var pairs int
				peak, live := heapPeak(func() {
					res, err := neardup.DedupSeq(b.Context(), docs, neardup.Options{})
					if err != nil {
						b.Fatal(err)
					}
					pairs = len(res.Pairs)
					if kind == "copies" && res.Stats.Copies == 0 {
						b.Fatal("no copy checked against the first alone")
					}
				})
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
				b.ReportMetric(float64(pairs), "pairs")
			}
		})
	}
}

// BenchmarkDedupLong reports the time and peak heap of a Dedup run, with
// each method at its defaults, of a corpus of one long document of -long
// bytes (10 MB: a book, a log, a scraped dump) and ten news-sized ones, and
// the peak heap as a share of the long text's bytes: what one long document
// costs beside the text itself.
//
//	go test -run '^$' -bench DedupLong -benchtime 1x -count 3 .
func BenchmarkDedupLong(b *testing.B) {
	docs := []neardup.Document{{ID: "long", Title: "A long document", Text: longText(*benchLong, 0)}}
	for i := range 10 {
		docs = append(docs, neardup.Document{ID: fmt.Sprint("news-", i), Text: longText(3000, uint64(i+1))})
	}
	for _, method := range []string{"minhash", "simhash", "sentences", "cosine", "tfidf"} {
		b.Run(method, func(b *testing.B) {
			for b.Loop() {
				peak, live := heapPeak(func() {
					if _, err := neardup.Dedup(b.Context(), docs, neardup.Options{MethodName: method}); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
				b.ReportMetric(float64(peak)/float64(len(docs[0].Text)), "peak/text")
			}
		})
	}
}

// longText returns about n bytes of prose made of words drawn from a
// vocabulary of made-up lower-case words, frequent ones more often, in
// sentences that start with a capital and end with a period, with commas
// and paragraphs between: text with the shape of news, seeded.
func longText(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3))
	words := make([]string, 5000)
	for i := range words {
		w := make([]byte, 2+r.IntN(9))
		for j := range w {
			w[j] = "etaoinshrdlcumwfgypbvkjxqz"[min(r.IntN(26), r.IntN(26))]
		}
		words[i] = string(w)
	}
	var sb strings.Builder
	sb.Grow(n + 16)
	for inSentence := 0; sb.Len() < n; inSentence++ {
		w := words[min(r.IntN(len(words)), r.IntN(len(words)))]
		if inSentence == 0 {
			sb.WriteString(strings.ToUpper(w[:1]))
			w = w[1:]
		}
		sb.WriteString(w)
		switch {
		case inSentence > 6 && r.IntN(12) == 0:
			sb.WriteString(".")
			if r.IntN(5) == 0 {
				sb.WriteString("\n\n")
			} else {
				sb.WriteString(" ")
			}
			inSentence = -1
		case r.IntN(15) == 0:
			sb.WriteString(", ")
		default:
			sb.WriteByte(' ')
		}
	}
	return strings.TrimSpace(sb.String()) + "."
}

// heapPeak runs f and returns the most bytes of heap objects seen while it
// ran, garbage not yet collected included, and the most bytes the
// collector found live, sampled every 10 ms.
func heapPeak(f func()) (objects, live uint64) { return heappeak.Of(10*time.Millisecond, f) }

// BenchmarkDedupCancel reports how long DedupSeq takes to return once its
// context is cancelled within each stage of a run of -docs generated
// documents with -method: reading, once half of them are read; preparing,
// 5 ms after matching starts (while a method that weighs and indexes the
// whole corpus first does so: tfidf, cosine); matching, at its first
// progress report after the start (on 2 cores, after 8 blocks of 512
// documents); results, at the first pair handed on.
//
//	go test -run '^$' -bench DedupCancel -benchtime 1x -docs 20000 [-method cosine] .
func BenchmarkDedupCancel(b *testing.B) {
	n, words := *benchDocs, *benchWords
	for _, stage := range []string{"reading", "preparing", "matching", "results"} {
		b.Run(stage, func(b *testing.B) {
			for b.Loop() {
				ctx, cancel := context.WithCancel(b.Context())
				var cancelled atomic.Int64 // Unix nanoseconds
				stop := func() {
					if cancelled.CompareAndSwap(0, time.Now().UnixNano()) {
						cancel()
					}
				}
				var timer *time.Timer
				_, err := neardup.DedupSeq(ctx, generated(n, words), neardup.Options{
					MethodName: *benchMethod,
					OnProgress: func(p neardup.Progress) {
						switch {
						case stage == "reading" && p.Stage == "reading" && p.Done >= n/2,
							stage == "matching" && p.Stage == "matching" && p.Done > 0:
							stop()
						case stage == "preparing" && p.Stage == "matching" && p.Done == 0:
							timer = time.AfterFunc(5*time.Millisecond, stop)
						}
					},
					OnPair: func(neardup.Pair) {
						if stage == "results" {
							stop()
						}
					},
				})
				returned := time.Now()
				if timer != nil {
					timer.Stop()
				}
				cancel()
				if err == nil || cancelled.Load() == 0 {
					b.Fatalf("the run ended (%v) without a cancel during %s", err, stage)
				}
				b.ReportMetric(float64(returned.Sub(time.Unix(0, cancelled.Load())).Microseconds())/1000, "ms-to-return")
			}
		})
	}
}

// BenchmarkPairLoop measures what DedupSeq's results stage adds to each
// pair it hands to OnPair for noticing a cancelled context, in the shape of
// that loop (a callback per pair from the engine, a copy of the Pair to
// OnPair): every1024, ctx.Err() every 1,024 pairs (the check before, which
// handed up to 1,023 pairs on after a cancel), and each, ctx.Err() before
// every pair (the check now; an atomic load in a cancellable context).
//
//	go test -run '^$' -bench PairLoop -count 10 .
func BenchmarkPairLoop(b *testing.B) {
	pairs := make([]neardup.Pair, 1<<16)
	for i := range pairs {
		pairs[i] = neardup.Pair{A: fmt.Sprintf("wire-%d", i), B: fmt.Sprintf("paper-%d", i), Method: "minhash",
			Score: 0.8, Label: neardup.Duplicate, Original: fmt.Sprintf("wire-%d", i)}
	}
	var sink int
	onPair := func(p neardup.Pair) { sink += len(p.A) }
	each := func(fn func(p *neardup.Pair) error) error {
		var p neardup.Pair
		for i := range pairs {
			p = pairs[i]
			if err := fn(&p); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	// loop times fn, the per-pair step, over every pair, per pair.
	loop := func(b *testing.B, fn func(p *neardup.Pair) error) {
		for b.Loop() {
			if err := each(fn); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pairs)), "ns/pair")
	}
	b.Run("every1024", func(b *testing.B) {
		n := 0
		loop(b, func(p *neardup.Pair) error {
			if n++; n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			onPair(*p)
			return nil
		})
	})
	b.Run("each", func(b *testing.B) {
		loop(b, func(p *neardup.Pair) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			onPair(*p)
			return nil
		})
	})
	_ = sink
}
