package minhash

import (
	"encoding/json"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/figures"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "MinHash/LSH over character or word shingles, verified by shingle Jaccard and containment"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o) })

type engineSketcher = engine.DocSketcher[Sketch]

// A Batch matches minhash documents on every core.
var _ engine.ParallelMatcher[Sketch, Evidence] = (*method)(nil)

// Evidence is the evidence of a minhash pair: the overlap of the shingle
// sets; when both documents hold two or more figures, the share of the
// smaller set of figures the other holds too; and what tells the members of
// a templated story family apart (see context.go): how far apart the
// documents' own dates are, whether their datelines' dates differ, whether
// their titles are the same, whether figures changed (each side has one the
// other lacks), whether their titles' figures are disjoint, and how many
// names of each the other does not hold.
type Evidence struct {
	similarity.SetScores
	NumberOverlap *float64 `json:"number_overlap,omitempty"`
	// HoursApart is the distance of the documents' own dates or, when
	// either has none, of their datelines' days (the year left out); nil
	// when neither tells.
	HoursApart           *float64 `json:"hours_apart,omitempty"`
	DatelinesDiffer      bool     `json:"datelines_differ,omitempty"`
	SameTitle            bool     `json:"same_title,omitempty"`
	FiguresChanged       bool     `json:"figures_changed,omitempty"`
	TitleFiguresDisjoint bool     `json:"title_figures_disjoint,omitempty"`
	// ForeignNames counts the names of A that B does not hold and those
	// of B that A does not hold.
	ForeignNames [2]int `json:"foreign_names,omitzero"`
	// Places counts the places (the words on either side of a figure on
	// its line) where both texts write one figure, and of those, the places
	// where the figures differ (see figures.InPlace).
	Places [2]int `json:"places,omitzero"`
	// Rerun is set when either title marks its story as sent again
	// ("RPT-", "CORRECTED - ", "UPDATE 1-"): no veto of a templated
	// family applies then.
	Rerun bool `json:"rerun,omitempty"`
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
	return &method{o: o, mh: sketch.NewMinHash(o.Hashes, o.Seed), bands: bands}, nil
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

// namesDisagree reports whether the titles and names of the two documents
// say they are about different things: each holds a name the other never
// mentions (another company, fund, issuer or town in the same template)
// and their figures changed or each holds two such names; or their titles'
// figures share none (a market report of 11:10 and one of 11:31) and their
// figures changed.
func (e *Evidence) namesDisagree() bool {
	a, b := e.ForeignNames[0], e.ForeignNames[1]
	return a > 0 && b > 0 && (e.FiguresChanged || min(a, b) >= 2) || e.TitleFiguresDisjoint && e.FiguresChanged
}

// isTemplate reports whether the two documents are one template filled in
// with other figures (see figures.Refilled), datelines of different days
// counting as documents of other days.
func (e *Evidence) isTemplate() bool {
	return figures.Refilled(e.Places[0], e.Places[1], e.DatelinesDiffer)
}

// datelineDays returns how many days apart two dateline dates
// (month<<5 | day) are, the year left out: the shorter way round it, so
// that December 31 and January 2 are two days apart.
func datelineDays(a, b uint16) int {
	day := func(d uint16) int {
		t := time.Date(2001, time.Month(d>>5), int(d&31), 0, 0, 0, 0, time.UTC)
		return t.YearDay()
	}
	n := day(a) - day(b)
	if n < 0 {
		n = -n
	}
	return min(n, 365-n)
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
	ev.DatelinesDiffer = a.Dateline != 0 && b.Dateline != 0 && a.Dateline != b.Dateline
	switch {
	case a.Date != 0 && b.Date != 0:
		h := math.Abs(float64(a.Date-b.Date)) / secondsPerHour
		ev.HoursApart = &h
	case a.Dateline != 0 && b.Dateline != 0:
		h := float64(24 * datelineDays(a.Dateline, b.Dateline))
		ev.HoursApart = &h
	}
	ev.SameTitle = a.Title != 0 && a.Title == b.Title
	ev.FiguresChanged = changed(a.Nums, b.Nums)
	ev.TitleFiguresDisjoint = titleFiguresDisjoint(a.TitleNums, b.TitleNums)
	ev.ForeignNames = [2]int{foreignNames(a, b), foreignNames(b, a)}
	ev.Places[0], ev.Places[1] = figures.InPlace(a.Slots, b.Slots)
	ev.Rerun = a.Rerun || b.Rerun
	return ev
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

// Label marks a pair duplicate by Jaccard or by containment, unless the
// figures of the two documents disagree, or they are members of a templated
// family: their datelines name different days at least DateApart hours
// apart (a recurring item of another day), their names disagree (see
// namesDisagree), or they are one template filled in with other figures
// (see isTemplate). A title marked as a re-run ("RPT-", "CORRECTED - ") keeps
// the pair a duplicate. Similar by Jaccard alone.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	o := &m.o
	dup := score >= o.Threshold || max(ev.ContainmentAB, ev.ContainmentBA) >= o.Containment
	if dup && ev.NumberOverlap != nil && *ev.NumberOverlap < o.NumberAgreement {
		dup = false
	}
	if dup && !ev.Rerun && o.DateApart > 0 && ev.DatelinesDiffer && ev.HoursApart != nil && *ev.HoursApart >= o.DateApart {
		dup = false
	}
	if dup && !ev.Rerun && o.Names && ev.namesDisagree() {
		dup = false
	}
	if dup && !ev.Rerun && o.Template && ev.isTemplate() {
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
