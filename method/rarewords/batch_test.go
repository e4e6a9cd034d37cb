package rarewords

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

// BenchmarkCounterReads measures the counter's two ways of reading a
// block, each block scanned whole or each read through its postings, on
// 40,000 documents of 205 words drawn evenly from vocabularies that put
// one posting in a block of 4,096 for about every 5, 10, 24 and 95
// counters; it counts the last 2,000 documents, ten blocks each. Where the
// two take as long chooses sparseBlock.
func BenchmarkCounterReads(b *testing.B) {
	for _, every := range []int{5, 10, 24, 95} {
		// A word is in 40,000 * 205 / vocab documents: 205 of them put
		// 4,096 * 205 * 205 / vocab postings in a block.
		vocab := every * 205 * 205
		r := rand.New(rand.NewPCG(3, 5))
		ss := make([]*Sketch, 40000)
		for i := range ss {
			w := make([]uint64, 205)
			for k := range w {
				w[k] = uint64(r.IntN(vocab))
			}
			slices.Sort(w)
			ss[i] = &Sketch{Source: []string{"a", "b"}[i%2], Words: slices.Compact(w)}
		}
		m := counted(b, Defaults(), ss)
		for _, read := range []struct {
			name   string
			sparse int
		}{{"scanned", math.MaxInt32}, {"postings", 0}} {
			b.Run(fmt.Sprintf("one posting per %d counters/%s", every, read.name), func(b *testing.B) {
				x := &counter{m: m, block: countBlock, sparse: read.sparse}
				var out []pairCount
				for b.Loop() {
					for self := len(m.dense) - 2000; self < len(m.dense); self++ {
						out, _ = x.before(self, m.rare[m.dense[self]], m.denseSrc[self], out[:0])
					}
				}
			})
		}
	}
}

// poolSketches returns n sketches in three sources whose words, 1 to 40 of
// them, come by runs of 50 documents from the vocabularies kinds names in
// turn: 's' a small pool of 300 words (two such documents nearly always
// share some), 'm' a pool of 20,000 (they seldom do), 'r' random words
// (they never do). One document in ten is instead an edited copy of an
// earlier one, so that some of every kind reach the threshold.
func poolSketches(seed uint64, n int, kinds string) []*Sketch {
	r := rand.New(rand.NewPCG(seed, 9))
	ss := make([]*Sketch, n)
	for i := range ss {
		w := make([]uint64, 1+r.IntN(40))
		switch kind := kinds[i/50%len(kinds)]; {
		case i > 0 && i%10 == 0:
			w = append(w[:0], ss[r.IntN(i)].Words...)
			w[r.IntN(len(w))] = r.Uint64()
		case kind == 's':
			for k := range w {
				w[k] = uint64(r.IntN(300))
			}
		case kind == 'm':
			for k := range w {
				w[k] = 1000 + uint64(r.IntN(20000))
			}
		default:
			for k := range w {
				w[k] = r.Uint64()
			}
		}
		slices.Sort(w)
		ss[i] = &Sketch{Source: fmt.Sprint("s", r.IntN(3)), Words: slices.Compact(w)}
	}
	return ss
}

// TestCounterSkipsSparseBlocks: the counter of a Batch, whatever its block
// size and however it reads a block (each scanned whole, each through its
// postings, or each as sparseBlock chooses), finds for every document the
// same pairs, in the same order, with the same counts, and counts as many
// documents sharing a word, as counting each earlier document's shared
// words one posting at a time and dividing as Match does. It pins the fault
// of a counter that scanned every block whole, work as the square of the
// documents when they share nothing: the blocks read through their
// postings must read the same. Corpora of words shared nowhere, everywhere,
// and by runs of each, so that one document's blocks are read both ways.
func TestCounterSkipsSparseBlocks(t *testing.T) {
	for _, c := range []struct{ name, kinds string }{
		{"sparse", "r"}, {"dense", "s"}, {"mixed", "srmsmr"},
	} {
		for _, sameSource := range []bool{false, true} {
			o := Defaults()
			o.CommonDF, o.SameSource = 1, sameSource
			// Indexing takes the words out of the sketches: new ones each time.
			m := counted(t, o, poolSketches(7, 1500, c.kinds))
			want, wantCounted := referenceCounts(m)
			if found := len(slices.Concat(want...)); found < 20 {
				t.Fatalf("%s, same source %v: %d pairs found: too few to test", c.name, sameSource, found)
			}
			if sparse, dense := blockReads(m, 500); c.name == "mixed" && (sparse < 500 || dense < 500) {
				t.Fatalf("mixed: blocks of 500 with postings: %d read through them, %d scanned: too few to test", sparse, dense)
			}
			for _, block := range []int{1, 7, 64, 500, countBlock} {
				for _, sparse := range []int{math.MaxInt32, 0, sparseBlock} {
					name := fmt.Sprintf("%s/same source %v/block %d/sparse %d", c.name, sameSource, block, sparse)
					x := &counter{m: m, block: block, sparse: sparse}
					for self := range m.dense {
						got, gotCounted := x.before(self, m.rare[m.dense[self]], m.denseSrc[self], nil)
						if !slices.Equal(want[self], got) {
							diff := cmp.Diff(want[self], got, cmpopts.EquateEmpty(), cmp.AllowUnexported(pairCount{}))
							t.Fatalf("%s: document %d's pairs (-want +got):\n%s", name, self, diff)
						}
						if gotCounted != wantCounted[self] {
							t.Fatalf("%s: document %d shares words with %d, want %d", name, self, gotCounted, wantCounted[self])
						}
					}
				}
			}
		}
	}
}

// referenceCounts returns, for every dense number, the pairs
// counter.before should find and how many earlier documents share a word,
// counted one posting at a time.
func referenceCounts(m *method) (pairs [][]pairCount, shares []int) {
	acc := make([]int32, len(m.dense))
	pairs, shares = make([][]pairCount, len(m.dense)), make([]int, len(m.dense))
	for self, ord := range m.dense {
		a := m.rare[ord]
		var touched []int32
		for _, w := range a {
			for _, d := range m.lists[w] {
				if int(d) >= self {
					break
				}
				if acc[d] == 0 {
					touched = append(touched, d)
				}
				acc[d]++
			}
		}
		slices.Sort(touched)
		shares[self] = len(touched)
		for _, d := range touched {
			c := acc[d]
			acc[d] = 0
			if float64(c)/float64(min(len(a), len(m.rare[m.dense[d]]))) > m.o.Threshold &&
				(m.o.SameSource || m.denseSrc[d] != m.denseSrc[self]) {
				pairs[self] = append(pairs[self], pairCount{d, c})
			}
		}
	}
	return pairs, shares
}

// blockReads returns how many blocks holding a posting the counter, in
// blocks of block documents, reads through their postings (sparse) and
// how many it scans whole (dense), over every document.
func blockReads(m *method, block int) (sparse, dense int) {
	postings := map[int]int{}
	for self, ord := range m.dense {
		clear(postings)
		for _, w := range m.rare[ord] {
			for _, d := range m.lists[w] {
				if int(d) >= self {
					break
				}
				postings[int(d)/block]++
			}
		}
		for b, n := range postings {
			if n*sparseBlock < min(block, self-b*block) {
				sparse++
			} else {
				dense++
			}
		}
	}
	return sparse, dense
}
