package lsh

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// Stages are the stages of a sketch-and-band method as functions of
// sketches alone, for a pipeline that runs each stage apart, over
// documents it never holds all at once (the Apache Beam pipeline of
// beam/): sketching, the bucket limit, the verification of one pair, its
// label, and the similarity the representative policy "central" reads.
// They are the code a Batch runs, not a copy of it. A method's own Stages
// embeds them and adds its candidate keys and the encoding of what they
// read. Stages are safe for concurrent use but for their sketchers, one
// per goroutine.
type Stages[S any, E core.Evidence] struct {
	sketching engine.Sketching[S]
	table     *Table[S, E]
	label     func(score float64, ev E) (core.Label, bool)
}

// NewStages returns the stages of a method that sketches with sk, verifies
// a pair as t does (t's Evidence reads the earlier document's sketch, not
// its ordinal: Verify passes ordinal 0) and labels with label.
func NewStages[S any, E core.Evidence](sk engine.Sketching[S], t *Table[S, E], label func(float64, E) (core.Label, bool)) Stages[S, E] {
	return Stages[S, E]{sketching: sk, table: t, label: label}
}

// NewSketcher returns a sketcher for one goroutine: a document's sketch or
// the reason the method skips it.
func (st *Stages[S, E]) NewSketcher() engine.DocSketcher[S] { return st.sketching.NewSketcher() }

// BucketLimit is how many members of one bucket a document is compared
// with (see candidates.VisitBucket).
func (st *Stages[S, E]) BucketLimit() int { return st.table.BucketLimit() }

// Searches reports whether a document looks for candidates among those
// before it: one with no shingle sample is indexed, never matched.
func (st *Stages[S, E]) Searches(s *S) bool { return st.table.searches(s) }

// Verify verifies the earlier document a against the later b, as a Batch
// does: the pair's score and evidence, or ok false when their samples
// share too little for any label.
func (st *Stages[S, E]) Verify(a, b *S) (score float64, ev E, ok bool) {
	return st.table.Pair(0, a, b)
}

// Label grades a verified pair; ok false drops it.
func (st *Stages[S, E]) Label(score float64, ev E) (core.Label, bool) { return st.label(score, ev) }

// Similarity is the exact score of two documents, for the representative
// policy "central".
func (st *Stages[S, E]) Similarity(a, b *S) float64 {
	s, _ := st.table.Similarity(0, 1, pairSource[S]{a, b}) // a pairSource does not fail
	return s
}

// pairSource is the engine.Source of two sketches, ordinals 0 and 1.
type pairSource[S any] [2]*S

func (p pairSource[S]) Sketch(ord int32) (*S, error) { return p[ord], nil }
