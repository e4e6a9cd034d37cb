package dedup

import (
	"cmp"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/candidates"
)

// sentences is the sentence-fingerprint method: each sentence long enough is
// hashed, documents sharing a sentence hash are candidates, and a pair scores
// the Jaccard index of the two sentence sets. Sentences found in more than
// MaxSentenceDocs documents are boilerplate: they neither propose nor score.
type sentences struct {
	opts *Options
	// docs[i] is document i's sentences: sorted hashes and, for
	// weighting, each one's length.
	docs  []*sentenceSketch
	df    candidates.Counter
	index candidates.Postings
	cands []int32

	// evidence waiting for text, by the ordinal whose text resolves it.
	pending map[int32][]*SentenceEvidence
	// top boilerplate sentences: hash → a document holding it (-1 unknown).
	top     map[uint64]int32
	topText map[uint64]string
}

// SentenceEvidence is the evidence of a sentences pair: the sentences both
// documents hold (up to five are quoted).
type SentenceEvidence struct {
	Shared    int      `json:"shared"`
	Sentences []string `json:"sentences,omitempty"`
	hashes    []uint64
}

// maxQuoted caps the shared sentences quoted in evidence.
const maxQuoted = 5

// topBoilerplate is how many of the most frequent boilerplate sentences
// the stats quote.
const topBoilerplate = 10

type sentenceSketch struct {
	hashes []uint64
	chars  []int32
}

func newSentences(o *Options) *sentences {
	return &sentences{opts: o, pending: map[int32][]*SentenceEvidence{},
		topText: map[uint64]string{}}
}

func (m *sentences) newSketcher() sketcher { return &sentenceSketcher{m: m} }

type sentenceSketcher struct {
	m  *sentences
	an analysis.Analyzer
}

func (s *sentenceSketcher) sketch(doc *core.Document) (any, core.SkipReason) {
	var sk sentenceSketch
	for _, sn := range s.an.Sentences(doc.Text) {
		if sn.Hash != 0 && int(sn.Chars) >= s.m.opts.MinSentenceChars {
			sk.hashes = append(sk.hashes, sn.Hash)
			sk.chars = append(sk.chars, sn.Chars)
		}
	}
	if len(sk.hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	sortUnique(&sk)
	return &sk, core.SkipNone
}

// sortUnique sorts a sketch by hash and drops repeats, keeping the longest.
func sortUnique(sk *sentenceSketch) {
	idx := make([]int, len(sk.hashes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(sk.hashes[a], sk.hashes[b]), cmp.Compare(sk.chars[b], sk.chars[a]))
	})
	h, c := make([]uint64, 0, len(idx)), make([]int32, 0, len(idx))
	for _, i := range idx {
		if len(h) > 0 && h[len(h)-1] == sk.hashes[i] {
			continue
		}
		h, c = append(h, sk.hashes[i]), append(c, sk.chars[i])
	}
	sk.hashes, sk.chars = h, c
}

func (m *sentences) add(v any) {
	s, _ := v.(*sentenceSketch)
	if s == nil {
		s = &sentenceSketch{}
	}
	for _, h := range s.hashes {
		m.df.Inc(h)
	}
	m.docs = append(m.docs, s)
}

func (m *sentences) doc(id int32) ([]uint64, []int32) {
	return m.docs[id].hashes, m.docs[id].chars
}

func (m *sentences) boilerplate(h uint64) bool { return m.df.Count(h) > m.opts.MaxSentenceDocs }

func (m *sentences) match(id int32, emit func(int32, float64, any)) {
	if m.top == nil {
		m.top = m.topHashes()
	}
	hs, _ := m.doc(id)
	m.cands = m.cands[:0]
	for _, h := range hs {
		if m.boilerplate(h) {
			if d, ok := m.top[h]; ok && d < 0 {
				m.top[h] = id
			}
			continue
		}
		m.index.VisitAdd(h, m.opts.BucketLimit, id, func(d int32) { m.cands = append(m.cands, d) })
	}
	slices.Sort(m.cands)
	for _, c := range slices.Compact(m.cands) {
		score, shared := m.score(c, id)
		ev := &SentenceEvidence{Shared: len(shared), hashes: shared}
		if _, ok := m.opts.label(score); ok {
			m.pending[c] = append(m.pending[c], ev)
		}
		emit(c, score, ev)
	}
}

// score returns the (optionally weighted) Jaccard index of two documents'
// non-boilerplate sentence sets and the first shared hashes.
func (m *sentences) score(a, b int32) (float64, []uint64) {
	ha, ca := m.doc(a)
	hb, cb := m.doc(b)
	var inter, union float64
	var shared []uint64
	i, j := 0, 0
	for i < len(ha) || j < len(hb) {
		switch {
		case j == len(hb) || (i < len(ha) && ha[i] < hb[j]):
			union += m.weight(ha[i], ca[i])
			i++
		case i == len(ha) || hb[j] < ha[i]:
			union += m.weight(hb[j], cb[j])
			j++
		default:
			w := m.weight(ha[i], ca[i])
			inter, union = inter+w, union+w
			if w > 0 && len(shared) < maxQuoted {
				shared = append(shared, ha[i])
			}
			i++
			j++
		}
	}
	if union == 0 {
		return 0, nil
	}
	return inter / union, shared
}

// weight is a sentence's weight: 0 for boilerplate; 1, or with Weighted its
// length times log(1 + N/df).
func (m *sentences) weight(h uint64, chars int32) float64 {
	df := m.df.Count(h)
	if df > m.opts.MaxSentenceDocs {
		return 0
	}
	if !m.opts.Weighted {
		return 1
	}
	n := float64(len(m.docs))
	return float64(chars) * math.Log(1+n/float64(max(df, 1)))
}

func (m *sentences) similarity(a, b int32) float64 {
	s, _ := m.score(a, b)
	return s
}

// topHashes returns the most frequent boilerplate hashes.
func (m *sentences) topHashes() map[uint64]int32 {
	type hc struct {
		h uint64
		n int
	}
	var all []hc
	m.df.EachKey(func(h uint64, n int) {
		if n > m.opts.MaxSentenceDocs {
			all = append(all, hc{h, n})
		}
	})
	slices.SortFunc(all, func(a, b hc) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.h, b.h)) })
	top := map[uint64]int32{}
	for _, x := range all[:min(len(all), topBoilerplate)] {
		top[x.h] = -1
	}
	return top
}

func (m *sentences) needsText(id int32) bool {
	if len(m.pending[id]) > 0 {
		return true
	}
	for _, d := range m.top {
		if d == id {
			return true
		}
	}
	return false
}

func (m *sentences) explain(id int32, doc *core.Document) {
	var an analysis.Analyzer
	type quote struct {
		text  string
		start int32
	}
	found := map[uint64]quote{}
	for _, s := range an.Sentences(doc.Text) {
		if _, ok := found[s.Hash]; !ok {
			found[s.Hash] = quote{doc.Text[s.Start:s.End], s.Start}
		}
	}
	for _, ev := range m.pending[id] {
		hs := slices.Clone(ev.hashes)
		slices.SortFunc(hs, func(a, b uint64) int { return cmp.Compare(found[a].start, found[b].start) })
		ev.Sentences = ev.Sentences[:0]
		for _, h := range hs {
			ev.Sentences = append(ev.Sentences, found[h].text)
		}
	}
	for h, d := range m.top {
		if d == id {
			m.topText[h] = found[h].text
		}
	}
}

func (m *sentences) report(st *Stats) {
	b := &BoilerplateStats{Top: []FrequentSentence{}}
	m.df.EachKey(func(h uint64, n int) {
		if n > m.opts.MaxSentenceDocs {
			b.Sentences++
			b.Occurrences += n
		}
	})
	for h := range m.topHashes() {
		b.Top = append(b.Top, FrequentSentence{Text: m.topText[h], Docs: m.df.Count(h)})
	}
	slices.SortFunc(b.Top, func(x, y FrequentSentence) int {
		return cmp.Or(cmp.Compare(y.Docs, x.Docs), cmp.Compare(x.Text, y.Text))
	})
	st.Boilerplate = b
}
