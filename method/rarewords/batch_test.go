package rarewords

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

// randomSketches returns n sketches of 205 random words each, alternately
// of sources "a" and "b", every copyEvery-th (0: none) a copy of an
// earlier one of the other source with a fifth of its words changed: two
// documents share a word only by being copies, as in a corpus of unrelated
// texts.
func randomSketches(seed uint64, n, copyEvery int) []*Sketch {
	r := rand.New(rand.NewPCG(seed, 5))
	ss := make([]*Sketch, n)
	for i := range ss {
		w := make([]uint64, 205)
		if copyEvery > 0 && i%copyEvery == copyEvery-1 && i > 1 {
			copy(w, ss[(r.IntN(i/2))*2+1-i%2].Words)
			for range 41 {
				w[r.IntN(len(w))] = r.Uint64()
			}
		} else {
			for k := range w {
				w[k] = r.Uint64()
			}
		}
		slices.Sort(w)
		ss[i] = &Sketch{Source: []string{"a", "b"}[i%2], Words: slices.Compact(w)}
	}
	return ss
}

// textSketches returns the sketches of enginetest.Copies(n, 12) in 16
// sources: every two documents share some of the generator's 4,096
// made-up names, each rare in its source, as most two long news stories
// share some word rare in their sources.
func textSketches(t testing.TB, o Options, n int) []*Sketch {
	docs := enginetest.Copies(enginetest.NewTextGen(31), n, 12)
	m, err := newMethod(o)
	if err != nil {
		t.Fatal(err)
	}
	sk := m.NewSketcher()
	ss := make([]*Sketch, len(docs))
	for i := range docs {
		docs[i].Source = fmt.Sprint("site", i%16)
		ss[i], _ = sk.Sketch(&docs[i])
	}
	return ss
}

// counted returns a method that has counted the pairs of sketches ss as a
// Batch does (IndexAll on one goroutine).
func counted(t testing.TB, o Options, ss []*Sketch) *method {
	m, err := newMethod(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range ss {
		m.Add(int32(i), s)
	}
	m.Seal()
	if err := m.indexAll(t.Context(), ss, 1, countBlock, countChunk, nil); err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkCountPairs measures a Batch's counting of every pair on one
// goroutine (countPairs), on two corpora: sparse, 20,000 documents of 205
// random words in two sources, one in 100 an edited copy (two documents
// share a word only by being copies); dense, 9,334 generated articles of
// 16 sources sharing rare words everywhere. It reports the documents, the
// pairs reaching the threshold, and the share of all pairs sharing a word.
func BenchmarkCountPairs(b *testing.B) {
	dense := Defaults()
	dense.MinWords = 20
	for _, c := range []struct {
		name string
		o    Options
		ss   func() []*Sketch
	}{
		{"sparse", Defaults(), func() []*Sketch { return randomSketches(1, 20000, 100) }},
		{"dense", dense, func() []*Sketch { return textSketches(b, dense, 7000) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := counted(b, c.o, c.ss())
			n := float64(len(m.dense))
			pairs, sharing := len(m.pairs.partner), float64(m.parallelVerified.Load())/(n*(n-1)/2)
			for b.Loop() {
				if err := m.countPairs(b.Context(), 1, countBlock, countChunk, func(float64) {}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(n, "docs")
			b.ReportMetric(float64(pairs), "pairs")
			b.ReportMetric(sharing, "sharing")
		})
	}
}
