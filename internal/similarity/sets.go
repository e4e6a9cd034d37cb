package similarity

import (
	"cmp"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
)

// Overlap returns the size of the intersection of two sorted sets (strictly
// increasing slices) by a linear merge.
func Overlap[T cmp.Ordered](a, b []T) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// OverlapAtLeast returns the size of the intersection of two sorted sets of
// fingerprints (strictly increasing), as Overlap does, and whether it
// reaches need. It stops, with ok false, as soon as the members left on the
// shorter side cannot bring the count to need: the rest of the merge of a
// pair that falls short is skipped. Each step of the merge moves on by
// arithmetic on the comparison, not by branches on it, which a processor
// cannot predict for fingerprints: twice as fast as Overlap on samples of
// 400 (BenchmarkOverlapAtLeast).
func OverlapAtLeast(a, b []uint32, need int) (n int, ok bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if n+min(len(a)-i, len(b)-j) < need {
			return n, false
		}
		x, y := uint64(a[i]), uint64(b[j])
		lt := int((x - y) >> 63) // 1 when x < y
		gt := int((y - x) >> 63) // 1 when x > y
		n += 1 - lt - gt
		i += 1 - gt
		j += 1 - lt
	}
	return n, n >= need
}

// FloorShared is MinShared for a method that labels a pair a duplicate at
// a Jaccard index of threshold and similar at one of similar (0: it
// labels no similar pairs), or by containment: the fewest members two
// samples must share for any label, below which a pair is not verified
// further (minhash and simhash samples).
func FloorShared(na, nb int, threshold, similar, containment float64) int {
	low := threshold
	if similar > 0 {
		low = min(low, similar)
	}
	return MinShared(na, nb, low, containment)
}

// MinShared returns the fewest members two sets of na and nb must share for
// their Jaccard index to reach jaccard, or for the share of the smaller one
// inside the other to reach containment (above 1: never). The bound is
// lowered by a relative 1e-9, so that rounding in it never passes over a
// pair whose ScoresOf reach either.
func MinShared(na, nb int, jaccard, containment float64) int {
	need := jaccard * float64(na+nb) / (1 + jaccard)
	if containment <= 1 {
		need = min(need, containment*float64(min(na, nb)))
	}
	return int(math.Ceil(need * (1 - 1e-9)))
}

// SetScores are the overlap measures of two sets A and B.
type SetScores struct {
	Jaccard       float64 `json:"jaccard"`        // |A∩B| / |A∪B|
	ContainmentAB float64 `json:"containment_ab"` // |A∩B| / |A|: how much of A is inside B
	ContainmentBA float64 `json:"containment_ba"` // |A∩B| / |B|
}

// Reversed returns the scores of B and A: the containments swapped.
func (s SetScores) Reversed() SetScores {
	s.ContainmentAB, s.ContainmentBA = s.ContainmentBA, s.ContainmentAB
	return s
}

// Rounded returns the scores with four decimals, as they are written
// (core.Round).
func (s SetScores) Rounded() SetScores {
	return SetScores{Jaccard: core.Round(s.Jaccard), ContainmentAB: core.Round(s.ContainmentAB), ContainmentBA: core.Round(s.ContainmentBA)}
}

// Containment returns the larger of the two containments: how much of the
// smaller set lies inside the larger.
func (s SetScores) Containment() float64 { return max(s.ContainmentAB, s.ContainmentBA) }

// The measures a method that verifies by set overlap names in its evidence
// as the one that decided a pair's label (and gave its score).
const (
	MeasureJaccard     = "jaccard"     // the Jaccard index: a duplicate at the threshold, a similar pair
	MeasureContainment = "containment" // the larger containment: a duplicate by containment alone
)

// Scores returns the overlap measures of two sorted sets. Empty sets score 0.
func Scores[T cmp.Ordered](a, b []T) SetScores {
	if len(a) == 0 || len(b) == 0 {
		return SetScores{}
	}
	return ScoresOf(Overlap(a, b), len(a), len(b))
}

// ScoresOf returns the overlap measures of a set of na members and one of
// nb that share n. Empty sets score 0.
func ScoresOf(n, na, nb int) SetScores {
	if na == 0 || nb == 0 {
		return SetScores{}
	}
	return SetScores{
		Jaccard:       float64(n) / (float64(na+nb) - float64(n)),
		ContainmentAB: float64(n) / float64(na),
		ContainmentBA: float64(n) / float64(nb),
	}
}

// WeightedJaccard returns Σ min(w) / Σ max(w) over two sorted sets whose
// members carry weights (wa[i] belongs to a[i]); a member missing from one
// side has weight 0 there. With all weights 1 it equals the Jaccard index.
func WeightedJaccard[T cmp.Ordered](a []T, wa []float64, b []T, wb []float64) float64 {
	var inter, union float64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			union += wa[i]
			i++
		case a[i] > b[j]:
			union += wb[j]
			j++
		default:
			inter += min(wa[i], wb[j])
			union += max(wa[i], wb[j])
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		union += wa[i]
	}
	for ; j < len(b); j++ {
		union += wb[j]
	}
	if union == 0 {
		return 0
	}
	return inter / union
}

// ScoresBelow returns the overlap measures of two sorted samples of sets,
// each holding every value of its set up to its cut-off (ta, tb; see
// sketch.Bottomer): both are compared over the values up to the smaller
// cut-off, the part of the hash space both sampled. When neither sample
// left anything out (both cut-offs at the largest value) it equals Scores.
func ScoresBelow(a []uint32, ta uint32, b []uint32, tb uint32) SetScores {
	return Scores(InRange(a, ta, b, tb))
}

// InRange cuts two sorted samples to the hash range both kept: the values of
// each at most min(ta, tb) (see ScoresBelow).
func InRange(a []uint32, ta uint32, b []uint32, tb uint32) ([]uint32, []uint32) {
	t := min(ta, tb)
	return a[:upTo(a, t)], b[:upTo(b, t)]
}

// upTo returns the number of values of the sorted s that are at most t.
// The values of a sample are hashes spread evenly up to its cut-off, so
// the answer lies near len(s)·t/last, last the sample's largest value:
// upTo reads the value there, and searches from it outward, in steps that
// double, and then between the last two it read. The values it reads lie
// close together, in a cache line or two of a candidate's sample that is
// not in the cache, where a binary search over the whole sample misses at
// each of its first steps.
func upTo(s []uint32, t uint32) int {
	n := len(s)
	if n == 0 || s[n-1] <= t {
		return n
	}
	// t < s[n-1]: the answer, the first index holding more than t, is at
	// most n-1, and so is the guess g.
	g := int(uint64(n-1) * uint64(t) / uint64(s[n-1]))
	var lo, hi int // the answer lies in (lo, hi]; lo = -1 for none below
	if s[g] <= t {
		lo, hi = g, n-1
		for step := 1; g+step < n-1; step *= 2 {
			if s[g+step] > t {
				hi = g + step
				break
			}
			lo = g + step
		}
	} else {
		lo, hi = -1, g
		for step := 1; g-step >= 0; step *= 2 {
			if s[g-step] <= t {
				lo = g - step
				break
			}
			hi = g - step
		}
	}
	i, _ := slices.BinarySearch(s[lo+1:hi], t+1)
	return lo + 1 + i
}
