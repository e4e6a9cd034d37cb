package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// verify checks the store's integrity and the index's consistency: every
// compared document has a sketch that decodes, every mark joins two stored
// documents in order with evidence that decodes, and every cluster is its
// duplicate marks' connected group, of two members or more (with Any),
// or one that the index's policy makes of the documents in place order
// by their duplicate marks, as a fresh index of them holds. It returns
// the faults found. Faults of the store itself (damaged pages, records
// that do not match their checksums) are returned alone: the consistency
// checks would read them.
func (x *Index) verify(ctx context.Context, progress func(done int)) (store.Faults, error) {
	faults, err := x.st.Check(ctx)
	if err != nil || faults.Total > 0 {
		return faults, err
	}
	f := &faultList{}
	err = x.st.View(ctx, func(r store.Reader) error { return x.checkIndex(r, f, progress) })
	return f.Faults, err
}

// checkIndex adds to f the faults of the index's consistency that r reads
// (verify's checks but the store's own), with what a repair mends.
func (x *Index) checkIndex(r store.Reader, f *faultList, progress func(done int)) error {
	last, _, err := r.Head()
	if err != nil {
		return err
	}
	rows, err := allDocs(r, false)
	if err != nil {
		return err
	}
	byOrd := make(map[int64]int, len(rows))
	for i, d := range rows {
		byOrd[d.Ord] = i
		if d.Ord > last {
			f.add("document %q has ordinal %d, past the last assigned, %d", d.ID, d.Ord, last)
		}
		if i%4096 == 0 && progress != nil {
			progress(i)
		}
		if err := x.verifySketch(r, &d, f); err != nil {
			return err
		}
	}
	return x.verifyMarks(r, rows, byOrd, f)
}

func (x *Index) verifySketch(r store.Reader, d *store.Doc, f *faultList) error {
	parts, err := r.Sketch(d.Ord)
	switch {
	case d.Skip != core.SkipNone && err == nil:
		f.add("document %q is skipped (%s) but has a sketch", d.ID, d.Skip)
	case d.Skip != core.SkipNone:
	case err != nil:
		f.sketch(d, fmt.Sprintf("document %q: %v", d.ID, err))
	default:
		err := x.live.CheckSketch(parts.Index, parts.Detail)
		switch {
		case errors.Is(err, engine.ErrNoDetail):
			// The method's error of decoding no bytes (a format 0)
			// says nothing of this.
			f.sketch(d, fmt.Sprintf("document %q: the detail part of its sketch is missing", d.ID))
		case err != nil:
			f.sketch(d, fmt.Sprintf("document %q: %v", d.ID, err))
		}
	}
	return nil
}

// verifyMarks checks each mark and that clusters are the groups their
// duplicate marks join: with Any linking, those groups whole; with the
// others, each cluster within one (two duplicates may be in two clusters,
// or in none), and those a cluster.Linker of the policy makes of them in
// place order (see verifyPlaced).
func (x *Index) verifyMarks(r store.Reader, rows []store.Doc, byOrd map[int64]int, f *faultList) error {
	var uf, exact cluster.UnionFind // duplicates; exact copies
	uf.Grow(len(rows))
	exact.Grow(len(rows))
	var byPlace []int          // position in place order → row (not Any)
	var at []int32             // row → position in place order (not Any)
	var links [][]cluster.Link // the duplicate marks, by later position (not Any)
	if x.link != cluster.Any {
		byPlace, at = placeOrder(rows)
		links = make([][]cluster.Link, len(rows))
	}
	err := r.EachMark(func(m *store.Mark) error {
		a, okA := byOrd[m.A]
		b, okB := byOrd[m.B]
		switch {
		case !okA || !okB:
			f.mark(m, fmt.Sprintf("mark %d~%d names a document that is not stored", m.A, m.B))
			return nil
		case m.Method == ExactMethod:
			exact.Union(int32(a), int32(b))
		}
		switch {
		case m.A >= m.B:
			f.mark(m, fmt.Sprintf("mark %d~%d is not in the order of adds", m.A, m.B))
		case m.Label != core.Duplicate && m.Label != core.Similar:
			f.mark(m, fmt.Sprintf("mark %d~%d has label %q", m.A, m.B, m.Label))
		case m.Method == x.spec.Name || m.Method == ExactMethod:
			if _, err := x.decodeEvidence(m.Method, m.Evidence); err != nil {
				f.mark(m, fmt.Sprintf("mark %d~%d: %v", m.A, m.B, err))
			}
		}
		if m.Label == core.Duplicate {
			uf.Union(int32(a), int32(b))
			if x.link != cluster.Any {
				pa, pb := at[a], at[b]
				links[max(pa, pb)] = append(links[max(pa, pb)],
					cluster.Link{Other: min(pa, pb), Score: m.Score, Copy: m.Method == ExactMethod})
			}
			if ca, cb := rows[a].Cluster, rows[b].Cluster; x.link == cluster.Any && (ca == 0 || ca != cb) {
				f.cluster(fmt.Sprintf("duplicates %q and %q are %s", rows[a].ID, rows[b].ID, inClusters(ca, cb)))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	x.verifyCopies(rows, &exact, f)
	members := map[int64][]int{} // cluster → its members, by row
	var order []int64
	for i, d := range rows {
		if d.Cluster == 0 {
			continue
		}
		if members[d.Cluster] == nil {
			order = append(order, d.Cluster)
		}
		members[d.Cluster] = append(members[d.Cluster], i)
	}
	faulty := map[int64]bool{}
	for _, c := range order {
		m := members[c]
		if len(m) == 1 {
			f.cluster(fmt.Sprintf("cluster %d has one member, %q: a cluster is two or more duplicates", c, rows[m[0]].ID))
			faulty[c] = true
			continue
		}
		if first, apart := unjoined(m, &uf); len(apart) > 0 {
			f.cluster(fmt.Sprintf("cluster %d holds documents no duplicate marks join to %q: %s", c, rows[first].ID,
				namesOf(rows, apart)))
			faulty[c] = true
		}
	}
	if x.link != cluster.Any {
		x.verifyPlaced(rows, byPlace, links, members, order, faulty, f)
	}
	return nil
}

// placeOrder returns the rows of verifyMarks in place order
// (store.Doc.Rank), byPlace (position → row), and each row's position, at.
func placeOrder(rows []store.Doc) (byPlace []int, at []int32) {
	byPlace = make([]int, len(rows))
	for i := range byPlace {
		byPlace[i] = i
	}
	slices.SortStableFunc(byPlace, func(a, b int) int { return cmp.Compare(rows[a].Rank(), rows[b].Rank()) })
	at = make([]int32, len(rows))
	for p, i := range byPlace {
		at[i] = int32(p)
	}
	return byPlace, at
}

// verifyPlaced adds a fault for each cluster (members, by cluster in order)
// that is not one a cluster.Linker of the index's policy (not Any) makes of
// rows in place order (byPlace: position → row; see placeOrder) by their
// duplicate marks, links (by the later position, naming the earlier), as a
// removal places documents again (see recluster), faulty ones left out
// (said already), and for each cluster the Linker makes of documents in
// none.
func (x *Index) verifyPlaced(rows []store.Doc, byPlace []int, links [][]cluster.Link, members map[int64][]int,
	order []int64, faulty map[int64]bool, f *faultList) {
	l := cluster.NewLinker(x.link, x.live.BucketLimit())
	for p := range links {
		l.Add(int32(p), links[p])
	}
	same := map[int64]bool{}
	for _, g := range l.Groups() {
		in := make([]int, len(g))
		for k, p := range g {
			in[k] = byPlace[p]
		}
		c := rows[in[0]].Cluster
		if !slices.ContainsFunc(in, func(i int) bool { return rows[i].Cluster != c }) && len(members[c]) == len(in) {
			same[c] = true
		} else if !slices.ContainsFunc(in, func(i int) bool { return rows[i].Cluster != 0 }) {
			f.cluster(fmt.Sprintf("documents %s are in no cluster, though %s linking in place order makes them one",
				namesOf(rows, in), x.link))
		}
	}
	for _, c := range order {
		if !same[c] && !faulty[c] {
			f.cluster(fmt.Sprintf("cluster %d holds %s, not a cluster %s linking in place order makes of its documents",
				c, namesOf(rows, members[c]), x.link))
		}
	}
}

// inClusters says in which clusters two documents are, ca and cb (0 for
// none): "in clusters 1 and 2", "in cluster 7 and in none", "in no
// cluster".
func inClusters(ca, cb int64) string {
	switch {
	case ca == 0 && cb == 0:
		return "in no cluster"
	case ca == 0:
		return fmt.Sprintf("in no cluster and in cluster %d", cb)
	case cb == 0:
		return fmt.Sprintf("in cluster %d and in none", ca)
	}
	return fmt.Sprintf("in clusters %d and %d", ca, cb)
}

// unjoined returns, of the members of a cluster (rows, in the order
// stored), the first of the largest group the duplicate marks (uf) join
// (the first such group on a tie), and the members they do not join to
// it: none when they join them all.
func unjoined(members []int, uf *cluster.UnionFind) (first int, apart []int) {
	size := map[int32]int{}
	for _, i := range members {
		size[uf.Find(int32(i))]++
	}
	first = members[0]
	main := uf.Find(int32(first))
	for _, i := range members {
		if r := uf.Find(int32(i)); size[r] > size[main] {
			first, main = i, r
		}
	}
	for _, i := range members {
		if uf.Find(int32(i)) != main {
			apart = append(apart, i)
		}
	}
	return first, apart
}

// mostNamed is how many documents a fault line names before "and N more".
const mostNamed = 3

// namesOf names the documents of rows at idx, quoted: at most mostNamed,
// then how many more.
func namesOf(rows []store.Doc, idx []int) string {
	var b strings.Builder
	for k, i := range idx[:min(len(idx), mostNamed)] {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(rows[i].ID))
	}
	if n := len(idx) - mostNamed; n > 0 {
		fmt.Fprintf(&b, " and %d more", n)
	}
	return b.String()
}

// verifyCopies adds a fault for each exact copy (stored without being
// compared) that exact marks join to no document compared, directly or
// through other copies: a copy of nothing, which no later document is
// compared with. exact joins the rows that exact marks join.
func (x *Index) verifyCopies(rows []store.Doc, exact *cluster.UnionFind, f *faultList) {
	compared := map[int32]bool{}
	for i, d := range rows {
		if d.Skip != core.SkipExactCopy {
			compared[exact.Find(int32(i))] = true
		}
	}
	groups := map[int32][]int64{}
	var order []int32
	for i, d := range rows {
		r := exact.Find(int32(i))
		if d.Skip != core.SkipExactCopy || compared[r] {
			continue
		}
		if groups[r] == nil {
			order = append(order, r)
		}
		groups[r] = append(groups[r], d.Ord)
		f.Add(fmt.Sprintf("document %q is an exact copy joined to no document compared", d.ID))
	}
	for _, r := range order {
		f.orphans = append(f.orphans, groups[r])
	}
}

// faultList is store.Faults with a formatting add, and what of the faults
// a repair mends (see mendIndex).
type faultList struct {
	store.Faults
	// marks are the marks that name a document not stored, are out of
	// the order of adds, of another label, or whose evidence does not
	// decode; sketches the compared documents whose sketch does not
	// decode or is missing; clusters the faults of clusters that are not
	// their duplicate marks' groups. Each carries its fault's line.
	marks    []store.DamagedMark
	sketches []store.DamagedDoc
	clusters []string
	// orphans are the groups of exact copies exact marks join to no
	// document compared (see verifyCopies), each in the order stored.
	orphans [][]int64
}

func (f *faultList) add(format string, args ...any) { f.Add(fmt.Sprintf(format, args...)) }

// mendable reports whether f holds faults a repair mends.
func (f *faultList) mendable() bool {
	return len(f.marks) > 0 || len(f.sketches) > 0 || len(f.clusters) > 0 || len(f.orphans) > 0
}

// mark adds the fault line of mark m.
func (f *faultList) mark(m *store.Mark, line string) {
	f.Add(line)
	f.marks = append(f.marks, store.DamagedMark{A: m.A, B: m.B, Method: m.Method, Fault: line})
}

// sketch adds the fault line of document d's sketch.
func (f *faultList) sketch(d *store.Doc, line string) {
	f.Add(line)
	f.sketches = append(f.sketches, store.DamagedDoc{Ord: d.Ord, ID: d.ID, Sketch: true, Faults: []string{line}})
}

// cluster adds the fault line of a cluster.
func (f *faultList) cluster(line string) {
	f.Add(line)
	f.clusters = append(f.clusters, line)
}
