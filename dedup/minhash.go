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

	// sets[i] is document i's sorted 32-bit shingle fingerprints. 32 bits
	// make a false shared shingle between two 1,000-shingle documents a
	// one-in-4,000 event, far below what moves a score, at half the memory
	// of 64. Each set is its own pointer-free allocation: no arena to
	// regrow and copy, nothing for the garbage collector to scan.
	sets [][]uint32
	// keys[i] is document i's band keys, kept from add until match
	// indexes them.
	keys [][]uint64
	// nums[i] is document i's sorted distinct number fingerprints.
	nums  [][]uint32
	index candidates.Postings
	cands []int32
}

// MinHashEvidence is the evidence of a minhash pair: the exact overlap of
// the shingle sets and, when both documents hold two or more numbers, the
// share of the smaller set of numbers the other holds too.
type MinHashEvidence struct {
	similarity.SetScores
	NumberOverlap *float64 `json:"number_overlap,omitempty"`
}

// minHashSketch is one document's shingle set and band keys.
type minHashSketch struct {
	set  []uint32
	keys []uint64
	nums []uint32
}

func newMinHash(o *Options) *minHash {
	low := o.Threshold
	if o.Similar > 0 {
		low = o.Similar
	}
	return &minHash{
		opts:  o,
		mh:    sketch.NewMinHash(o.Hashes, o.Seed),
		bands: sketch.ChooseBands(low, o.Hashes, maxBands, bandWeightFP, bandWeightFN),
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
	return &minHashSketch{set: slices.Clip(set), keys: s.m.bands.BandKeys(s.sig, nil),
		nums: numbers(doc.Text, words)}, neardup.SkipNone
}

// numbers returns the sorted distinct fingerprints of the words of text
// that begin or end with a digit (figures, including OCR-damaged ones), with
// everything but the digits dropped so "1,000" and "1000" agree.
func numbers(text string, words []analysis.Token) []uint32 {
	var out []uint32
	var buf [32]byte
	for _, w := range words {
		tok := text[w.Start:w.End]
		if !isDigit(tok[0]) && !isDigit(tok[len(tok)-1]) {
			continue // words, not numbers: the common case, decided at once
		}
		digits := buf[:0]
		for i := 0; i < len(tok) && len(digits) < len(buf); i++ {
			if isDigit(tok[i]) {
				digits = append(digits, tok[i])
			}
		}
		h := uint32(2166136261) // FNV-1a: numbers are short
		for _, c := range digits {
			h = (h ^ uint32(c)) * 16777619
		}
		out = append(out, h)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (m *minHash) add(v any) {
	if v == nil {
		m.sets, m.keys = append(m.sets, nil), append(m.keys, nil)
		m.nums = append(m.nums, nil)
		return
	}
	s := v.(*minHashSketch)
	m.sets, m.keys = append(m.sets, s.set), append(m.keys, s.keys)
	m.nums = append(m.nums, s.nums)
}

func (m *minHash) set(id int32) []uint32 { return m.sets[id] }

func (m *minHash) match(id int32, emit func(int32, float64, any)) {
	a := m.set(id)
	if len(a) == 0 {
		return
	}
	if id == 0 {
		// A batch adds every document before matching: size the index once.
		n := len(m.sets) * m.bands.B
		m.index.Reserve(n, n)
	}
	keys := m.keys[id]
	m.cands = m.cands[:0]
	for _, k := range keys {
		m.index.VisitAdd(k, m.opts.BucketLimit, id, m.collect)
	}
	slices.Sort(m.cands)
	for _, c := range slices.Compact(m.cands) {
		ev := &MinHashEvidence{SetScores: similarity.Scores(m.set(c), a)}
		if na, nb := m.nums[c], m.nums[id]; len(na) >= 2 && len(nb) >= 2 {
			o := float64(similarity.Overlap(na, nb)) / float64(min(len(na), len(nb)))
			ev.NumberOverlap = &o
		}
		emit(c, ev.Jaccard, ev)
	}
	m.keys[id] = nil
}

// collect gathers candidates; the closure is made once, not per band.
func (m *minHash) collect(d int32) { m.cands = append(m.cands, d) }

func (m *minHash) similarity(a, b int32) float64 {
	return similarity.Scores(m.set(a), m.set(b)).Jaccard
}

// label marks a pair duplicate by Jaccard or by containment, unless the
// numbers of the two documents disagree; similar by Jaccard alone.
func (m *minHash) label(score float64, v any) (neardup.Label, bool) {
	ev := v.(*MinHashEvidence)
	o := m.opts
	dup := score >= o.Threshold || max(ev.ContainmentAB, ev.ContainmentBA) >= o.Containment
	if dup && ev.NumberOverlap != nil && *ev.NumberOverlap < o.NumberAgreement {
		dup = false
	}
	switch {
	case dup:
		return neardup.Duplicate, true
	case o.Similar > 0 && score >= o.Similar:
		return neardup.Similar, true
	}
	return "", false
}

func (m *minHash) report(st *Stats) {
	st.Bands = m.bands.String()
}
