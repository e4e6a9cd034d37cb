package minhash

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/sketch"
	"github.com/neardup/neardup/internal/templates"
)

// Sketch is one document as the method compares it.
type Sketch struct {
	// Set is the document's sorted 32-bit shingle fingerprints: all of
	// them up to Cut (see sketch.Bottomer). 32 bits make a false shared
	// shingle between two 1,000-shingle documents a one-in-4,000 event, far
	// below what moves a score, at half the memory of 64.
	Set []uint32
	Cut uint32
	// Keys are the LSH band keys of the document's MinHash signature, 32
	// bits each: two documents that share a band share its key; a key two
	// unrelated documents share by chance makes one more candidate, which
	// verification refuses (at a million documents, one in a thousand
	// documents gains one).
	Keys []uint32
	// Context is what the template rules read (see package templates):
	// the figures, dates, title and names.
	templates.Context
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version. Index part: 32-bit band keys. Detail part: cut,
//     the fingerprint set and the figures, Rice-coded.
//   - 2: the figures leave the dateline out; the detail part adds the date
//     (zig-zag varint), the dateline's date, the title hash and the rerun
//     mark (varints), the title's figures (Rice-coded), the names' masks
//     and shingles (fixed width).
//   - 3: the detail part adds the figures with their places (fixed width).
//   - 4: the detail part adds the words that fill the template's slots
//     (fixed width).
//
// After the cut and the set, the detail part is templates.AppendContext's
// encoding: a change there is a new format here.
const Format = 4

// AppendIndex appends the index part of s: its band keys.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return codec.AppendUint32s(append(dst, Format), s.Keys)
}

// AppendDetail appends the detail part of s: what verification reads.
func (m *method) AppendDetail(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUvarint(append(dst, Format), uint64(s.Cut))
	return templates.AppendContext(codec.AppendSorted32(dst, s.Set), &s.Context)
}

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if err := checkFormat(r); err != nil {
		return nil, err
	}
	s := &Sketch{Keys: r.Uint32s()}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("minhash: index part: %w", err)
	}
	return s, nil
}

// DecodeDetail reads what AppendDetail wrote.
func (m *method) DecodeDetail(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if err := checkFormat(r); err != nil {
		return nil, err
	}
	cut := r.Uvarint()
	s := &Sketch{Set: r.Sorted32(), Cut: uint32(cut)}
	if err := templates.ReadContext(r, &s.Context); err != nil {
		return nil, fmt.Errorf("minhash: detail part: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("minhash: detail part: %w", err)
	}
	if cut > 1<<32-1 || len(s.Set) > 0 && s.Set[len(s.Set)-1] > s.Cut {
		return nil, fmt.Errorf("minhash: detail part: %w: cut %d below the set", codec.ErrCorrupt, cut)
	}
	return s, nil
}

// DecodeSketch reads both parts into a whole sketch.
func (m *method) DecodeSketch(index, detail []byte) (*Sketch, error) {
	s, err := m.DecodeDetail(detail)
	if err != nil {
		return nil, err
	}
	k, err := m.DecodeIndex(index)
	if err != nil {
		return nil, err
	}
	s.Keys = k.Keys
	return s, nil
}

func checkFormat(r *codec.Reader) error {
	if v := r.Byte(); r.Err() != nil || v != Format {
		return fmt.Errorf("minhash: sketch format %d, this binary reads %d: %w", v, Format, codec.ErrCorrupt)
	}
	return nil
}

// sampleShare is the least share of its fingerprints a long document keeps
// (see Options.SampleSize): a short document inside a long one is then
// still compared on a quarter of its shingles.
const sampleShare = 4

type sketcher struct {
	m      *method
	an     analysis.Analyzer
	shings []uint64
	set    []uint32
	sig    []uint32
	keys   []uint64
	bottom sketch.Bottomer
	tpl    templates.Scanner
}

func (m *method) NewSketcher() engineSketcher {
	s := &sketcher{m: m}
	if m.o.ShingleUnit == Chars {
		s.tpl.Shingle = m.o.CharShingle // names are looked up among character shingles
	}
	s.tpl.Fills = m.o.Slots
	return s
}

func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	o := &s.m.o
	words := s.an.Words(doc.Text)
	if len(words) == 0 {
		return nil, core.SkipNoUnits
	}
	if o.ShingleUnit == Chars {
		s.shings = s.an.CharShingles(doc.Text, words, o.CharShingle, analysis.Room(s.shings, len(doc.Text)))
	} else {
		s.shings = analysis.Shingles(words, o.WordShingle, analysis.Room(s.shings, len(words)))
	}
	s.sig = s.m.mh.Signature(s.shings, s.sig)
	k := len(s.shings)
	if o.SampleSize > 0 {
		k = min(k, max(o.SampleSize, len(s.shings)/sampleShare))
	}
	var cut uint32 // the fingerprints are the shingles' low 32 bits
	s.set, cut = s.bottom.BottomLow(s.shings, k, analysis.Room(s.set, len(s.shings)))
	s.keys = s.m.bands.BandKeys(s.sig, s.keys[:0])
	keys := make([]uint32, len(s.keys))
	for i, k := range s.keys {
		keys[i] = uint32(k >> 32)
	}
	sk := &Sketch{Cut: cut, Keys: keys}
	s.tpl.Scan(doc, words, &sk.Context)
	sk.pack(s.set) // copies the figures the scanner holds
	return sk, core.SkipNone
}

// pack gives sk the fingerprint set and copies it, its figures and its
// title's figures into one array of their size: a Batch keeps every sketch
// until it ends, and one allocation a sketch instead of three takes less
// memory (the slack of appending and of rounding to a size class) and
// fewer objects for the collector to mark.
func (sk *Sketch) pack(set []uint32) {
	a, b := len(set), len(set)+len(sk.Nums)
	all := make([]uint32, b+len(sk.TitleNums))
	copy(all, set)
	copy(all[a:], sk.Nums)
	copy(all[b:], sk.TitleNums)
	sk.Set = all[:a:a]
	if len(sk.Nums) > 0 {
		sk.Nums = all[a:b:b]
	}
	if len(sk.TitleNums) > 0 {
		sk.TitleNums = all[b:len(all):len(all)]
	}
}
