package engine

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/core"
)

// foundList holds the pairs a Batch found, in the order found, as the
// chunks they were found in: the serial matcher's one, or one a block of
// the parallel matcher. The chunks are never copied into one slice: at a
// million documents a method finds ten million pairs, and their copy (with
// the collector's write barriers, and both copies live at once) cost
// seconds and hundreds of megabytes at the end of matching. A document's
// pairs are all in one chunk.
type foundList[E any] struct {
	chunks [][]Found[E]
	starts []int // starts[i] is the index of chunks[i]'s first pair
	n      int
}

// add appends a pair to the last chunk.
func (l *foundList[E]) add(f Found[E]) {
	if len(l.chunks) == 0 {
		l.chunks, l.starts = [][]Found[E]{nil}, []int{0}
	}
	k := len(l.chunks) - 1
	l.chunks[k] = append(l.chunks[k], f)
	l.n++
}

// addChunk appends the pairs of c as a chunk of their own.
func (l *foundList[E]) addChunk(c []Found[E]) {
	if len(c) == 0 {
		return
	}
	l.chunks, l.starts = append(l.chunks, c), append(l.starts, l.n)
	l.n += len(c)
}

// at returns the i-th pair.
func (l *foundList[E]) at(i int) *Found[E] {
	k, ok := slices.BinarySearch(l.starts, i)
	if !ok {
		k--
	}
	return &l.chunks[k][i-l.starts[k]]
}

// flat returns every pair in one slice (for a Selector, which sees them
// all at once).
func (l *foundList[E]) flat() []Found[E] {
	if len(l.chunks) == 1 {
		return l.chunks[0]
	}
	return slices.Concat(l.chunks...)
}

// bestFirst returns the order of one document's pairs as every list of
// pairs shows them (pairs.jsonl, index add and query, the API): duplicates
// before similar pairs, then by score as shown (shown, the method's
// shownScore), highest first, then by the earlier document, the first read
// or stored first, so that the order depends on nothing but the pairs (a
// pipeline that finds them in another order lists them alike). A method's
// score alone does not order the labels: minhash admits a duplicate by
// containment at a Jaccard below that of a similar pair.
func bestFirst[E any](shown func(score float64, ev E) float64) func(a, b Found[E]) int {
	return func(a, b Found[E]) int {
		if c := cmp.Compare(LabelRank(a.Label), LabelRank(b.Label)); c != 0 {
			return c
		}
		if c := cmp.Compare(shown(b.Score, b.Ev), shown(a.Score, a.Ev)); c != 0 {
			return c
		}
		return cmp.Compare(a.A, b.A)
	}
}

// sortByB orders each later document's pairs bestFirst; they are
// consecutive, in one chunk.
func (l *foundList[E]) sortByB(shown func(score float64, ev E) float64) {
	order := bestFirst(shown)
	for _, c := range l.chunks {
		for i := 0; i < len(c); {
			j := i + 1
			for j < len(c) && c[j].B == c[i].B {
				j++
			}
			slices.SortStableFunc(c[i:j], order)
			i = j
		}
	}
}

// Grade is the label of a verified pair: a duplicate when dup, else
// similar when similar is above 0 and score at least similar; ok false
// drops the pair. It is the last step of most methods' Label.
func Grade(dup bool, score, similar float64) (l core.Label, ok bool) {
	switch {
	case dup:
		return core.Duplicate, true
	case similar > 0 && score >= similar:
		return core.Similar, true
	}
	return "", false
}

// LabelRank orders labels as every list of pairs shows them: duplicates
// (0) before similar pairs (1).
func LabelRank(l core.Label) int {
	if l == core.Duplicate {
		return 0
	}
	return 1
}
