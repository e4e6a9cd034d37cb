package sentences

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
)

// Sketch is one document as the method compares it: its sentences' hashes
// in increasing order, each with its length in characters.
type Sketch struct {
	Hashes []uint64
	Chars  []int32
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the hashes, then each sentence's length. Everything
//     is in the index part; there is no detail part.
const Format = 1

// AppendIndex appends the whole sketch.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUint64s(append(dst, Format), s.Hashes)
	for _, c := range s.Chars {
		dst = codec.AppendUvarint(dst, uint64(c))
	}
	return dst
}

// AppendDetail appends nothing: verification reads the method's own state.
func (m *method) AppendDetail(dst []byte, _ *Sketch) []byte { return dst }

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if v := r.Byte(); r.Err() == nil && v != Format {
		return nil, fmt.Errorf("sentences: sketch format %d, this binary reads %d: %w: %w", v, Format, codec.ErrFormat, codec.ErrCorrupt)
	}
	s := &Sketch{Hashes: r.Uint64s()}
	s.Chars = make([]int32, len(s.Hashes))
	for i := range s.Chars {
		c := r.Uvarint()
		if c > 1<<31-1 {
			return nil, fmt.Errorf("sentences: sentence length %d: %w", c, codec.ErrCorrupt)
		}
		s.Chars[i] = int32(c)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("sentences: %w", err)
	}
	for i := 1; i < len(s.Hashes); i++ {
		if s.Hashes[i] <= s.Hashes[i-1] {
			return nil, fmt.Errorf("sentences: hashes out of order: %w", codec.ErrCorrupt)
		}
	}
	return s, nil
}

// DecodeDetail is never needed: the method has no detail part.
func (m *method) DecodeDetail([]byte) (*Sketch, error) {
	return nil, fmt.Errorf("sentences: sketches have no detail part")
}

// DecodeSketch reads the index part, the whole sketch.
func (m *method) DecodeSketch(index, _ []byte) (*Sketch, error) { return m.DecodeIndex(index) }

type sketcher struct {
	m  *method
	an analysis.Analyzer
}

func (m *method) NewSketcher() engine.DocSketcher[Sketch] { return &sketcher{m: m} }

func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	var sk Sketch
	for _, sn := range s.an.Sentences(doc.Text) {
		if sn.Hash != 0 && int(sn.Chars) >= s.m.o.MinChars {
			sk.Hashes = append(sk.Hashes, sn.Hash)
			sk.Chars = append(sk.Chars, sn.Chars)
		}
	}
	if len(sk.Hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	sortUnique(&sk)
	return &sk, core.SkipNone
}

// sortUnique sorts a sketch by hash and drops repeats, keeping the longest.
func sortUnique(sk *Sketch) {
	idx := make([]int, len(sk.Hashes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(sk.Hashes[a], sk.Hashes[b]), cmp.Compare(sk.Chars[b], sk.Chars[a]))
	})
	h, c := make([]uint64, 0, len(idx)), make([]int32, 0, len(idx))
	for _, i := range idx {
		if len(h) > 0 && h[len(h)-1] == sk.Hashes[i] {
			continue
		}
		h, c = append(h, sk.Hashes[i]), append(c, sk.Chars[i])
	}
	sk.Hashes, sk.Chars = h, c
}
