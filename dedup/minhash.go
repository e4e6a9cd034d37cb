package dedup

import (
	"slices"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
)

// LSH band choice weighs a lost pair (false negative) four times a wasted
// verification (false positive): verification is exact and cheap. Each band
// costs an index entry (about 40 bytes) per document, so bands are capped.
const (
	bandWeightFP = 0.2
	bandWeightFN = 0.8
	maxBands     = 20
)

// minHash is the minhash method: word n-gram shingles, one-permutation
// MinHash signatures, LSH bands as candidate keys, and exact verification
// on the shingle sets.
type minHash struct {
	opts  *Options
	mh    *sketch.MinHash
	bands sketch.Bands

	// Shingle sets: document i's sorted 32-bit shingle fingerprints are
	// sets[setOff[i]:setOff[i+1]]. 32 bits make a false shared shingle
	// between two 1,000-shingle documents a one-in-4,000 event, far below
	// what moves a score, at half the memory of 64.
	sets   []uint32
	setOff []int64
	// Band keys, Bands.B per document, kept from add until match.
	keys  []uint64
	index candidates.Postings
	cands []int32
}

// minHashSketch is one document's shingle set and band keys.
type minHashSketch struct {
	set  []uint32
	keys []uint64
}

func newMinHash(o *Options) *minHash {
	low := o.Threshold
	if o.Similar > 0 {
		low = o.Similar
	}
	return &minHash{
		opts:   o,
		mh:     sketch.NewMinHash(o.Hashes, o.Seed),
		bands:  sketch.ChooseBands(low, o.Hashes, maxBands, bandWeightFP, bandWeightFN),
		setOff: []int64{0},
	}
}

func (m *minHash) newSketcher() sketcher { return &minHashSketcher{m: m} }

type minHashSketcher struct {
	m      *minHash
	an     analysis.Analyzer
	shings []uint64
	sig    []uint32
}

func (s *minHashSketcher) sketch(doc *neardup.Document) (any, neardup.SkipReason) {
	words := s.an.Words(doc.Text)
	if len(words) == 0 {
		return nil, neardup.SkipNoUnits
	}
	s.shings = analysis.Shingles(words, s.m.opts.Shingle, s.shings[:0])
	s.sig = s.m.mh.Signature(s.shings, s.sig)
	set := make([]uint32, len(s.shings))
	for i, h := range s.shings {
		set[i] = uint32(h)
	}
	slices.Sort(set)
	set = slices.Compact(set)
	return &minHashSketch{set: slices.Clip(set), keys: s.m.bands.BandKeys(s.sig, nil)}, neardup.SkipNone
}

func (m *minHash) add(v any) {
	if v == nil {
		m.setOff = append(m.setOff, int64(len(m.sets)))
		m.keys = append(m.keys, make([]uint64, m.bands.B)...)
		return
	}
	s := v.(*minHashSketch)
	m.sets = append(m.sets, s.set...)
	m.setOff = append(m.setOff, int64(len(m.sets)))
	m.keys = append(m.keys, s.keys...)
}

func (m *minHash) set(id int32) []uint32 { return m.sets[m.setOff[id]:m.setOff[id+1]] }

func (m *minHash) match(id int32, emit func(int32, float64, any)) {
	a := m.set(id)
	if len(a) == 0 {
		return
	}
	keys := m.keys[int(id)*m.bands.B : int(id+1)*m.bands.B]
	m.cands = m.cands[:0]
	for _, k := range keys {
		m.index.Visit(k, m.opts.BucketLimit, func(d int32) { m.cands = append(m.cands, d) })
	}
	slices.Sort(m.cands)
	for _, c := range slices.Compact(m.cands) {
		sc := similarity.Scores(m.set(c), a)
		emit(c, sc.Jaccard, &sc)
	}
	for _, k := range keys {
		m.index.Add(k, id)
	}
}

func (m *minHash) similarity(a, b int32) float64 {
	return similarity.Scores(m.set(a), m.set(b)).Jaccard
}

func (m *minHash) report(st *Stats) {
	st.Bands = m.bands.String()
}
