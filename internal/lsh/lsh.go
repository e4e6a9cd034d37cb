// Package lsh is the scaffolding the sketch-and-band methods (minhash,
// simhash) share: a candidate index from band keys to documents, the
// matchers of a Batch over it, and the verification of candidates by their
// shingle samples, which leaves out, unread past the shared count, a pair
// sharing too few fingerprints for any label. A method gives what is its
// own (its band keys, its evidence) as the funcs of a Banding, and wires
// the Table into its engine.Method.
package lsh

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/similarity"
)

// Banding is what a sketch-and-band method with sketches S and evidence E
// tells its Table. The funcs marked optional may be nil.
type Banding[S any, E core.Evidence] struct {
	// Keys appends the band keys of s to dst: documents sharing a key
	// are candidates of each other.
	Keys func(dst []uint32, s *S) []uint32
	// Indexed, optional, drops from s what only indexing reads, once its
	// keys are in the index (minhash keeps its keys in the sketch).
	Indexed func(s *S)
	// Sample returns s's shingle sample: its sorted fingerprints, all of
	// them up to cut (see similarity.InRange). A document with an empty
	// sample is indexed, never matched.
	Sample func(s *S) (set []uint32, cut uint32)
	// Near, optional, rules out candidate c of s before its sketch is
	// read (simhash: fingerprints farther apart than its tables find).
	Near func(c int32, s *S) bool
	// Evidence completes the evidence of the earlier document a
	// (ordinal c) and the later b, whose samples share enough for a label
	// and score sets.
	Evidence func(c int32, a, b *S, sets similarity.SetScores) E
	// Touch, optional, reads a part of s: before any candidate held in
	// memory (a Batch's) is compared, each is touched, so that the cache
	// misses of reading them overlap rather than follow one another.
	Touch func(s *S) uint32
	// BucketLimit is how many members of one bucket a document is
	// compared with (see candidates.Postings.Visit).
	BucketLimit int
	// Size, optional, is about how many bytes s holds in memory, with 8
	// bytes a band key for the postings, for a Batch's memory budget (see
	// engine.Spiller); without it the sample and the keys are counted.
	Size func(s *S) int
	// Bounds are the lowest scores the method's labels report.
	Bounds Bounds
	// Floor, optional, replaces Bounds.Floor for the pair a, b whose
	// samples over the range both kept hold na and nb fingerprints: a
	// method whose labels read more than the samples (minhash's titles).
	Floor func(a, b *S, na, nb int) int
	// Score, optional, returns the score of a pair with evidence ev, the
	// value of the measure that decides its label, and ev, which may name
	// that measure; without it the score is the Jaccard index. ev is
	// passed and returned by value: a pointer to it would put every
	// verified pair's evidence on the heap.
	Score func(ev E) (float64, E)
}

// Bounds are the lowest scores a sketch-and-band method's labels report: a
// pair is a duplicate at a Jaccard index of Threshold or a containment of
// Containment, similar at a Jaccard index of Similar (0: never).
type Bounds struct {
	Threshold, Similar, Containment float64
}

// Floor returns the fewest fingerprints two samples of na and nb (over the
// range both kept) must share for either label: a pair sharing fewer is not
// verified further, whatever else its evidence holds.
func (b Bounds) Floor(na, nb int) int {
	return similarity.FloorShared(na, nb, b.Threshold, b.Similar, b.Containment)
}

// Table is the candidate index of a sketch-and-band method: it is the
// method's engine.Matching but for Add, which a method keeps for corpus
// statistics of its own, and its Parallel, Check and Restore stages. Like
// any engine.Matching it is not safe for concurrent use, but for what each
// stage allows.
type Table[S any, E core.Evidence] struct {
	b     Banding[S, E]
	post  candidates.Postings
	keys  []uint32
	cands []int32
	// earlier holds every document's candidates once IndexAll has run.
	earlier *candidates.Earlier

	// settled counts the candidates verified and found sharing too
	// little for any label before their whole evidence was computed:
	// they count as verified in the statistics without being emitted.
	settled atomic.Int64
}

// New returns an empty Table of the method b describes.
func New[S any, E core.Evidence](b Banding[S, E]) *Table[S, E] { return &Table[S, E]{b: b} }

// Settled returns how many candidates were verified and left out for
// sharing too little of their samples, for the statistics.
func (x *Table[S, E]) Settled() int { return int(x.settled.Load()) }

// searches reports whether s looks for candidates.
func (x *Table[S, E]) searches(s *S) bool {
	set, _ := x.b.Sample(s)
	return len(set) > 0
}

// Match finds s's candidates among the indexed documents and verifies
// them (engine.Matching).
func (x *Table[S, E]) Match(ord int32, s *S, src engine.Source[S], emit func(int32, float64, E)) error {
	if !x.searches(s) {
		return nil
	}
	x.cands = x.cands[:0]
	x.keys = x.b.Keys(x.keys[:0], s)
	for _, k := range x.keys {
		x.post.Visit(uint64(k), x.b.BucketLimit, x.collect)
	}
	return x.verify(x.cands, s, src, false, emit)
}

// collect gathers candidates.
func (x *Table[S, E]) collect(d int32) { x.cands = append(x.cands, d) }

// Index adds the document's band keys to the index (engine.Matching).
func (x *Table[S, E]) Index(ord int32, s *S) {
	x.keys = x.b.Keys(x.keys[:0], s)
	for _, k := range x.keys {
		x.post.Add(uint64(k), ord)
	}
	if x.b.Indexed != nil {
		x.b.Indexed(s)
	}
}

// Remove takes the document's band keys out of the index; s holds what
// the method's index part decodes, or is nil.
func (x *Table[S, E]) Remove(ord int32, s *S) {
	if s == nil {
		return
	}
	x.keys = x.b.Keys(x.keys[:0], s)
	for _, k := range x.keys {
		x.post.Remove(uint64(k), ord)
	}
}

// Similarity is the Jaccard index of two documents' samples over the range
// both kept (engine.Matching).
func (x *Table[S, E]) Similarity(a, b int32, src engine.Source[S]) (float64, error) {
	sa, err := src.Sketch(a)
	if err != nil {
		return 0, err
	}
	sb, err := src.Sketch(b)
	if err != nil {
		return 0, err
	}
	setA, cutA := x.b.Sample(sa)
	setB, cutB := x.b.Sample(sb)
	return similarity.ScoresBelow(setA, cutA, setB, cutB).Jaccard, nil
}

// Restore indexes many documents at once, their keys sorted into a
// read-only part of the index (the engine's Restore stage).
func (x *Table[S, E]) Restore(ords []int32, ss []*S) {
	var keys []uint32
	var docs []int32
	for i, s := range ss {
		n := len(keys)
		keys = x.b.Keys(keys, s)
		for range len(keys) - n {
			docs = append(docs, ords[i])
		}
		if x.b.Indexed != nil {
			x.b.Indexed(s)
		}
	}
	x.post.Freeze(keys, docs)
}

// Candidates appends the documents of s's buckets to dst: Match's
// candidates, unsorted (engine.Checker). It only reads the index.
func (x *Table[S, E]) Candidates(dst []int32, s *S) []int32 {
	if !x.searches(s) {
		return dst
	}
	for _, k := range x.b.Keys(nil, s) {
		x.post.Visit(uint64(k), x.b.BucketLimit, func(d int32) { dst = append(dst, d) })
	}
	return dst
}

// Verify is Match's verification of s against cands (engine.Checker).
func (x *Table[S, E]) Verify(cands []int32, s *S, src engine.Source[S], emit func(int32, float64, E)) error {
	if !x.searches(s) {
		return nil
	}
	return x.verify(cands, s, src, false, emit)
}

// IndexAll finds, for every document, its candidates among the documents
// before it, for a Batch's matchers (engine.Parallel): the documents
// sharing a band key with it, under the bucket limit, as Match visits them
// matching one document after another (see candidates.Earlier), found for
// every document at once on as many goroutines as there are processors. It
// drops what only indexing reads of every sketch. The candidates are found
// in one step, which stops soon after ctx is done; progress is left to the
// matchers.
func (x *Table[S, E]) IndexAll(ctx context.Context, ss []*S, _ func(done int)) error {
	n := 0
	var keys []uint32
	searching := make([]uint64, (len(ss)+63)/64) // the documents that look for candidates
	for ord, s := range ss {
		if ord%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if s != nil {
			keys = x.b.Keys(keys[:0], s)
			n += len(keys)
			if x.searches(s) {
				searching[ord/64] |= 1 << (ord % 64)
			}
		}
	}
	parts := runtime.GOMAXPROCS(0)
	yields := make([]int, parts) // how many times each part was read
	var err error
	x.earlier, err = candidates.NewEarlier(ctx, n, len(ss), parts, x.b.BucketLimit,
		func(d int32) bool { return searching[d/64]&(1<<(d%64)) != 0 },
		func(part int, yield func(key uint32, doc int32)) {
			var keys []uint32
			lo, hi := part*len(ss)/parts, (part+1)*len(ss)/parts
			yields[part]++
			for ord := lo; ord < hi; ord++ {
				if (ord-lo)%1024 == 0 && ctx.Err() != nil {
					return // NewEarlier returns the error
				}
				if s := ss[ord]; s != nil {
					keys = x.b.Keys(keys[:0], s)
					for _, k := range keys {
						yield(k, int32(ord))
					}
					if yields[part] == 2 && x.b.Indexed != nil {
						x.b.Indexed(s) // read for the last time
					}
				}
			}
		})
	return err
}

// NewMatcher returns a matcher for one goroutine of a Batch
// (engine.Parallel).
func (x *Table[S, E]) NewMatcher() engine.Matcher[S, E] { return &matcher[S, E]{x: x} }

// matcher matches a Batch's documents against those before them, the
// candidates IndexAll found.
type matcher[S any, E core.Evidence] struct {
	x     *Table[S, E]
	cands []int32
}

// Match matches document ord against the documents before it.
func (mt *matcher[S, E]) Match(ord int32, s *S, src engine.Source[S], emit func(int32, float64, E)) error {
	x := mt.x
	if !x.searches(s) {
		return nil
	}
	mt.cands = x.earlier.Append(mt.cands[:0], ord)
	return x.verify(mt.cands, s, src, true, emit)
}

// verify scores the distinct candidates cands, which it sorts, against s
// and emits each that shares enough of its sample for some label, in
// increasing ordinal order; a candidate outside the news window
// (engine.Outside) or not Near is skipped unread. inMemory says src's
// sketches are in memory (a Batch's), to be touched first.
func (x *Table[S, E]) verify(cands []int32, s *S, src engine.Source[S], inMemory bool, emit func(int32, float64, E)) error {
	slices.Sort(cands)
	cands = slices.Compact(cands)
	if inMemory && x.b.Touch != nil {
		touch(cands, src, x.b.Touch)
	}
	settled := 0
	for _, c := range cands {
		if x.b.Near != nil && !x.b.Near(c, s) {
			continue
		}
		if engine.Outside(src, c) {
			continue
		}
		cs, err := src.Sketch(c)
		if err != nil {
			return err
		}
		score, ev, ok := x.Pair(c, cs, s)
		if !ok {
			settled++
			continue
		}
		emit(c, score, ev)
	}
	if settled > 0 {
		x.settled.Add(int64(settled))
	}
	return nil
}

// Pair verifies the earlier document a (ordinal c) against the later b:
// their evidence and score (Banding.Score, else the Jaccard index of their
// samples) and true, or false when their samples share too little for any
// label, before the rest of the evidence is computed. The evidence is made
// only for a pair that passes: most candidates do not.
func (x *Table[S, E]) Pair(c int32, a, b *S) (float64, E, bool) {
	setA, cutA := x.b.Sample(a)
	setB, cutB := x.b.Sample(b)
	p, q := similarity.InRange(setA, cutA, setB, cutB)
	var floor int
	if x.b.Floor != nil {
		floor = x.b.Floor(a, b, len(p), len(q))
	} else {
		floor = x.b.Bounds.Floor(len(p), len(q))
	}
	n, ok := similarity.OverlapAtLeast(p, q, floor)
	if !ok {
		var none E
		return 0, none, false
	}
	sets := similarity.ScoresOf(n, len(p), len(q))
	ev := x.b.Evidence(c, a, b, sets)
	if x.b.Score != nil {
		var score float64
		score, ev = x.b.Score(ev)
		return score, ev, true
	}
	return sets.Jaccard, ev, true
}

// touched keeps touch's loads from being dropped as unused.
var touched atomic.Uint32

// touch reads a part of each candidate's sketch before any is compared:
// each read misses the cache (the sketch's place in the table, the sketch,
// its sample), and reads that do not wait for one another overlap their
// misses instead of paying them in turn. Only for a source whose Sketch is
// a look-up in memory.
func touch[S any](cands []int32, src engine.Source[S], part func(s *S) uint32) {
	var sum uint32
	for _, c := range cands {
		if cs, err := src.Sketch(c); err == nil {
			sum += part(cs)
		}
	}
	if sum == 1 {
		touched.Add(1)
	}
}
