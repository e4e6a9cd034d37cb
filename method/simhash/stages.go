package simhash

import (
	"encoding/binary"
	"fmt"

	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/lsh"
	"github.com/neardup/neardup/internal/similarity"
)

// Stages are the method's stages as functions of sketches alone, for a
// pipeline that runs each stage apart (the Apache Beam pipeline of beam/):
// those every sketch-and-band method has (NewSketcher, BucketLimit,
// Searches, Verify, Label, Similarity: see lsh.Stages), the table keys,
// the distance check of a candidate pair, the tables in force and the
// encoding of what they read. A Stages is safe for concurrent use but for
// its sketchers, one per goroutine.
type Stages struct {
	lsh.Stages[Sketch, Evidence]
	m *method
}

// NewStages returns the stages of the method with options o, or an error
// naming the first option out of range.
func NewStages(o Options) (*Stages, error) {
	if err := engine.CheckConfig(o); err != nil {
		return nil, err
	}
	m := newMethod(o)
	// pair verifies one pair as the method's Table does, the earlier
	// document's fingerprint read from its sketch, not by its ordinal.
	pair := lsh.New(lsh.Banding[Sketch, Evidence]{
		Sample: sample,
		Evidence: func(_ int32, a, b *Sketch, sets similarity.SetScores) Evidence {
			return m.pairEvidence(a.FP, a, b, sets)
		},
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
		Score:       func(ev Evidence) (float64, Evidence) { s := m.scored(&ev); return s, ev },
	})
	return &Stages{Stages: lsh.NewStages(m, pair, m.Label), m: m}, nil
}

// Keys appends the document's key in every candidate table to dst.
func (st *Stages) Keys(dst []uint32, s *Sketch) []uint32 { return st.m.tables.keys(s.FP, dst) }

// Tables describes the candidate tables in force, as stats.json reports
// them.
func (st *Stages) Tables() string { return st.m.tables.String() }

// Within reports whether two documents that share a table key are
// candidates: their fingerprints are within the tables' distance. A pair
// that is not is dropped unverified and not counted, as a Batch does.
func (st *Stages) Within(a, b *Sketch) bool { return st.m.tables.within(a.FP, b.FP) }

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
