package dedup

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/similarity"
)

// DefaultRareWordsRule makes a rarewords pair a duplicate when each
// document's rare words are mostly in the other; other reported pairs are
// similar (one reuses part of the other).
const DefaultRareWordsRule = "min>=0.7"

// The score fields a rarewords rule may name: the smaller and the larger of
// the two containments.
var rareWordsFields = []string{"min", "max"}

// rareWords is the rare-word containment method, for text reused across
// publishers. Each document is the set of its words that are rare in its
// own source (the publisher: Document.Source, else the URL's host): a word
// in more than Options.CommonDF of the source's documents, and in at least
// two of them, is common there and dropped. A pair scores its containment
// both ways, A→B = |A∩B|/|A| (how much of A is in B) and B→A, because a
// short piece can sit whole inside a long one; its score is the larger.
// Candidates come from inverted lists of rare words; only documents of
// different sources are compared unless Options.SameSource.
//
// What is reported is each document's best match in every other source:
// the document there holding the largest share of its rare words, when
// that share reaches Options.Threshold. In a Batch every document's view
// counts, with statistics over the whole corpus; in an Index only the
// newest document's, with each document's rare words fixed when it is
// added, by its source's statistics at that time.
type rareWords struct {
	opts *Options
	rule *similarity.Rule

	sources  map[string]int32
	srcNames []string
	srcDocs  []int32            // compared documents per source
	df       candidates.Counter // key source<<32 | term: documents of the source holding the term
	terms    map[uint64]uint32  // word hash → term id
	docSrc   []int32            // source of each document, -1 for a skipped one
	pending  [][]uint32         // words of the documents added since the last match
	nPend    int                // words in pending
	rare     []uint32           // rare words of matched documents: rare[rOff[i]:rOff[i+1]]
	rOff     []int64
	lists    [][]int32 // by term: the documents holding it as rare, in match order
	acc      []int32
	touched  []int32
	verified int
}

// RareWordsEvidence is the evidence of a rarewords pair.
type RareWordsEvidence struct {
	SourceA string `json:"source_a"`
	SourceB string `json:"source_b"`
	// Shared counts the rare words both hold; RareA and RareB each one's.
	Shared int `json:"shared_rare_words"`
	RareA  int `json:"rare_words_a"`
	RareB  int `json:"rare_words_b"`
	// AInB is the share of A's rare words found in B, BInA the reverse.
	AInB float64 `json:"a_in_b"`
	BInA float64 `json:"b_in_a"`
	// BestFor says whose best match in the other's source the pair is:
	// "a", "b" or "both".
	BestFor string     `json:"best_match_for"`
	ab, ba  float64    // AInB and BInA unrounded
	minmax  [2]float64 // the smaller and the larger of the two
}

type rareSketch struct {
	source string
	words  []uint64
}

func newRareWords(o *Options) (*rareWords, error) {
	rule, err := similarity.ParseRule(o.Rule, rareWordsFields...)
	if err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	return &rareWords{opts: o, rule: rule, sources: map[string]int32{}, terms: map[uint64]uint32{},
		rOff: []int64{0}}, nil
}

// SourceOf returns the source a document is counted in by the rarewords
// method: its Source, else its URL's host without "www.", else "".
func SourceOf(doc *core.Document) string {
	if s := strings.TrimSpace(doc.Source); s != "" {
		return s
	}
	if u, err := url.Parse(doc.URL); err == nil {
		return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	return ""
}

func (m *rareWords) newSketcher() sketcher { return &rareSketcher{m: m} }

type rareSketcher struct {
	m      *rareWords
	an     analysis.Analyzer
	hashes []uint64
}

func (s *rareSketcher) sketch(doc *core.Document) (any, core.SkipReason) {
	words := s.an.Words(doc.Text)
	if len(words) == 0 {
		return nil, core.SkipNoUnits
	}
	if len(words) < s.m.opts.MinWords {
		return nil, core.SkipTooShort
	}
	s.hashes = s.hashes[:0]
	for _, t := range words {
		s.hashes = append(s.hashes, t.Hash)
	}
	slices.Sort(s.hashes)
	return &rareSketch{source: SourceOf(doc), words: slices.Clone(slices.Compact(s.hashes))}, core.SkipNone
}

func (m *rareWords) add(v any) {
	src := int32(-1)
	var words []uint32
	if sk, ok := v.(*rareSketch); ok {
		var known bool
		if src, known = m.sources[sk.source]; !known {
			src = int32(len(m.srcDocs))
			m.sources[sk.source] = src
			m.srcNames = append(m.srcNames, sk.source)
			m.srcDocs = append(m.srcDocs, 0)
		}
		m.srcDocs[src]++
		words = make([]uint32, len(sk.words))
		for i, h := range sk.words {
			id, ok := m.terms[h]
			if !ok {
				id = uint32(len(m.terms))
				m.terms[h] = id
			}
			m.df.Inc(uint64(src)<<32 | uint64(id))
			words[i] = id
		}
	}
	m.docSrc = append(m.docSrc, src)
	m.pending = append(m.pending, words)
	m.nPend += len(words)
}

// seal: with final statistics, every document's rare words are known.
func (m *rareWords) seal() { m.keepRare() }

// keepRare replaces the pending documents' words by their rare words, by
// their sources' statistics as they stand.
func (m *rareWords) keepRare() {
	m.rare = slices.Grow(m.rare, m.nPend)
	for _, words := range m.pending {
		id := len(m.rOff) - 1
		if src := m.docSrc[id]; src >= 0 {
			limit := m.opts.CommonDF * float64(m.srcDocs[src])
			for _, w := range words {
				if n := m.df.Count(uint64(src)<<32 | uint64(w)); n < 2 || float64(n) <= limit {
					m.rare = append(m.rare, w)
				}
			}
		}
		slices.Sort(m.rare[m.rOff[id]:])
		m.rOff = append(m.rOff, int64(len(m.rare)))
	}
	clear(m.pending)
	m.pending, m.nPend = m.pending[:0], 0
}

func (m *rareWords) rareOf(id int32) []uint32 { return m.rare[m.rOff[id]:m.rOff[id+1]] }

func (m *rareWords) rareLen(id int32) int { return int(m.rOff[id+1] - m.rOff[id]) }

func (m *rareWords) match(id int32, emit func(int32, float64, any)) {
	m.keepRare()
	a := m.rareOf(id)
	if len(a) == 0 {
		return
	}
	for _, d := range m.candidates(id, a) {
		ev := m.evidence(d, id, int(m.acc[d]))
		m.acc[d] = 0
		emit(d, ev.minmax[1], ev)
	}
	for _, w := range a {
		for int(w) >= len(m.lists) {
			m.lists = append(m.lists, nil)
		}
		m.lists[w] = append(m.lists[w], id)
	}
}

// candidates counts in m.acc the rare words each earlier document shares
// with document id, whose rare words are a, and returns in increasing order
// those to report: the larger containment, the shared words over the
// smaller set, reaches the threshold, and unless SameSource the sources
// differ (checked here, once per candidate, not per posting). Their counts
// stay in m.acc for the caller to read and clear.
func (m *rareWords) candidates(id int32, a []uint32) []int32 {
	if len(m.acc) < int(id) {
		m.acc = append(m.acc, make([]int32, int(id)-len(m.acc))...)
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
	src, kept := m.docSrc[id], m.touched[:0]
	for _, d := range m.touched {
		if float64(m.acc[d])/float64(min(len(a), m.rareLen(d))) >= m.opts.Threshold &&
			(m.opts.SameSource || m.docSrc[d] != src) {
			kept = append(kept, d)
		} else {
			m.acc[d] = 0
		}
	}
	slices.Sort(kept)
	return kept
}

func (m *rareWords) evidence(a, b int32, shared int) *RareWordsEvidence {
	na, nb := len(m.rareOf(a)), len(m.rareOf(b))
	ab, ba := float64(shared)/float64(na), float64(shared)/float64(nb)
	return &RareWordsEvidence{SourceA: m.sourceName(a), SourceB: m.sourceName(b), Shared: shared, RareA: na, RareB: nb,
		AInB: round(ab), BInA: round(ba), ab: ab, ba: ba, minmax: [2]float64{min(ab, ba), max(ab, ba)}}
}

func (m *rareWords) sourceName(id int32) string {
	if s := m.docSrc[id]; s >= 0 {
		return m.srcNames[s]
	}
	return ""
}

// label makes a pair a duplicate when the rule holds and similar otherwise:
// match reports only pairs at or above the threshold.
func (m *rareWords) label(score float64, ev any) (core.Label, bool) {
	if m.rule.Eval(ev.(*RareWordsEvidence).minmax[:]) >= 0 {
		return core.Duplicate, true
	}
	return core.Similar, true
}

func (m *rareWords) similarity(a, b int32) float64 {
	s := similarity.Scores(m.rareOf(a), m.rareOf(b))
	return max(s.ContainmentAB, s.ContainmentBA)
}

// report counts the candidates whose overlap was counted, more than were
// emitted.
func (m *rareWords) report(st *Stats) { st.Candidates = m.verified }

// view is one document's side of a pair: the document, the source of its
// partner, and the share of its rare words the partner holds.
type view struct {
	doc, partnerSrc int32
}

// selectPairs keeps the pairs that are some document's best match in the
// partner's source: its share of rare words in the partner is the largest
// there (ties to the larger reverse share, then to the earlier pair) and
// reaches the threshold. With newest only the later document's view
// counts.
func (m *rareWords) selectPairs(ms []match, newest bool) []match {
	for k, i := range m.bestViews(ms, newest) {
		e := ms[i].ev.(*RareWordsEvidence)
		side := "a"
		if ms[i].b == k.doc {
			side = "b"
		}
		if e.BestFor != "" && e.BestFor != side {
			side = "both"
		}
		e.BestFor = side
	}
	kept := ms[:0]
	for _, p := range ms {
		if p.ev.(*RareWordsEvidence).BestFor != "" {
			kept = append(kept, p)
		}
	}
	return kept
}

// bestViews returns, for each document and partner source, the index in ms
// of the document's best pair there; see selectPairs.
func (m *rareWords) bestViews(ms []match, newest bool) map[view]int {
	best := map[view]int{}
	consider := func(i int, doc, partner int32, own, other float64) {
		if own < m.opts.Threshold {
			return
		}
		k := view{doc, m.docSrc[partner]}
		if j, ok := best[k]; ok {
			e := ms[j].ev.(*RareWordsEvidence)
			jOwn, jOther := e.ab, e.ba
			if ms[j].b == doc {
				jOwn, jOther = jOther, jOwn
			}
			if cmp.Or(cmp.Compare(own, jOwn), cmp.Compare(other, jOther)) <= 0 {
				return
			}
		}
		best[k] = i
	}
	for i, p := range ms {
		e := p.ev.(*RareWordsEvidence)
		if !newest {
			consider(i, p.a, p.b, e.ab, e.ba)
		}
		consider(i, p.b, p.a, e.ba, e.ab)
	}
	return best
}
