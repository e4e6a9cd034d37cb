package minhash

import (
	"encoding/json"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
	"github.com/neardup/neardup/internal/templates"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "MinHash/LSH over character or word shingles, verified by shingle Jaccard and containment"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o) })

type engineSketcher = engine.DocSketcher[Sketch]

// A Batch matches minhash documents on every core.
var _ engine.ParallelMatcher[Sketch, Evidence] = (*method)(nil)

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
	index candidates.Postings
	cands []int32

	// Candidates verified and found too far apart for any label before
	// their whole evidence was computed (see floor): they count as
	// verified in the statistics without being emitted.
	settled atomic.Int64
}

func newMethod(o Options) (*method, error) {
	bands, err := o.bands()
	if err != nil {
		return nil, err
	}
	rules := templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template}
	return &method{o: o, mh: sketch.NewMinHash(o.Hashes, o.Seed), bands: bands, rules: rules}, nil
}

// Add does nothing: the method keeps no corpus statistics.
func (m *method) Add(int32, *Sketch) {}

// Reserve sizes the index for n more documents.
func (m *method) Reserve(n int) {
	k := (m.index.Keys() + n) * m.bands.B
	m.index.Reserve(k, k)
}

func (m *method) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	if len(s.Set) == 0 {
		return nil
	}
	m.cands = m.cands[:0]
	for _, k := range s.Keys {
		m.index.Visit(uint64(k), m.o.BucketLimit, m.collect)
	}
	return m.verify(m.cands, s, src, false, emit)
}

// collect gathers candidates; the method value is made once, not per band.
func (m *method) collect(d int32) { m.cands = append(m.cands, d) }

// A check of an Index runs beside other checks and the Index's writer.
var _ engine.Checker[Sketch, Evidence] = (*method)(nil)

// Candidates appends the documents of s's LSH buckets to dst: Match's
// candidates, unsorted. It only reads the index.
func (m *method) Candidates(dst []int32, s *Sketch) []int32 {
	if len(s.Set) == 0 {
		return dst
	}
	for _, k := range s.Keys {
		m.index.Visit(uint64(k), m.o.BucketLimit, func(d int32) { dst = append(dst, d) })
	}
	return dst
}

// Verify is Match's verification of s against cands.
func (m *method) Verify(cands []int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	if len(s.Set) == 0 {
		return nil
	}
	return m.verify(cands, s, src, false, emit)
}

// IndexAll puts every document's band keys in a read-only index at once,
// for a Batch's matchers (engine.ParallelMatcher), the documents shared
// among as many goroutines as there are processors.
func (m *method) IndexAll(ss []*Sketch) {
	n := 0
	for _, s := range ss {
		if s != nil {
			n += len(s.Keys)
		}
	}
	parts := runtime.GOMAXPROCS(0)
	m.index.FreezeEach(n, parts, func(part int, yield func(key uint32, doc int32)) {
		lo, hi := part*len(ss)/parts, (part+1)*len(ss)/parts
		for ord := lo; ord < hi; ord++ {
			if s := ss[ord]; s != nil {
				for _, k := range s.Keys {
					yield(k, int32(ord))
				}
			}
		}
	})
}

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] { return &matcher{m: m} }

// matcher matches a Batch's documents against those before them in the
// index IndexAll built; it drops each document's keys once matched.
type matcher struct {
	m     *method
	cands []int32
}

func (x *matcher) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	keys := s.Keys
	s.Keys = nil
	if len(s.Set) == 0 {
		return nil
	}
	x.cands = x.cands[:0]
	x.m.index.VisitEachBefore(keys, x.m.o.BucketLimit, ord, x.collect)
	return x.m.verify(x.cands, s, src, true, emit)
}

func (x *matcher) collect(d int32) { x.cands = append(x.cands, d) }

// verify scores the distinct candidates cands, which it sorts, against s
// and emits each that shares enough of its sample for some label (floor),
// in increasing ordinal order; a candidate outside the news window
// (engine.Outside) is skipped unread. inMemory says src's sketches are in
// memory (a Batch's), to be touched first (see touch).
func (m *method) verify(cands []int32, s *Sketch, src engine.Source[Sketch], inMemory bool, emit func(int32, float64, Evidence)) error {
	slices.Sort(cands)
	cands = slices.Compact(cands)
	if inMemory {
		touch(cands, src)
	}
	settled := 0
	for _, c := range cands {
		if engine.Outside(src, c) {
			continue
		}
		cs, err := src.Sketch(c)
		if err != nil {
			return err
		}
		ev, ok := m.verifyPair(cs, s)
		if !ok {
			settled++
			continue
		}
		emit(c, ev.Jaccard, ev)
	}
	if settled > 0 {
		m.settled.Add(int64(settled))
	}
	return nil
}

// verifyPair verifies the earlier document a against the later b: their
// evidence, or ok false when their samples share too little for any label
// (see floor), before the rest of the evidence is computed.
func (m *method) verifyPair(a, b *Sketch) (ev Evidence, ok bool) {
	x, y := similarity.InRange(a.Set, a.Cut, b.Set, b.Cut)
	n, ok := similarity.OverlapAtLeast(x, y, m.o.floor(len(x), len(y)))
	if !ok {
		return Evidence{}, false
	}
	return evidence(a, b, similarity.ScoresOf(n, len(x), len(y))), true
}

// touched keeps touch's loads from being dropped as unused.
var touched atomic.Uint32

// touch reads the first and last fingerprint of each candidate's sample
// before any is compared: each read misses the cache (the sketch's place
// in the table, the sketch, its sample), and reads that do not wait for
// one another overlap their misses instead of paying them in turn. Only
// for a source whose Sketch is a look-up in memory.
func touch(cands []int32, src engine.Source[Sketch]) {
	var sum uint32
	for _, c := range cands {
		if cs, err := src.Sketch(c); err == nil && len(cs.Set) > 0 {
			sum += cs.Set[0] + cs.Set[len(cs.Set)-1]
		}
	}
	if sum == 1 {
		touched.Add(1)
	}
}

// floor returns the fewest fingerprints two samples of na and nb (over the
// range both kept) must share for Label to report the pair: a Jaccard index
// of min(Threshold, Similar), or the Containment of the smaller. A pair
// sharing fewer is neither duplicate nor similar, whatever else its
// evidence holds.
func (o *Options) floor(na, nb int) int {
	return similarity.FloorShared(na, nb, o.Threshold, o.Similar, o.Containment)
}

// evidence compares two documents, with sets the scores of their shingle
// samples over the hash range both kept (exactly, when neither left a
// fingerprint out).
func evidence(a, b *Sketch, sets similarity.SetScores) Evidence {
	return Evidence{SetScores: sets, Evidence: templates.Compare(&a.Context, &b.Context,
		templates.Sample{Set: a.Set, Cut: a.Cut}, templates.Sample{Set: b.Set, Cut: b.Cut})}
}

// Index adds the document's band keys to the index and drops them from s.
// It reads only the keys: a sketch restored from the index part has no set.
func (m *method) Index(ord int32, s *Sketch) {
	for _, k := range s.Keys {
		m.index.Add(uint64(k), ord)
	}
	s.Keys = nil
}

// Restore indexes many documents at once, their band keys sorted into a
// read-only part of the index (candidates.Postings.Freeze).
func (m *method) Restore(ords []int32, ss []*Sketch) {
	n := 0
	for _, s := range ss {
		n += len(s.Keys)
	}
	keys, docs := make([]uint32, 0, n), make([]int32, 0, n)
	for i, s := range ss {
		for _, k := range s.Keys {
			keys, docs = append(keys, k), append(docs, ords[i])
		}
		s.Keys = nil
	}
	m.index.Freeze(keys, docs)
}

func (m *method) Remove(ord int32, s *Sketch) {
	if s == nil {
		return
	}
	for _, k := range s.Keys {
		m.index.Remove(uint64(k), ord)
	}
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

// Report adds the banding in force, and counts as verified the candidates
// verify settled without emitting them.
func (m *method) Report(st *engine.Stats) {
	st.Bands = m.bands.String()
	st.Candidates += int(m.settled.Load())
}
