package minhash

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// Stages are the method's stages as functions of sketches alone, for a
// pipeline that runs each stage apart, over documents it never holds all at
// once (the Apache Beam pipeline of beam/): sketching, the band keys and
// bucket limit that make candidates, the verification of one pair, its
// label, and the similarity the representative policy "central" reads. They
// are the code a Batch runs, not a copy of it. A Stages is safe for
// concurrent use but for its sketchers, one per goroutine.
type Stages struct{ m *method }

// NewStages returns the stages of the method with options o, or an error
// naming the first option out of range.
func NewStages(o Options) (*Stages, error) {
	if err := engine.CheckConfig(o); err != nil {
		return nil, err
	}
	m, err := newMethod(o)
	if err != nil {
		return nil, err
	}
	return &Stages{m: m}, nil
}

// NewSketcher returns a sketcher for one goroutine: a document's sketch
// (its band keys in Keys) or the reason the method skips it.
func (st *Stages) NewSketcher() engine.DocSketcher[Sketch] { return st.m.NewSketcher() }

// BucketLimit is how many members of one LSH bucket a document is compared
// with (see candidates.VisitBucket).
func (st *Stages) BucketLimit() int { return st.m.o.BucketLimit }

// Bands is the LSH banding in force, "BxR", as stats.json reports it.
func (st *Stages) Bands() string { return st.m.bands.String() }

// Searches reports whether a document looks for candidates among those
// before it: one with no shingle sample is indexed, never matched.
func (st *Stages) Searches(s *Sketch) bool { return len(s.Set) > 0 }

// Verify verifies the earlier document a against the later b, as a Batch
// does: the pair's score and evidence, or ok false when their samples
// share too little for any label.
func (st *Stages) Verify(a, b *Sketch) (score float64, ev Evidence, ok bool) {
	return st.m.Pair(0, a, b)
}

// Label grades a verified pair; ok false drops it.
func (st *Stages) Label(score float64, ev Evidence) (core.Label, bool) { return st.m.Label(score, ev) }

// Similarity is the exact score of two documents, for the representative
// policy "central".
func (st *Stages) Similarity(a, b *Sketch) float64 {
	s, _ := st.m.Similarity(0, 1, pairSource{a, b}) // a pairSource does not fail
	return s
}

// pairSource is the Source of two sketches, ordinals 0 and 1.
type pairSource [2]*Sketch

func (p pairSource) Sketch(ord int32) (*Sketch, error) { return p[ord], nil }

// AppendDetail appends the detail part of s's encoding: what Verify and
// Similarity read.
func (st *Stages) AppendDetail(dst []byte, s *Sketch) []byte { return st.m.AppendDetail(dst, s) }

// DecodeDetail reads what AppendDetail wrote.
func (st *Stages) DecodeDetail(b []byte) (*Sketch, error) { return st.m.DecodeDetail(b) }
