package simhash

import (
	"encoding/json"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/lsh"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/templates"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "64-bit SimHash of weighted shingles, candidates within a Hamming distance, verified by shingle Jaccard and containment", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o).stages(), nil })

type engineSketcher = engine.DocSketcher[Sketch]

// Evidence is the evidence of a simhash pair: the measure that decided its
// label, whose value is the pair's score; the Hamming distance of the
// fingerprints, the overlap of the shingle samples and what the template
// rules read of the two documents (see templates.Evidence).
type Evidence struct {
	// Measure names what decided the label and gave the score:
	// similarity.MeasureContainment for a duplicate by containment alone
	// (its Jaccard index below the threshold), else
	// similarity.MeasureJaccard.
	Measure  string `json:"measure,omitempty"`
	Distance int    `json:"distance"`
	similarity.SetScores
	templates.Evidence
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// Reversed returns the evidence of B and A (see core.Pair): the
// containments and foreign names swapped.
func (e Evidence) Reversed() core.Evidence {
	e.SetScores = e.SetScores.Reversed()
	e.Evidence = e.Evidence.Reversed()
	return e
}

// MarshalJSON writes the evidence with four decimals: it is read, not
// computed with.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence // the fields and their tags, without this method
	r := plain(e)
	r.SetScores, r.Evidence = e.SetScores.Rounded(), e.Evidence.Rounded()
	return json.Marshal(r)
}

// method holds the fingerprint of every document added and the candidate
// tables: table key → documents. Verification reads the candidates'
// sketches from the engine.
type method struct {
	o      Options
	tables tables
	fps    []uint64 // by ordinal
	rules  templates.Rules
	*lsh.Table[Sketch, Evidence]
}

func newMethod(o Options) *method {
	rules := templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template, Slots: o.Slots}
	m := &method{o: o, tables: newTables(o.Distance, o.blocks()), rules: rules}
	m.Table = lsh.New(lsh.Banding[Sketch, Evidence]{
		Keys:   func(dst []uint32, s *Sketch) []uint32 { return m.tables.keys(s.FP, dst) },
		Sample: sample,
		// A candidate's fingerprint is checked before its sketch is read.
		Near: func(c int32, s *Sketch) bool { return m.tables.within(m.fps[c], s.FP) },
		Evidence: func(c int32, a, b *Sketch, sets similarity.SetScores) Evidence {
			return m.pairEvidence(m.fps[c], a, b, sets)
		},
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
		Score:       func(ev Evidence) (float64, Evidence) { s := m.scored(&ev); return s, ev },
	})
	return m
}

// older makes an index of sketch format 4 to 8 open: its sketches go on
// as that format made them, without the filter of their words (4, see
// Options.wordFilter), without the title names shorter than a shingle
// (5, see Options.shortNames), their figures and places read in ASCII
// alone (4 to 6, see templates.Scanner.Unicode), "nil" no figure and a
// unit the word after its figure (4 to 7, see templates.Scanner.Measures),
// number words in English alone and datelines of the forms that format
// read and a figure's digits without its decimal separator (4 to 7, see
// templates.Scanner.Languages and figures.Scanner.Decimals), a figure
// alone at its line's end in its word's place, no row labelled by its
// first figure, a place by its letter pairs alone and the Turkish "ı"
// apart from "i" (4 to 8, see templates.Scanner.Columns,
// analysis.Analyzer.DottedIApart).
var older = engine.OlderFormats(4, 8, func(o Options, format int) Options {
	o.format = format
	return o
})

// stages wires the method's stages: the sketch-and-band scaffolding of
// package lsh, matching on every core in a Batch. It has no Check stage:
// verifying reads the fingerprints Add appends to.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label,
		Parallel: m.Table, Spill: m.Table, Copies: m.Table, BucketLimit: m.Table.BucketLimit(),
		Restore: m.Restore, Corpus: engine.Corpus{Report: m.Report}}
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
	return lsh.Bounds{Threshold: o.Threshold, Similar: o.Similar, Containment: o.containment()}
}

// containment returns the containment at or above which a pair is a
// duplicate: Containment, or Threshold when that is higher.
func (o *Options) containment() float64 { return max(o.Containment, o.Threshold) }

// scored names in ev the measure that decides its label and returns its
// value, the pair's score: the larger containment for a duplicate by
// containment alone, whose Jaccard index is below the threshold; else the
// Jaccard index. A duplicate's score is thus never below the threshold.
func (m *method) scored(ev *Evidence) float64 {
	ev.Measure = similarity.MeasureJaccard
	if ev.Jaccard >= m.o.Threshold || ev.Containment() < m.o.containment() {
		return ev.Jaccard
	}
	if l, _ := m.Label(0, *ev); l == core.Duplicate {
		ev.Measure = similarity.MeasureContainment
		return ev.Containment()
	}
	return ev.Jaccard
}

// sample is a sketch's shingle sample (lsh.Banding.Sample).
func sample(s *Sketch) ([]uint32, uint32) { return s.Set, s.Cut }

// pairEvidence is the evidence of the earlier document a, of fingerprint
// fpa, and the later b, whose samples scored sets.
func (m *method) pairEvidence(fpa uint64, a, b *Sketch, sets similarity.SetScores) Evidence {
	ev := m.evidence(a, b, sets)
	ev.Distance = distance(fpa, b.FP)
	return ev
}

// evidence compares two documents, with sets the scores of their shingle
// samples over the hash range both kept (exactly, when neither left a
// fingerprint out); for a pair its scores make a duplicate and no rule
// refuses yet, with what templates.Recheck adds.
func (m *method) evidence(a, b *Sketch, sets similarity.SetScores) Evidence {
	sa, sb := templates.Sample{Set: a.Set, Cut: a.Cut}, templates.Sample{Set: b.Set, Cut: b.Cut}
	ev := Evidence{SetScores: sets, Evidence: templates.Compare(&a.Context, &b.Context, sa, sb)}
	if m.byScores(&ev) && m.rules.Veto(&ev.Evidence) == templates.None {
		templates.Recheck(&a.Context, &b.Context, sa, sb, &ev.Evidence)
	}
	return ev
}

// byScores reports whether the pair's scores make it a duplicate, before
// any rule vetoes it: at the threshold or by containment.
func (m *method) byScores(ev *Evidence) bool {
	return ev.Jaccard >= m.o.Threshold || ev.Containment() >= m.o.containment()
}

// Label marks a pair duplicate by Jaccard or by containment (at or above
// the threshold too), unless a template rule vetoes it
// (templates.Rules.Veto); similar by Jaccard alone. It reads the evidence,
// not the score, which names the measure that decided (see scored).
func (m *method) Label(_ float64, ev Evidence) (core.Label, bool) {
	o := &m.o
	dup := m.byScores(&ev)
	if dup && m.rules.Veto(&ev.Evidence) != templates.None {
		dup = false
	}
	switch {
	case dup:
		return core.Duplicate, true
	case o.Similar > 0 && ev.Jaccard >= o.Similar:
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
