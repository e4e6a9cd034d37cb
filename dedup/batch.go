package dedup

import (
	"context"
	"fmt"
	"maps"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// Batch finds every duplicate pair and cluster of a corpus.
//
// Lifecycle: NewBatch, then Sketch (from any number of goroutines, each with
// its own Sketcher) and Add (from one goroutine, in input order) for every
// document, then Finish once. After Finish, a second reading of the input may
// call Explain for each document whose NeedsText is true, which completes
// evidence that quotes text.
type Batch struct {
	e       *engine
	matches []match
	groups  [][]int32
	kept    []bool
	done    bool
	err     error // of the method's own files, returned by every Finish
}

// NewBatch returns an empty Batch, or an error when opts are invalid.
func NewBatch(opts Options) (*Batch, error) {
	e, err := newEngine(opts)
	if err != nil {
		return nil, err
	}
	return &Batch{e: e}, nil
}

// Options returns the options in force, defaults filled in.
func (b *Batch) Options() Options { return b.e.opts }

// Sketch is a document analysed by a method, ready for Add.
type Sketch struct {
	v    any
	skip core.SkipReason
}

// Skip is the reason the method will not compare the document, if any.
func (s Sketch) Skip() core.SkipReason { return s.skip }

// Sketcher analyses documents for one goroutine. It is not safe for
// concurrent use; make one per goroutine.
type Sketcher struct{ s sketcher }

// NewSketcher returns a Sketcher for this Batch's method.
func (b *Batch) NewSketcher() *Sketcher { return &Sketcher{s: b.e.m.newSketcher()} }

// Sketch analyses doc. The result keeps no reference to doc's text.
func (s *Sketcher) Sketch(doc *core.Document) Sketch {
	v, skip := s.s.sketch(doc)
	return Sketch{v: v, skip: skip}
}

// Add appends a sketched document. A document whose ID was added before is
// an error naming both origins, and is not added.
func (b *Batch) Add(doc *core.Document, s Sketch) error {
	if b.done {
		return fmt.Errorf("dedup: Add after Finish")
	}
	if b.e.opts.Matrix != "" && b.Len() >= MatrixLimit {
		return fmt.Errorf("dedup: %s: the similarity matrix is limited to %d documents; this is one more (drop --matrix for a larger corpus)",
			doc.Origin, MatrixLimit)
	}
	_, err := b.e.add(doc, s.v, s.skip)
	return err
}

// Len returns the number of documents added.
func (b *Batch) Len() int { return len(b.e.docs.ids) }

// Result is what a Batch found.
type Result struct {
	// Pairs are the reported pairs in discovery order: by the later
	// document's input position, then the earlier one's.
	Pairs []core.Pair
	// Clusters are the groups of duplicates, ordered by first member.
	Clusters []core.Cluster
}

// Finish runs candidates → verify → group over everything added. progress,
// if not nil, is called now and then with the documents matched so far. It is
// safe to call twice; the second call returns the same result.
func (b *Batch) Finish(ctx context.Context, progress func(done int)) (*Result, error) {
	n := b.Len()
	if !b.done {
		if s, ok := b.e.m.(sealer); ok {
			s.seal()
		}
		for id := range n {
			if id%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if progress != nil {
					progress(id)
				}
			}
			b.matches = b.e.pairsOf(int32(id), b.matches)
		}
		b.matches = b.e.selectPairs(b.matches, false)
		b.group()
		b.done = true
		if x, ok := b.e.m.(exporter); ok {
			b.err = x.export(b.matches, b.e.docs.ids)
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	if progress != nil {
		progress(n)
	}
	res := &Result{Clusters: b.clusters()}
	for _, m := range b.matches {
		res.Pairs = append(res.Pairs, b.e.pair(m))
	}
	return res, nil
}

// group unions the duplicate pairs and marks every member but the
// representative of each group as not kept.
func (b *Batch) group() {
	var uf cluster.UnionFind
	uf.Grow(b.Len())
	for _, m := range b.matches {
		if m.label == core.Duplicate {
			uf.Union(m.a, m.b)
		}
	}
	b.groups = uf.Groups()
	b.kept = make([]bool, b.Len())
	for i := range b.kept {
		b.kept[i] = true
	}
	for _, g := range b.groups {
		rep, _ := b.representative(g)
		for _, id := range g {
			b.kept[id] = id == rep
		}
	}
}

func (b *Batch) representative(g []int32) (int32, string) {
	members := make([]cluster.Member, len(g))
	for i, id := range g {
		members[i] = b.e.docs.member(id)
	}
	rep, why := cluster.Representative(members, cluster.Policy(b.e.opts.Keep), b.e.m.similarity)
	return rep.Ord, why
}

func (b *Batch) clusters() []core.Cluster {
	out := make([]core.Cluster, 0, len(b.groups))
	for i, g := range b.groups {
		rep, why := b.representative(g)
		c := core.Cluster{ID: i + 1, Representative: b.e.docs.ids[rep], Why: why}
		for _, id := range g {
			c.Members = append(c.Members, b.e.docs.ids[id])
		}
		out = append(out, c)
	}
	return out
}

// Kept reports whether the document of ordinal id (its position among the
// documents added) belongs in the de-duplicated corpus: it is in no cluster,
// or it is its cluster's representative. Valid after Finish.
func (b *Batch) Kept(id int) bool { return b.done && id < len(b.kept) && b.kept[id] }

// NeedsText reports whether the evidence of some pair needs the text of the
// document of ordinal id. Valid after Finish.
func (b *Batch) NeedsText(id int) bool {
	x, ok := b.e.m.(explainer)
	return ok && b.done && x.needsText(int32(id))
}

// Explain gives the text of the document of ordinal id to the evidence that
// quotes it. doc must be the document added at that position.
func (b *Batch) Explain(id int, doc *core.Document) {
	if x, ok := b.e.m.(explainer); ok && b.done {
		x.explain(int32(id), doc)
	}
}

// Stats returns the run's statistics as they stand: call it after the
// Explain calls, whose text the boilerplate statistics quote.
func (b *Batch) Stats() Stats {
	st := b.e.stats
	st.Skipped = maps.Clone(b.e.stats.Skipped)
	st.Pairs = maps.Clone(b.e.stats.Pairs)
	b.e.m.report(&st)
	st.Clusters = len(b.groups)
	for _, g := range b.groups {
		st.Clustered += len(g)
	}
	for _, k := range b.kept {
		if k {
			st.Kept++
		}
	}
	return st
}
