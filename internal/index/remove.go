package index

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/store"
)

func (x *Index) remove(ctx context.Context, ids []string) ([]string, error) {
	var removed []string
	err := x.update(ctx, func(w store.Writer) error {
		stored, err := w.Lookup(ids)
		if err != nil {
			return err
		}
		var ords []int64
		removed = removed[:0]
		for _, id := range ids {
			if ord, ok := stored[id]; ok {
				ords = append(ords, ord)
				removed = append(removed, id)
				delete(stored, id) // an ID given twice is removed once
			}
		}
		_, err = x.removeOrds(w, ords)
		return err
	})
	return removed, err
}

// expireChunk bounds the documents one expiry step removes and re-clusters
// (a variable: tests make it small).
var expireChunk = 10000

func (x *Index) expire(ctx context.Context, before time.Time) (int, error) {
	n := 0
	for {
		done := 0
		err := x.update(ctx, func(w store.Writer) error {
			ords, err := w.Older(before.Unix())
			if err != nil {
				return err
			}
			ords = ords[:min(len(ords), expireChunk)]
			done = len(ords)
			_, err = x.removeOrds(w, ords)
			return err
		})
		if err != nil {
			return n, err // the chunk's removal did not commit: not counted
		}
		n += done
		if done < expireChunk {
			return n, nil
		}
	}
}

// removeOrds removes stored documents, joins again the documents exact
// marks joined to them, a copy taking the place of a removed original (see
// heirs), takes the documents out of the in-memory index and loads the
// copies given a sketch (through the change log, as another process
// would), judges again the marks a copy given a sketch of its own text
// took (judgeAgain), places again the documents whose clusters the
// removal may change (recluster), and gives the feed items of the
// documents left whose marks or clusters it changed the outcome of their
// role then (relabelJudged): a copy it leaves a copy of nothing is added
// or similar, one whose pair judged again is a duplicate of an article
// published before it a duplicate. It returns the marks it made between
// documents left.
func (x *Index) removeOrds(w store.Writer, ords []int64) ([]store.Mark, error) {
	if len(ords) == 0 {
		return nil, nil
	}
	h, err := x.findHeirs(w, ords)
	if err != nil {
		return nil, err
	}
	marked, err := x.markedWith(w, ords)
	if err != nil {
		return nil, err
	}
	clusters, err := w.Remove(ords)
	if err != nil {
		return nil, err
	}
	if err := h.apply(w); err != nil {
		return nil, err
	}
	// Only the removals: the transaction caught up with the store when it
	// began, and the documents it has added since are indexed already.
	lastOrd, lastRemoval, err := w.Head()
	if err != nil {
		return nil, err
	}
	if err := x.forgetRemoved(w, lastRemoval, lastOrd); err != nil {
		return nil, err
	}
	if err := x.judgeAgain(w, h); err != nil {
		return nil, err
	}
	var made []store.Mark
	var joined []int64
	if h != nil {
		made, joined = h.marks, h.joined
	}
	placed, err := x.recluster(w, clusters, joined)
	if err != nil {
		return nil, err
	}
	return made, relabelJudged(w, slices.Concat(marked, joined, placed))
}

// markedWith returns the documents left that a mark (of the index's method
// or exact) joins to one of ords, the documents removed: their roles can
// change.
func (x *Index) markedWith(r store.Reader, ords []int64) ([]int64, error) {
	gone := make(map[int64]bool, len(ords))
	for _, o := range ords {
		gone[o] = true
	}
	var out []int64
	for _, method := range []string{x.spec.Name, ExactMethod} {
		ms, err := r.MethodMarks(method, ords)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			for _, o := range [2]int64{m.A, m.B} {
				if !gone[o] {
					out = append(out, o)
				}
			}
		}
	}
	return out, nil
}

// recluster makes the clusters after a removal those that a fresh index of
// the documents left, added in place order (store.Doc.Rank: a new version
// where the version it replaced was), would hold, reading no more
// of the index than it must. A document bears on where later ones go only
// through the cluster it is in (see cluster.Choose), so only the clusters
// that lost a member, lost, can now place a document otherwise, and that
// document in turn only those its duplicate marks join. What can move is
// therefore what duplicate marks join, directly or through others, to the
// members left of lost: with Any those members alone; by the other policies
// also whole clusters beside them and documents in none. That is placed
// again, in place order, by a cluster.Linker of the index's policy, and
// numbered as a rescore numbers its groups (renumber). A removed document
// that was in no cluster was joined by none, and moves nothing. The
// documents also, whose marks the removal changed (see heirs), can move
// too, in a cluster or not. It returns the documents it placed again.
func (x *Index) recluster(w store.Writer, lost []int64, also []int64) ([]int64, error) {
	from := slices.Clone(also)
	for _, c := range lost {
		members, err := w.Members(c)
		if err != nil {
			return nil, err
		}
		from = append(from, members...)
	}
	marks, err := reach(w, from)
	if err != nil || len(marks) == 0 {
		return nil, err
	}
	rows, err := w.Docs(slices.Sorted(maps.Keys(marks)))
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, func(a, b store.Doc) int { return cmp.Compare(a.Rank(), b.Rank()) })
	ords := make([]int64, len(rows))
	for i := range rows {
		ords[i] = rows[i].Ord
	}
	return ords, renumber(w, rows, x.relink(ords, marks).Groups())
}

// reach returns the marks of every stored document that duplicate marks
// join to one of from, directly or through others, from included, by
// document.
func reach(r store.Reader, from []int64) (map[int64][]store.Mark, error) {
	marks := make(map[int64][]store.Mark, len(from))
	next := slices.Clone(from)
	for len(next) > 0 {
		o := next[len(next)-1]
		next = next[:len(next)-1]
		if _, ok := marks[o]; ok {
			continue
		}
		ms, err := r.MarksOf(o)
		if err != nil {
			return nil, err
		}
		marks[o] = ms
		for _, m := range ms {
			if _, ok := marks[m.Other(o)]; !ok && m.Label == core.Duplicate {
				next = append(next, m.Other(o))
			}
		}
	}
	return marks, nil
}

// replay places members, stored documents in the order added, in a
// cluster.Linker of the index's policy, each with its duplicate marks to
// the members before it; the Linker numbers them by their position.
func (x *Index) replay(r store.Reader, members []int64) (*cluster.Linker, error) {
	marks := make(map[int64][]store.Mark, len(members))
	for _, o := range members {
		ms, err := r.MarksOf(o)
		if err != nil {
			return nil, err
		}
		marks[o] = ms
	}
	return x.relink(members, marks), nil
}

// relink is replay of members whose marks, by document, are read already.
func (x *Index) relink(members []int64, marks map[int64][]store.Mark) *cluster.Linker {
	idx := make(map[int64]int32, len(members))
	for i, o := range members {
		idx[o] = int32(i)
	}
	linker := cluster.NewLinker(x.link, x.live.BucketLimit())
	for i, o := range members {
		var links []cluster.Link
		for _, m := range marks[o] {
			if k, ok := idx[m.Other(o)]; ok && k < int32(i) && m.Label == core.Duplicate {
				links = append(links, cluster.Link{Other: k, Score: m.Score, Copy: m.Method == ExactMethod})
			}
		}
		linker.Add(int32(i), links)
	}
	return linker
}
