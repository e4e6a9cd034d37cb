package rarewords

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/neardup/neardup/internal/engine"
)

// A Batch reports each document's best match in every other source, and
// nearly every two long stories share some word rare in their sources: the
// pairs counted grow as the square of the documents, and so do those
// reaching the threshold (1.7 million at 200,000 news articles, for 442,000
// reported). So IndexAll counts every pair once, on every core, keeps those
// reaching the threshold in a compact table, and chooses each document's
// best match per source there; the matchers then emit only the pairs Select
// would keep. Select, run on them, keeps them all and marks them as it
// would have among every pair: a pair it drops is the best of neither of
// its documents' views, and leaving it out changes no view's best.
//
// Under a news window (the Source of a match is engine.Windowed) the best
// must be chosen among the pairs inside the window, which only the engine
// knows: the matchers then emit every pair reaching the threshold, as
// matching one document after another does.

// countBlock is how many consecutive dense numbers are counted at a time:
// 16 KiB of counts, which the processor's first-level cache holds while
// the postings of every rare word of the document fall into them.
const countBlock = 4096

// countChunk is how many consecutive dense numbers a goroutine of
// countPairs counts at a time.
const countChunk = 64

// batchPairs are the pairs of a Batch reaching the threshold, counted by
// countPairs: those of the document of dense number x are the entries
// off[x] to off[x+1] (earlier partners in increasing order); bestLater[i]
// says pair i is the best of the later document's view in the earlier's
// source, bestEarlier[i] the reverse.
type batchPairs struct {
	off         []int
	partner     []int32 // dense number of the earlier document
	shared      []int32
	bestLater   []bool
	bestEarlier []bool
}

// pairCount is a pair reaching the threshold as countPairs finds it.
type pairCount struct{ partner, shared int32 }

// sparseBlock says when a block is read through its postings rather than
// scanned whole: when it holds fewer postings than one for every
// sparseBlock counters. A scan reads every counter; going through the
// postings sets a bit for each, then reads a word of bits for every 64
// counters and the counters whose bit is set. On blocks of 4,096 with
// postings spread evenly (BenchmarkCounterReads) the two take about as long
// at one posting for every 5 or 6 counters, and going through the postings
// takes about 0.85 times as long at one for every 10, 0.75 at 24 and 0.5
// at 95. Two unrelated texts share no rare word: a block of them holds few
// postings or none.
const sparseBlock = 8

// counter counts the rare words each document before one shares with it,
// a block of dense numbers at a time: the documents numbered [lo, lo+block)
// are counted over every word's list, a cursor per word remembering where
// the next block's entries start, and the counts are then read in order.
// The counts stay in a small array the cache holds, and reading them in
// order replaces keeping a list of the documents counted. A block holding
// no posting is passed over, and one holding few (see sparseBlock) is read
// through its postings: the work then follows the postings, not the square
// of the documents, when the documents share few words.
type counter struct {
	m      *method
	block  int
	sparse int      // sparseBlock; 0 reads every block through its postings, math.MaxInt32 none
	cnt    []int32  // by dense number - lo
	seen   []uint64 // bit by dense number - lo: counted in a block read through its postings
	pos    []int32  // by word: where its list's next block starts
	from   []int32  // by word: where its list's entries in the current block start
}

// before appends to out, in increasing order, each document before dense
// number self, whose rare words are a and source src, that shares enough
// of them to reach the threshold (of the smaller set), of another source
// unless Options.SameSource, with how many it shares; it returns out and how
// many documents share at least one.
func (x *counter) before(self int, a []uint32, src int32, out []pairCount) ([]pairCount, int) {
	m := x.m
	if len(x.cnt) < x.block {
		x.cnt, x.seen = make([]int32, x.block), make([]uint64, (x.block+63)/64)
	}
	x.pos = slices.Grow(x.pos[:0], len(a))[:len(a)]
	x.from = slices.Grow(x.from[:0], len(a))[:len(a)]
	clear(x.pos)
	// next is the first document holding one of the words: every list
	// holds self, so it is self when none before self does.
	next := self
	for _, w := range a {
		next = min(next, int(m.lists[w][0]))
	}
	counted := 0
	for next < self {
		// The blocks before next's hold no posting.
		lo := next - next%x.block
		hi := min(lo+x.block, self)
		var postings, c int
		postings, next = x.count(a, lo, hi)
		if postings*x.sparse < hi-lo {
			out, c = x.readSparse(a, lo, hi, src, out)
		} else {
			out, c = x.readDense(len(a), lo, hi, src, out)
		}
		counted += c
	}
	return out, counted
}

// count counts the postings of words a in block [lo, hi), hi at most the
// document's own dense number, moving each word's cursor past them and
// remembering where they start; it returns how many there were and the
// first posting after the block, the document's own dense number at most.
func (x *counter) count(a []uint32, lo, hi int) (postings, next int) {
	cnt := x.cnt[:hi-lo]
	next = math.MaxInt
	for i, w := range a {
		// The list is in increasing order and holds the document: its
		// entries below hi are before it, and one is left after them.
		list, p := x.m.lists[w], int(x.pos[i])
		x.from[i] = int32(p)
		for ; p < len(list) && int(list[p]) < hi; p++ {
			cnt[int(list[p])-lo]++
		}
		x.pos[i] = int32(p)
		postings += p - int(x.from[i])
		next = min(next, int(list[p]))
	}
	return postings, next
}

// readDense appends to out the documents of block [lo, hi) whose counts
// reach the threshold, for a document of size rare words and source src,
// reading every count in order and clearing them; it returns out and how
// many counts are above 0.
func (x *counter) readDense(size, lo, hi int, src int32, out []pairCount) ([]pairCount, int) {
	m := x.m
	needA, sameSource := m.need[size], m.o.SameSource
	cnt, needD, srcD := x.cnt[:hi-lo], m.needDense[lo:hi], m.denseSrc[lo:hi]
	counted := 0
	for k, c := range cnt {
		// need is at least 1, so a document sharing nothing never
		// passes, and counting those sharing something takes no branch.
		counted += int(uint32(-c) >> 31)
		if c >= min(needA, needD[k]) && (sameSource || srcD[k] != src) {
			out = append(out, pairCount{int32(lo + k), c})
		}
	}
	clear(cnt)
	return out, counted
}

// readSparse is readDense for a block of few postings: it marks the
// counts the postings of words a there touched, then reads and clears
// those alone, in increasing order.
func (x *counter) readSparse(a []uint32, lo, hi int, src int32, out []pairCount) ([]pairCount, int) {
	m := x.m
	needA, sameSource := m.need[len(a)], m.o.SameSource
	seen := x.seen[:(hi-lo+63)/64]
	for i, w := range a {
		for _, d := range m.lists[w][x.from[i]:x.pos[i]] {
			k := int(d) - lo
			seen[k/64] |= 1 << (k % 64)
		}
	}
	counted := 0
	for j, word := range seen {
		if word == 0 {
			continue
		}
		seen[j] = 0
		for ; word != 0; word &= word - 1 {
			k := j*64 + bits.TrailingZeros64(word)
			c := x.cnt[k]
			x.cnt[k] = 0
			counted++
			if c >= min(needA, m.needDense[lo+k]) && (sameSource || m.denseSrc[lo+k] != src) {
				out = append(out, pairCount{int32(lo + k), c})
			}
		}
	}
	return out, counted
}

// countPairs counts every pair of documents with rare words on workers
// goroutines, chunk dense numbers at a time, block at a time each (see
// counter), keeps those reaching the threshold in m.pairs, and marks each
// view's best (markBest). It calls progress now and then with the share
// of the counting done: a document counts against those before it, so the
// first x of n are (x/n)² of the work. Once ctx is done its workers stop
// at the end of their chunks and it returns ctx's error, the counts left
// incomplete.
func (m *method) countPairs(ctx context.Context, workers, block, chunk int, progress func(share float64)) error {
	n := len(m.dense)
	chunks := make([][]pairCount, (n+chunk-1)/chunk)
	sizes := make([]int32, n+1) // by dense number + 1: pairs found
	var next atomic.Int64
	var wg sync.WaitGroup
	done := make(chan int, len(chunks))
	for range max(1, min(workers, len(chunks))) {
		wg.Go(func() {
			x := &counter{m: m, block: block, sparse: sparseBlock}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(chunks) || ctx.Err() != nil {
					return
				}
				var out []pairCount
				counted := 0
				for self := i * chunk; self < min(n, (i+1)*chunk); self++ {
					before := len(out)
					var c int
					out, c = x.before(self, m.rare[m.dense[self]], m.denseSrc[self], out)
					counted += c
					sizes[self+1] = int32(len(out) - before)
				}
				chunks[i] = out
				m.parallelVerified.Add(int64(counted))
				done <- i
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	work, finished := 0.0, 0
	for i := range done {
		lo, hi := float64(i*chunk), float64(min(n, (i+1)*chunk))
		work += hi*hi - lo*lo
		if finished++; finished%8 == 0 {
			progress(work / (float64(n) * float64(n)))
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := &m.pairs
	p.off = make([]int, n+1)
	for x := range n {
		p.off[x+1] = p.off[x] + int(sizes[x+1])
	}
	total := p.off[n]
	p.partner, p.shared = make([]int32, 0, total), make([]int32, 0, total)
	for i, c := range chunks {
		for _, pc := range c {
			p.partner = append(p.partner, pc.partner)
			p.shared = append(p.shared, pc.shared)
		}
		chunks[i] = nil
	}
	p.bestLater, p.bestEarlier = make([]bool, total), make([]bool, total)
	m.markBest(workers, chunk)
	return nil
}

// markBest marks, for each document and partner source, the pair of its
// best match there, as Select chooses it: the most rare words shared (its
// own share the largest), passing the threshold of its own size; then,
// with TiesMutual, the smallest partner (the largest reverse share); then
// the earliest partner (a document's pairs come in the order of its
// partners, and dense numbers keep the ordinals' order). It goes over each document's pairs with its earlier
// partners, then, through an index built here, those with its later ones.
func (m *method) markBest(workers, chunk int) {
	p := &m.pairs
	n := len(m.dense)
	// later[laterOff[d]:laterOff[d+1]] are the pairs whose earlier
	// document is d, in increasing order of the later one.
	laterOff := make([]int, n+1)
	for _, d := range p.partner {
		laterOff[d+1]++
	}
	for d := range n {
		laterOff[d+1] += laterOff[d]
	}
	later := make([]int, len(p.partner))
	fill := slices.Clone(laterOff[:n])
	for i, d := range p.partner {
		later[fill[d]] = i
		fill[d]++
	}
	fill = nil
	// laterDoc returns the later document of pair i.
	laterDoc := func(i int) int32 {
		x, _ := slices.BinarySearch(p.off, i+1)
		return int32(x - 1)
	}
	type best struct {
		pair         int // -1: none yet
		shared, size int32
		earlier      bool // the document is the pair's earlier one
	}
	chunks := (n + chunk - 1) / chunk
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, chunks)) {
		wg.Go(func() {
			bySrc := make([]best, len(m.srcNames))
			for i := range bySrc {
				bySrc[i].pair = -1
			}
			var touched []int32
			mutual := m.o.Ties == TiesMutual
			consider := func(i int, partner int32, shared, need int32, earlier bool) {
				if shared < need {
					return
				}
				src, size := m.denseSrc[partner], int32(len(m.rare[m.dense[partner]]))
				b := &bySrc[src]
				if b.pair < 0 {
					touched = append(touched, src)
				} else if shared < b.shared || shared == b.shared && (!mutual || size >= b.size) {
					return
				}
				*b = best{i, shared, size, earlier}
			}
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				for v := c * chunk; v < min(n, (c+1)*chunk); v++ {
					need := m.needDense[v]
					for i := p.off[v]; i < p.off[v+1]; i++ {
						consider(i, p.partner[i], p.shared[i], need, false)
					}
					for _, i := range later[laterOff[v]:laterOff[v+1]] {
						consider(i, laterDoc(i), p.shared[i], need, true)
					}
					for _, src := range touched {
						b := &bySrc[src]
						if b.earlier {
							p.bestEarlier[b.pair] = true
						} else {
							p.bestLater[b.pair] = true
						}
						b.pair = -1
					}
					touched = touched[:0]
				}
			}
		})
	}
	wg.Wait()
}

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] { return &matcher{m: m} }

// matcher emits the pairs countPairs found of a Batch's document with the
// documents before it: those that are the best of one of their views, or
// under a news window all of them.
type matcher struct{ m *method }

func (x *matcher) Match(ord int32, _ *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	m := x.m
	if len(m.rare[ord]) == 0 || m.state[ord] != indexed {
		return nil
	}
	_, windowed := src.(engine.Windowed)
	self, _ := slices.BinarySearch(m.dense, ord)
	p := &m.pairs
	for i := p.off[self]; i < p.off[self+1]; i++ {
		if windowed || p.bestLater[i] || p.bestEarlier[i] {
			o := m.dense[p.partner[i]]
			ev := m.evidence(o, ord, int(p.shared[i]))
			ab, ba := ev.shares()
			emit(o, max(ab, ba), ev)
		}
	}
	return nil
}
