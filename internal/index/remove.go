package index

import (
	"context"
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
		return x.removeOrds(w, ords)
	})
	return removed, err
}

// expireChunk bounds the documents one expiry step removes and re-clusters.
const expireChunk = 10000

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
			return x.removeOrds(w, ords)
		})
		n += done
		if err != nil || done < expireChunk {
			return n, err
		}
	}
}

// removeOrds removes stored documents, takes them out of the in-memory
// index (through the change log, as another process would), and splits the
// clusters they held together.
func (x *Index) removeOrds(w store.Writer, ords []int64) error {
	if len(ords) == 0 {
		return nil
	}
	clusters, err := w.Remove(ords)
	if err != nil {
		return err
	}
	// Only the removals: the transaction caught up with the store when it
	// began, and the documents it has added since are indexed already.
	_, lastRemoval, err := w.Head()
	if err != nil {
		return err
	}
	if err := x.forgetRemoved(w, lastRemoval); err != nil {
		return err
	}
	for _, c := range clusters {
		if err := x.recluster(w, c); err != nil {
			return err
		}
	}
	return nil
}

// recluster recomputes a cluster that lost members: its remaining members,
// in order, placed again by a cluster.Linker of the index's policy (with Any:
// the parts joined by duplicate marks). Of the parts of two or more, the
// one with the oldest member keeps its id and the others get new ids;
// members left alone leave it.
func (x *Index) recluster(w store.Writer, c int64) error {
	members, err := w.Members(c)
	if err != nil {
		return err
	}
	linker, err := x.replay(w, members)
	if err != nil {
		return err
	}
	groups := linker.Groups()
	inGroup := make([]bool, len(members))
	for gi, g := range groups {
		for _, i := range g {
			inGroup[i] = true
		}
		if gi == 0 {
			continue // the part with the oldest member keeps the id
		}
		id, err := w.NewCluster()
		if err != nil {
			return err
		}
		set := make([]int64, len(g))
		for k, i := range g {
			set[k] = members[i]
		}
		if err := w.SetCluster(set, id); err != nil {
			return err
		}
	}
	var alone []int64
	for i, in := range inGroup {
		if !in {
			alone = append(alone, members[i])
		}
	}
	return w.SetCluster(alone, 0)
}

// replay places members, stored documents in the order added, in a
// cluster.Linker of the index's policy, each with its duplicate marks to
// the members before it; the Linker numbers them by their position.
func (x *Index) replay(r store.Reader, members []int64) (*cluster.Linker, error) {
	idx := make(map[int64]int32, len(members))
	for i, o := range members {
		idx[o] = int32(i)
	}
	linker := cluster.NewLinker(x.link)
	for i, o := range members {
		ms, err := r.MarksOf(o)
		if err != nil {
			return nil, err
		}
		var links []cluster.Link
		for _, m := range ms {
			other := m.A
			if other == o {
				other = m.B
			}
			if k, ok := idx[other]; ok && k < int32(i) && m.Label == core.Duplicate {
				links = append(links, cluster.Link{Other: k, Score: m.Score})
			}
		}
		linker.Add(int32(i), links)
	}
	return linker, nil
}
