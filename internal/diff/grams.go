package diff

// This file aligns texts made of few distinct units (a vocabulary of a
// handful of words, repeated) on which the histogram diff of align.go spent
// its budget: every unit occurs too often to anchor a region well, and
// long such texts with little in common split into many regions. The
// runs of k units (k-grams) of such a text are mostly distinct for a k of a
// few units, so the histogram diff of the two sequences of k-gram hashes
// anchors on them as it does on the words of prose. A run of n matching
// k-grams is a run of n+k-1 matching units; the units between two such
// runs are then aligned unit by unit, each gap with a budget of its own.

// gapBudgetBase is the work budget of aligning one gap between two runs
// found by k-grams, beyond budgetPerUnit per unit of the gap.
const gapBudgetBase = 1 << 12

// gramLengths are the k-gram lengths gramLength tries, in order.
var gramLengths = [...]int{2, 3, 4, 6, 8, 12, 16, 24, 32}

// alignGrams aligns the sequences of al (keys ka and kb) by their k-grams,
// then the gaps between the runs found, and reports whether every part
// stayed within its budget.
func (al *aligner) alignGrams(ka, kb []uint64) ([]match, bool) {
	k := gramLength(ka)
	gal := newAligner(al.stop, grams(ka, k), grams(kb, k))
	gal.region(0, len(gal.a), 0, len(gal.b))
	if al.stop.stopped() {
		return nil, false
	}
	complete := gal.budget > 0
	al.matches = al.matches[:0]
	pa, pb := 0, 0 // units before these are aligned
	for _, m := range merge(gal.matches) {
		a, b, n := m.a, m.b, m.n+k-1
		if d := max(pa-a, pb-b); d > 0 {
			a, b, n = a+d, b+d, n-d // overlaps the run before in its first k-1 units
		}
		for n > 0 {
			// Equal grams are equal units but for a collision of hashes.
			e := 0
			for e < n && al.a[a+e] == al.b[b+e] {
				e++
			}
			if e > 0 {
				complete = al.gap(pa, a, pb, b) && complete
				al.matches = append(al.matches, match{a, b, e})
				pa, pb = a+e, b+e
			}
			a, b, n = a+e+1, b+e+1, n-e-1
		}
	}
	complete = al.gap(pa, len(al.a), pb, len(al.b)) && complete
	return merge(al.matches), complete
}

// gap aligns a[alo:ahi] with b[blo:bhi] within a budget of its own and
// reports whether it sufficed.
func (al *aligner) gap(alo, ahi, blo, bhi int) bool {
	if alo >= ahi || blo >= bhi || al.stop.stopped() {
		return alo >= ahi || blo >= bhi
	}
	al.budget = budgetPerUnit*(ahi-alo+bhi-blo) + gapBudgetBase
	al.region(alo, ahi, blo, bhi)
	return al.budget > 0
}

// gramLength returns the first of gramLengths for which at least half of
// the k-grams of keys are distinct: long enough to anchor, short enough to
// fit between the edits of two texts alike.
func gramLength(keys []uint64) int {
	seen := make(map[uint64]struct{}, len(keys))
	for _, k := range gramLengths {
		clear(seen)
		for i := 0; i+k <= len(keys); i++ {
			seen[gram(keys[i:i+k])] = struct{}{}
		}
		if 2*len(seen) >= len(keys)-k+1 {
			return k
		}
	}
	return gramLengths[len(gramLengths)-1]
}

// grams returns the hashes of the k-grams of keys, one per position.
func grams(keys []uint64, k int) []uint64 {
	if len(keys) < k {
		return nil
	}
	out := make([]uint64, len(keys)-k+1)
	for i := range out {
		out[i] = gram(keys[i : i+k])
	}
	return out
}
