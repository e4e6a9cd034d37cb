package simhash

import (
	"encoding/json"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/figures"
	"github.com/neardup/neardup/internal/similarity"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "64-bit SimHash of weighted shingles, candidates within a Hamming distance, verified by shingle Jaccard and containment"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o), nil })

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
	index  candidates.Postings
	keys   []uint32
	cands  []int32

	// Candidates verified and found too far apart for any label before
	// their whole evidence was computed (see floor): they count as
	// verified in the statistics without being emitted.
	settled atomic.Int64
}

func newMethod(o Options) *method {
	return &method{o: o, tables: newTables(o.Distance, o.blocks())}
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

// Reserve sizes the index for n more documents.
func (m *method) Reserve(n int) {
	k := (m.index.Keys() + n) * len(m.tables.masks)
	m.index.Reserve(k, k)
	m.fps = slices.Grow(m.fps, n)
}

func (m *method) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	if len(s.Set) == 0 {
		return nil
	}
	m.cands = m.cands[:0]
	m.keys = m.tables.keys(s.FP, m.keys[:0])
	for _, k := range m.keys {
		m.index.Visit(uint64(k), m.o.BucketLimit, m.collect)
	}
	return m.verify(m.cands, s, src, emit)
}

// collect gathers candidates; the method value is made once, not per table.
func (m *method) collect(d int32) { m.cands = append(m.cands, d) }

// verify scores the distinct candidates cands, which it sorts, against s
// and emits each within the tables' distance that shares enough of its
// sample for some label (floor), in increasing ordinal order.
func (m *method) verify(cands []int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	slices.Sort(cands)
	settled := 0
	defer func() { m.settled.Add(int64(settled)) }()
	for _, c := range slices.Compact(cands) {
		if !m.tables.within(m.fps[c], s.FP) {
			continue
		}
		if engine.Outside(src, c) {
			continue
		}
		cs, err := src.Sketch(c)
		if err != nil {
			return err
		}
		a, b := similarity.InRange(cs.Set, cs.Cut, s.Set, s.Cut)
		n, ok := similarity.OverlapAtLeast(a, b, m.o.floor(len(a), len(b)))
		if !ok {
			settled++
			continue
		}
		ev := evidence(cs, s, similarity.ScoresOf(n, len(a), len(b)))
		ev.Distance = distance(m.fps[c], s.FP)
		emit(c, ev.Jaccard, ev)
	}
	return nil
}

// IndexAll puts every document's table keys in a read-only index at once,
// for a Batch's matchers (engine.ParallelMatcher), the documents shared
// among as many goroutines as there are processors.
func (m *method) IndexAll(ss []*Sketch) {
	n := 0
	for _, s := range ss {
		if s != nil {
			n += len(m.tables.masks)
		}
	}
	parts := runtime.GOMAXPROCS(0)
	m.index.FreezeEach(n, parts, func(part int, yield func(key uint32, doc int32)) {
		var keys []uint32
		lo, hi := part*len(ss)/parts, (part+1)*len(ss)/parts
		for ord := lo; ord < hi; ord++ {
			if s := ss[ord]; s != nil {
				keys = m.tables.keys(s.FP, keys[:0])
				for _, k := range keys {
					yield(k, int32(ord))
				}
			}
		}
	})
}

// A Batch matches on every core (engine.ParallelMatcher).
var _ engine.ParallelMatcher[Sketch, Evidence] = (*method)(nil)

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] { return &matcher{m: m} }

// matcher matches a Batch's documents against those before them in the
// index IndexAll built.
type matcher struct {
	m     *method
	keys  []uint32
	cands []int32
}

func (x *matcher) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	if len(s.Set) == 0 {
		return nil
	}
	x.keys = x.m.tables.keys(s.FP, x.keys[:0])
	x.cands = x.cands[:0]
	x.m.index.VisitEachBefore(x.keys, x.m.o.BucketLimit, ord, x.collect)
	return x.m.verify(x.cands, s, src, emit)
}

func (x *matcher) collect(d int32) { x.cands = append(x.cands, d) }

// floor returns the fewest fingerprints two samples of na and nb (over the
// range both kept) must share for Label to report the pair: a Jaccard index
// of min(Threshold, Similar), or the Containment of the smaller.
func (o *Options) floor(na, nb int) int {
	return similarity.FloorShared(na, nb, o.Threshold, o.Similar, o.Containment)
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

// Index adds the document to every table.
func (m *method) Index(ord int32, s *Sketch) {
	m.keys = m.tables.keys(s.FP, m.keys[:0])
	for _, k := range m.keys {
		m.index.Add(uint64(k), ord)
	}
}

// Restore indexes many documents at once, their keys sorted into a
// read-only part of the index (candidates.Postings.Freeze).
func (m *method) Restore(ords []int32, ss []*Sketch) {
	n := len(ss) * len(m.tables.masks)
	keys, docs := make([]uint32, 0, n), make([]int32, 0, n)
	for i, s := range ss {
		m.keys = m.tables.keys(s.FP, m.keys[:0])
		for _, k := range m.keys {
			keys, docs = append(keys, k), append(docs, ords[i])
		}
	}
	m.index.Freeze(keys, docs)
}

func (m *method) Remove(ord int32, s *Sketch) {
	if s == nil {
		return
	}
	m.keys = m.tables.keys(s.FP, m.keys[:0])
	for _, k := range m.keys {
		m.index.Remove(uint64(k), ord)
	}
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

func (m *method) Similarity(a, b int32, src engine.Source[Sketch]) (float64, error) {
	sa, err := src.Sketch(a)
	if err != nil {
		return 0, err
	}
	sb, err := src.Sketch(b)
	if err != nil {
		return 0, err
	}
	return similarity.ScoresBelow(sa.Set, sa.Cut, sb.Set, sb.Cut).Jaccard, nil
}

// Report adds the candidate tables in force, and counts as verified the
// candidates Match settled without emitting them.
func (m *method) Report(st *engine.Stats) {
	st.SimHashTables = m.tables.String()
	st.Candidates += int(m.settled.Load())
}
