package rarewords

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/similarity"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "containment of rare words, best match per other source", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

// stages wires the method's stages: it matches on every core in a Batch,
// counting as it indexes, and reports each document's best pairs.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label, Shown: shownScore, Recount: m,
		Admit: m.admit, Reweigh: m.reweigh, Parallel: m, Pairs: engine.Pairs[Evidence]{Select: m.Select},
		Corpus: engine.Corpus{Seal: m.seal, Report: m.Report}}
}

// Evidence is the evidence of a rarewords pair.
type Evidence struct {
	SourceA string `json:"source_a"`
	SourceB string `json:"source_b"`
	// Shared counts the rare words both hold; RareA and RareB each one's.
	Shared int `json:"shared_rare_words"`
	RareA  int `json:"rare_words_a"`
	RareB  int `json:"rare_words_b"`
	// AInB is the share of A's rare words found in B, BInA the reverse,
	// with four decimals, or one or both with as many more as it takes
	// for the values written to decide the pair as the exact ones do
	// (see method.shown).
	AInB float64 `json:"a_in_b"`
	BInA float64 `json:"b_in_a"`
	// BestFor says whose best match in the other's source the pair is:
	// "a", "b" or "both".
	BestFor string `json:"best_match_for"`
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// Reversed returns the evidence of B and A (see core.Pair): the sources,
// rare word counts and shares swapped, and whose best match it is.
func (e Evidence) Reversed() core.Evidence {
	e.SourceA, e.SourceB = e.SourceB, e.SourceA
	e.RareA, e.RareB = e.RareB, e.RareA
	e.AInB, e.BInA = e.BInA, e.AInB
	switch e.BestFor {
	case "a":
		e.BestFor = "b"
	case "b":
		e.BestFor = "a"
	}
	return e
}

// shares returns AInB and BInA unrounded.
func (e *Evidence) shares() (ab, ba float64) {
	if e.RareA > 0 {
		ab = float64(e.Shared) / float64(e.RareA)
	}
	if e.RareB > 0 {
		ba = float64(e.Shared) / float64(e.RareB)
	}
	return ab, ba
}

// state is where a document is in the method.
type state uint8

const (
	absent  state = iota // never added, skipped, or removed
	pending              // counted; its rare words wait for the next match
	matched              // its rare words are chosen
	indexed              // and in the inverted lists
)

// method keeps each source's word statistics, each document's rare words
// and inverted lists of them.
type method struct {
	o       Options
	decider Decider // o's rule and threshold

	sources  map[string]int32
	srcNames []string
	srcDocs  []int32            // documents compared per source
	df       candidates.Counter // key source<<32 | term: documents of the source holding the term
	terms    map[uint64]uint32  // word hash → term id, for words some document holds
	refs     []int32            // documents holding each term, in any source
	free     []uint32           // term ids no document holds, to reuse

	docSrc  []int32      // by ordinal: the document's source, -1 when absent
	state   []state      // by ordinal
	rare    [][]uint32   // by ordinal: the document's rare words, sorted, once matched
	pending []pendingDoc // documents added since the last match, in order
	nPend   int          // words in pending
	lists   [][]int32    // by term: the indexed documents holding it as rare, in index order

	acc      []int32 // by ordinal, during a match: rare words shared with the document matched
	touched  []int32
	verified int

	// After IndexAll (a Batch matching in parallel): the lists hold dense
	// numbers, the ordinals of the documents with rare words in
	// increasing order, and every pair is counted (see batch.go).
	dense            []int32
	denseSrc         []int32 // by dense number: the source
	need             []int32 // by size: the fewest shared words that reach the threshold
	needDense        []int32 // by dense number: need of its size
	denseLists       bool
	parallelVerified atomic.Int64
	pairs            batchPairs
}

// needTable returns, for each size n up to most, the fewest shared words
// c for which c/n passes threshold as Match computes it (float64(c) /
// float64(n) > threshold), so that comparing counts decides as that
// division does.
func needTable(most int32, threshold float64) []int32 {
	need := make([]int32, most+1)
	for n := int32(1); n <= most; n++ {
		c := max(0, int32(threshold*float64(n))-1)
		for float64(c)/float64(n) <= threshold {
			c++
		}
		need[n] = c
	}
	return need
}

// pendingDoc is a document whose rare words are not chosen yet: its term
// ids, and its word hashes (the sketch's, not copied).
type pendingDoc struct {
	ord    int32
	ids    []uint32
	hashes []uint64
}

func newMethod(o Options) (*method, error) {
	d, err := o.Decider()
	if err != nil {
		return nil, err
	}
	return &method{o: o, decider: d, sources: map[string]int32{}, terms: map[uint64]uint32{}}, nil
}

// Add counts the document's words into its source's statistics.
func (m *method) Add(ord int32, s *Sketch) {
	m.grow(ord)
	if m.state[ord] != absent {
		panic("rarewords: document added twice")
	}
	if s == nil {
		return
	}
	src := m.source(s.Source)
	m.srcDocs[src]++
	p := pendingDoc{ord: ord, ids: make([]uint32, len(s.Words)), hashes: s.Words}
	for i, h := range s.Words {
		id, ok := m.terms[h]
		if !ok {
			id = m.newTerm(h)
		}
		m.refs[id]++
		m.df.Inc(uint64(src)<<32 | uint64(id))
		p.ids[i] = id
	}
	m.docSrc[ord], m.state[ord] = src, pending
	m.pending = append(m.pending, p)
	m.nPend += len(p.ids)
}

func (m *method) grow(ord int32) {
	for int(ord) >= len(m.state) {
		m.state = append(m.state, absent)
		m.docSrc = append(m.docSrc, -1)
		m.rare = append(m.rare, nil)
	}
}

// source returns the number of the source named name, numbering it if it
// is new.
func (m *method) source(name string) int32 {
	src, ok := m.sources[name]
	if !ok {
		src = int32(len(m.srcDocs))
		m.sources[name] = src
		m.srcNames = append(m.srcNames, name)
		m.srcDocs = append(m.srcDocs, 0)
	}
	return src
}

// newTerm numbers word hash h, reusing a free id if there is one.
func (m *method) newTerm(h uint64) uint32 {
	var id uint32
	if n := len(m.free); n > 0 {
		id, m.free = m.free[n-1], m.free[:n-1]
	} else {
		id = uint32(len(m.refs))
		m.refs = append(m.refs, 0)
	}
	m.terms[h] = id
	return id
}

// Seal chooses every document's rare words with final statistics.
func (m *method) Seal() { m.keepRare() }

// seal is the method's Corpus.Seal: Seal, then CheckBatch. Choosing the
// rare words is one pass over the documents' words, not looked at ctx.
func (m *method) seal(context.Context) error {
	m.Seal()
	return m.CheckBatch()
}

// CheckBatch fails a batch of two or more documents that are all of one
// source, unless Options.SameSource: rarewords compares documents of
// different sources only, so it would find nothing. The error is a
// *SourceError.
func (m *method) CheckBatch() error {
	if m.o.SameSource || len(m.srcDocs) != 1 || m.srcDocs[0] < 2 {
		return nil
	}
	return &SourceError{Docs: int(m.srcDocs[0]), Source: m.srcNames[0]}
}

// admit is the method's Admit: it fails an add to a live index of
// documents compared (ss not nil) when neither they nor any document the
// index holds has a source, unless Options.SameSource: rarewords
// compares documents of different sources only, so the index would find
// nothing, on this add or any later one of documents without a source.
// The error is a *SourceError. An index whose documents are all of one
// named source is admitted: documents of other sources may come later.
func (m *method) admit(ss []*Sketch) error {
	if m.o.SameSource {
		return nil
	}
	n := 0
	for _, s := range ss {
		if s == nil {
			continue
		}
		if s.Source != "" {
			return nil
		}
		n++
	}
	if n == 0 {
		return nil
	}
	for src, docs := range m.srcDocs {
		if docs > 0 && m.srcNames[src] != "" {
			return nil
		}
		n += int(docs)
	}
	return &SourceError{Docs: n}
}

// SourceError is the error of a batch whose documents are all of one
// source, or of none, and of an add to an index whose documents would all
// be of none: rarewords compares documents of different sources only.
// Its message names the Go options that help; a command line says its own
// flags instead.
type SourceError struct {
	// Docs counts the batch's documents (an index's: those it holds and
	// those added, compared).
	Docs int
	// Source is their one source; "" when none has one.
	Source string
}

func (e *SourceError) Error() string {
	if e.Source == "" {
		return "rarewords compares documents of different sources, and no document has a source " +
			"(Document.Source, or a URL to take the host from): give each document its source " +
			"(neardup.ReadOptions.SourceField names the field to read it from), " +
			"or compare within one source with rarewords.Options.SameSource"
	}
	return fmt.Sprintf("rarewords compares documents of different sources, and all %d documents are of one source (%q): "+
		"compare within it with rarewords.Options.SameSource", e.Docs, e.Source)
}

// keepRare chooses the pending documents' rare words, by their sources'
// statistics as they stand, in one allocation.
func (m *method) keepRare() {
	if len(m.pending) == 0 {
		return
	}
	arena := make([]uint32, 0, m.nPend)
	for _, p := range m.pending {
		src := m.docSrc[p.ord]
		limit := m.o.CommonDF * float64(m.srcDocs[src])
		lo := len(arena)
		for _, w := range p.ids {
			if n := m.df.Count(uint64(src)<<32 | uint64(w)); n < 2 || float64(n) <= limit {
				arena = append(arena, w)
			}
		}
		slices.Sort(arena[lo:])
		m.rare[p.ord] = arena[lo:len(arena):len(arena)]
		m.state[p.ord] = matched
	}
	clear(m.pending)
	m.pending, m.nPend = m.pending[:0], 0
}

// Match chooses the document's rare words, if they are pending, and
// reports the indexed documents holding more than Options.Threshold of the
// smaller set of rare words, of other sources unless Options.SameSource.
func (m *method) Match(ord int32, _ *Sketch, _ engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	m.noDenseLists()
	m.keepRare()
	a := m.rare[ord]
	if len(a) == 0 {
		return nil
	}
	for _, d := range m.candidates(ord, a) {
		ev := m.evidence(d, ord, int(m.acc[d]))
		m.acc[d] = 0
		ab, ba := ev.shares()
		emit(d, max(ab, ba), ev)
	}
	return nil
}

// candidates counts in m.acc the rare words each indexed document shares
// with document ord, whose rare words are a, and returns in increasing
// order those to report: the larger containment, the shared words over
// the smaller set, reaches the threshold, and unless SameSource the sources
// differ (checked here, once per candidate, not per posting). Their counts
// stay in m.acc for the caller to read and clear.
func (m *method) candidates(ord int32, a []uint32) []int32 {
	if n := len(m.state); len(m.acc) < n {
		m.acc = append(m.acc, make([]int32, n-len(m.acc))...)
	}
	m.touched = m.touched[:0]
	for _, w := range a {
		if int(w) < len(m.lists) {
			for _, d := range m.lists[w] {
				if m.acc[d] == 0 {
					m.touched = append(m.touched, d)
				}
				m.acc[d]++
			}
		}
	}
	m.verified += len(m.touched)
	src, kept := m.docSrc[ord], m.touched[:0]
	for _, d := range m.touched {
		if float64(m.acc[d])/float64(min(len(a), len(m.rare[d]))) > m.o.Threshold &&
			(m.o.SameSource || m.docSrc[d] != src) {
			kept = append(kept, d)
		} else {
			m.acc[d] = 0
		}
	}
	slices.Sort(kept)
	return kept
}

func (m *method) evidence(a, b int32, shared int) Evidence {
	e := Evidence{SourceA: m.srcNames[m.docSrc[a]], SourceB: m.srcNames[m.docSrc[b]], Shared: shared,
		RareA: len(m.rare[a]), RareB: len(m.rare[b])}
	ab, ba := e.shares()
	e.AInB, e.BInA = m.shown(ab, ba)
	return e
}

// shown returns the containments ab and ba as the evidence writes them:
// with four decimals (core.Round), or both with as many more as it takes
// for the values written to meet the clause of the rule the exact ones
// meet (none included) and for the larger, the pair's score, to stay on
// the side of Options.Threshold the exact one is, so that evidence read
// against the rule tells what decided the pair: shares of 2333/3333
// (0.69997) under "min>=0.7" are written 0.69997, not 0.7 beside the
// label "similar". Both take the same digits (engine.ShownDecimals):
// equal shares are written alike. What they decide is Decider.Decide.
func (m *method) shown(ab, ba float64) (float64, float64) {
	want := m.decider.Decide(ab, ba)
	for d := range engine.ShownDecimals {
		if a, b := d.Round(ab), d.Round(ba); m.decider.Decide(a, b) == want {
			return a, b
		}
	}
	return ab, ba
}

// shownScore is the score as outputs write it: the larger containment as
// the evidence writes it, on the side of each bound that the exact one is
// (see method.shown).
func shownScore(_ float64, ev Evidence) float64 { return max(ev.AInB, ev.BInA) }

// Index puts the document's rare words in the inverted lists and drops its
// words from s: the method holds its rare words.
func (m *method) Index(ord int32, s *Sketch) {
	m.noDenseLists()
	if int(ord) >= len(m.state) {
		return
	}
	if m.state[ord] == pending {
		m.keepRare()
	}
	if m.state[ord] != matched {
		return
	}
	for _, w := range m.rare[ord] {
		for int(w) >= len(m.lists) {
			m.lists = append(m.lists, nil)
		}
		m.lists[w] = append(m.lists[w], ord)
	}
	m.state[ord] = indexed
	if s != nil {
		s.Words = nil
	}
}

// Remove takes the document out of the inverted lists and its words off
// its source's statistics. s must hold the words given to Add (decoded
// again will do); with s nil a document no longer pending leaves the lists
// but its words stay counted.
func (m *method) Remove(ord int32, s *Sketch) {
	if int(ord) >= len(m.state) || m.state[ord] == absent {
		return
	}
	words := []uint64(nil)
	if s != nil {
		words = s.Words
	}
	switch m.state[ord] {
	case pending:
		i := slices.IndexFunc(m.pending, func(p pendingDoc) bool { return p.ord == ord })
		p := m.pending[i]
		m.pending = slices.Delete(m.pending, i, i+1)
		m.nPend -= len(p.ids)
		if s == nil {
			words = p.hashes
		}
	case indexed:
		for _, w := range m.rare[ord] {
			if i := slices.Index(m.lists[w], ord); i >= 0 {
				m.lists[w] = slices.Delete(m.lists[w], i, i+1)
			}
		}
	}
	src := m.docSrc[ord]
	m.srcDocs[src]--
	m.uncount(src, words)
	m.docSrc[ord], m.state[ord], m.rare[ord] = -1, absent, nil
}

// Uncount takes an indexed document's words off its source's statistics,
// leaving its rare words and its place in the lists (engine.Recounter).
// The words keep their ids: the document still holds them.
func (m *method) Uncount(ord int32, s *Sketch) { m.shift(ord, s, -1) }

// Recount puts back what Uncount took off.
func (m *method) Recount(ord int32, s *Sketch) { m.shift(ord, s, 1) }

// shift adds a document's words, s's, times sign (1 or -1) to its source's
// statistics.
func (m *method) shift(ord int32, s *Sketch, sign int) {
	if int(ord) >= len(m.state) || m.state[ord] == absent {
		return
	}
	src := m.docSrc[ord]
	m.srcDocs[src] += int32(sign)
	for _, h := range s.Words {
		if id, ok := m.terms[h]; ok {
			if key := uint64(src)<<32 | uint64(id); sign > 0 {
				m.df.Inc(key)
			} else {
				m.df.Dec(key)
			}
		}
	}
}

// uncount takes a document's words off its source's statistics, freeing
// the ids of words no document holds any more.
func (m *method) uncount(src int32, words []uint64) {
	for _, h := range words {
		id, ok := m.terms[h]
		if !ok {
			continue
		}
		m.df.Dec(uint64(src)<<32 | uint64(id))
		if m.refs[id]--; m.refs[id] <= 0 {
			m.refs[id] = 0
			delete(m.terms, h)
			m.free = append(m.free, id)
		}
	}
}

// Label makes a pair a duplicate when the rule holds and similar
// otherwise: Match reports only pairs at or above the threshold.
func (m *method) Label(_ float64, ev Evidence) (core.Label, bool) {
	ab, ba := ev.shares()
	if m.decider.Decide(ab, ba).Clause >= 0 {
		return core.Duplicate, true
	}
	return core.Similar, true
}

// Similarity returns the larger containment of two documents' rare words.
func (m *method) Similarity(a, b int32, _ engine.Source[Sketch]) (float64, error) {
	s := similarity.Scores(m.rare[a], m.rare[b])
	return max(s.ContainmentAB, s.ContainmentBA), nil
}

// reweigh scores documents as Similarity does, their rare words chosen
// by their sources' statistics as they stand (engine.Method.Reweigh).
func (m *method) reweigh(ss []*Sketch) func(i, j int) float64 {
	rare := make([][]uint32, len(ss))
	for i, s := range ss {
		if s != nil {
			rare[i] = m.rareNow(s)
		}
	}
	return func(i, j int) float64 {
		s := similarity.Scores(rare[i], rare[j])
		return max(s.ContainmentAB, s.ContainmentBA)
	}
}

// rareNow returns the rare words, sorted, that keepRare would choose of
// the words of s, a document counted, by its source's statistics as they
// stand.
func (m *method) rareNow(s *Sketch) []uint32 {
	src, ok := m.sources[s.Source]
	if !ok {
		return nil
	}
	limit := m.o.CommonDF * float64(m.srcDocs[src])
	var rare []uint32
	for _, h := range s.Words {
		id, ok := m.terms[h]
		if !ok {
			continue
		}
		if n := m.df.Count(uint64(src)<<32 | uint64(id)); n < 2 || float64(n) <= limit {
			rare = append(rare, id)
		}
	}
	slices.Sort(rare)
	return rare
}

// Report counts the candidates whose overlap was counted, more than were
// emitted, and, unless Options.SameSource, the documents compared without
// a source where others have one (engine.Stats.NoSource).
func (m *method) Report(st *engine.Stats) {
	st.Candidates = m.verified + int(m.parallelVerified.Load())
	if src, ok := m.sources[""]; ok && !m.o.SameSource && len(m.srcDocs) > 1 {
		st.NoSource = int(m.srcDocs[src])
	}
}

// IndexAll puts every matched document's rare words in the inverted lists,
// in ordinal order, for a Batch's matchers (engine.Parallel), numbers
// the documents that have rare words densely, so that counts are a small
// array the processor's cache holds, and counts every pair on all cores
// (countPairs): the matchers then emit what it found. The counting is most
// of a Batch's matching: it reports the share of pairs counted to
// progress and stops when ctx is done (engine.Parallel).
func (m *method) IndexAll(ctx context.Context, ss []*Sketch, progress func(done int)) error {
	return m.indexAll(ctx, ss, runtime.GOMAXPROCS(0), countBlock, countChunk, progress)
}

// indexAll is IndexAll counting on workers goroutines, block and
// chunk dense numbers at a time (see countPairs).
func (m *method) indexAll(ctx context.Context, ss []*Sketch, workers, block, chunk int, progress func(done int)) error {
	m.keepRare()
	m.dense = m.dense[:0]
	lens := []int32(nil)
	for ord := range m.state {
		if m.state[ord] != matched || len(m.rare[ord]) == 0 {
			continue
		}
		m.dense = append(m.dense, int32(ord))
		for _, w := range m.rare[ord] {
			if int(w) >= len(lens) {
				lens = append(lens, make([]int32, int(w)+1-len(lens))...)
			}
			lens[w]++
		}
	}
	// One arena holds every list, each in ordinal order.
	total := 0
	for _, n := range lens {
		total += int(n)
	}
	arena := make([]int32, total)
	m.lists = make([][]int32, len(lens))
	at := 0
	for w, n := range lens {
		m.lists[w] = arena[at : at : at+int(n)]
		at += int(n)
	}
	m.denseSrc = make([]int32, len(m.dense))
	most := 0
	for id, ord := range m.dense {
		for _, w := range m.rare[ord] {
			m.lists[w] = append(m.lists[w], int32(id))
		}
		m.state[ord] = indexed
		m.denseSrc[id] = m.docSrc[ord]
		most = max(most, len(m.rare[ord]))
	}
	m.need = needTable(int32(most), m.o.Threshold)
	m.needDense = make([]int32, len(m.dense))
	for id, ord := range m.dense {
		m.needDense[id] = m.need[len(m.rare[ord])]
	}
	for ord, s := range ss {
		if s != nil && m.state[ord] == indexed {
			s.Words = nil
		}
	}
	m.denseLists = true
	return m.countPairs(ctx, workers, block, chunk, func(share float64) {
		if progress != nil {
			progress(int(share * float64(len(ss))))
		}
	})
}

// noDenseLists panics once IndexAll has turned the lists over to a
// Batch's matchers: a method matches one way or the other.
func (m *method) noDenseLists() {
	if m.denseLists {
		panic("rarewords: Match or Index after IndexAll")
	}
}

// older makes an index of sketch format 2 or 3 open: its words are the
// pieces between white space whole in every script (2) and "ı" apart from
// "i" (2 and 3), as those formats made them, so that its new sketches
// compare with those it holds.
var older = engine.OlderFormats(2, 3, func(o Options, format int) Options {
	o.format = format
	return o
})
