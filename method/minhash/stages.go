package minhash

import (
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/lsh"
)

// Stages are the method's stages as functions of sketches alone, for a
// pipeline that runs each stage apart (the Apache Beam pipeline of beam/):
// those every sketch-and-band method has (NewSketcher, BucketLimit,
// Searches, Verify, Label, Similarity: see lsh.Stages), the band keys a
// sketch holds in Keys, the banding in force and the encoding of what
// verification reads. A Stages is safe for concurrent use but for its
// sketchers, one per goroutine.
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
	m, err := newMethod(o)
	if err != nil {
		return nil, err
	}
	return &Stages{Stages: lsh.NewStages(m, m.Table, m.Label), m: m}, nil
}

// Bands is the LSH banding in force, "BxR", as stats.json reports it.
func (st *Stages) Bands() string { return st.m.bands.String() }

// AppendDetail appends the detail part of s's encoding: what Verify and
// Similarity read.
func (st *Stages) AppendDetail(dst []byte, s *Sketch) []byte { return st.m.AppendDetail(dst, s) }

// DecodeDetail reads what AppendDetail wrote.
func (st *Stages) DecodeDetail(b []byte) (*Sketch, error) { return st.m.DecodeDetail(b) }
