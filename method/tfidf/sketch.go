package tfidf

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/vector"
)

// Sketch is one document as the method compares it: the counts of the
// terms of its title and of its body (Options.Terms).
type Sketch struct {
	Title, Body vector.Counts
}

// field returns the counts of score field i (title or body).
func (s *Sketch) field(i int) *vector.Counts {
	if i == title {
		return &s.Title
	}
	return &s.Body
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the title's word hashes and counts, then the
//     body's (see vector.AppendCounts). Everything is in the index part;
//     there is no detail part.
//   - 2: the same layout; the terms are chosen by Options.Terms, R tm's
//     by default, where version 1 held words less stop words.
//   - 3: the same layout; text in a script written without spaces gives
//     pairs of its letters: tm's terms (analysis.AppendUnspaced), where
//     version 2 kept the pieces between white space whole, and words'
//     (analysis.AppendTokenPairs), where it kept each letter; and words
//     are set apart by a narrow no-break space and not by a zero-width
//     space, where version 2 read "180\u202f000" as one word and
//     "wi\u200bdth" as two. An index of version 2 still opens, and goes on
//     making them (Spec's Older).
//   - 4: the same layout; the Turkish "ı" and "İ" are folded to "i" in
//     both kinds of terms (analysis.AppendLower, analysis.Normalize), so
//     that "KAPALI" and "kapalı" are one term, where 3 kept them apart;
//     and a letter written decomposed ("o" and U+0308) tells the language
//     as the precomposed "ö" does (analysis.DetectLangTokens), where 3
//     read it as no evidence (DetectLangTokensPrecomposed).
//     An index of version 3 still opens, and goes on making them (Spec's
//     Older).
const Format = 4

// AppendIndex appends the whole sketch.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return vector.AppendCounts(vector.AppendCounts(append(dst, m.o.sketchFormat()), &s.Title), &s.Body)
}

// AppendDetail appends nothing: verification reads the method's own state.
func (m *method) AppendDetail(dst []byte, _ *Sketch) []byte { return dst }

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if v := r.Byte(); r.Err() == nil && v != m.o.sketchFormat() {
		return nil, fmt.Errorf("tfidf: sketch format %d, these options make %d: %w: %w", v, m.o.sketchFormat(), codec.ErrFormat, codec.ErrCorrupt)
	}
	var s Sketch
	for i := range fields {
		c, err := vector.ReadCounts(r)
		if err != nil {
			return nil, fmt.Errorf("tfidf: %w", err)
		}
		*s.field(i) = c
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("tfidf: %w", err)
	}
	return &s, nil
}

// DecodeDetail is never needed: the method has no detail part.
func (m *method) DecodeDetail([]byte) (*Sketch, error) {
	return nil, fmt.Errorf("tfidf: sketches have no detail part")
}

// DecodeSketch reads the index part, the whole sketch.
func (m *method) DecodeSketch(index, _ []byte) (*Sketch, error) { return m.DecodeIndex(index) }

type sketcher struct {
	tm     bool // Options.Terms is TermsTM
	terms  vector.Terms
	tmt    tmTerms
	hashes []uint64
}

// NewSketcher returns a sketcher for one goroutine.
func (m *method) NewSketcher() engine.DocSketcher[Sketch] {
	// "180\u202f000" one word and "wi\u200bdth" two, as format 2 read them;
	// "KAPALI" and "kapalı" two and a decomposed "ö" no evidence of a
	// language, as formats 2 and 3 read them
	old, before4 := m.o.format == 2, m.o.format != 0 && m.o.format < 4
	return &sketcher{tm: m.o.Terms == TermsTM, tmt: tmTerms{whole: old, dottedIApart: before4},
		terms: vector.Terms{NarrowSpaceJoins: old, ZeroWidthSpaceSplits: old, DottedIApart: before4, PrecomposedLetters: before4}}
}

// Sketch counts the terms (Options.Terms) of the title and the body; a
// document with none is skipped.
func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	var sk Sketch
	if s.tm {
		for i, text := range [2]string{doc.Title, doc.Text} {
			s.hashes = s.tmt.appendHashes(s.hashes[:0], text)
			*sk.field(i) = vector.Count(s.hashes)
		}
	} else {
		s.terms.Analyze(doc)
		texts := [2]string{doc.Title, doc.Text}
		for i, words := range [2][]analysis.Token{s.terms.Title, s.terms.Body} {
			s.hashes = s.hashes[:0]
			if s.tmt.whole {
				for _, t := range words {
					s.hashes = append(s.hashes, t.Hash)
				}
			} else {
				s.hashes = analysis.AppendTokenPairs(s.hashes, texts[i], words)
			}
			*sk.field(i) = vector.Count(s.hashes)
		}
	}
	if len(sk.Title.Hashes)+len(sk.Body.Hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	return &sk, core.SkipNone
}
