package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// Exporter receives an index's contents as a batch run writes them.
type Exporter interface {
	// Pair receives each mark, by later document then earlier.
	Pair(p *core.Pair) error
	// Cluster receives each cluster, by its first member.
	Cluster(c *core.Cluster) error
	// Kept receives each document of the de-duplicated corpus: those
	// compared that are in no cluster and each cluster's representative
	// (an exact copy too, stored without being compared), in the order
	// added.
	Kept(d *store.Doc) error
	// Rejected receives each document not compared (d.Skip says why), in
	// the order added: each the method skipped, and each exact copy in no
	// cluster; an exact copy is a member of its original's cluster, not a
	// reject.
	Rejected(d *store.Doc) error
}

// export sends the index to e and returns its stats, read in the same
// transaction: what e received, whatever another process stores meanwhile.
// The caller holds the index exclusively.
func (x *Index) export(ctx context.Context, e Exporter) (IndexStats, error) {
	st := x.stats(x.live.Len())
	err := x.st.View(ctx, func(r store.Reader) error {
		rows, err := allDocs(r, false)
		if err != nil {
			return err
		}
		byOrd := make(map[int64]*store.Doc, len(rows))
		for i := range rows {
			byOrd[rows[i].Ord] = &rows[i]
		}
		// document → its best duplicate mark to one earlier in place order
		// (store.Doc.Rank), the order a cluster's members are listed in
		best := map[int64]store.Mark{}
		note := func(m *store.Mark) {
			if m.Label != core.Duplicate {
				return
			}
			earlier, later, _ := inPlace(m, byOrd)
			if b, ok := best[later]; !ok || m.Score > b.Score {
				best[later] = store.Mark{A: earlier, B: later, Score: m.Score}
			}
		}
		if err := x.exportMarks(r, rows, byOrd, note, e); err != nil {
			return err
		}
		reps, err := x.exportClusters(r, rows, best, e)
		if err != nil {
			return err
		}
		if err := r.EachDoc(x.meta.StoreText, func(d *store.Doc) error {
			// A member of a cluster, an exact copy (not compared, but
			// matched) included, is its representative or one of the
			// others, which the cluster lists. A document the method
			// skipped is a reject whatever cluster it is in.
			switch {
			case !compared(d.Skip):
				return e.Rejected(d)
			case d.Cluster != 0:
				if reps[d.Ord] {
					return e.Kept(d)
				}
				return nil
			case d.Skip != core.SkipNone:
				return e.Rejected(d)
			}
			return e.Kept(d)
		}); err != nil {
			return err
		}
		st.Counts, err = r.Counts()
		return err
	})
	return st, err
}

// exportClusters sends every cluster with its representative, the index's
// linking policy and why each member is in, and returns the
// representatives. A cluster lists its members in place order
// (byRank), the order a batch run over the documents so placed reads
// them, and its representative and why each member is in follow that
// order. best holds each document's best duplicate mark to one earlier in
// that order.
func (x *Index) exportClusters(r store.Reader, rows []store.Doc, best map[int64]store.Mark, e Exporter) (map[int64]bool, error) {
	ids := make(map[int64]string, len(rows))
	for _, d := range rows {
		ids[d.Ord] = d.ID
	}
	groups := map[int64][]*store.Doc{}
	var order []int64
	for i := range rows {
		if c := rows[i].Cluster; c != 0 {
			if groups[c] == nil {
				order = append(order, c)
			}
			groups[c] = append(groups[c], &rows[i])
		}
	}
	for _, g := range groups {
		byRank(g)
	}
	reps := map[int64]bool{}
	for _, c := range order {
		rep, why, err := x.representative(r, groups[c])
		if err != nil {
			return nil, err
		}
		reps[rep.Ord] = true
		cl := core.Cluster{ID: c, Representative: rep.ID, Original: originalOf(groups[c]).ID, Why: why, Linking: string(x.link)}
		if x.link != cluster.Any {
			if err := x.joined(r, &cl, groups[c]); err != nil {
				return nil, err
			}
		} else {
			x.joinedAny(&cl, groups[c], ids, best)
		}
		if err := e.Cluster(&cl); err != nil {
			return nil, err
		}
	}
	return reps, nil
}

// joinedAny fills the members of cl, a cluster g of an index linking any,
// and why each is in, from best, each document's best duplicate mark to an
// earlier one.
func (x *Index) joinedAny(cl *core.Cluster, g []*store.Doc, ids map[int64]string, best map[int64]store.Mark) {
	for i, d := range g {
		cl.Members = append(cl.Members, d.ID)
		var reason cluster.Reason
		if m, ok := best[d.Ord]; ok {
			reason = cluster.Reason{Links: 1, Size: 1, Score: m.Score}
		} else if i > 0 {
			reason = cluster.Reason{Size: len(g)}
		}
		cl.Joined = append(cl.Joined, reason.Format(cluster.Any, func(int32) string { return ids[best[d.Ord].A] }))
	}
}

// joined fills the members of cl, a cluster g of an index linking by
// anchor or majority, and why each is in, as the Linker that placed them
// says.
func (x *Index) joined(r store.Reader, cl *core.Cluster, g []*store.Doc) error {
	ords := make([]int64, len(g))
	for i, d := range g {
		ords[i] = d.Ord
	}
	linker, err := x.replay(r, ords)
	if err != nil {
		return err
	}
	group := make([]int32, len(g))
	for i := range group {
		group[i] = int32(i)
	}
	for i, d := range g {
		cl.Members = append(cl.Members, d.ID)
		why := linker.Why(int32(i), group)
		cl.Joined = append(cl.Joined, why.Format(x.link, func(k int32) string { return g[k].ID }))
	}
	return nil
}

// byRank sorts g, a cluster's documents, by their places (store.Doc.Rank):
// a new version of a document where the version it replaced was, the order
// a batch run reads them in.
func byRank(g []*store.Doc) {
	slices.SortStableFunc(g, func(a, b *store.Doc) int { return cmp.Compare(a.Rank(), b.Rank()) })
}

// representative chooses a cluster's representative by the index's policy.
// g is the cluster's documents in place order (byRank), the order
// cluster.Representative numbers them in, so that "earliest" keeps the
// original (originalOf) and a tie goes to the first published. The
// policy "central" scores them as a batch run over the stored documents
// would (engine.Live.Central): it reads their sketches, an exact copy,
// stored without one, scored by its original's (see scoredAs).
func (x *Index) representative(r store.Reader, g []*store.Doc) (*store.Doc, string, error) {
	members := make([]cluster.Member, len(g))
	for i, d := range g {
		members[i] = cluster.Member{Ord: int32(i), Length: d.Length, Date: d.Date}
	}
	var sim func(i, j int) (float64, error)
	if x.keep == cluster.Central {
		ords, err := scoredAs(r, g)
		if err != nil {
			return nil, "", err
		}
		if sim, err = x.live.Central(ords, details{r}, details{r}); err != nil {
			return nil, "", err
		}
	}
	var simErr error
	rep, why := cluster.Representative(members, x.keep, func(a, b int32) float64 {
		s, err := sim(int(a), int(b))
		if err != nil && simErr == nil {
			simErr = err
		}
		return s
	})
	return g[rep.Ord], why, simErr
}

// scoredAs returns, by member of g, a cluster's documents, the ordinal of
// the document whose sketch scores it by the policy "central": its own;
// for an exact copy, stored without a sketch, that of the nearest member
// with one that exact marks join it to, through other copies (of two as
// near, the first stored): its original, when the two have one content
// (the same title and text, Doc.Hash). A batch, which sketches the copy,
// finds it as similar to the others as its original is, and so does the
// index. A copy by URL or slug, whose text may differ, and a copy joined
// to no such member keep their own ordinals, which score 0.
func scoredAs(r store.Reader, g []*store.Doc) ([]int64, error) {
	ords := make([]int64, len(g))
	copied := map[int64]bool{}
	for i, d := range g {
		ords[i] = d.Ord
		if d.Skip == core.SkipExactCopy {
			copied[d.Ord] = true
		}
	}
	if len(copied) == 0 {
		return ords, nil
	}
	marks, err := r.MethodMarks(ExactMethod, slices.Sorted(maps.Keys(copied)))
	if err != nil {
		return nil, err
	}
	member := make(map[int64]bool, len(g))
	for _, d := range g {
		member[d.Ord] = true
	}
	joined := map[int64][]int64{} // member → the members exact marks join it to
	for _, m := range marks {
		if member[m.A] && member[m.B] {
			joined[m.A], joined[m.B] = append(joined[m.A], m.B), append(joined[m.B], m.A)
		}
	}
	hash := make(map[int64]uint64, len(g))
	for _, d := range g {
		hash[d.Ord] = d.Hash
	}
	for i, o := range ords {
		if !copied[o] {
			continue
		}
		if n := nearestSketched(o, joined, copied); hash[n] == hash[o] {
			ords[i] = n
		}
	}
	return ords, nil
}

// nearestSketched returns the document nearest copy, a member stored
// without a sketch, in joined (by member, the members exact marks join it
// to) that is not copied, of two as near the first stored; copy when there
// is none.
func nearestSketched(copy int64, joined map[int64][]int64, copied map[int64]bool) int64 {
	seen := map[int64]bool{copy: true}
	for ring := []int64{copy}; len(ring) > 0; {
		var next []int64
		for _, o := range ring {
			for _, n := range joined[o] {
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		slices.Sort(next)
		for _, n := range next {
			if !copied[n] {
				return n
			}
		}
		ring = next
	}
	return copy
}

// originalOf returns the member of g, a cluster's documents in the order
// added, published first (see cluster.ComparePublished): of a date, the
// first by place (store.Doc.Rank).
func originalOf(g []*store.Doc) *store.Doc {
	best := g[0]
	for _, d := range g[1:] {
		if cluster.ComparePublished(d.Date, d.Rank(), best.Date, best.Rank()) < 0 {
			best = d
		}
	}
	return best
}

// allDocs reads every stored document, in the order added.
func allDocs(r store.Reader, withText bool) ([]store.Doc, error) {
	var rows []store.Doc
	err := r.EachDoc(withText, func(d *store.Doc) error {
		rows = append(rows, *d)
		return nil
	})
	return rows, err
}

// exportMarks sends every mark to e as dedup writes the pairs of the
// documents in place order (store.Doc.Rank): by the later-placed document,
// in that order, each document's best first (sortForExport), each pair
// with the earlier-placed document as A (see exportMark). It calls note
// with each mark. The store gives marks by B, its later stored document,
// which is the later placed unless one of the two is a new version placed
// where the version it replaced was (store.Doc.Place); the marks of such
// documents are read first and sent among the others at their places.
func (x *Index) exportMarks(r store.Reader, rows []store.Doc, byOrd map[int64]*store.Doc, note func(*store.Mark), e Exporter) error {
	// later-placed document → its marks of a moved document, where the
	// stored order is not the place order
	moved := map[int64][]store.Mark{}
	type key struct {
		a, b   int64
		method string
	}
	seen := map[key]bool{}
	for i := range rows {
		if rows[i].Place == 0 {
			continue
		}
		ms, err := r.MarksOf(rows[i].Ord)
		if err != nil {
			return err
		}
		for _, m := range ms {
			k := key{m.A, m.B, m.Method}
			if seen[k] {
				continue
			}
			seen[k] = true
			note(&m)
			_, later, _ := inPlace(&m, byOrd)
			moved[later] = append(moved[later], m)
		}
	}
	pending := slices.SortedFunc(maps.Keys(moved), func(a, b int64) int {
		return cmp.Compare(rankOf(a, byOrd), rankOf(b, byOrd))
	})
	// flush sends the marks of document later: ms, those stored by it, and
	// those of a moved document.
	var buf []store.Mark
	flush := func(later int64, ms []store.Mark) error {
		buf = append(append(buf[:0], ms...), moved[later]...)
		sortForExport(buf, byOrd)
		for i := range buf {
			if err := x.exportMark(&buf[i], byOrd, e); err != nil {
				return err
			}
		}
		return nil
	}
	// flushBefore sends the marks of moved documents of the documents
	// placed before rank.
	flushBefore := func(rank int64) error {
		for len(pending) > 0 && rankOf(pending[0], byOrd) < rank {
			if err := flush(pending[0], nil); err != nil {
				return err
			}
			pending = pending[1:]
		}
		return nil
	}
	var group []store.Mark // the stored marks of group[0].B
	send := func() error {
		later := group[0].B
		if err := flushBefore(rankOf(later, byOrd)); err != nil {
			return err
		}
		if len(pending) > 0 && pending[0] == later {
			pending = pending[1:]
		}
		err := flush(later, group)
		group = group[:0]
		return err
	}
	if err := r.EachMark(func(m *store.Mark) error {
		if a, b := byOrd[m.A], byOrd[m.B]; a != nil && b != nil && (a.Place != 0 || b.Place != 0) {
			return nil // read with its moved document
		}
		note(m)
		if len(group) > 0 && group[0].B != m.B {
			if err := send(); err != nil {
				return err
			}
		}
		group = append(group, *m)
		return nil
	}); err != nil {
		return err
	}
	if len(group) > 0 {
		if err := send(); err != nil {
			return err
		}
	}
	return flushBefore(math.MaxInt64)
}

// rankOf returns the place (store.Doc.Rank) of document ord, found in
// byOrd; its ordinal when it is not there.
func rankOf(ord int64, byOrd map[int64]*store.Doc) int64 {
	if d := byOrd[ord]; d != nil {
		return d.Rank()
	}
	return ord
}

// inPlace returns the documents of mark m, found in byOrd, in place order
// (store.Doc.Rank), and whether that is the other way round from the
// mark's A and B: a new version is placed where the version it replaced
// was, before the documents stored before it.
func inPlace(m *store.Mark, byOrd map[int64]*store.Doc) (earlier, later int64, reversed bool) {
	if rankOf(m.A, byOrd) > rankOf(m.B, byOrd) {
		return m.B, m.A, true
	}
	return m.A, m.B, false
}

// reverser is evidence whose fields tell A from B (containments, counts
// of each one's names, ...): Reversed returns it as of the pair read the
// other way round. Evidence without it reads both documents alike.
type reverser interface {
	Reversed() core.Evidence
}

// exportMark writes the pair of mark m, its documents found in byOrd, as
// dedup of the documents in place order writes it: the earlier-placed
// document as A, the evidence read that way round.
func (x *Index) exportMark(m *store.Mark, byOrd map[int64]*store.Doc, e Exporter) error {
	ev, err := x.decodeEvidence(m.Method, m.Evidence)
	if err != nil {
		return fmt.Errorf("mark %d~%d: %w", m.A, m.B, err)
	}
	a, b := byOrd[m.A], byOrd[m.B]
	if a == nil || b == nil {
		return fmt.Errorf("mark %d~%d: %w: a document it joins", m.A, m.B, store.ErrNotFound)
	}
	if _, _, reversed := inPlace(m, byOrd); reversed {
		a, b, ev = b, a, reversedEvidence(ev)
	}
	return e.Pair(&core.Pair{A: a.ID, B: b.ID, Method: m.Method, Score: m.Score, Label: m.Label,
		Original: published{b.Date, b.Ord, b.Place}.original(a, b.ID, m.Label), Evidence: ev})
}

// reversedEvidence returns ev as of its pair read the other way round.
func reversedEvidence(ev core.Evidence) core.Evidence {
	if r, ok := ev.(reverser); ok {
		return r.Reversed()
	}
	return ev
}

// sortForExport orders the marks of one later-placed document as
// pairs.jsonl lists a document's pairs: duplicates first, then by score as
// stored (the score shown), highest first, then by the earlier-placed
// document (store.Doc.Rank, found in byOrd), the first placed first.
func sortForExport(ms []store.Mark, byOrd map[int64]*store.Doc) {
	earlier := func(m *store.Mark) int64 {
		a, _, _ := inPlace(m, byOrd)
		return rankOf(a, byOrd)
	}
	slices.SortFunc(ms, func(a, b store.Mark) int {
		return cmp.Or(cmp.Compare(engine.LabelRank(a.Label), engine.LabelRank(b.Label)),
			cmp.Compare(b.Score, a.Score), cmp.Compare(earlier(&a), earlier(&b)))
	})
}
