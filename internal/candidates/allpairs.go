package candidates

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"github.com/neardup/neardup/internal/similarity"
)

// AllPairs is an exact cosine similarity join over sparse vectors of norm
// at most 1, built one vector at a time: Query returns every vector added
// before whose dot product with the query meets the threshold, and nothing
// else, exactly as comparing the query with each of them would, but
// without doing so. A dot product meets the threshold when it is at least
// the threshold less its similarity.Tolerance (similarity.Meets): the vectors'
// weights are 32-bit, and a pair whose exact cosine is the threshold may
// be computed just below it.
//
// It is the AllPairs / L2AP family of joins. Terms are taken in increasing
// id order, which callers should make the order of decreasing document
// frequency. Each added vector keeps its first terms out of the inverted
// lists while a bound shows they alone cannot reach the threshold with any
// query: the Euclidean norm of that prefix (Cauchy–Schwarz), and with
// SetQueryBound also the sum of its weights times the largest weight each
// term will have in a query. A query walks its own terms from the last
// (rarest), admits new candidates only while the norm of its remaining
// terms, or their weights times the largest stored weight of each term,
// can still reach the threshold, completes the candidates' scores over the
// rest of its terms (frequent terms have short lists: they mostly sit in
// unindexed prefixes), and drops a candidate as soon as its accumulated
// score plus the product of both remaining norms falls short.
// Survivors are verified with similarity.Dense, whose dot products are
// those of similarity.Dot to the bit, so a reported score is the exact one
// and a pair is reported exactly when Dot meets the threshold.
//
// Bounds are compared with a slack of 1e-6, more than similarity.Tolerance, so
// float32 rounding of the weights can only admit more candidates, never
// lose a pair.
//
// An AllPairs is not safe for concurrent use. Add, Remove and Query take
// ordinals (ids need not be dense, but memory grows with the largest).
type AllPairs struct {
	t, cut float64
	vector func(id int32) similarity.Sparse

	qmax   []float32   // bound on each term's weight in every future query; nil: none
	amax   []float32   // largest weight of each term among added vectors
	lists  [][]posting // by term: the indexed suffixes of the added vectors
	prefix []prefix    // by id
	pnorm  []float32   // by id: the norm of the vector's unindexed prefix
	q      Querier     // Query's state
	stats  JoinStats   // Indexed; the rest is Query's

	// Queriers' counts (see NewQuerier), added as they query.
	scanned, candidates, verified, found atomic.Int64
}

// A Querier queries a join that no longer changes (QueryBefore) with its
// own state, so that several goroutines, one Querier each, query at once.
type Querier struct {
	j       *AllPairs
	acc     []accum          // by id, during a query
	marks   []marks          // two bits by id, during a query
	touched []int32          // every id the query met (marked seen)
	lists   [][]posting      // by query term: its inverted list, cut at before
	probes  []probe          // the binary searches cutting lists
	dense   similarity.Dense // the query, during a query
	stats   JoinStats
}

// probe is the state of a binary search for the cut of the list of a
// query's k-th term: the cut lies in [base, base+n].
type probe struct{ k, base, n int32 }

// prefix describes the unindexed prefix of a vector. A prefix of at most
// inline terms is kept here (terms and weights), so that a query completes
// a candidate's score without reading its vector.
type prefix struct {
	n       int32 // terms in the prefix
	added   bool
	terms   [inline]uint32
	weights [inline]float32
}

// inline is how many prefix terms a prefix holds itself.
const inline = 2

// decided is how far from the threshold a score summed in another order
// than Dot's must lie to decide a pair without Dot: float32 weights
// multiply exactly in float64, so two orders of summing a few hundred
// products differ by well under 1e-12.
const decided = 1e-9

// marks hold, for 64 ids, whether the query met each (seen) and whether it
// is a candidate not dropped (live): small enough to stay in cache, they
// spare the scan reading the score of a dropped candidate, and the score of
// one dropped as it arrives is never written.
type marks struct{ seen, live uint64 }

// accum is a candidate's state during a query, written whole when it
// arrives and read only while its live mark is set (so never cleared): the
// score accumulated so far and the norm of the query's terms before the
// last term accumulated.
type accum struct{ score, rest float64 }

// JoinStats count an AllPairs' work.
type JoinStats struct {
	Indexed    int // postings in the inverted lists
	Scanned    int // postings read by queries
	Candidates int // vectors a query accumulated a score for
	Verified   int // dot products computed
	Found      int // pairs at or above the threshold
}

// posting is one indexed term of a vector: the vector, the term's weight,
// and the norm of the vector's terms before this one.
type posting struct {
	id     int32
	w      float32
	before float32
}

// slack absorbs float32 rounding in the bounds.
const slack = 1e-6

// NewAllPairs returns an empty join at threshold t (0 < t <= 1). vector
// returns the vector added under id; the join calls it to verify
// candidates, so it must return the same vector as long as the join is in
// use.
func NewAllPairs(t float64, vector func(id int32) similarity.Sparse) *AllPairs {
	if !(t > 0 && t <= 1) {
		panic("candidates: all-pairs threshold out of (0, 1]")
	}
	// A score within rounding of 1 is 1 (similarity.Unit), so the bounds
	// of a join at 1 admit those just below it.
	j := &AllPairs{t: t, cut: min(t, similarity.NearOne) - slack, vector: vector}
	j.q.j = j
	return j
}

// NewQuerier returns a Querier of the join as it stands: the join must not
// change while it is in use.
func (j *AllPairs) NewQuerier() *Querier {
	return &Querier{j: j, acc: make([]accum, len(j.prefix))}
}

// Threshold returns the join's threshold.
func (j *AllPairs) Threshold() float64 { return j.t }

// SetQueryBound declares that no vector queried from now on has a weight
// above qmax[term] for any term below len(qmax); terms past its end are
// unbounded. It is valid only when that holds (a batch knows every vector in
// advance) and must be called before the first Add. It shortens the
// inverted lists of frequent terms, whose weights are small everywhere.
func (j *AllPairs) SetQueryBound(qmax []float32) {
	if len(j.prefix) > 0 {
		panic("candidates: SetQueryBound after Add")
	}
	j.qmax = qmax
}

// Reserve makes room for ids below ids and terms below terms, so that a
// batch that knows its sizes does not grow the tables as it adds.
func (j *AllPairs) Reserve(ids, terms int) {
	j.prefix = slices.Grow(j.prefix, ids-len(j.prefix))
	j.pnorm = slices.Grow(j.pnorm, ids-len(j.pnorm))
	j.q.acc = slices.Grow(j.q.acc, ids-len(j.q.acc))
	j.lists = slices.Grow(j.lists, terms-len(j.lists))
	j.amax = slices.Grow(j.amax, terms-len(j.amax))
}

// Stats returns the work done so far, Queriers' included.
func (j *AllPairs) Stats() JoinStats {
	st := j.stats
	st.Scanned += j.q.stats.Scanned + int(j.scanned.Load())
	st.Candidates += j.q.stats.Candidates + int(j.candidates.Load())
	st.Verified += j.q.stats.Verified + int(j.verified.Load())
	st.Found += j.q.stats.Found + int(j.found.Load())
	return st
}

// Add indexes v under id. Each id is added once; v's weights must not be
// negative and its norm must be at most 1.
func (j *AllPairs) Add(id int32, v similarity.Sparse) {
	j.grow(id)
	var norm2, lin float64
	k := 0
	for ; k < len(v.Terms); k++ {
		w := float64(v.Weights[k])
		bound := math.Sqrt(norm2 + w*w)
		if q := j.queryMax(v.Terms[k]); q < 1 {
			bound = min(bound, lin+w*q)
		}
		if bound >= j.cut {
			break
		}
		norm2 += w * w
		lin += w * j.queryMax(v.Terms[k])
	}
	p := prefix{n: int32(k), added: true}
	j.pnorm[id] = float32(math.Sqrt(norm2))
	if k <= inline {
		copy(p.terms[:], v.Terms[:k])
		copy(p.weights[:], v.Weights[:k])
	}
	j.prefix[id] = p
	for ; k < len(v.Terms); k++ {
		term, w := v.Terms[k], v.Weights[k]
		if w == 0 {
			continue
		}
		for int(term) >= len(j.lists) {
			j.lists = append(j.lists, nil)
		}
		j.lists[term] = append(j.lists[term], posting{id: id, w: w, before: float32(math.Sqrt(norm2))})
		norm2 += float64(w) * float64(w)
		j.stats.Indexed++
	}
	if norm2 > 1+1e-5 {
		panic("candidates: all-pairs vector of norm above 1")
	}
	for i, term := range v.Terms {
		for int(term) >= len(j.amax) {
			j.amax = append(j.amax, 0)
		}
		j.amax[term] = max(j.amax[term], v.Weights[i])
	}
}

// Remove takes id out of the join: its postings leave the inverted lists
// of the terms it indexed, and its prefix is reset, so no later query
// returns it. vector(id) must still return the vector added under id when
// Remove is called; an id never added, or removed already, is ignored. The
// largest weight of each term among added vectors is not lowered: it stays
// a valid, if loose, bound.
func (j *AllPairs) Remove(id int32) {
	if id < 0 || int(id) >= len(j.prefix) || !j.prefix[id].added {
		return
	}
	v := j.vector(id)
	for k := int(j.prefix[id].n); k < len(v.Terms); k++ {
		term := v.Terms[k]
		if v.Weights[k] == 0 || int(term) >= len(j.lists) {
			continue
		}
		if i := find(j.lists[term], id); i >= 0 {
			j.lists[term] = slices.Delete(j.lists[term], i, i+1)
			j.stats.Indexed--
		}
	}
	j.prefix[id], j.pnorm[id] = prefix{}, 0
}

// find returns the position of id's posting in list, or -1. Lists are in
// the order vectors were added, which is increasing id order when ids are
// added in order: a binary search finds it then, a scan otherwise.
func find(list []posting, id int32) int {
	i, ok := slices.BinarySearchFunc(list, id, func(p posting, id int32) int { return cmp.Compare(p.id, id) })
	if ok {
		return i
	}
	return slices.IndexFunc(list, func(p posting) bool { return p.id == id })
}

func (j *AllPairs) queryMax(term uint32) float64 {
	if int(term) < len(j.qmax) {
		return float64(j.qmax[term])
	}
	return 1
}

func (j *AllPairs) addedMax(term uint32) float64 {
	if int(term) < len(j.amax) {
		return float64(j.amax[term])
	}
	return 0
}

func (j *AllPairs) grow(id int32) {
	if n := int(id) + 1; n > len(j.prefix) {
		j.prefix = slices.Grow(j.prefix, n-len(j.prefix))[:n]
		j.pnorm = slices.Grow(j.pnorm, n-len(j.pnorm))[:n]
		j.q.acc = slices.Grow(j.q.acc, n-len(j.q.acc))[:n]
	}
	if j.prefix[id].added {
		panic("candidates: all-pairs id added twice")
	}
}

// Query calls fn, in increasing id order, with every added vector whose dot
// product with x meets the threshold, and that product. x's norm must be
// at most 1. x itself need not be added.
func (j *AllPairs) Query(x similarity.Sparse, fn func(id int32, score float64)) {
	j.q.query(x, math.MaxInt32, true, fn)
}

// QueryBefore is Query restricted to the vectors added under ids below
// before: what Query would return had only they been added. It needs
// vectors added in increasing id order (each inverted list is then in that
// order); the bounds on the query's terms count every vector added, so it
// may accumulate more candidates than Query would have then, and verifies
// them exactly. Each Querier counts its work into the join's Stats.
func (q *Querier) QueryBefore(x similarity.Sparse, before int32, fn func(id int32, score float64)) {
	q.before(x, before, true, fn)
}

// IDsBefore calls fn with the ids QueryBefore would report, in the same
// order, without their scores: a candidate whose score the query has
// summed completely (its unindexed prefix held inline) and that lies
// clearly above or below the threshold is decided without computing Dot.
func (q *Querier) IDsBefore(x similarity.Sparse, before int32, fn func(id int32)) {
	q.before(x, before, false, func(id int32, _ float64) { fn(id) })
}

func (q *Querier) before(x similarity.Sparse, before int32, exact bool, fn func(id int32, score float64)) {
	q.stats = JoinStats{}
	q.query(x, before, exact, fn)
	j := q.j
	j.scanned.Add(int64(q.stats.Scanned))
	j.candidates.Add(int64(q.stats.Candidates))
	j.verified.Add(int64(q.stats.Verified))
	j.found.Add(int64(q.stats.Found))
}

// query is Query over the postings of ids below before. With exact false
// a pair may be decided without Dot (see IDsBefore): fn's score is then
// not Dot's to the bit, and fn must not use it.
func (q *Querier) query(x similarity.Sparse, before int32, exact bool, fn func(id int32, score float64)) {
	j := q.j
	if n := (len(q.acc) + 63) / 64; len(q.marks) < n {
		q.marks = append(q.marks, make([]marks, n-len(q.marks))...)
	}
	q.cut(x, before)
	var rest2, lin float64
	for k, term := range x.Terms {
		w := float64(x.Weights[k])
		rest2 += w * w
		lin += w * j.addedMax(term)
	}
	admit := true
	for k := len(x.Terms) - 1; k >= 0; k-- {
		// Once no vector not yet a candidate can reach the threshold, the
		// rest of the walk only completes the candidates' scores.
		admit = admit && min(math.Sqrt(max(rest2, 0)), lin) >= j.cut
		term, w := x.Terms[k], float64(x.Weights[k])
		rest2 -= w * w
		lin -= w * j.addedMax(term)
		if list := q.lists[k]; w > 0 && len(list) > 0 {
			if admit {
				q.scan(list, w, math.Sqrt(max(rest2, 0)))
			} else {
				q.complete(list, w, math.Sqrt(max(rest2, 0)))
			}
		}
	}
	q.stats.Candidates += len(q.touched)
	kept := q.touched[:0]
	for _, id := range q.touched {
		m, bit := &q.marks[id>>6], uint64(1)<<(id&63)
		if m.live&bit != 0 {
			if c := q.acc[id]; c.score+j.unaccounted(c, id) >= j.cut {
				kept = append(kept, id)
			}
		}
		m.seen &^= bit
		m.live &^= bit
	}
	slices.Sort(kept)
	q.dense.Set(x)
	at := j.t - similarity.Tolerance(j.t) // the least dot product that meets the threshold
	for _, id := range kept {
		score := q.acc[id].score
		if !exact {
			if s, ok := q.whole(id, score); ok {
				if s >= at+decided {
					q.stats.Found++
					fn(id, s)
					continue
				}
				if s < at-decided {
					continue
				}
			}
		}
		q.stats.Verified++
		if s := q.dense.Dot(j.vector(id)); similarity.Meets(s, j.t) {
			q.stats.Found++
			fn(id, s)
		}
	}
	q.touched = q.touched[:0]
}

// whole returns a kept candidate's whole dot product with the query,
// summed in another order than Dot's, when its unindexed prefix is held
// inline: the score accumulated over its indexed terms (every shared one,
// since a candidate is admitted at the first one the walk meets, or never,
// and a kept one was never dropped) plus the prefix's products. ok is
// false when the prefix is not inline.
func (q *Querier) whole(id int32, score float64) (s float64, ok bool) {
	p := &q.j.prefix[id]
	if p.n > inline {
		return 0, false
	}
	s = score
	for i := range p.n {
		s += q.dense.Weight(p.terms[i]) * float64(p.weights[i])
	}
	if math.Abs(s-similarity.NearOne) < decided {
		return 0, false // Dot's order decides whether it is 1 (similarity.Unit)
	}
	return similarity.Unit(s), true
}

// cut sets q.lists[k] to the inverted list of x's k-th term, cut to the
// postings of ids below before (lists are in increasing id order). The
// binary searches of all the terms advance in step, one probe each a round,
// so that their cache misses, which a search takes one after another,
// overlap across terms.
func (q *Querier) cut(x similarity.Sparse, before int32) {
	j := q.j
	q.lists, q.probes = slices.Grow(q.lists[:0], len(x.Terms)), slices.Grow(q.probes[:0], len(x.Terms))
	for k, term := range x.Terms {
		var list []posting
		if int(term) < len(j.lists) {
			list = j.lists[term]
		}
		q.lists = append(q.lists, list)
		if len(list) > 0 && before < math.MaxInt32 {
			q.probes = append(q.probes, probe{k: int32(k), n: int32(len(list))})
		}
	}
	for probes := q.probes; len(probes) > 0; {
		left := probes[:0]
		for _, p := range probes {
			list := q.lists[p.k]
			if p.n > 1 {
				half := p.n / 2
				if list[p.base+half].id < before {
					p.base += half
				}
				p.n -= half
			}
			if p.n > 1 {
				left = append(left, p)
				continue
			}
			// The cut is base or the one after: list[base+1:] is not below.
			if list[p.base].id < before {
				p.base++
			}
			q.lists[p.k] = list[:p.base]
		}
		probes = left
	}
}

// unaccounted bounds what a candidate's accumulated score lacks after the
// walk: the shared terms in its unindexed prefix, all before the last term
// accumulated, where the query's norm was c.rest (Cauchy–Schwarz). The
// prefix norms, 4 bytes an id, mostly stay in cache.
func (j *AllPairs) unaccounted(c accum, id int32) float64 {
	return c.rest * float64(j.pnorm[id])
}

// scan accumulates one query term of weight w over its inverted list,
// making new candidates; rest is the norm of the query's terms before it.
// A candidate is dropped when its score plus rest times the norm of its
// own terms before this one falls short: every shared term not yet
// accumulated lies there. Only a live candidate's score is read.
func (q *Querier) scan(list []posting, w, rest float64) {
	q.stats.Scanned += len(list)
	acc, ms, cut := q.acc, q.marks, q.j.cut
	for _, p := range list {
		m, bit := &ms[p.id>>6], uint64(1)<<(p.id&63)
		if m.live&bit != 0 {
			c := &acc[p.id]
			c.score += w * float64(p.w)
			c.rest = rest
			if c.score+rest*float64(p.before) < cut {
				m.live &^= bit
			}
			continue
		}
		if m.seen&bit != 0 {
			continue // dropped
		}
		m.seen |= bit
		q.touched = append(q.touched, p.id)
		if s := w * float64(p.w); s+rest*float64(p.before) >= cut {
			m.live |= bit
			acc[p.id] = accum{score: s, rest: rest}
		}
	}
}

// complete is scan once no new candidate can reach the threshold: it
// accumulates only the candidates not dropped.
func (q *Querier) complete(list []posting, w, rest float64) {
	q.stats.Scanned += len(list)
	acc, ms, cut := q.acc, q.marks, q.j.cut
	for _, p := range list {
		m, bit := &ms[p.id>>6], uint64(1)<<(p.id&63)
		if m.live&bit == 0 {
			continue
		}
		c := &acc[p.id]
		c.score += w * float64(p.w)
		c.rest = rest
		if c.score+rest*float64(p.before) < cut {
			m.live &^= bit
		}
	}
}
