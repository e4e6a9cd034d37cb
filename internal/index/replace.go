package index

import (
	"cmp"
	"maps"
	"slices"

	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/store"
)

// formerCluster is the cluster a stored document was in before an add
// replaced it by a new version (see keepClusterID): its id (0: none) and
// its other members then.
type formerCluster struct {
	id      int64
	members []int64
}

// formerOf returns the cluster that old, a stored document about to be
// replaced, is in.
func formerOf(r store.Reader, old *store.Doc) (formerCluster, error) {
	f := formerCluster{id: old.Cluster}
	if f.id == 0 {
		return f, nil
	}
	ms, err := r.Members(f.id)
	if err != nil {
		return f, err
	}
	f.members = slices.DeleteFunc(ms, func(o int64) bool { return o == old.Ord })
	return f, nil
}

// keepClusterID numbers the cluster of ord, the new version of a document
// that was in cluster f, as if the new version had been in f all along, in
// the place of the one it replaced: a replace is a removal, which can take
// the id from the members left (a cluster of one is none) or leave it with
// a part of them, then an add, which puts the new version in a cluster by
// its own matches. When that cluster holds one of f's members again, it and
// the part of f the removal left f.id to (if any) are numbered by the rule
// of renumber, in the order of their oldest member by place (store.Doc.Rank:
// the new version stands where the old one stood), each member taking the id
// it had before the replace (the new version and f's members f.id, the
// others the one they are in). So the cluster of a correction and the
// reprints of it keeps its id, and takes it from the part the removal left
// it to when its oldest member comes first. A new version that joins none
// of f's members changes nothing. It returns the cluster ord is in.
func keepClusterID(w store.Writer, ord int64, f formerCluster) (int64, error) {
	docs, err := w.Docs([]int64{ord})
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	now := docs[0].Cluster
	if now == 0 || f.id == 0 || now == f.id {
		return now, nil
	}
	mine, err := w.Members(now)
	if err != nil {
		return 0, err
	}
	if !slices.ContainsFunc(mine, func(o int64) bool { return slices.Contains(f.members, o) }) {
		return now, nil
	}
	held, err := w.Members(f.id)
	if err != nil {
		return 0, err
	}
	rows, err := w.Docs(slices.Concat(mine, held))
	if err != nil {
		return 0, err
	}
	had, groups := formerGroups(rows, ord, f)
	if err := renumberFrom(w, rows, had, groups); err != nil {
		return 0, err
	}
	docs, err = w.Docs([]int64{ord})
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	return docs[0].Cluster, nil
}

// formerGroups returns, for keepClusterID, the cluster ids rows had before
// the replace of f by ord (by row: f.id for ord and f's members, else the
// one it is in) and rows in groups, the cluster that is not f.id's (ord's)
// and the one that is (if any), in the order of their oldest member by place.
func formerGroups(rows []store.Doc, ord int64, f formerCluster) ([]int64, [][]int32) {
	had := make([]int64, len(rows))
	var groups [2][]int32 // ord's cluster, the part that holds f.id
	var first [2]int64    // by group: its oldest member's place
	for i := range rows {
		had[i] = rows[i].Cluster
		if rows[i].Ord == ord || slices.Contains(f.members, rows[i].Ord) {
			had[i] = f.id
		}
		g := 0
		if rows[i].Cluster == f.id {
			g = 1
		}
		if r := rows[i].Rank(); len(groups[g]) == 0 || r < first[g] {
			first[g] = r
		}
		groups[g] = append(groups[g], int32(i))
	}
	switch {
	case len(groups[1]) == 0:
		return had, groups[:1]
	case first[1] < first[0]:
		return had, [][]int32{groups[1], groups[0]}
	}
	return had, groups[:]
}

// placeAgain makes the clusters after ord, the new version of a document
// that was in cluster f (f.id 0: in none), replaced it those a fresh index
// of the documents in place order (store.Doc.Rank) would hold, under a
// policy other than Any: the removal placed f's members again without the
// old version, and the add placed the new version last, though it stands
// where the old one stood. Two reprints joined through the old version
// alone, each alone after the removal, so join the new version again
// together, as they would in a fresh index, not the first alone; and a new
// version of a document that was in no cluster, which placed last joins a
// cluster of later documents it is a duplicate of (by Majority, of half of
// them), stands before them and leaves it again, as a fresh index leaves
// it. What duplicate marks join to ord and f's members is placed again in
// place order, as a removal places it (recluster), each member keeping the
// id it had before the replace where renumber can (ord and f's members
// f.id), and their feed items take the outcome of their roles now
// (relabelJudged). It returns the cluster ord is in then (0: none), or c,
// the cluster the add put it in, under Any, where a cluster is what the
// marks join whatever the order: placed last, ord is where it would be.
func (x *Index) placeAgain(w store.Writer, ord int64, f formerCluster, c int64) (int64, error) {
	if x.link == cluster.Any {
		return c, nil
	}
	marks, err := reach(w, append(slices.Clone(f.members), ord))
	if err != nil || len(marks) == 0 {
		return c, err
	}
	rows, err := w.Docs(slices.Sorted(maps.Keys(marks)))
	if err != nil {
		return 0, err
	}
	slices.SortStableFunc(rows, func(a, b store.Doc) int { return cmp.Compare(a.Rank(), b.Rank()) })
	ords := make([]int64, len(rows))
	had := make([]int64, len(rows))
	for i := range rows {
		ords[i], had[i] = rows[i].Ord, rows[i].Cluster
		if rows[i].Ord == ord || slices.Contains(f.members, rows[i].Ord) {
			had[i] = f.id
		}
	}
	if err := renumberFrom(w, rows, had, x.relink(ords, marks).Groups()); err != nil {
		return 0, err
	}
	if err := relabelJudged(w, ords); err != nil { // feed items of the documents placed again
		return 0, err
	}
	docs, err := w.Docs([]int64{ord})
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	return docs[0].Cluster, nil
}
