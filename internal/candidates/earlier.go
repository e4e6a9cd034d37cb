package candidates

import (
	"context"
	"slices"
)

// Earlier holds, for every document of a batch, its candidates among the
// documents before it: the documents sharing a key with it, as many of
// each key's as VisitBucket allows, which is what Visit of a Postings
// holding the documents before it visits under its keys. They are found for
// every document at once by reading each key's documents together instead
// of looking up every document's keys in turn: the postings are grouped by
// key in a few sequential passes, each key's run gives the pairs its
// documents are compared in, and the pairs are grouped by their later
// document. Nothing is read at random in memory larger than the caches.
//
// An Earlier is read-only once built: Append is safe for concurrent use.
type Earlier struct {
	// pairs holds later<<32 | earlier, distinct, sorted within each
	// block of blockDocs later documents; block b's run is
	// pairs[starts[b]:ends[b]].
	pairs        []uint64
	starts, ends []int
}

// blockDocs is how many later documents' pairs are sorted together: a
// block's pairs (tens per document) fit a core's cache.
const blockDocs = 1024

// partRecords is about how many postings are grouped by key at a time,
// in a core's cache.
const partRecords = 1 << 15

// NewEarlier returns the candidates of docs documents among those before
// each, from the n postings (key, document) that each(part, yield) yields,
// parts by parts goroutines at once: part p yields the p-th of parts
// disjoint shares of them, the documents of one part all below those of the
// next and yielded in increasing order, and is called twice. Of two
// documents sharing a key, the later is given the earlier under limit as
// VisitBucket tells (limit <= 0: every one); a document of the postings
// for which searches is false is given none.
//
// It stops soon after ctx is done, returning its error: each may then end
// before yielding all it has (between documents, say), and every step
// after that looks at ctx every ctxGroups groups of postings.
func NewEarlier(ctx context.Context, n, docs, parts, limit int, searches func(doc int32) bool,
	each func(part int, yield func(key uint32, doc int32))) (*Earlier, error) {
	parts = max(1, parts)
	recs, groups, bits, err := groupByKey(ctx, n, parts, each)
	if err != nil {
		return nil, err
	}
	e := &Earlier{}
	blocks := (docs + blockDocs - 1) / blockDocs
	// Each goroutine reads a share of the groups twice: sorting each
	// and counting the pairs of its keys' runs by block of later
	// documents, then writing them where the counts say, so that the
	// pairs are held once, in place.
	share := func(p int) (lo, hi int) { return p * (len(groups) - 1) / parts, (p + 1) * (len(groups) - 1) / parts }
	counts := make([][]int, parts)
	inParallel(parts, func(p int) {
		count := make([]int, blocks)
		var tmp []uint64
		lo, hi := share(p)
		for g := lo; g < hi; g++ {
			if (g-lo)%ctxGroups == 0 && ctx.Err() != nil {
				return
			}
			group := recs[groups[g]:groups[g+1]]
			tmp = sortByKey(group, tmp, bits)
			runPairs(group, limit, searches, func(later, _ uint32) { count[later/blockDocs]++ })
		}
		counts[p] = count
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.starts, e.ends = make([]int, blocks+1), make([]int, blocks)
	at := 0
	for b := range blocks {
		e.starts[b] = at
		for _, count := range counts {
			count[b], at = at, at+count[b]
		}
	}
	e.starts[blocks] = at
	e.pairs = make([]uint64, at)
	inParallel(parts, func(p int) {
		next := counts[p]
		lo, hi := share(p)
		for g := lo; g < hi; g++ {
			if (g-lo)%ctxGroups == 0 && ctx.Err() != nil {
				return
			}
			runPairs(recs[groups[g]:groups[g+1]], limit, searches, func(later, earlier uint32) {
				b := later / blockDocs
				e.pairs[next[b]] = uint64(later)<<32 | uint64(earlier)
				next[b]++
			})
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inParallel(parts, func(p int) {
		for b := p * blocks / parts; b < (p+1)*blocks/parts; b++ {
			if b%ctxGroups == 0 && ctx.Err() != nil {
				return
			}
			block := e.pairs[e.starts[b]:e.starts[b+1]]
			slices.Sort(block)
			e.ends[b] = e.starts[b] + len(slices.Compact(block))
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

// ctxGroups is how many groups of postings (or blocks of pairs) NewEarlier
// goes through between looks at its context.
const ctxGroups = 16

// groupByKey returns the n records (mix32(key)<<32 | document) that each
// yields, grouped by the mix's high bits bits: group g is
// recs[groups[g]:groups[g+1]], about partRecords records, each in the order
// the parts yielded them.
func groupByKey(ctx context.Context, n, parts int, each func(part int, yield func(key uint32, doc int32))) (recs []uint64, groups []int, bits uint, err error) {
	for n>>bits > partRecords && bits < 16 {
		bits++
	}
	shift := 32 - bits
	counts := make([][]int, parts)
	inParallel(parts, func(p int) {
		count := make([]int, 1<<bits)
		each(p, func(k uint32, _ int32) { count[mix32(k)>>shift]++ })
		counts[p] = count
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, err // each may have stopped short
	}
	groups = make([]int, 1<<bits+1)
	at := 0
	for g := range 1 << bits {
		groups[g] = at
		for _, count := range counts {
			count[g], at = at, at+count[g]
		}
	}
	groups[1<<bits] = at
	if at != n {
		panic("candidates: Earlier: each yielded another count than n")
	}
	recs = make([]uint64, n)
	inParallel(parts, func(p int) {
		next := counts[p]
		each(p, func(k uint32, d int32) {
			h := mix32(k)
			g := h >> shift
			recs[next[g]] = uint64(h)<<32 | uint64(uint32(d))
			next[g]++
		})
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, err
	}
	return recs, groups, bits, nil
}

// radixBits is the width of a digit of sortByKey's radix sort: its counts
// and the places it writes to stay in a core's first caches.
const radixBits = 11

// sortByKey sorts the records of one group of groupByKey, whose keys' mixes
// share their high bits bits, by key and, within a key, by document, given
// them in increasing order of documents; tmp is scratch space, returned for
// the next call. A radix sort on the mix's other bits, stable: it reads
// the group a few times in order, where a comparison sort would compare
// each record about twenty times.
func sortByKey(recs, tmp []uint64, bits uint) []uint64 {
	if len(recs) < 256 {
		slices.Sort(recs) // documents in order: sorting the records is sorting by key
		return tmp
	}
	tmp = slices.Grow(tmp[:0], len(recs))[:len(recs)]
	src, dst := recs, tmp
	var count [1 << radixBits]int
	for shift := uint(32); shift < 64-bits; shift += radixBits {
		clear(count[:])
		for _, r := range src {
			count[r>>shift&(1<<radixBits-1)]++
		}
		at := 0
		for i, c := range count {
			count[i], at = at, at+c
		}
		for _, r := range src {
			d := r >> shift & (1<<radixBits - 1)
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &recs[0] {
		copy(recs, src)
	}
	return tmp
}

// runPairs calls pair with each pair (later, earlier) of the keys' runs of
// the sorted records recs: for each document's first record in a run, the
// records before it there that VisitBucket visits.
func runPairs(recs []uint64, limit int, searches func(doc int32) bool, pair func(later, earlier uint32)) {
	for lo := 0; lo < len(recs); {
		key := recs[lo] >> 32
		hi := lo + 1
		for hi < len(recs) && recs[hi]>>32 == key {
			hi++
		}
		for j := lo + 1; j < hi; j++ {
			later := uint32(recs[j])
			if later == uint32(recs[j-1]) || !searches(int32(later)) {
				continue // a key twice in one document gives the same pairs
			}
			n := j - lo
			first := 0
			if limit > 0 && n > limit {
				first = n - (limit - 1)
				pair(later, uint32(recs[lo])) // the anchor
			}
			for i := lo + first; i < j; i++ {
				pair(later, uint32(recs[i]))
			}
		}
		lo = hi
	}
}

// Append appends to dst the candidates of doc among the documents before
// it, in increasing order, each once.
func (e *Earlier) Append(dst []int32, doc int32) []int32 {
	b := int(doc) / blockDocs
	if e == nil || b >= len(e.ends) {
		return dst
	}
	block := e.pairs[e.starts[b]:e.ends[b]]
	lo, _ := slices.BinarySearch(block, uint64(doc)<<32)
	for _, r := range block[lo:] {
		if r>>32 != uint64(doc) {
			break
		}
		dst = append(dst, int32(uint32(r)))
	}
	return dst
}

// Len returns the number of distinct pairs held.
func (e *Earlier) Len() int {
	n := 0
	for b := range e.ends {
		n += e.ends[b] - e.starts[b]
	}
	return n
}
