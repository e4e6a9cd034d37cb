package diff

import "math"

// This file aligns two sequences of unit keys with a histogram diff: the
// rarest run common to both regions anchors the alignment, and the regions
// left and right of it are aligned the same way. Anchoring on rare units
// (names, numbers, uncommon words) rather than on the longest common
// subsequence keeps a diff of prose from matching "the" and "of" across
// unrelated sentences, and it runs in close to linear time on texts that are
// near duplicates, where the anchors split regions roughly in half.

// maxChain is how many times a unit may occur in a region of A and still
// anchor it in the first search; more frequent units (stop words) anchor a
// region only when it has no rarer unit in common.
const maxChain = 64

// Work budget of one alignment, in unit comparisons: budgetPerUnit per unit
// of both texts plus budgetBase. Texts that are alike spend a small fraction
// of it; once it is spent (long texts of a few distinct units with little
// in common, or of one passage repeated more than about a hundred times,
// each copy matching every copy of the other text), the texts are aligned
// again by runs of units (alignGrams), and the regions left unaligned when
// that runs out too are reported as replaced, the alignment as incomplete.
const (
	budgetPerUnit = 64
	budgetBase    = 1 << 20
)

// match is a run of n equal units at a[a:a+n] and b[b:b+n].
type match struct{ a, b, n int }

// aligner holds the scratch tables of one alignment. Units are dense ids
// (0..distinct-1) so the per-region tables are slices, reset after use.
type aligner struct {
	a, b    []int32
	budget  int     // unit comparisons left
	count   []int32 // occurrences of an id in the current region of a
	head    []int32 // first index of an id in the current region of a, -1 if none
	next    []int32 // next index in a with the same id, -1 at the end
	matches []match
	stop    *stopper // ends the alignment when its context ends
	// seen holds, for each diagonal (a index - b index + len(b)), where in
	// b the last run weighed on it ends, for the search numbered searches.
	seen     []seenRun
	searches int32
}

// seenRun is the end in b of a run a search weighed on one diagonal.
type seenRun struct{ search, end int32 }

// align returns the runs of equal keys shared by a and b, in order of both
// sequences, non-overlapping and maximal, and whether the alignment is
// complete: false when the work budget ran out on some region, which is
// left without matches.
// It gives up, with no matches, once st stopped.
func align(st *stopper, ka, kb []uint64) ([]match, bool) {
	al := newAligner(st, ka, kb)
	al.region(0, len(al.a), 0, len(al.b))
	switch {
	case st.stopped():
		return nil, false
	case al.budget > 0:
		return merge(al.matches), true
	}
	return al.alignGrams(ka, kb)
}

func newAligner(st *stopper, ka, kb []uint64) *aligner {
	ids := make(map[uint64]int32, len(ka))
	dense := func(keys []uint64) []int32 {
		out := make([]int32, len(keys))
		for i, k := range keys {
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
			}
			out[i] = id
		}
		return out
	}
	al := &aligner{a: dense(ka), b: dense(kb), budget: budgetPerUnit*(len(ka)+len(kb)) + budgetBase, stop: st}
	al.count = make([]int32, len(ids))
	al.head = make([]int32, len(ids))
	for i := range al.head {
		al.head[i] = -1
	}
	al.next = make([]int32, len(ka))
	al.seen = make([]seenRun, len(ka)+len(kb)+1)
	return al
}

// region aligns a[alo:ahi] with b[blo:bhi].
func (al *aligner) region(alo, ahi, blo, bhi int) {
	for {
		// Common prefix and suffix need no search.
		n := 0
		for alo+n < ahi && blo+n < bhi && al.a[alo+n] == al.b[blo+n] {
			n++
		}
		if n > 0 {
			al.matches = append(al.matches, match{alo, blo, n})
			alo, blo = alo+n, blo+n
		}
		var suffix match
		for ahi > alo && bhi > blo && al.a[ahi-1] == al.b[bhi-1] {
			ahi, bhi = ahi-1, bhi-1
			suffix = match{ahi, bhi, suffix.n + 1}
		}
		if alo == ahi || blo == bhi {
			al.appendSuffix(suffix)
			return
		}
		m := al.anchor(alo, ahi, blo, bhi)
		if m.n == 0 {
			al.appendSuffix(suffix)
			return
		}
		al.region(alo, m.a, blo, m.b)
		al.matches = append(al.matches, m)
		if suffix.n == 0 {
			// Loop on the right-hand region instead of recursing.
			alo, blo = m.a+m.n, m.b+m.n
			continue
		}
		al.region(m.a+m.n, ahi, m.b+m.n, bhi)
		al.appendSuffix(suffix)
		return
	}
}

func (al *aligner) appendSuffix(m match) {
	if m.n > 0 {
		al.matches = append(al.matches, m)
	}
}

// anchor finds the run common to both regions whose rarest unit occurs least
// often in a's region; on ties the longest, then the one nearest the middle
// of the regions, which keeps the recursion balanced. Units occurring more
// than maxChain times are considered only when no rarer unit is common. It
// returns n == 0 when no unit is common or the work budget is spent.
func (al *aligner) anchor(alo, ahi, blo, bhi int) match {
	for i := ahi - 1; i >= alo; i-- {
		id := al.a[i]
		al.next[i] = al.head[id]
		al.head[id] = int32(i)
		al.count[id]++
	}
	al.budget -= (ahi - alo) + (bhi - blo)
	r := region{alo, ahi, blo, bhi}
	best := al.search(r, maxChain)
	if best.n == 0 {
		best = al.search(r, math.MaxInt32-1)
	}
	for i := alo; i < ahi; i++ {
		al.count[al.a[i]] = 0
		al.head[al.a[i]] = -1
	}
	return best
}

// region is a range of a and a range of b being aligned.
type region struct{ alo, ahi, blo, bhi int }

// search returns the best anchor among units occurring at most limit times
// in a's region (see anchor), spending the work budget. It pairs each unit
// of b's region with each of its occurrences in a's and grows the pair into
// the run of units equal on both sides, but for a pair inside a run it has
// grown already (on the same diagonal): every run is so weighed once, at
// the cost of one step for each pair and one for each unit of each run. A
// scan that went on past the longest run a unit of b started (as histogram
// diffs do) went past the other copies of a repeated passage too, the copy
// of a on the regions' diagonal among them (see better). Once a run holds
// a unit that a's region holds once, only such runs compete, and the scan
// goes on past a run grown from such a unit: any unit inside it that a's
// region holds once is paired there on the run's diagonal alone.
func (al *aligner) search(r region, limit int32) match {
	var best match
	lowest := limit + 1
	al.searches++
	for bi := r.blo; bi < r.bhi && al.budget > 0; {
		if al.stop.stopped() {
			al.budget = 0 // as a budget spent: every region left ends
			break
		}
		id := al.b[bi]
		c := al.count[id]
		if c == 0 || c > lowest {
			bi++
			continue
		}
		end := bi + 1 // of the last run weighed, in b
		for ai := int(al.head[id]); ai >= 0 && al.budget > 0; ai = int(al.next[ai]) {
			al.budget--
			seen := &al.seen[ai-bi+len(al.b)]
			if seen.search == al.searches && int(seen.end) > bi {
				end = int(seen.end)
				continue
			}
			m, rc := al.extend(ai, bi, r)
			al.budget -= m.n
			end = m.b + m.n
			*seen = seenRun{al.searches, int32(end)}
			if rc < lowest || rc == lowest && (m.n > best.n || m.n == best.n && al.better(r, m, best, rc)) {
				best, lowest = m, rc
			}
		}
		if c == 1 && lowest == 1 {
			bi = end
		} else {
			bi++
		}
	}
	return best
}

// better breaks a tie between two runs of n units whose rarest unit occurs
// rc times in a's region. Two copies of one passage (a paragraph a text
// repeats, each copy matching every copy in the other text; rc > 1, or two
// runs that start alike) are told apart by the regions' diagonal: the copy
// at the place in a that the copy of b holds in b wins. Matched to the copy
// in a's middle instead, a copy near b's start left half of a to face a few
// words of b, and the diff of two texts repeating one paragraph forty times
// found 40% of their words shared, not 99%. Otherwise, and between copies as
// near the diagonal, the run nearer the middle of the regions wins, which
// keeps the recursion balanced.
func (al *aligner) better(r region, m, best match, rc int32) bool {
	if rc > 1 || al.a[m.a] == al.a[best.a] {
		if dm, db := r.offDiagonal(m), r.offDiagonal(best); dm != db {
			return dm < db
		}
	}
	return r.offCentre(m) < r.offCentre(best)
}

// offDiagonal measures how far m lies from the line joining the regions'
// starts and ends, where a's region maps onto b's in proportion, in units
// of a times units of b.
func (r region) offDiagonal(m match) int64 {
	d := int64(2*m.a+m.n-2*r.alo)*int64(r.bhi-r.blo) - int64(2*m.b+m.n-2*r.blo)*int64(r.ahi-r.alo)
	return max(d, -d)
}

// offCentre measures how far m lies from the middle of the region.
func (r region) offCentre(m match) int {
	da, db := 2*m.a+m.n-r.alo-r.ahi, 2*m.b+m.n-r.blo-r.bhi
	return max(da, -da) + max(db, -db)
}

// extend grows the match of a[ai] and b[bi] both ways within the regions and
// returns it with the lowest count in a's region of the units it holds.
func (al *aligner) extend(ai, bi int, r region) (match, int32) {
	a, b := al.a, al.b
	as, bs := ai, bi
	rc := al.count[a[ai]]
	for as > r.alo && bs > r.blo && a[as-1] == b[bs-1] {
		as, bs = as-1, bs-1
		rc = min(rc, al.count[a[as]])
	}
	ae, be := ai+1, bi+1
	for ae < r.ahi && be < r.bhi && a[ae] == b[be] {
		rc = min(rc, al.count[a[ae]])
		ae, be = ae+1, be+1
	}
	return match{as, bs, ae - as}, rc
}

// merge joins runs that touch in both sequences.
func merge(ms []match) []match {
	out := ms[:0]
	for _, m := range ms {
		if k := len(out) - 1; k >= 0 && out[k].a+out[k].n == m.a && out[k].b+out[k].n == m.b {
			out[k].n += m.n
			continue
		}
		out = append(out, m)
	}
	return out
}
