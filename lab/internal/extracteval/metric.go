package extracteval

import (
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/text/unicode/norm"
)

// ShingleSize is the number of tokens in one shingle.
const ShingleSize = 4

// Shingles is a multiset of shingle hashes: hash → count.
type Shingles map[uint64]int

// isWord reports whether r belongs to a \w token: a letter, a number or '_'.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Tokens returns the \w+ tokens of text, case kept: the Article
// Extraction Benchmark's tokens (a regexp \w+ whose IGNORECASE flag only
// affects matching, so "The" and "the" are different tokens). The text is
// put in Unicode normalization form C first: a letter written as a letter
// and a combining mark ("u" and U+0308) is the same word as the one code
// point ("ü"), where \w would end the word at the mark (some golds are
// decomposed, and most pages are not). Soft hyphens (U+00AD, "Brenn&shy;punkt")
// are dropped: an invisible hint where a word may break, which some golds
// keep and an extractor may remove, leaves the word the same.
func Tokens(text string) []string {
	text = norm.NFC.String(strings.ReplaceAll(text, "\u00ad", ""))
	var toks []string
	start := -1
	for i, r := range text {
		if isWord(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			toks = append(toks, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, text[start:])
	}
	return toks
}

// ShinglesOf returns the multiset of ShingleSize-token shingles of text.
// A text with fewer tokens than ShingleSize but at least one gives a single
// shingle of all its tokens, so short texts still count; an empty text
// gives an empty multiset.
func ShinglesOf(text string) Shingles {
	toks := Tokens(text)
	s := make(Shingles, len(toks))
	if len(toks) == 0 {
		return s
	}
	n := ShingleSize
	if len(toks) < n {
		n = len(toks)
	}
	var d xxhash.Digest
	for i := 0; i+n <= len(toks); i++ {
		d.Reset()
		for _, t := range toks[i : i+n] {
			d.WriteString(t)
			d.Write([]byte{0})
		}
		s[d.Sum64()]++
	}
	return s
}

// Overlap counts the shingles two multisets share: tp is the size of their
// multiset intersection, fp the shingles of pred beyond it, fn those of gold
// beyond it.
func Overlap(gold, pred Shingles) (tp, fp, fn int) {
	for h, pc := range pred {
		gc := gold[h]
		m := min(pc, gc)
		tp += m
		fp += pc - m
	}
	for _, gc := range gold {
		fn += gc
	}
	fn -= tp
	return tp, fp, fn
}

// PR is one page's precision and recall. A prediction without a shingle
// has no precision and a gold text without a shingle no recall: the
// benchmark leaves such a page out of that mean rather than scoring it 0
// or 1 (an empty prediction still costs recall, a page whose gold is empty
// still costs precision when anything is predicted).
type PR struct {
	Precision, Recall float64
	// NoPrecision is set when the prediction is empty.
	NoPrecision bool
	// NoRecall is set when the gold text is empty.
	NoRecall bool
}

// Score compares predicted text with gold text by the Article Extraction
// Benchmark's metric: precision and recall of the multiset of 4-token
// shingles.
func Score(gold, pred string) PR {
	return ScoreShingles(ShinglesOf(gold), ShinglesOf(pred))
}

// ScoreShingles is Score on precomputed multisets.
func ScoreShingles(gold, pred Shingles) PR {
	tp, fp, fn := Overlap(gold, pred)
	pr := PR{NoPrecision: tp+fp == 0, NoRecall: tp+fn == 0}
	switch {
	case fp == 0 && fn == 0 && tp > 0:
		pr.Precision, pr.Recall = 1, 1
	default:
		if tp+fp > 0 {
			pr.Precision = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			pr.Recall = float64(tp) / float64(tp+fn)
		}
	}
	return pr
}

// Mean accumulates per-page scores as the benchmark does: precision is
// averaged over the pages that have one, recall likewise. The zero value
// is empty and ready.
type Mean struct {
	// Pages counts every page added.
	Pages                   int
	nPrecision, nRecall     int
	sumPrecision, sumRecall float64
}

// Add counts one page.
func (m *Mean) Add(pr PR) {
	m.Pages++
	if !pr.NoPrecision {
		m.nPrecision++
		m.sumPrecision += pr.Precision
	}
	if !pr.NoRecall {
		m.nRecall++
		m.sumRecall += pr.Recall
	}
}

// Precision is the mean precision over pages with a prediction, 0 when
// there are none.
func (m *Mean) Precision() float64 {
	if m.nPrecision == 0 {
		return 0
	}
	return m.sumPrecision / float64(m.nPrecision)
}

// Recall is the mean recall over pages with gold text, 0 when there are
// none.
func (m *Mean) Recall() float64 {
	if m.nRecall == 0 {
		return 0
	}
	return m.sumRecall / float64(m.nRecall)
}

// F1 is the harmonic mean of the mean precision and the mean recall.
func (m *Mean) F1() float64 {
	p, r := m.Precision(), m.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Found measures how much of a passage a text holds, by the metric's
// shingles: the labels of training blocks and the vote between engines.
type Found struct {
	shingles Shingles
	seq      string // the text's tokens, each between two NULs
}

// FoundIn prepares text for Share.
func FoundIn(text string) Found {
	return Found{shingles: ShinglesOf(text), seq: "\x00" + strings.Join(Tokens(text), "\x00") + "\x00"}
}

// Share returns the share of a passage's shingles the text holds; a
// passage of fewer than ShingleSize tokens is 1 when its tokens occur in
// the text in a row, else 0; a passage without tokens is 0.
func (f Found) Share(passage string) float64 {
	toks := Tokens(passage)
	switch {
	case len(toks) == 0:
		return 0
	case len(toks) < ShingleSize:
		if strings.Contains(f.seq, "\x00"+strings.Join(toks, "\x00")+"\x00") {
			return 1
		}
		return 0
	}
	found, all := 0, 0
	for h, c := range ShinglesOf(passage) {
		all += c
		if f.shingles[h] > 0 {
			found += c
		}
	}
	return float64(found) / float64(all)
}
