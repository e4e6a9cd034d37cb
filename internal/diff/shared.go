package diff

import "math"

// This file counts the words each side shares with the other: those the
// alignment matched in place, and those of passages it left out on both
// sides, deleted in one place and inserted in another (moved). A passage is
// a run of units of one side that the alignment did not match, equal to
// such a run of the other: by word at least minMovedWords words, by
// sentence or line whole sentences or lines. It counts as moved only when
// it is unlikely to recur by chance: the sum over its words of log2(words
// of the other text / occurrences of the word there), the bits it carries,
// is at least log2(words of A × words of B) + chanceBits. A sentence of a
// reprint moved to the top carries far more; a run of "the", "of" and "a"
// from a text of a few distinct words does not.

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
// alignment of unit keys ka and kb, before cleanup merges short matches
// into the edits around them for display: a word matched in place is
// shared whatever the view shows.
func (d *Diff) countShared(ms []match, ka, kb []uint64, k int) {
	inA, inB := make([]bool, len(ka)), make([]bool, len(kb))
	for _, m := range ms {
		for i := range m.n {
			inA[m.a+i], inB[m.b+i] = true, true
		}
		d.A.Shared += d.A.wordCount(m.a, m.a+m.n)
		d.B.Shared += d.B.wordCount(m.b, m.b+m.n)
	}
	bits := math.Log2(float64(d.A.Words)*float64(d.B.Words)) + chanceBits
	runs := movedRuns(left{ka, inA}, left{kb, inB}, k)
	d.A.Moved = d.A.movedWords(&d.B, runs, func(m match) (int, int) { return m.a, m.a + m.n }, bits)
	d.B.Moved = d.B.movedWords(&d.A, runs, func(m match) (int, int) { return m.b, m.b + m.n }, bits)
	d.A.Shared += d.A.Moved
	d.B.Shared += d.B.Moved
}

// left is a side's unit keys and which of them the alignment matched in
// place.
type left struct {
	keys    []uint64
	inPlace []bool
}

// out reports whether units [i, i+n) are all left out of the matches.
func (l left) out(i, n int) bool {
	if i < 0 || i+n > len(l.keys) {
		return false
	}
	for _, in := range l.inPlace[i : i+n] {
		if in {
			return false
		}
	}
	return true
}

// movedRuns returns the passages of at least k units left out of the
// matches on both sides, a's and b's, that are equal: for each run of k
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

// movedWords returns the words of s's units in the runs (units [lo, hi)
// of s that span gives for each) that carry at least bits in other.
func (s *Side) movedWords(other *Side, runs []match, span func(match) (lo, hi int), bits float64) int {
	if len(runs) == 0 {
		return 0
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
	found := make(map[int]bool)
	for _, r := range runs {
		lo, hi := span(r)
		b := 0.0
		for u := lo; u < hi; u++ {
			for _, w := range s.words[s.units[u].w0 : s.units[u].w0+s.units[u].words] {
				b += wordBits[w]
			}
		}
		if b >= bits {
			for u := lo; u < hi; u++ {
				found[u] = true
			}
		}
	}
	n := 0
	for u := range found {
		n += s.units[u].words
	}
	return n
}

// gramIndex returns where each run of k units of l left out of the matches
// starts: head holds the first position of each k-gram's hash, next the
// next position of the same hash, -1 at the end. head is empty when no
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

// extendLeft returns the run of a's units left out of the matches equal to
// b's units left out, around a[i:i+k] = b[j:j+k].
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
