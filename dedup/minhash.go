package dedup

import (
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
)

// LSH band choice weighs a lost pair (false negative) four times a wasted
// verification (false positive): verification is exact and cheap. Each band
// costs an index entry (about 40 bytes) per document, so bands are capped.
// Character shingles of unrelated news articles overlap by a few percent
// (common letter sequences), which two-row bands turn into tens of
// candidates per document in a corpus of 200,000 (31, against 1.5 with
// three rows): their bands have at least three rows.
const (
	bandWeightFP = 0.2
	bandWeightFN = 0.8
	maxBands     = 20
	minCharRows  = 3
)

// sampleShare is the least share of its fingerprints a long document keeps
// (see Options.SampleSize): a short document inside a long one is then
// still compared on a quarter of its shingles.
const sampleShare = 4

// minHash is the minhash method: character or word n-gram shingles,
// one-permutation MinHash signatures, LSH bands as candidate keys, and
// verification on the shingle fingerprint sets.
type minHash struct {
	opts  *Options
	mh    *sketch.MinHash
	bands sketch.Bands

	// sets[i] is document i's sorted 32-bit shingle fingerprints, all of
	// them up to cuts[i] (sketch.Bottomer). 32 bits make a false shared
	// shingle between two 1,000-shingle documents a one-in-4,000 event,
	// far below what moves a score, at half the memory of 64. Each set is
	// its own pointer-free allocation: no arena to regrow and copy,
	// nothing for the garbage collector to scan.
	sets [][]uint32
	cuts []uint32
	// keys[i] is document i's band keys, kept from add until match
	// indexes them.
	keys [][]uint64
	// nums[i] is document i's sorted distinct figure fingerprints.
	nums  [][]uint32
	index candidates.Postings
	cands []int32
}

// MinHashEvidence is the evidence of a minhash pair: the overlap of the
// shingle sets and, when both documents hold two or more figures, the
// share of the smaller set of figures the other holds too.
type MinHashEvidence struct {
	similarity.SetScores
	NumberOverlap *float64 `json:"number_overlap,omitempty"`
}

// minHashSketch is one document's shingle sample, band keys and figures.
type minHashSketch struct {
	set  []uint32
	cut  uint32
	keys []uint64
	nums []uint32
}

func newMinHash(o *Options) *minHash {
	low := o.Threshold
	if o.Similar > 0 {
		low = o.Similar
	}
	minRows := 1
	if o.ShingleUnit == ShingleChars {
		minRows = minCharRows
	}
	bands := sketch.ChooseBands(low, o.Hashes, maxBands, minRows, bandWeightFP, bandWeightFN)
	if o.Bands != "" {
		bands, _ = sketch.ParseBands(o.Bands, o.Hashes) // checked by Defaults
	}
	return &minHash{opts: o, mh: sketch.NewMinHash(o.Hashes, o.Seed), bands: bands}
}

func (m *minHash) newSketcher() sketcher { return &minHashSketcher{m: m} }

type minHashSketcher struct {
	m      *minHash
	an     analysis.Analyzer
	shings []uint64
	fps    []uint32
	set    []uint32
	sig    []uint32
	bottom sketch.Bottomer
}

func (s *minHashSketcher) sketch(doc *core.Document) (any, core.SkipReason) {
	o := s.m.opts
	words := s.an.Words(doc.Text)
	if len(words) == 0 {
		return nil, core.SkipNoUnits
	}
	if o.ShingleUnit == ShingleChars {
		s.shings = s.an.CharShingles(doc.Text, words, o.Shingle, s.shings[:0])
	} else {
		s.shings = analysis.Shingles(words, o.Shingle, s.shings[:0])
	}
	s.sig = s.m.mh.Signature(s.shings, s.sig)
	s.fps = s.fps[:0]
	for _, h := range s.shings {
		s.fps = append(s.fps, uint32(h))
	}
	k := len(s.fps)
	if o.SampleSize > 0 {
		k = min(k, max(o.SampleSize, len(s.fps)/sampleShare))
	}
	var cut uint32
	s.set, cut = s.bottom.Bottom(s.fps, k, s.set)
	return &minHashSketch{set: slices.Clone(s.set), cut: cut, keys: s.m.bands.BandKeys(s.sig, nil),
		nums: numbers(doc.Text)}, core.SkipNone
}

// numbers returns the sorted distinct fingerprints of the figures of text:
// runs of digits joined by "-", "/", "." or "," ("13-3/8", "1,000", "3.5"),
// each reduced to its digits so "1,000" and "1000" agree. A fraction or a
// range is one figure: "13-3/8" and "8-1/2" differ instead of sharing 3
// and 8. Letters around the digits are ignored, so an OCR-damaged "l986"
// is the figure 986. Years (four plain digits from 1900 to 2099) are left
// out: the stories of one year share them whatever they report. So are
// ordinals ("4th qtr", "1ST HALF"), wording of a template rather than
// figures of a report.
func numbers(text string) []uint32 {
	var out []uint32
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		start, joined := i, false
		h := uint32(2166136261) // FNV-1a: figures are short
		for ; i < len(text); i++ {
			c := text[i]
			if !isDigit(c) {
				if !isFigureJoin(c) || i+1 >= len(text) || !isDigit(text[i+1]) {
					break
				}
				joined = true
				continue
			}
			h = (h ^ uint32(c)) * 16777619
		}
		if !joined && isYear(text[start:i]) || isOrdinalSuffix(text[i:]) {
			continue
		}
		out = append(out, h)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isOrdinalSuffix reports whether rest, the text after a figure, starts
// with an ordinal suffix that ends a word: "th", "ST", "nd", "rd".
func isOrdinalSuffix(rest string) bool {
	if len(rest) < 2 {
		return false
	}
	suf := string([]byte{rest[0] | 0x20, rest[1] | 0x20})
	if suf != "st" && suf != "nd" && suf != "rd" && suf != "th" {
		return false
	}
	return len(rest) == 2 || !isWordByte(rest[2])
}

// isWordByte reports ASCII letters and digits.
func isWordByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || isDigit(c) }

// isYear reports whether the digits d are a year from 1900 to 2099.
func isYear(d string) bool {
	return len(d) == 4 && (d[:2] == "19" || d[:2] == "20")
}

// isFigureJoin reports the bytes that join the digits of one figure.
func isFigureJoin(c byte) bool { return c == '-' || c == '/' || c == '.' || c == ',' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (m *minHash) add(v any) {
	if v == nil {
		m.sets, m.keys = append(m.sets, nil), append(m.keys, nil)
		m.cuts = append(m.cuts, 0)
		m.nums = append(m.nums, nil)
		return
	}
	s := v.(*minHashSketch)
	m.sets, m.keys = append(m.sets, s.set), append(m.keys, s.keys)
	m.cuts = append(m.cuts, s.cut)
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
		ev := &MinHashEvidence{SetScores: m.scores(c, id)}
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
	return m.scores(a, b).Jaccard
}

// scores compares two documents' shingle samples over the hash range both
// kept: exactly, when neither left a fingerprint out.
func (m *minHash) scores(a, b int32) similarity.SetScores {
	return similarity.ScoresBelow(m.sets[a], m.cuts[a], m.sets[b], m.cuts[b])
}

// label marks a pair duplicate by Jaccard or by containment, unless the
// numbers of the two documents disagree; similar by Jaccard alone.
func (m *minHash) label(score float64, v any) (core.Label, bool) {
	ev := v.(*MinHashEvidence)
	o := m.opts
	dup := score >= o.Threshold || max(ev.ContainmentAB, ev.ContainmentBA) >= o.Containment
	if dup && ev.NumberOverlap != nil && *ev.NumberOverlap < o.NumberAgreement {
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

func (m *minHash) report(st *Stats) {
	st.Bands = m.bands.String()
}
