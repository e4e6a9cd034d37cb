package diff

// This file aligns two sequences of unit keys with a histogram diff: the
// rarest run common to both regions anchors the alignment, and the regions
// left and right of it are aligned the same way. Anchoring on rare units
// (names, numbers, uncommon words) rather than on the longest common
// subsequence keeps a diff of prose from matching "the" and "of" across
// unrelated sentences, and it runs in close to linear time on texts that are
// near duplicates, where the anchors split regions roughly in half.

// maxChain is how many times a unit may occur in a region of A and still
// anchor it. Regions whose only common units are more frequent than this
// (stop words in otherwise unrelated text) are reported as replaced.
const maxChain = 64

// match is a run of n equal units at a[a:a+n] and b[b:b+n].
type match struct{ a, b, n int }

// aligner holds the scratch tables of one alignment. Units are dense ids
// (0..distinct-1) so the per-region tables are slices, reset after use.
type aligner struct {
	a, b    []int32
	count   []int32 // occurrences of an id in the current region of a
	head    []int32 // first index of an id in the current region of a, -1 if none
	next    []int32 // next index in a with the same id, -1 at the end
	matches []match
}

// align returns the runs of equal keys shared by a and b, in order of both
// sequences, non-overlapping and maximal.
func align(ka, kb []uint64) []match {
	al := newAligner(ka, kb)
	al.region(0, len(al.a), 0, len(al.b))
	return merge(al.matches)
}

func newAligner(ka, kb []uint64) *aligner {
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
	al := &aligner{a: dense(ka), b: dense(kb)}
	al.count = make([]int32, len(ids))
	al.head = make([]int32, len(ids))
	for i := range al.head {
		al.head[i] = -1
	}
	al.next = make([]int32, len(ka))
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
// often in a's region, the longest such run on ties. It returns n == 0 when
// no unit occurring at most maxChain times is common to both.
func (al *aligner) anchor(alo, ahi, blo, bhi int) match {
	a, b := al.a, al.b
	for i := ahi - 1; i >= alo; i-- {
		id := a[i]
		al.next[i] = al.head[id]
		al.head[id] = int32(i)
		al.count[id]++
	}
	var best match
	lowest := int32(maxChain + 1)
	for bi := blo; bi < bhi; {
		id := b[bi]
		nextB := bi + 1
		if c := al.count[id]; c == 0 || c > lowest {
			bi = nextB
			continue
		}
		for ai := int(al.head[id]); ai >= 0; ai = int(al.next[ai]) {
			as, bs := ai, bi
			rc := al.count[id]
			for as > alo && bs > blo && a[as-1] == b[bs-1] {
				as, bs = as-1, bs-1
				rc = min(rc, al.count[a[as]])
			}
			ae, be := ai+1, bi+1
			for ae < ahi && be < bhi && a[ae] == b[be] {
				rc = min(rc, al.count[a[ae]])
				ae, be = ae+1, be+1
			}
			if rc < lowest || (rc == lowest && ae-as > best.n) {
				best, lowest = match{as, bs, ae - as}, rc
			}
			nextB = max(nextB, be)
		}
		bi = nextB
	}
	for i := alo; i < ahi; i++ {
		al.count[a[i]] = 0
		al.head[a[i]] = -1
	}
	return best
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
