package sketch

import (
	"math"
	"slices"
)

// Complete is the cut-off of a sample that holds every value of its set.
const Complete = math.MaxUint32

// A Bottomer takes consistent samples of sets of hashes, reusing its scratch
// space from call to call. The zero value is ready to use; a Bottomer is not
// safe for concurrent use.
type Bottomer struct {
	tmp    []uint32
	counts []int32
}

// Bottom returns the k smallest distinct values of hs, sorted ascending, in
// dst's storage (grown when it lacks the room: room for k is enough), and
// their cut-off: the largest value kept when values were left out, or
// Complete when every distinct value is kept. hs is not modified and may
// hold duplicates.
//
// When values are uniform hashes, the values at or below a cut-off are a
// random sample of the set that is consistent across sets: two samples
// restricted to the smaller of their cut-offs are the two sets restricted to
// the same random part of the hash space, so Jaccard and containment over
// them estimate the scores of the whole sets (see
// similarity.ScoresBelow). Keeping k values bounds the memory a long
// document costs.
//
// The work is linear in len(hs) plus a sort of about k values: values above
// an estimated cut-off are never sorted.
func (b *Bottomer) Bottom(hs []uint32, k int, dst []uint32) ([]uint32, uint32) {
	return bottom(b, hs, k, dst)
}

// BottomLow is Bottom over the low 32 bits of each of hs, read in place: a
// sketch samples its shingles' hashes without a copy of their halves.
func (b *Bottomer) BottomLow(hs []uint64, k int, dst []uint32) ([]uint32, uint32) {
	return bottom(b, hs, k, dst)
}

// bottom is Bottom over the low 32 bits of each of hs.
func bottom[H uint32 | uint64](b *Bottomer, hs []H, k int, dst []uint32) ([]uint32, uint32) {
	dst = dst[:0]
	if k <= 0 {
		return dst, 0
	}
	if len(hs) > k {
		// Uniform values: about 1.25k+32 of them lie below this estimate,
		// or 2k+4 for a small k (a lead's 16: 36, fewer than 16 one time
		// in several thousand), so that a few values are sorted.
		want := 1.25*float64(k) + 32
		if k <= maxFew {
			want = 2*float64(k) + 4
		}
		est := want / float64(len(hs)) * (1 << 32)
		if est < math.MaxUint32 {
			limit := uint32(est)
			dst = below(hs, limit, slices.Grow(dst, int(want+want/8)))
			b.sortUniform(dst, limit)
			dst = slices.Compact(dst)
			switch {
			case len(dst) > k:
				return dst[:k], dst[k-1]
			case len(dst) == k && hasAbove(hs, dst[k-1]):
				return dst, dst[k-1]
			case len(dst) == k:
				return dst, Complete
			}
			dst = dst[:0] // too few below the estimate: take them all
		}
	}
	dst = slices.Grow(dst, len(hs))
	for _, h := range hs {
		dst = append(dst, uint32(h))
	}
	b.sortUniform(dst, math.MaxUint32)
	dst = slices.Compact(dst)
	if len(dst) > k {
		return dst[:k], dst[k-1]
	}
	return dst, Complete
}

// maxFew is the largest k whose estimated cut-off keeps a smaller margin
// (see bottom).
const maxFew = 32

// below appends the values of hs (their low 32 bits) at most limit to dst,
// in their order.
// Whether a value is kept is a coin toss a processor cannot predict, so
// each value is stored and the end moved on by arithmetic on the
// comparison, without a branch (BenchmarkBottom/bottom-375-of-many). The
// values are read in blocks, so that dst needs room for the values kept
// and one block, not for all of hs: a long document's sample is a quarter
// of its shingles.
func below[H uint32 | uint64](hs []H, limit uint32, dst []uint32) []uint32 {
	const block = 1 << 12
	for len(hs) > 0 {
		part := hs[:min(len(hs), block)]
		hs = hs[len(part):]
		n := len(dst)
		dst = slices.Grow(dst, len(part))[:n+len(part)]
		for _, h := range part {
			v := uint32(h)
			dst[n] = v
			n += int((uint64(v) - uint64(limit) - 1) >> 63) // 1 when v <= limit
		}
		dst = dst[:n]
	}
	return dst
}

// hasAbove reports whether any value of hs (its low 32 bits) exceeds t.
func hasAbove[H uint32 | uint64](hs []H, t uint32) bool {
	for _, h := range hs {
		if uint32(h) > t {
			return true
		}
	}
	return false
}

// sortUniform sorts values spread about evenly over [0, limit] in linear
// expected time: a counting pass scatters them into len(vs) buckets of
// equal width, after which each value is at most a few places from its
// own, and an insertion sort finishes. Any values sort correctly; skewed
// ones only cost more time.
func (b *Bottomer) sortUniform(vs []uint32, limit uint32) {
	n := len(vs)
	if n < 32 {
		slices.Sort(vs)
		return
	}
	if c := cap(b.counts); c < n+1 || c > max(4*(n+1), 1<<16) {
		// Sized for this call; scratch a huge set grew is let go.
		b.counts = make([]int32, n+1)
		b.tmp = make([]uint32, n)
	}
	counts, tmp := b.counts[:n+1], b.tmp[:n]
	clear(counts)
	// bucket is about v·n/(limit+1), by a multiplication: scale is
	// n·2³²/(limit+1) rounded down, so buckets grow with v and stay below
	// n for v ≤ limit.
	scale := uint64(n) << 32 / (uint64(limit) + 1)
	bucket := func(v uint32) uint64 { return min(uint64(v)*scale>>32, uint64(n-1)) }
	for _, v := range vs {
		counts[bucket(v)+1]++
	}
	sum := int32(0)
	for i, c := range counts {
		sum += c
		counts[i] = sum
	}
	for _, v := range vs {
		i := bucket(v)
		tmp[counts[i]] = v
		counts[i]++
	}
	for i := 1; i < n; i++ {
		v, j := tmp[i], i
		for ; j > 0 && tmp[j-1] > v; j-- {
			tmp[j] = tmp[j-1]
		}
		tmp[j] = v
	}
	copy(vs, tmp)
}
