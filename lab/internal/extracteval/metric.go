package extracteval

import (
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// ShingleSize is the number of tokens in one shingle.
const ShingleSize = 4

// Shingles is a multiset of shingle hashes: hash → count.
type Shingles map[uint64]int

// isWord reports whether r belongs to a \w token: a letter, a number or '_'.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Tokens returns the lower-cased \w+ tokens of text.
func Tokens(text string) []string {
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
			toks = append(toks, lower(text[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, lower(text[start:]))
	}
	return toks
}

// lower lower-cases s, returning s itself when it is already lower case.
func lower(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.ToLower(r) != r {
			return toLower(s)
		}
		i += n
	}
	return s
}

func toLower(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
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

// PR is one page's precision and recall.
type PR struct {
	Precision, Recall float64
}

// Score compares predicted text with gold text. When both are empty (or
// agree exactly) the page scores 1 and 1; an empty prediction of a
// non-empty gold scores precision 0 and recall 0, so skipping a page never
// raises the means.
func Score(gold, pred string) PR {
	return ScoreShingles(ShinglesOf(gold), ShinglesOf(pred))
}

// ScoreShingles is Score on precomputed multisets.
func ScoreShingles(gold, pred Shingles) PR {
	tp, fp, fn := Overlap(gold, pred)
	if fp == 0 && fn == 0 {
		return PR{1, 1}
	}
	var pr PR
	if tp+fp > 0 {
		pr.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		pr.Recall = float64(tp) / float64(tp+fn)
	}
	return pr
}

// Mean accumulates per-page scores. The zero value is empty and ready.
type Mean struct {
	Pages                   int
	sumPrecision, sumRecall float64
}

// Add counts one page.
func (m *Mean) Add(pr PR) {
	m.Pages++
	m.sumPrecision += pr.Precision
	m.sumRecall += pr.Recall
}

// Precision is the mean precision over pages, 0 when there are none.
func (m *Mean) Precision() float64 {
	if m.Pages == 0 {
		return 0
	}
	return m.sumPrecision / float64(m.Pages)
}

// Recall is the mean recall over pages, 0 when there are none.
func (m *Mean) Recall() float64 {
	if m.Pages == 0 {
		return 0
	}
	return m.sumRecall / float64(m.Pages)
}

// F1 is the harmonic mean of the mean precision and the mean recall.
func (m *Mean) F1() float64 {
	p, r := m.Precision(), m.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}
