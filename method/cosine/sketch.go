package cosine

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/vector"
)

// Sketch is one document as the method compares it: the counts of its
// terms, the content words of its title and body and their bigrams.
type Sketch struct {
	Terms vector.Counts
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the term hashes and counts (see
//     vector.AppendCounts). Everything is in the index part; there is no
//     detail part.
const Format = 1

// AppendIndex appends the whole sketch.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return vector.AppendCounts(append(dst, Format), &s.Terms)
}

// AppendDetail appends nothing: verification reads the method's own state.
func (m *method) AppendDetail(dst []byte, _ *Sketch) []byte { return dst }

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if v := r.Byte(); r.Err() == nil && v != Format {
		return nil, fmt.Errorf("cosine: sketch format %d, this binary reads %d: %w: %w", v, Format, codec.ErrFormat, codec.ErrCorrupt)
	}
	c, err := vector.ReadCounts(r)
	if err != nil {
		return nil, fmt.Errorf("cosine: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("cosine: %w", err)
	}
	return &Sketch{Terms: c}, nil
}

// DecodeDetail is never needed: the method has no detail part.
func (m *method) DecodeDetail([]byte) (*Sketch, error) {
	return nil, fmt.Errorf("cosine: sketches have no detail part")
}

// DecodeSketch reads the index part, the whole sketch.
func (m *method) DecodeSketch(index, _ []byte) (*Sketch, error) { return m.DecodeIndex(index) }

type sketcher struct {
	terms  vector.Terms
	hashes []uint64
}

// NewSketcher returns a sketcher for one goroutine; it stems.
func (m *method) NewSketcher() engine.DocSketcher[Sketch] {
	return &sketcher{terms: vector.Terms{Stem: true}}
}

// Sketch counts the content words (not stop words), stemmed where the
// language has a stemmer, and the bigrams of consecutive content words, of
// the title and the body; a bigram never spans the two. A document with no
// content word is skipped.
func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	s.hashes = s.hashes[:0]
	s.terms.Analyze(doc)
	for _, words := range [2][]analysis.Token{s.terms.Title, s.terms.Body} {
		for _, t := range words {
			s.hashes = append(s.hashes, t.Hash)
		}
		if len(words) > 1 {
			s.hashes = analysis.Shingles(words, 2, s.hashes)
		}
	}
	if len(s.hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	return &Sketch{Terms: vector.Count(s.hashes)}, core.SkipNone
}
