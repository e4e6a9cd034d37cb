package minhash

import (
	"encoding/json"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/lsh"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
	"github.com/neardup/neardup/internal/templates"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "MinHash/LSH over character or word shingles, verified by shingle Jaccard and containment"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

type engineSketcher = engine.DocSketcher[Sketch]

// Evidence is the evidence of a minhash pair: the overlap of the shingle
// sets and what the template rules read of the two documents (see
// templates.Evidence).
type Evidence struct {
	similarity.SetScores
	templates.Evidence
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// MarshalJSON writes the evidence with four decimals: it is read, not
// computed with.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence // the fields and their tags, without this method
	r := plain(e)
	r.Jaccard, r.ContainmentAB, r.ContainmentBA = engine.Round(e.Jaccard), engine.Round(e.ContainmentAB), engine.Round(e.ContainmentBA)
	if e.NumberOverlap != nil {
		o := engine.Round(*e.NumberOverlap)
		r.NumberOverlap = &o
	}
	if e.HoursApart != nil {
		h := float64(int64(*e.HoursApart*10+0.5)) / 10
		r.HoursApart = &h
	}
	return json.Marshal(r)
}

// method holds the LSH index: band key → documents. Verification reads the
// candidates' sketches from the engine.
type method struct {
	o     Options
	mh    *sketch.MinHash
	bands sketch.Bands
	rules templates.Rules
	*lsh.Table[Sketch, Evidence]
}

func newMethod(o Options) (*method, error) {
	bands, err := o.bands()
	if err != nil {
		return nil, err
	}
	rules := templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template, Slots: o.Slots}
	m := &method{o: o, mh: sketch.NewMinHash(o.Hashes, o.Seed), bands: bands, rules: rules}
	m.Table = lsh.New(lsh.Banding[Sketch, Evidence]{
		Keys:        func(dst []uint32, s *Sketch) []uint32 { return append(dst, s.Keys...) },
		Indexed:     func(s *Sketch) { s.Keys = nil },
		Sample:      func(s *Sketch) ([]uint32, uint32) { return s.Set, s.Cut },
		Evidence:    func(_ int32, a, b *Sketch, sets similarity.SetScores) Evidence { return evidence(a, b, sets) },
		Touch:       touch,
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
	})
	return m, nil
}

// stages wires the method's stages: the sketch-and-band scaffolding of
// package lsh, matching on every core in a Batch and beside the writer in
// a Live index.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label,
		Parallel: m.Table, Check: m.Table, Restore: m.Restore, Corpus: engine.Corpus{Report: m.Report}}
}

// Add does nothing: the method keeps no corpus statistics.
func (m *method) Add(int32, *Sketch) {}

// verifyPair verifies the earlier document a against the later b: their
// evidence, or ok false when their samples share too little for any label
// (see bounds), before the rest of the evidence is computed.
func (m *method) verifyPair(a, b *Sketch) (ev Evidence, ok bool) {
	_, ev, ok = m.Pair(0, a, b)
	return ev, ok
}

// touch reads the first and last fingerprint of a candidate's sample (see
// lsh.Banding.Touch).
func touch(s *Sketch) uint32 {
	if len(s.Set) == 0 {
		return 0
	}
	return s.Set[0] + s.Set[len(s.Set)-1]
}

// bounds are the lowest scores Label reports a pair at: a Jaccard index of
// min(Threshold, Similar), or the Containment of the smaller. A pair
// sharing fewer fingerprints than they need is neither duplicate nor
// similar, whatever else its evidence holds.
func (o *Options) bounds() lsh.Bounds {
	return lsh.Bounds{Threshold: o.Threshold, Similar: o.Similar, Containment: o.Containment}
}

// evidence compares two documents, with sets the scores of their shingle
// samples over the hash range both kept (exactly, when neither left a
// fingerprint out).
func evidence(a, b *Sketch, sets similarity.SetScores) Evidence {
	return Evidence{SetScores: sets, Evidence: templates.Compare(&a.Context, &b.Context,
		templates.Sample{Set: a.Set, Cut: a.Cut}, templates.Sample{Set: b.Set, Cut: b.Cut})}
}

// Label marks a pair duplicate by Jaccard or by containment, unless a
// template rule vetoes it (templates.Rules.Veto: the figures of the two
// documents disagree, or they are members of a templated family). Similar
// by Jaccard alone.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	o := &m.o
	dup := score >= o.Threshold || max(ev.ContainmentAB, ev.ContainmentBA) >= o.Containment
	if dup && m.rules.Veto(&ev.Evidence) != templates.None {
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

// Report adds the banding in force, and counts as verified the candidates
// verify settled without emitting them.
func (m *method) Report(st *engine.Stats) {
	st.Bands = m.bands.String()
	st.Candidates += m.Settled()
}
