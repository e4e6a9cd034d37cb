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
	Summary: "MinHash/LSH over character or word shingles, verified by shingle Jaccard and containment", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

type engineSketcher = engine.DocSketcher[Sketch]

// Evidence is the evidence of a minhash pair: the measure that decided its
// label, whose value is the pair's score; the overlap of the shingle sets;
// what the template rules read of the two documents (see
// templates.Evidence); and what tells a story from its follow-up and one
// story rewritten (see story.go): how much of each lead the other holds and
// how many words the titles share.
type Evidence struct {
	// Measure names what decided the label and gave the score:
	// similarity.MeasureContainment for a duplicate by containment alone
	// (its Jaccard index below the threshold), MeasureTitleWords for a
	// pair similar by its titles, else similarity.MeasureJaccard.
	Measure string `json:"measure,omitempty"`
	similarity.SetScores
	templates.Evidence
	// LeadAB is the share of A's lead (its opening's shingles) that B
	// holds, LeadBA the reverse; nil when the samples cannot tell or the
	// pair is no duplicate below followUpBelow (the one pair the
	// follow-up rule reads them for).
	LeadAB *float64 `json:"lead_ab,omitempty"`
	LeadBA *float64 `json:"lead_ba,omitempty"`
	// TitleWords is the Jaccard index of the two titles' words (see
	// story.go), read with Options.StoryTitle only and for documents
	// within its window (Options.StoryWindow).
	TitleWords float64 `json:"title_words,omitempty"`
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// Reversed returns the evidence of B and A (see core.Pair): the
// containments, leads and foreign names swapped.
func (e Evidence) Reversed() core.Evidence {
	e.SetScores = e.SetScores.Reversed()
	e.Evidence = e.Evidence.Reversed()
	e.LeadAB, e.LeadBA = e.LeadBA, e.LeadAB
	return e
}

// MarshalJSON writes the evidence with four decimals: it is read, not
// computed with.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence // the fields and their tags, without this method
	r := plain(e)
	r.SetScores, r.Evidence = e.SetScores.Rounded(), e.Evidence.Rounded()
	for _, p := range []**float64{&r.LeadAB, &r.LeadBA} {
		if *p != nil {
			v := core.Round(**p)
			*p = &v
		}
	}
	r.TitleWords = core.Round(e.TitleWords)
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
	m := &method{o: o, mh: sketch.NewMinHash(o.Hashes, o.Seed), bands: bands, rules: o.rules()}
	banding := lsh.Banding[Sketch, Evidence]{
		Keys:        func(dst []uint32, s *Sketch) []uint32 { return append(dst, s.Keys...) },
		Indexed:     func(s *Sketch) { s.Keys = nil },
		Sample:      func(s *Sketch) ([]uint32, uint32) { return s.Set, s.Cut },
		Evidence:    func(_ int32, a, b *Sketch, sets similarity.SetScores) Evidence { return m.evidence(a, b, sets) },
		Touch:       touch,
		BucketLimit: o.BucketLimit,
		Bounds:      o.bounds(),
		Score:       func(ev Evidence) (float64, Evidence) { s := m.scored(&ev); return s, ev },
		Size:        sketchSize,
	}
	if o.sameStory(1) { // titles sharing words lower the floor
		banding.Floor = func(a, b *Sketch, na, nb int) int { return o.floor(na, nb, o.storyWords(a, b)) }
	}
	m.Table = lsh.New(banding)
	return m, nil
}

// sketchSize is about how many bytes s holds: its slices, its names and
// the struct, with 8 bytes a band key for the postings of the index.
func sketchSize(s *Sketch) int {
	const header = 200 // the struct, its slice headers and the allocator's rounding
	return header + 4*(len(s.Set)+len(s.Nums)+len(s.TitleNums)+len(s.WordFilter)) + 8*len(s.Slots) + 16*len(s.Names) + 12*len(s.Keys)
}

// older makes an index of sketch format 7 to 12 open: its sketches go
// on as that format made them, without the filter of their words (7, see
// Options.wordFilter), without the title names shorter than a shingle
// (8, see Options.shortNames), or, of word shingles, without names (9,
// see Options.wordNames), their figures and places read in ASCII alone
// (7 to 10, see templates.Scanner.Unicode), "nil" no figure and a unit
// the word after its figure (7 to 11, see templates.Scanner.Measures),
// number words in English alone and datelines of the forms that format
// read and a figure's digits without its decimal separator (7 to 11, see
// templates.Scanner.Languages and figures.Scanner.Decimals), a figure
// alone at its line's end in its word's place, no row labelled by its
// first figure, a place by its letter pairs alone and the Turkish "ı"
// apart from "i" (7 to 12, see templates.Scanner.Columns,
// analysis.Analyzer.DottedIApart).
var older = engine.OlderFormats(7, 12, func(o Options, format int) Options {
	o.format = format
	return o
})

// stages wires the method's stages: the sketch-and-band scaffolding of
// package lsh, matching on every core in a Batch and beside the writer in
// a Live index.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label,
		Parallel: m.Table, Check: m.Table, Spill: m.Table, Copies: m.Table, BucketLimit: m.Table.BucketLimit(),
		Restore: m.Restore, Corpus: engine.Corpus{Report: m.Report}}
}

// Add does nothing: the method keeps no corpus statistics.
func (m *method) Add(int32, *Sketch) {}

// touch reads the first and last fingerprint of a candidate's sample (see
// lsh.Banding.Touch).
func touch(s *Sketch) uint32 {
	if len(s.Set) == 0 {
		return 0
	}
	return s.Set[0] + s.Set[len(s.Set)-1]
}

// bounds are the lowest scores Label reports a pair at: a Jaccard index of
// min(Threshold, Similar), or the Containment of the smaller, each
// FiguresSlack lower with the figures check on (see bars). A pair sharing
// fewer fingerprints than they need is neither duplicate nor similar,
// whatever else its evidence holds.
func (o *Options) bounds() lsh.Bounds {
	dup, cont := o.bars()
	return lsh.Bounds{Threshold: dup, Similar: o.Similar, Containment: cont}
}

// bars returns the lowest Jaccard index and containment of a duplicate.
// With the figures check on (NumberAgreement), they are those of a pair
// whose figures agree (byFigures): a Jaccard index FiguresSlack under the
// threshold, a containment FiguresSlack under its bar but not under the
// threshold. Which pairs' figures agree is known only once they are
// compared, so the floor of every pair is that low.
func (o *Options) bars() (jaccard, containment float64) {
	jaccard, containment = o.duplicateFrom(), o.containment()
	if o.NumberAgreement >= 0 {
		jaccard = min(jaccard, o.Threshold-FiguresSlack)
		containment = min(containment, max(o.Threshold, containment-FiguresSlack))
	}
	return jaccard, containment
}

// floor returns the fewest fingerprints two samples of na and nb must share
// for a label (see bounds) when their titles share tw of their words: with
// at least StoryTitle, a Jaccard index of storyJaccard makes a similar pair.
func (o *Options) floor(na, nb int, tw float64) int {
	similar := o.Similar
	if o.sameStory(tw) {
		similar = storyJaccard
	}
	dup, cont := o.bars()
	return similarity.FloorShared(na, nb, dup, similar, cont)
}

// evidence compares two documents, with sets the scores of their shingle
// samples over the hash range both kept (exactly, when neither left a
// fingerprint out): what the template rules read (for a pair its scores
// make a duplicate and no rule refuses yet, templates.Recheck's too), the
// titles' words and, for a duplicate the follow-up rule may change, the
// leads.
func (m *method) evidence(a, b *Sketch, sets similarity.SetScores) Evidence {
	sa, sb := templates.Sample{Set: a.Set, Cut: a.Cut}, templates.Sample{Set: b.Set, Cut: b.Cut}
	if m.o.ShingleUnit != Chars {
		// Samples of word shingles hold no name's character shingle:
		// every name is looked up in the filter of the words.
		sa, sb = templates.Sample{}, templates.Sample{}
	}
	ev := Evidence{SetScores: sets, Evidence: templates.Compare(&a.Context, &b.Context, sa, sb)}
	ev.TitleWords = m.o.storyWords(a, b)
	dup := m.byScores(&ev)
	if dup && m.rules.Veto(&ev.Evidence) == templates.None {
		templates.Recheck(&a.Context, &b.Context, sa, sb, &ev.Evidence)
	}
	if m.o.FollowUp && ev.Jaccard < followUpBelow && dup && m.byScores(&ev) {
		if s, ok := leadIn(a, b); ok {
			ev.LeadAB = &s
		}
		if s, ok := leadIn(b, a); ok {
			ev.LeadBA = &s
		}
	}
	return ev
}

// scored names in ev the measure that decides its label and returns its
// value, the pair's score: the larger containment for a duplicate by
// containment alone, whose Jaccard index is below the threshold; the
// titles' words for a pair similar by them alone; else the Jaccard index,
// which decides a duplicate at the threshold, one story rewritten the same
// day (Options.Rewrite) and a similar pair. A duplicate's score is thus
// never below the threshold but for a rewrite's, which is at least
// Rewrite; a rewrite held inside the other text, a reprint cut short the
// same day, is scored by its containment, as on another day.
func (m *method) scored(ev *Evidence) float64 {
	ev.Measure = similarity.MeasureJaccard
	if ev.Jaccard >= m.o.Threshold || m.o.IsRewrite(ev) && ev.Containment() < m.o.containment() {
		return ev.Jaccard
	}
	if !m.byScores(ev) && (ev.Jaccard >= m.o.Similar || !m.o.sameStory(ev.TitleWords)) {
		return ev.Jaccard // similar by Jaccard, or not reported
	}
	switch l, _ := m.Label(0, *ev); {
	case l == core.Duplicate:
		ev.Measure = similarity.MeasureContainment
		return ev.Containment()
	case l == core.Similar && ev.Jaccard < m.o.Similar:
		ev.Measure = MeasureTitleWords
		return ev.TitleWords
	}
	return ev.Jaccard
}

// byScores reports whether the pair's scores make it a duplicate, before
// any rule vetoes it (see duplicateBy).
func (m *method) byScores(ev *Evidence) bool { return m.o.duplicateBy(ev) != "" }

// FiguresAgree reports whether the figures check is on (NumberAgreement)
// and the pair's figures agree: both texts hold two figures or more, and
// every figure of the one with fewer is in the other. Such a pair is a
// duplicate at FiguresSlack below the threshold or the containment.
func (o *Options) FiguresAgree(ev *Evidence) bool {
	return o.NumberAgreement >= 0 && ev.NumberOverlap != nil && *ev.NumberOverlap >= 1
}

// FiguresSlack is how far below the threshold and the containment a pair
// whose figures agree (Options.FiguresAgree) is still a duplicate: a copy
// damaged by OCR noise, or truncated with page furniture added, keeps its
// figures, which a follow-up or a rewrite changes. 0.05 adds copies on
// every generated and labelled set without a false pair on the labelled
// ones (docs/evaluation.md).
const FiguresSlack = 0.05

// MeasureTitleWords names the measure of a pair similar by its titles'
// words (see Options.StoryTitle): its score is their Jaccard index.
const MeasureTitleWords = "title_words"

// Label marks a pair duplicate by Jaccard or by containment (at or above
// the threshold too, see Options.Containment), unless a template rule
// vetoes it (templates.Rules.Veto: the figures of the two documents
// disagree, or they are members of a templated family) or the pair is a
// story and its follow-up (see isFollowUp; a title marked as a re-run keeps
// the pair a duplicate). Similar by Jaccard, or as one story rewritten by
// its titles' words (see Options.StoryTitle) when the template rules in
// force do not read it as one template filled in twice
// (templates.Rules.Refills). It reads the evidence, not the score, which
// names the measure that decided (see scored): the label of
// Options.Decide.
func (m *method) Label(_ float64, ev Evidence) (core.Label, bool) {
	d := m.o.decide(&m.rules, &ev)
	return d.Label, d.Label != ""
}

// Report adds the banding in force, and counts as verified the candidates
// verify settled without emitting them.
func (m *method) Report(st *engine.Stats) {
	st.Bands = m.bands.String()
	st.Candidates += m.Settled()
}
