package index

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/store"
)

// Unreachable reports whether err says the index's database cannot be
// reached (see store.Unreachable).
func Unreachable(err error) bool { return store.Unreachable(err) }

// ViewFeeds runs fn in a read-only snapshot of the feed tables: the index
// neither reads nor writes them, but they live in its store, in its
// transactions.
func (x *Index) ViewFeeds(ctx context.Context, fn func(r store.FeedReader) error) error {
	return x.st.View(ctx, func(r store.Reader) error { return fn(r) })
}

// UpdateFeeds runs fn in a write transaction of the feed tables.
func (x *Index) UpdateFeeds(ctx context.Context, fn func(w store.FeedWriter) error) error {
	return x.st.Update(ctx, func(w store.Writer) error { return fn(w) })
}

// Ping reads the index's head: an error when its database cannot answer,
// or ErrSettingsChanged when the Index was opened with
// OpenOptions.Existing on a store that held nothing and another process's
// first add has given it a method since (see blankSince).
func (x *Index) Ping(ctx context.Context) error {
	return x.st.View(ctx, func(r store.Reader) error {
		if _, _, err := r.Head(); err != nil {
			return err
		}
		return x.blankSince(r)
	})
}

// The outcomes of feed items (see watch.OutcomeAdded) that the index
// changes when the roles of their documents change.
const (
	itemAdded     = "added"
	itemSimilar   = "similar"
	itemDuplicate = "duplicate"
)

// relabelAdded gives the feed items, of every feed, of the documents whose
// role an add can change the outcome of their role now (relabelJudged):
// the documents it stored (added[i] the ordinal of outs[i], 0 when not
// stored; those it found stored, Exists or Unchanged, are left out), the
// members of the clusters they are in once it is done, which it created,
// joined or merged (a member earlier than their original makes it a copy,
// a merge gives the members of a cluster another original: of each such
// cluster the members whose items are not duplicates), and the stored
// documents it was published before, its copies that arrived first
// (lateCopies), in a cluster of their own or none. It runs once the
// add's Then wrote the items of its documents, and reads nothing more when
// no feed writes to the index.
//
// An add that replaces no document leaves the role of a stored original
// of a cluster (outs' Original, read once the add is done) as it was: its
// new marks are with documents stored after it, and a duplicate mark with
// one published before it names that one its original (lateCopies). Its
// marks, as many as its copies, are then not read.
func relabelAdded(w store.Writer, outs []Match, added []int64) error {
	if ok, err := hasFeeds(w); !ok {
		return err
	}
	replaces := slices.ContainsFunc(outs, func(m Match) bool { return m.Status == Replaced || m.Status == Superseded })
	var ords []int64
	originals := map[int64]string{} // cluster → the ID of its original
	for i, m := range outs {
		if added[i] == 0 || m.Status == Exists || m.Status == Unchanged {
			continue
		}
		ords = append(ords, added[i])
		if m.Cluster != 0 {
			originals[m.Cluster] = m.Original
		}
	}
	originalOrds, err := w.Lookup(slices.Collect(maps.Values(originals)))
	if err != nil {
		return err
	}
	known := map[int64]int64{} // cluster → its original's ordinal
	for _, c := range slices.Sorted(maps.Keys(originals)) {
		o, ok := originalOrds[originals[c]]
		if !ok {
			return fmt.Errorf("the original %q of cluster %d is not stored", originals[c], c)
		}
		known[c] = o
		// Of a cluster's members only its original is no copy. Its
		// original once the add is done is the add's document, or was an
		// original before (its item then is no duplicate), or joined it
		// now from no cluster: the members whose items are no duplicates
		// are read by their outcome, the others are copies whose items
		// are duplicates already, so that an add to a large cluster reads
		// few.
		members, err := w.ItemMembers(c, []string{itemAdded, itemSimilar})
		if err != nil {
			return err
		}
		if !replaces {
			members = slices.DeleteFunc(members, func(m int64) bool { return m == o })
		}
		ords = append(ords, members...)
	}
	if copies := lateCopies(outs); len(copies) > 0 {
		stored, err := w.Lookup(slices.Sorted(maps.Keys(copies)))
		if err != nil {
			return err
		}
		ords = append(ords, slices.Collect(maps.Values(stored))...)
	}
	slices.Sort(ords)
	return relabelStored(w, slices.Compact(ords), known, itemAdded, itemSimilar, itemDuplicate)
}

// lateCopies returns the IDs of the stored documents that the documents of
// ms were published before: copies of them that arrived first, the other
// members of a cluster a document is the original of (Match.Copies) and
// the stored documents of its duplicate pairs that name it the original.
func lateCopies(ms []Match) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		cluster.AddLateCopies(out, m.ID, m.Pairs, m.Copies)
	}
	return out
}

// relabelJudged gives the feed items, of every feed, made into the
// documents of ords the outcome of their document's role now, whatever
// outcome of added, similar or duplicate they had (see relabelRoles): the
// documents whose marks or clusters a rescore or a repair made again, and
// those whose marks or clusters a removal changed (a copy that takes a
// removed original's place, a pair it judged again, a duplicate mark
// with it).
func relabelJudged(w store.Writer, ords []int64) error {
	return relabelRoles(w, ords, itemAdded, itemSimilar, itemDuplicate)
}

// relabelRoles gives the feed items, of every feed, made into the
// documents of ords whose outcome is one of from the outcome of their
// document's role now (roleOf): duplicate when it copies a stored document
// published before it, else similar when it is marked similar to one
// stored before it, else added. The documents of ords not stored, or
// whose records do not match their checksums, are left out; an index no
// feed writes to holds no items, and no roles are read.
func relabelRoles(w store.Writer, ords []int64, from ...string) error {
	if len(ords) == 0 {
		return nil
	}
	if ok, err := hasFeeds(w); !ok {
		return err
	}
	return relabelStored(w, ords, map[int64]int64{}, from...)
}

// hasFeeds reports whether a feed writes to the index: without one, it
// holds no items to relabel.
func hasFeeds(r store.FeedReader) (bool, error) {
	feeds, err := r.Feeds()
	return len(feeds) > 0, err
}

// relabelStored is relabelRoles once the index is known to have feeds.
// originals holds the ordinals of the clusters' originals known already,
// by cluster, and takes the others, each read once.
func relabelStored(w store.Writer, ords []int64, originals map[int64]int64, from ...string) error {
	if len(ords) == 0 {
		return nil
	}
	byOrd, err := readable(w, ords)
	if err != nil {
		return err
	}
	to := map[string][]string{} // outcome → the IDs whose items take it
	for _, o := range slices.Sorted(maps.Keys(byOrd)) {
		d := byOrd[o]
		copied, like, err := roleOf(w, d, originals)
		if err != nil {
			return err
		}
		switch {
		case copied:
			to[itemDuplicate] = append(to[itemDuplicate], d.ID)
		case like:
			to[itemSimilar] = append(to[itemSimilar], d.ID)
		default:
			to[itemAdded] = append(to[itemAdded], d.ID)
		}
	}
	for _, outcome := range []string{itemAdded, itemSimilar, itemDuplicate} {
		others := slices.DeleteFunc(slices.Clone(from), func(s string) bool { return s == outcome })
		if _, err := w.RelabelItems(to[outcome], others, outcome); err != nil {
			return err
		}
	}
	return nil
}

// roleOf says whether stored document d copies a stored document published
// before it (a duplicate mark with it, or a cluster whose original is
// another), and whether it is marked similar to a document stored before
// it. originals holds the ordinals of the clusters' originals read so far,
// by cluster, and takes those it reads.
func roleOf(r store.Reader, d *store.Doc, originals map[int64]int64) (copied, like bool, err error) {
	if d.Cluster != 0 {
		o, ok := originals[d.Cluster]
		if !ok {
			od, err := r.Original(d.Cluster)
			if err != nil {
				return false, false, err
			}
			o, originals[d.Cluster] = od.Ord, od.Ord
		}
		if o != d.Ord {
			return true, false, nil
		}
	}
	ms, err := r.MarksOf(d.Ord)
	if err != nil {
		return false, false, err
	}
	var dups []int64
	for _, m := range ms {
		switch other := m.Other(d.Ord); {
		case m.Label == core.Duplicate:
			dups = append(dups, other)
		case m.Label == core.Similar && other < d.Ord:
			like = true
		}
	}
	if d.Cluster != 0 && len(dups) > 0 {
		// d is its cluster's original: no member was published before
		// it, and only the duplicates outside the cluster are read (an
		// original of thousands of copies has a mark with each).
		members, err := r.Members(d.Cluster)
		if err != nil {
			return false, false, err
		}
		dups = slices.DeleteFunc(dups, func(o int64) bool { _, in := slices.BinarySearch(members, o); return in })
	}
	others, err := readable(r, dups)
	if err != nil {
		return false, false, err
	}
	for _, o := range others {
		if cluster.ComparePublished(o.Date, o.Rank(), d.Date, d.Rank()) < 0 {
			return true, false, nil
		}
	}
	return false, like, nil
}
