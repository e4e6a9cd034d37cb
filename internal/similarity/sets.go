package similarity

import "cmp"

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

// SetScores are the overlap measures of two sets A and B.
type SetScores struct {
	Jaccard       float64 `json:"jaccard"`        // |A∩B| / |A∪B|
	ContainmentAB float64 `json:"containment_ab"` // |A∩B| / |A|: how much of A is inside B
	ContainmentBA float64 `json:"containment_ba"` // |A∩B| / |B|
}

// Scores returns the overlap measures of two sorted sets. Empty sets score 0.
func Scores[T cmp.Ordered](a, b []T) SetScores {
	if len(a) == 0 || len(b) == 0 {
		return SetScores{}
	}
	n := float64(Overlap(a, b))
	return SetScores{
		Jaccard:       n / (float64(len(a)+len(b)) - n),
		ContainmentAB: n / float64(len(a)),
		ContainmentBA: n / float64(len(b)),
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
