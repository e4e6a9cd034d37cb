package simhash

import (
	"encoding/json"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/figures"
	"github.com/neardup/neardup/internal/lsh"
	"github.com/neardup/neardup/internal/similarity"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "64-bit SimHash of weighted shingles, candidates within a Hamming distance, verified by shingle Jaccard and containment"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o).stages(), nil })

type engineSketcher = engine.DocSketcher[Sketch]

// Evidence is the evidence of a simhash pair: the Hamming distance of the
// fingerprints, the overlap of the shingle samples and, when both documents
// hold two or more figures, the share of the smaller set of figures the
// other holds too.
type Evidence struct {
	Distance int `json:"distance"`
	similarity.SetScores
	NumberOverlap *float64 `json:"number_overlap,omitempty"`
	// Places counts the places where both texts write one figure and, of
	// those, the places where the figures differ (see figures.InPlace).
	Places [2]int `json:"places,omitzero"`
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// MarshalJSON writes the evidence with four decimals: it is read, not
// computed with.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type rounded struct {
		Distance      int      `json:"distance"`
		Jaccard       float64  `json:"jaccard"`
		ContainmentAB float64  `json:"containment_ab"`
		ContainmentBA float64  `json:"containment_ba"`
		NumberOverlap *float64 `json:"number_overlap,omitempty"`
		Places        [2]int   `json:"places,omitzero"`
	}
	r := rounded{e.Distance, engine.Round(e.Jaccard), engine.Round(e.ContainmentAB), engine.Round(e.ContainmentBA), nil, e.Places}
	if e.NumberOverlap != nil {
		o := engine.Round(*e.NumberOverlap)
		r.NumberOverlap = &o
	}
	return json.Marshal(r)
}

// method holds the fingerprint of every document added and the candidate
// tables: table key → documents. Verification reads the candidates'
// sketches from the engine.
type method struct {
	o      Options
	tables tables
	fps    []uint64 // by ordinal
	*lsh.Table[Sketch, Evidence]
}

func newMethod(o Options) *method {
	m := &method{o: o, tables: newTables(o.Distance, o.blocks())}
	m.Table = lsh.New(lsh.Banding[Sketch, Evidence]{
		Keys:   func(dst []uint32, s *Sketch) []uint32 { return m.tables.keys(s.FP, dst) },
		Sample: sample,
		// A candidate's fingerprint is checked before its sketch is read.
		Near: func(c int32, s *Sketch) bool { return m.tables.within(m.fps[c], s.FP) },
		Evidence: func(c int32, a, b *Sketch, sets similarity.SetScores) Evidence {
			return pairEvidence(m.fps[c], a, b, sets)
		},
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
	})
	return m
}

// stages wires the method's stages: the sketch-and-band scaffolding of
// package lsh, matching on every core in a Batch. It has no Check stage:
// verifying reads the fingerprints Add appends to.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label,
		Parallel: m.Table, Restore: m.Restore, Corpus: engine.Corpus{Report: m.Report}}
}

// Add records the document's fingerprint, which Match reads to check a
// candidate's distance without reading its sketch.
func (m *method) Add(ord int32, s *Sketch) {
	if int(ord) >= len(m.fps) {
		m.fps = append(m.fps, make([]uint64, int(ord)+1-len(m.fps))...)
	}
	if s != nil {
		m.fps[ord] = s.FP
	}
}

// bounds are the lowest scores Label reports a pair at: a Jaccard index of
// min(Threshold, Similar), or the Containment of the smaller.
func (o *Options) bounds() lsh.Bounds {
	return lsh.Bounds{Threshold: o.Threshold, Similar: o.Similar, Containment: o.Containment}
}

// sample is a sketch's shingle sample (lsh.Banding.Sample).
func sample(s *Sketch) ([]uint32, uint32) { return s.Set, s.Cut }

// pairEvidence is the evidence of the earlier document a, of fingerprint
// fpa, and the later b, whose samples scored sets.
func pairEvidence(fpa uint64, a, b *Sketch, sets similarity.SetScores) Evidence {
	ev := evidence(a, b, sets)
	ev.Distance = distance(fpa, b.FP)
	return ev
}

// evidence compares two documents' figures, with sets the scores of their
// shingle samples over the hash range both kept (exactly, when neither
// left a fingerprint out).
func evidence(a, b *Sketch, sets similarity.SetScores) Evidence {
	ev := Evidence{SetScores: sets}
	if len(a.Nums) >= 2 && len(b.Nums) >= 2 {
		o := float64(similarity.Overlap(a.Nums, b.Nums)) / float64(min(len(a.Nums), len(b.Nums)))
		ev.NumberOverlap = &o
	}
	ev.Places[0], ev.Places[1] = figures.InPlace(a.Slots, b.Slots)
	return ev
}

// Label marks a pair duplicate by Jaccard or by containment, unless the
// figures of the two documents disagree or they are one template filled in
// twice (figures.Refilled); similar by Jaccard alone.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	o := &m.o
	dup := score >= o.Threshold || max(ev.ContainmentAB, ev.ContainmentBA) >= o.Containment
	if dup && ev.NumberOverlap != nil && *ev.NumberOverlap < o.NumberAgreement {
		dup = false
	}
	if dup && o.Template && figures.Refilled(ev.Places[0], ev.Places[1], false) {
		dup = false
	}
	switch {
	case dup:
		return core.Duplicate, true
	case o.Similar > 0 && score >= o.Similar:
		return core.Similar, true
	}
	return "", false
}

// Report adds the candidate tables in force, and counts as verified the
// candidates Match settled without emitting them.
func (m *method) Report(st *engine.Stats) {
	st.SimHashTables = m.tables.String()
	st.Candidates += m.Settled()
}
