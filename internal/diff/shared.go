package diff

import (
	"container/heap"
	"math"
)

// This file counts the words each side shares with the other: those the
// alignment matched in place, and those of passages it left out on both
// sides, deleted in one place and inserted in another (moved). A passage is
// a run of units of one side that the alignment did not match, equal to
// such a run of the other: by word at least minMovedWords words, by
// sentence or line whole sentences or lines. Each unit of either side is in
// one passage at most, so that a passage one text holds twice and the
// other once is shared once, and both sides move as many words; the
// longest passages are paired first. A run the alignment matched in
// place that is shorter than a passage (a lone "the" or "of the" of a moved
// sentence that lines up with one in the sentence that took its place) does
// not cut a passage: the passage holds it, and the match is undone, so that
// its words count once, as moved, and the ops show the passage whole. A
// passage counts as moved only when it is unlikely to recur by chance: the
// sum over its words of log2(words of both texts / occurrences of the word
// in them), the bits it carries, is at least log2(words of A × words of
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
// holds on either side, grown over the units so freed (see regrow).
// Passages are at least k units long; the few units by which a long match
// runs on past the end of a sentence or paragraph on both sides (see trim)
// may go to a passage that starts there. A unit of either side is shared
// with one unit of the other, so both sides share as many words, and move
// as many.
func (d *Diff) countShared(ms []match, ka, kb []uint64, k int) []match {
	a, b := left{ka, make([]bool, len(ka))}, left{kb, make([]bool, len(kb))}
	for _, m := range ms {
		if m.n >= k {
			m = d.trim(m, k)
			a.take(m.a, m.n)
			b.take(m.b, m.n)
		}
	}
	runs := d.movedRuns(a, b, k)
	movedA, movedB := moved(len(ka), len(kb), runs)
	ms = regrow(inPlace(ms, movedA, movedB), ka, kb, movedA, movedB)
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

// regrow extends each match of ms, ordered and apart on both sides, over
// the units before and after it that are equal on both sides, moved on
// neither and in no other match, and returns ms so changed (in place),
// matches that come to touch joined. Such units are those of a pair
// inPlace undid that is not moved on one side: the lone "Paragraph" of
// "Paragraph one …" that the alignment matched with the first word of
// "Paragraph three …", a paragraph moved from after it, while the
// "Paragraph" before "one" on the other side was left out. ms is returned
// as it is when nothing moved.
func regrow(ms []match, ka, kb []uint64, movedA, movedB []bool) []match {
	if movedA == nil && movedB == nil {
		return ms
	}
	free := func(i, j int) bool {
		return ka[i] == kb[j] && (movedA == nil || !movedA[i]) && (movedB == nil || !movedB[j])
	}
	pa, pb := 0, 0 // units before these are in a match before m
	for x := range ms {
		m := &ms[x]
		for m.a > pa && m.b > pb && free(m.a-1, m.b-1) {
			m.a, m.b, m.n = m.a-1, m.b-1, m.n+1
		}
		na, nb := len(ka), len(kb)
		if x+1 < len(ms) {
			na, nb = ms[x+1].a, ms[x+1].b
		}
		for m.a+m.n < na && m.b+m.n < nb && free(m.a+m.n, m.b+m.n) {
			m.n++
		}
		pa, pb = m.a+m.n, m.b+m.n
	}
	return merge(ms)
}

// left is a side's unit keys and which of them are taken: matched in place
// in a run long enough to be a passage, which no moved passage crosses, or
// in a passage found; the units of shorter runs count as left out.
type left struct {
	keys  []uint64
	taken []bool
}

// out reports whether units [i, i+n) are all left out: in neither a long
// match nor a passage found.
func (l left) out(i, n int) bool {
	if i < 0 || i+n > len(l.keys) {
		return false
	}
	for _, in := range l.taken[i : i+n] {
		if in {
			return false
		}
	}
	return true
}

// take marks units [i, i+n) taken.
func (l left) take(i, n int) {
	for u := i; u < i+n; u++ {
		l.taken[u] = true
	}
}

// movedRuns returns the passages that moved: runs of at least k units left
// out on both sides, a's and b's, that are equal, each unit of either side
// in one passage at most, and too improbable to recur by chance (see
// improbable). It takes the runs candidates gives the longest first, each
// less its units that a longer one took (a run of five words that recurs
// by chance takes no words of a paragraph that holds it) and trimmed (see
// trim), and then grows them over the units left out around them (see
// grow). It takes time linear in the units, but for maxMovedChain and the
// logarithm of the runs.
func (d *Diff) movedRuns(a, b left, k int) []match {
	h := runHeap(candidates(a, b, k))
	if len(h) == 0 {
		return nil
	}
	heap.Init(&h)
	p := d.newChance()
	var runs []match
	for len(h) > 0 {
		m := heap.Pop(&h).(match)
		if piece := free(a, b, m); piece != m {
			// The parts of m that no longer run took wait their turn.
			for ; piece.n > 0; piece = free(a, b, match{piece.a + piece.n, piece.b + piece.n, m.a + m.n - piece.a - piece.n}) {
				if piece.n >= k {
					heap.Push(&h, piece)
				}
			}
			continue
		}
		if m = d.trim(m, k); !p.improbable(d.A.units[m.a : m.a+m.n]) {
			continue
		}
		runs = append(runs, m)
		a.take(m.a, m.n)
		b.take(m.b, m.n)
	}
	for x := range runs {
		runs[x] = grow(a, b, runs[x])
	}
	return runs
}

// trim returns run m, a long match or a passage, less up to k-1 units at
// either end, k units at least left, to where the edges of both sides (see
// Side.edge) score highest, if higher than at m's ends: a run that goes on
// past a paragraph's end on both sides into the "The" that starts the next
// holds that "The" by chance, and the passage of the next paragraph then
// lacked it. A long match keeps the units cut in place unless a passage
// takes them; a passage gets back from grow those that none took.
func (d *Diff) trim(m match, k int) match {
	edge := func(x int) int { return d.A.edge(m.a+x) + d.B.edge(m.b+x) }
	lo, hi := 0, m.n
	for x, best := 1, edge(0); x < k && m.n-x >= k; x++ {
		if e := edge(x); e > best {
			lo, best = x, e
		}
	}
	for x, best := m.n-1, edge(m.n); x > m.n-k && x-lo >= k; x-- {
		if e := edge(x); e > best {
			hi, best = x, e
		}
	}
	return match{m.a + lo, m.b + lo, hi - lo}
}

// grow returns run m extended over the equal units before and after it
// that are left out on both sides, and marks them taken: the units trim
// cut that no other passage took.
func grow(a, b left, m match) match {
	for a.out(m.a-1, 1) && b.out(m.b-1, 1) && a.keys[m.a-1] == b.keys[m.b-1] {
		m.a, m.b, m.n = m.a-1, m.b-1, m.n+1
		a.take(m.a, 1)
		b.take(m.b, 1)
	}
	for a.out(m.a+m.n, 1) && b.out(m.b+m.n, 1) && a.keys[m.a+m.n] == b.keys[m.b+m.n] {
		a.take(m.a+m.n, 1)
		b.take(m.b+m.n, 1)
		m.n++
	}
	return m
}

// candidates returns the runs of at least k units left out on both sides
// that are equal, each as long as it can be: for each run of k units of a
// left out whose k-gram b's left-out units hold at most maxMovedChain
// times, the run around it and each place in b that holds the k-gram, but
// for the runs the k-gram before it found already.
func candidates(a, b left, k int) []match {
	head, next := gramIndex(b, k)
	if len(head) == 0 {
		return nil
	}
	var out []match
	prev := false // whether the k-gram before i was looked up
	for i := 0; i+k <= len(a.keys); i++ {
		h, ok := int32(0), false
		if a.out(i, k) {
			h, ok = head[gram(a.keys[i:i+k])]
			ok = ok && chain(next, h) <= maxMovedChain
		}
		for j := h; ok && j >= 0; j = next[j] {
			if prev && j > 0 && b.out(int(j)-1, 1) && a.keys[i-1] == b.keys[j-1] {
				continue // found from the k-gram before
			}
			out = append(out, extendLeft(a, b, i, int(j), k))
		}
		prev = ok
	}
	return out
}

// free returns the first part of run m whose units are left out on both
// sides, empty at the end of m if none is.
func free(a, b left, m match) match {
	x := 0
	for x < m.n && !(a.out(m.a+x, 1) && b.out(m.b+x, 1)) {
		x++
	}
	n := 0
	for x+n < m.n && a.out(m.a+x+n, 1) && b.out(m.b+x+n, 1) {
		n++
	}
	return match{m.a + x, m.b + x, n}
}

// runHeap is a heap of runs, the longest on top, then the first in a,
// then in b.
type runHeap []match

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	x, y := h[i], h[j]
	if x.n != y.n {
		return x.n > y.n
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(match)) }
func (h *runHeap) Pop() any {
	old := *h
	m := old[len(old)-1]
	*h = old[:len(old)-1]
	return m
}

// chance weighs passages by how unlikely they are to recur by chance.
type chance struct {
	words  []uint64       // the words of A, which units index
	counts map[uint64]int // occurrences of each word in both texts
	total  float64        // words of both texts
	bits   float64        // the bits a passage must carry
}

// newChance returns the weights of the words of d's texts.
func (d *Diff) newChance() *chance {
	c := &chance{words: d.A.words, counts: make(map[uint64]int), total: float64(d.A.Words + d.B.Words),
		bits: math.Log2(float64(d.A.Words)*float64(d.B.Words)) + chanceBits}
	for _, w := range d.A.words {
		c.counts[w]++
	}
	for _, w := range d.B.words {
		c.counts[w]++
	}
	return c
}

// improbable reports whether the words of units carry at least c.bits:
// each log2(words of both texts / occurrences of the word in them).
func (c *chance) improbable(units []unit) bool {
	b := 0.0
	for _, u := range units {
		for _, w := range c.words[u.w0 : u.w0+u.words] {
			b += math.Log2(c.total / float64(c.counts[w]))
		}
	}
	return b >= c.bits
}

// moved returns which of the na units of a and nb units of b the runs
// hold, nil for a side when they hold none.
func moved(na, nb int, runs []match) (movedA, movedB []bool) {
	if len(runs) == 0 {
		return nil, nil
	}
	movedA, movedB = make([]bool, na), make([]bool, nb)
	for _, r := range runs {
		for i := range r.n {
			movedA[r.a+i], movedB[r.b+i] = true, true
		}
	}
	return movedA, movedB
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

// gram hashes a run of unit keys.
func gram(keys []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, k := range keys {
		h = (h ^ k) * 1099511628211
		h ^= h >> 29
	}
	return h
}
