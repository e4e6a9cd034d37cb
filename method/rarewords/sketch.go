package rarewords

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
)

// Sketch is one document as the method compares it: its source and the
// hashes of its distinct words, in increasing order. Which of them are rare
// depends on the source's statistics, which the method keeps.
type Sketch struct {
	Source string
	Words  []uint64
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the source's length and bytes, then the word
//     hashes. Everything is in the index part; there is no detail part.
//   - 2: the same layout; the words are chosen by Options.Tokens, the
//     pieces between white space by default, where version 1 held
//     Unicode words.
//   - 3: the same layout; a piece between white space holding letters of
//     a script written without spaces gives pairs of its letters
//     (analysis.AppendUnspaced), where version 2 kept it whole, and so do
//     such letters as words (analysis.AppendTokenPairs), which version 2
//     kept one by one; and words are set apart by a narrow no-break space
//     and not by a zero-width space, where version 2 read "180\u202f000"
//     as one word and "wi\u200bdth" as two. An index of version 2 still
//     opens, and goes on making them (Spec's Older).
//   - 4: the same layout; the Turkish "ı" and "İ" are folded to "i" in
//     both kinds of terms (analysis.AppendLower, analysis.Normalize), so
//     that "KAPALI" and "kapalı" are one term, where 3 kept them apart.
//     An index of version 3 still opens, and goes on making them (Spec's
//     Older).
const Format = 4

// AppendIndex appends the whole sketch.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUvarint(append(dst, m.o.sketchFormat()), uint64(len(s.Source)))
	return codec.AppendUint64s(append(dst, s.Source...), s.Words)
}

// AppendDetail appends nothing: verification reads the method's own state.
func (m *method) AppendDetail(dst []byte, _ *Sketch) []byte { return dst }

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if v := r.Byte(); r.Err() == nil && v != m.o.sketchFormat() {
		return nil, fmt.Errorf("rarewords: sketch format %d, these options make %d: %w: %w", v, m.o.sketchFormat(), codec.ErrFormat, codec.ErrCorrupt)
	}
	src := make([]byte, r.Count(8))
	for i := range src {
		src[i] = r.Byte()
	}
	s := &Sketch{Source: string(src), Words: r.Uint64s()}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("rarewords: %w", err)
	}
	for i := 1; i < len(s.Words); i++ {
		if s.Words[i] <= s.Words[i-1] {
			return nil, fmt.Errorf("rarewords: word hashes out of order: %w", codec.ErrCorrupt)
		}
	}
	return s, nil
}

// DecodeDetail is never needed: the method has no detail part.
func (m *method) DecodeDetail([]byte) (*Sketch, error) {
	return nil, fmt.Errorf("rarewords: sketches have no detail part")
}

// DecodeSketch reads the index part, the whole sketch.
func (m *method) DecodeSketch(index, _ []byte) (*Sketch, error) { return m.DecodeIndex(index) }

// SourceOf returns the source a document is counted in: its Source, else
// its URL's host without "www.", else "".
func SourceOf(doc *core.Document) string {
	if s := strings.TrimSpace(doc.Source); s != "" {
		return s
	}
	if u, err := url.Parse(doc.URL); err == nil {
		return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	return ""
}

type sketcher struct {
	m      *method
	an     analysis.Analyzer
	lower  []byte
	hashes []uint64
}

// NewSketcher returns a sketcher for one goroutine.
func (m *method) NewSketcher() engine.DocSketcher[Sketch] {
	s := &sketcher{m: m}
	// Format 2 read "180\u202f000" as one word, "wi\u200bdth" as two;
	// formats 2 and 3 "KAPALI" and "kapalı" as two.
	s.an.NarrowSpaceJoins, s.an.ZeroWidthSpaceSplits = m.o.format == 2, m.o.format == 2
	s.an.DottedIApart = m.o.format == 2 || m.o.format == 3
	return s
}

// Sketch keeps the document's distinct words (Options.Tokens); a document
// without words, or of fewer than Options.MinWords, is skipped.
func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	s.hashes = s.hashes[:0]
	if s.m.o.Tokens == TokensWords {
		words := s.an.Words(doc.Text)
		if s.m.o.format == 2 {
			for _, t := range words {
				s.hashes = append(s.hashes, t.Hash)
			}
		} else {
			s.hashes = analysis.AppendTokenPairs(s.hashes, doc.Text, words)
		}
	} else {
		if s.m.o.format == 2 || s.m.o.format == 3 {
			s.lower = analysis.AppendLowerDottedIApart(s.lower[:0], doc.Text)
		} else {
			s.lower = analysis.AppendLower(s.lower[:0], doc.Text)
		}
		s.hashes = appendPieces(s.hashes, s.lower, s.m.o.format == 2)
	}
	if len(s.hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	if len(s.hashes) < s.m.o.MinWords {
		return nil, core.SkipTooShort
	}
	slices.Sort(s.hashes)
	return &Sketch{Source: SourceOf(doc), Words: slices.Clone(slices.Compact(s.hashes))}, core.SkipNone
}

// appendPieces appends to dst the hash (analysis.HashWord) of each piece of
// text between white space, in order, repeats included: white space is
// what Python's str.split splits at, Unicode's White_Space and the ASCII
// separators 0x1C to 0x1F. A piece holding letters of a script written
// without spaces (Chinese, Japanese, Thai, …), a whole clause or paragraph
// to str.split, gives the terms of analysis.AppendUnspaced instead: its
// letters' overlapping pairs, and its other runs of letters and digits, so
// that such a text has words to compare and enough of them to be counted
// long; whole keeps every piece whole, as sketch format 2.
func appendPieces(dst []uint64, text []byte, whole bool) []uint64 {
	// A text without letters of a script written without spaces (most)
	// is read once for them, not again in each of its pieces.
	unspaced := !whole && analysis.HasUnspaced(text)
	start := -1
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(text[i:])
		}
		if unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f {
			if start >= 0 {
				if p := text[start:i]; unspaced && analysis.HasUnspaced(p) {
					dst = analysis.AppendUnspaced(dst, p, 1)
				} else {
					dst = append(dst, analysis.HashWord(p))
				}
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		if p := text[start:]; unspaced && analysis.HasUnspaced(p) {
			dst = analysis.AppendUnspaced(dst, p, 1)
		} else {
			dst = append(dst, analysis.HashWord(p))
		}
	}
	return dst
}
