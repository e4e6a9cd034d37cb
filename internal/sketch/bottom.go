package sketch

import (
	"math"
	"slices"
)

// Complete is the cut-off of a sample that holds every value of its set.
const Complete = math.MaxUint32

// Bottom returns the k smallest distinct values of hs, sorted ascending, in
// dst's storage, and their cut-off: the largest value kept when values were
// left out, or Complete when every distinct value is kept. hs is not
// modified and may hold duplicates.
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
func Bottom(hs []uint32, k int, dst []uint32) ([]uint32, uint32) {
	dst = dst[:0]
	if k <= 0 {
		return dst, 0
	}
	if len(hs) > k {
		// Uniform values: about 1.25k+32 of them lie below this estimate.
		est := (1.25*float64(k) + 32) / float64(len(hs)) * (1 << 32)
		if est < math.MaxUint32 {
			limit := uint32(est)
			for _, h := range hs {
				if h <= limit {
					dst = append(dst, h)
				}
			}
			slices.Sort(dst)
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
	dst = append(dst, hs...)
	slices.Sort(dst)
	dst = slices.Compact(dst)
	if len(dst) > k {
		return dst[:k], dst[k-1]
	}
	return dst, Complete
}

// hasAbove reports whether any value of hs exceeds t.
func hasAbove(hs []uint32, t uint32) bool {
	for _, h := range hs {
		if h > t {
			return true
		}
	}
	return false
}
