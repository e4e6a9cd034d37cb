package simhash

import (
	"encoding/binary"
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/lsh"
	"github.com/neardup/neardup/internal/similarity"
)

// Stages are the method's stages as functions of sketches alone, for a
// pipeline that runs each stage apart, over documents it never holds all at
// once (the Apache Beam pipeline of beam/): sketching, the table keys and
// bucket limit that make candidates, the distance check and verification
// of one pair, its label, and the similarity the representative policy
// "central" reads. They are the code a Batch runs, not a copy of it. A
// Stages is safe for concurrent use but for its sketchers, one per
// goroutine.
type Stages struct {
	m *method
	// pair verifies one pair as the method's Table does, the earlier
	// document's fingerprint read from its sketch, not by its ordinal.
	pair *lsh.Table[Sketch, Evidence]
}

// NewStages returns the stages of the method with options o, or an error
// naming the first option out of range.
func NewStages(o Options) (*Stages, error) {
	if err := engine.CheckConfig(o); err != nil {
		return nil, err
	}
	m := newMethod(o)
	pair := lsh.New(lsh.Banding[Sketch, Evidence]{
		Sample: sample,
		Evidence: func(_ int32, a, b *Sketch, sets similarity.SetScores) Evidence {
			return pairEvidence(a.FP, a, b, sets)
		},
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
		Score:       m.scored,
	})
	return &Stages{m: m, pair: pair}, nil
}

// NewSketcher returns a sketcher for one goroutine: a document's sketch or
// the reason the method skips it.
func (st *Stages) NewSketcher() engine.DocSketcher[Sketch] { return st.m.NewSketcher() }

// Keys appends the document's key in every candidate table to dst.
func (st *Stages) Keys(dst []uint32, s *Sketch) []uint32 { return st.m.tables.keys(s.FP, dst) }

// BucketLimit is how many members of one table bucket a document is
// compared with (see candidates.VisitBucket).
func (st *Stages) BucketLimit() int { return st.m.o.BucketLimit }

// Tables describes the candidate tables in force, as stats.json reports
// them.
func (st *Stages) Tables() string { return st.m.tables.String() }

// Searches reports whether a document looks for candidates among those
// before it: one with no shingle sample is indexed, never matched.
func (st *Stages) Searches(s *Sketch) bool { return len(s.Set) > 0 }

// Within reports whether two documents that share a table key are
// candidates: their fingerprints are within the tables' distance. A pair
// that is not is dropped unverified and not counted, as a Batch does.
func (st *Stages) Within(a, b *Sketch) bool { return st.m.tables.within(a.FP, b.FP) }

// Verify verifies the earlier document a against the later b, as a Batch
// does: the pair's score and evidence, or ok false when their samples
// share too little for any label.
func (st *Stages) Verify(a, b *Sketch) (score float64, ev Evidence, ok bool) {
	return st.pair.Pair(0, a, b)
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

// AppendDetail appends what Within, Verify and Similarity read of s: its
// fingerprint (8 bytes, little-endian), then the detail part of its
// encoding.
func (st *Stages) AppendDetail(dst []byte, s *Sketch) []byte {
	return st.m.AppendDetail(binary.LittleEndian.AppendUint64(dst, s.FP), s)
}

// DecodeDetail reads what AppendDetail wrote.
func (st *Stages) DecodeDetail(b []byte) (*Sketch, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("simhash: detail of %d bytes: %w", len(b), codec.ErrCorrupt)
	}
	s, err := st.m.DecodeDetail(b[8:])
	if err != nil {
		return nil, err
	}
	s.FP = binary.LittleEndian.Uint64(b)
	return s, nil
}
