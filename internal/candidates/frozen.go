package candidates

import (
	"slices"
	"sync"
)

// frozen is a read-only set of postings of 32-bit keys, built at once (see
// Postings.Freeze): each posting is one word, the key's mix in the high
// half and the document in the low, sorted, with a directory of where each
// prefix of the mix starts. It takes 8 bytes a posting, against about 31
// in the table, and builds by a distribution sort instead of probing a
// table at random.
type frozen struct {
	recs  []uint64
	dir   []uint32 // dir[b]: the first record whose mix starts with b
	shift uint     // 32 - the directory's bits
	keys  int      // distinct keys
	max   int32    // the largest document
}

// mix32 is a bijection of 32-bit keys that spreads them evenly (the
// lowbias32 mixer), so that the directory's buckets fill evenly.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// newFrozen builds the frozen postings of n records, which each(part,
// yield) yields, parts of them at once: part p yields the p-th of parts
// disjoint shares of the records, in any split, on a goroutine of its own
// (each part is called twice). The records are counted into the
// directory's buckets, scattered there, and each bucket (about four
// records) sorted, in the memory of the records and of a directory per
// part; the result does not depend on the split.
func newFrozen(n, parts int, each func(part int, yield func(key uint32, doc int32))) *frozen {
	bits := uint(1)
	for 1<<(bits+2) < n && bits < 30 {
		bits++ // about four postings a bucket
	}
	f := &frozen{recs: make([]uint64, n), shift: 32 - bits, dir: make([]uint32, 1<<bits+1), max: -1}
	parts = max(1, parts)
	// next[p][b] counts part p's records in bucket b, then becomes where
	// the next of them goes.
	next := make([][]uint32, parts)
	inParallel(parts, func(p int) {
		count := make([]uint32, len(f.dir)-1)
		each(p, func(k uint32, _ int32) { count[mix32(k)>>f.shift]++ })
		next[p] = count
	})
	for b := range len(f.dir) - 1 {
		at := f.dir[b]
		for _, count := range next {
			count[b], at = at, at+count[b]
		}
		f.dir[b+1] = at
	}
	if int(f.dir[len(f.dir)-1]) != n {
		panic("candidates: frozen postings: each yielded another count than n")
	}
	maxes := make([]int32, parts)
	inParallel(parts, func(p int) {
		next, most := next[p], int32(-1)
		each(p, func(k uint32, d int32) {
			h := mix32(k)
			b := h >> f.shift
			f.recs[next[b]] = uint64(h)<<32 | uint64(uint32(d))
			next[b]++
			most = max(most, d)
		})
		maxes[p] = most
	})
	f.max = slices.Max(maxes)
	// Within a key, documents come in increasing order: sorting whole
	// records puts them so, however the parts were split.
	keys := make([]int, parts)
	buckets := len(f.dir) - 1
	inParallel(parts, func(p int) {
		for b := p * buckets / parts; b < (p+1)*buckets/parts; b++ {
			bucket := f.recs[f.dir[b]:f.dir[b+1]]
			slices.Sort(bucket)
			for i, r := range bucket {
				if i == 0 || r>>32 != bucket[i-1]>>32 {
					keys[p]++
				}
			}
		}
	})
	for _, k := range keys {
		f.keys += k
	}
	return f
}

// inParallel calls fn(p) for every p below parts, each on a goroutine of
// its own but the last, and returns when all have returned.
func inParallel(parts int, fn func(p int)) {
	var wg sync.WaitGroup
	for p := range parts - 1 {
		wg.Go(func() { fn(p) })
	}
	fn(parts - 1)
	wg.Wait()
}

// lookup returns the range of key's records, its documents in the order
// they were given.
func (f *frozen) lookup(key uint32) (lo, hi int) {
	h := uint64(mix32(key))
	b := uint32(h) >> f.shift
	return f.search(h, int(f.dir[b]), int(f.dir[b+1]))
}

// search returns the records of the key whose mix is h in its bucket,
// recs[lo:hi].
func (f *frozen) search(h uint64, lo, hi int) (int, int) {
	// The bucket is sorted and the key's records are a run in it, found
	// by binary searches: a crowded key holds thousands of documents, of
	// which a visit reads a few, and every one of them looks it up.
	lo = f.firstFrom(lo, hi, h<<32)
	if h == 1<<32-1 {
		return lo, hi
	}
	return lo, f.firstFrom(lo, hi, (h+1)<<32)
}

// firstFrom returns the first record in recs[lo:hi] at or above r, hi if
// none is.
func (f *frozen) firstFrom(lo, hi int, r uint64) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f.recs[m] < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (f *frozen) doc(i int) int32 { return int32(uint32(f.recs[i])) }

// unmix32 is the inverse of mix32.
func unmix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x43021123
	x ^= x>>15 ^ x>>30
	x *= 0x1d69e2a5
	x ^= x >> 16
	return x
}
