package watch

import (
	"container/heap"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/internal/extract"
)

// picker chooses, of a feed's items given to it one at a time in the
// order the parser lists them, those keptItems keeps: the first keep, the
// last keep and the keep latest by their dates. It holds at most 3 × keep
// of them, whatever the feed lists: a cut that held every item (a JSON
// Feed's 3,000,000 "{}" as as many raw messages) cost 40 times the feed's
// size.
type picker struct {
	keep   int
	n      int         // the items given
	first  []pick      // the first keep
	last   []pick      // the last keep, item i at last[i % keep] once full
	latest latestPicks // the keep latest by their dates, the oldest at the root
}

// pick is an item a picker holds: its index, where it is, and its date
// (zero when it has none that extract.ParseDate reads).
type pick struct {
	i int
	e extent
	t time.Time
}

// add gives p the next item, at e, dated by e.date.
func (p *picker) add(e extent) {
	it := pick{i: p.n, e: e}
	p.n++
	if p.keep <= 0 {
		return
	}
	if len(p.first) < p.keep {
		p.first = append(p.first, it)
	}
	if len(p.last) < p.keep {
		p.last = append(p.last, it)
	} else {
		p.last[it.i%p.keep] = it
	}
	if s := strings.TrimSpace(e.date); s != "" {
		if t, ok := extract.ParseDate(s); ok {
			it.t = t
			if len(p.latest) < p.keep {
				heap.Push(&p.latest, it)
			} else if ranksAbove(it, p.latest[0]) {
				p.latest[0] = it
				heap.Fix(&p.latest, 0)
			}
		}
	}
}

// kept are the items p keeps, in the order they were given: all of them
// when it was given no more than 2 × keep.
func (p *picker) kept() []pick {
	kept := map[int]pick{}
	for _, set := range [][]pick{p.first, p.last, p.latest} {
		for _, it := range set {
			kept[it.i] = it
		}
	}
	out := make([]pick, 0, len(kept))
	for _, it := range kept {
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b pick) int { return a.i - b.i })
	return out
}

// ranksAbove reports whether a ranks above b among the latest: dated later, or
// as late and listed first (as a stable sort, newest first, ranks them).
func ranksAbove(a, b pick) bool {
	if c := a.t.Compare(b.t); c != 0 {
		return c > 0
	}
	return a.i < b.i
}

// latestPicks is a heap of picks whose root is the one ranked lowest (see
// ranksAbove).
type latestPicks []pick

func (h latestPicks) Len() int           { return len(h) }
func (h latestPicks) Less(i, j int) bool { return ranksAbove(h[j], h[i]) }
func (h latestPicks) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *latestPicks) Push(x any)        { *h = append(*h, x.(pick)) }
func (h *latestPicks) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// keptItems reports which of a feed's n items a cut keeps to keep keep of
// them (see parseFeed): its first keep and its last keep, the newest
// whether it lists them newest or oldest first, and the keep latest by
// their dates, date(i) (see dateRank), as extract.ParseDate reads them, so
// that its newest are kept in any order it lists them. gofeed may read a
// date extract.ParseDate cannot, or the other way round: a feed in no
// order whose dates are so may lose some of its newest. At most 3 × keep
// are kept. It is picker's choice, for a feed whose items are at hand.
func keptItems(n, keep int, date func(int) string) []bool {
	p := picker{keep: keep}
	for i := range n {
		p.add(extent{date: date(i)})
	}
	kept := make([]bool, n)
	for _, it := range p.kept() {
		kept[it.i] = true
	}
	return kept
}
