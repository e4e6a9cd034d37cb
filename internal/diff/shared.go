package diff

import "math"

// This file counts the words each side shares with the other: those the
// alignment matched in place, and those of passages it left out on both
// sides, deleted in one place and inserted in another (moved). A passage is
// a run of units of one side that the alignment did not match, equal to
// such a run of the other: by word at least minMovedWords words, by
// sentence or line whole sentences or lines. A run the alignment matched in
// place that is shorter than a passage (a lone "the" or "of the" of a moved
// sentence that lines up with one in the sentence that took its place) does
// not cut a passage: the passage holds it, and the match is undone, so that
// its words count once, as moved, and the ops show the passage whole. A
// passage counts as moved only when it is unlikely to recur by chance: the
// sum over its words of log2(words of the other text / occurrences of the
// word there), the bits it carries, is at least log2(words of A × words of
// B) + chanceBits. A sentence of a reprint moved to the top carries far
// more; a run of "the", "of" and "a" from a text of a few distinct words
// does not.

// minMovedWords is the fewest words in a row, aligning by word, that can
// count as a passage that moved.
const minMovedWords = 5

// chanceBits is how much less likely than one in (words of A × words of B)
// a passage must be to count as moved: 2^-6.64, one in a hundred.
const chanceBits = 6.64

// maxMovedChain is how many times the first units of a passage may occur
// among the other side's units left out for it to be looked for there;
// runs of units more common than that are never improbable enough to count.
const maxMovedChain = 16

// minMoved returns how many units in a row a moved passage has at least:
// minMovedWords words, or one sentence or line.
func minMoved(by By) int {
	if by == ByWord {
		return minMovedWords
	}
	return 1
}

// countShared sets Shared and Moved of both sides from the matches of the
// alignment of unit keys ka and kb, taken before cleanup merges short
// matches into the edits around them for display (a word matched in place
// is shared whatever the view shows), and returns the matches that stay in
// place: ms less the units of runs shorter than k that a moved passage
// holds on either side. Passages are at least k units long.
func (d *Diff) countShared(ms []match, ka, kb []uint64, k int) []match {
	a, b := left{ka, make([]bool, len(ka))}, left{kb, make([]bool, len(kb))}
	for _, m := range ms {
		if m.n >= k {
			for i := range m.n {
				a.fixed[m.a+i], b.fixed[m.b+i] = true, true
			}
		}
	}
	bits := math.Log2(float64(d.A.Words)*float64(d.B.Words)) + chanceBits
	runs := movedRuns(a, b, k)
	movedA := d.A.movedUnits(&d.B, runs, func(m match) (int, int) { return m.a, m.a + m.n }, bits)
	movedB := d.B.movedUnits(&d.A, runs, func(m match) (int, int) { return m.b, m.b + m.n }, bits)
	ms = inPlace(ms, movedA, movedB)
	for _, m := range ms {
		d.A.Shared += d.A.wordCount(m.a, m.a+m.n)
		d.B.Shared += d.B.wordCount(m.b, m.b+m.n)
	}
	d.A.Moved, d.B.Moved = d.A.unitWords(movedA), d.B.unitWords(movedB)
	d.A.Shared += d.A.Moved
	d.B.Shared += d.B.Moved
	return ms
}

// inPlace returns the matches of ms less each pair of units of which either
// is moved (movedA and movedB are indexed by unit, nil when none is): a
// match is cut where such a pair was. ms is returned as it is when nothing
// moved.
func inPlace(ms []match, movedA, movedB []bool) []match {
	if movedA == nil && movedB == nil {
		return ms
	}
	moved := func(m match, i int) bool {
		return movedA != nil && movedA[m.a+i] || movedB != nil && movedB[m.b+i]
	}
	out := make([]match, 0, len(ms))
	for _, m := range ms {
		start := 0
		for i := 0; i <= m.n; i++ {
			if i < m.n && !moved(m, i) {
				continue
			}
			if i > start {
				out = append(out, match{m.a + start, m.b + start, i - start})
			}
			start = i + 1
		}
	}
	return out
}

// left is a side's unit keys and which of them the alignment matched in
// place in a run long enough to be a passage, which no moved passage
// crosses; the units of shorter runs count as left out.
type left struct {
	keys  []uint64
	fixed []bool
}

// out reports whether units [i, i+n) are all left out of the long matches.
func (l left) out(i, n int) bool {
	if i < 0 || i+n > len(l.keys) {
		return false
	}
	for _, in := range l.fixed[i : i+n] {
		if in {
			return false
		}
	}
	return true
}

// movedRuns returns the passages of at least k units left out of the
// long matches on both sides, a's and b's, that are equal: for each run of k
// such units of a whose k-gram b's left-out units hold at most
// maxMovedChain times, the longest equal run around it. It takes time
// linear in the units, but for maxMovedChain.
func movedRuns(a, b left, k int) []match {
	head, next := gramIndex(b, k)
	if len(head) == 0 {
		return nil
	}
	var runs []match
	for i := 0; i+k <= len(a.keys); {
		if !a.out(i, k) {
			i++
			continue
		}
		h, ok := head[gram(a.keys[i:i+k])]
		if !ok || chain(next, h) > maxMovedChain {
			i++
			continue
		}
		var best match
		for j := h; j >= 0; j = next[j] {
			if m := extendLeft(a, b, i, int(j), k); m.n > best.n {
				best = m
			}
		}
		runs = append(runs, best)
		i = max(i+1, best.a+best.n-k+1)
	}
	return runs
}

// movedUnits returns which of s's units are moved: those of the runs
// (units [lo, hi) of s that span gives for each) whose words carry at least
// bits in other. It returns nil when none is.
func (s *Side) movedUnits(other *Side, runs []match, span func(match) (lo, hi int), bits float64) []bool {
	if len(runs) == 0 {
		return nil
	}
	wordBits := s.bitsIn(other, func(yield func(int) bool) {
		for _, r := range runs {
			lo, hi := span(r)
			for u := lo; u < hi; u++ {
				if !yield(u) {
					return
				}
			}
		}
	})
	var moved []bool
	for _, r := range runs {
		lo, hi := span(r)
		b := 0.0
		for u := lo; u < hi; u++ {
			for _, w := range s.words[s.units[u].w0 : s.units[u].w0+s.units[u].words] {
				b += wordBits[w]
			}
		}
		if b < bits {
			continue
		}
		if moved == nil {
			moved = make([]bool, len(s.units))
		}
		for u := lo; u < hi; u++ {
			moved[u] = true
		}
	}
	return moved
}

// unitWords returns the words of the units marked in units.
func (s *Side) unitWords(units []bool) int {
	n := 0
	for u, in := range units {
		if in {
			n += s.units[u].words
		}
	}
	return n
}

// gramIndex returns where each run of k units of l left out of the long
// matches starts: head holds the first position of each k-gram's hash, next
// the next position of the same hash, -1 at the end. head is empty when no
// such run exists.
func gramIndex(l left, k int) (head map[uint64]int32, next []int32) {
	head = map[uint64]int32{}
	for j := len(l.keys) - k; j >= 0; j-- {
		if !l.out(j, k) {
			continue
		}
		if next == nil {
			next = make([]int32, len(l.keys))
		}
		g := gram(l.keys[j : j+k])
		next[j] = -1
		if h, ok := head[g]; ok {
			next[j] = h
		}
		head[g] = int32(j)
	}
	return head, next
}

// chain returns how many positions the chain from h holds, counting up to
// maxMovedChain+1.
func chain(next []int32, h int32) int {
	n := 0
	for j := h; j >= 0 && n <= maxMovedChain; j = next[j] {
		n++
	}
	return n
}

// extendLeft returns the run of a's units left out of the long matches
// equal to b's units left out, around a[i:i+k] = b[j:j+k].
func extendLeft(a, b left, i, j, k int) match {
	for i > 0 && j > 0 && a.out(i-1, 1) && b.out(j-1, 1) && a.keys[i-1] == b.keys[j-1] {
		i, j, k = i-1, j-1, k+1
	}
	for a.out(i+k, 1) && b.out(j+k, 1) && a.keys[i+k] == b.keys[j+k] {
		k++
	}
	return match{i, j, k}
}

// bitsIn returns the bits each word of s's units that units yields carries
// in other: log2(other's words / its occurrences there); a word other
// lacks, which no passage holds, carries none.
func (s *Side) bitsIn(other *Side, units func(func(int) bool)) map[uint64]float64 {
	counts := map[uint64]int{}
	for u := range units {
		for _, w := range s.words[s.units[u].w0 : s.units[u].w0+s.units[u].words] {
			counts[w] = 0
		}
	}
	for _, w := range other.words {
		if c, ok := counts[w]; ok {
			counts[w] = c + 1
		}
	}
	bits := make(map[uint64]float64, len(counts))
	total := float64(len(other.words))
	for w, c := range counts {
		if c > 0 {
			bits[w] = math.Log2(total / float64(c))
		}
	}
	return bits
}

// gram hashes a run of unit keys.
func gram(keys []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, k := range keys {
		h = (h ^ k) * 1099511628211
		h ^= h >> 29
	}
	return h
}
