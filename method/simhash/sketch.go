package simhash

import (
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/sketch"
	"github.com/neardup/neardup/internal/templates"
)

// Sketch is one document as the method compares it.
type Sketch struct {
	// FP is the document's 64-bit SimHash fingerprint: all the index
	// keeps of it.
	FP uint64
	// Set is the document's sorted 32-bit shingle fingerprints, all of them
	// up to Cut (see sketch.Bottomer): what verification compares.
	Set []uint32
	Cut uint32
	// Context is what the template rules read (see package templates):
	// the figures, dates, title and names.
	templates.Context
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version. Index part: the fingerprint, 8 bytes. Detail part:
//     cut, the shingle sample and the figures, Rice-coded.
//   - 2: the detail part adds the figures with their places (fixed width).
//   - 3: after the cut and the sample, the detail part is
//     templates.AppendContext's encoding (the figures leave the dateline
//     out; dates, title, names): a change there is a new format here.
//   - 4: the context adds the words that fill the template's slots.
//   - 5: the context adds the filter of the character shingles of the
//     words (templates.Context.WordFilter, fixed width), where a name past
//     the other sample's cut is looked up. A sketch of 4 still reads,
//     without it, and an index of 4 opens and goes on making sketches of
//     4 (Spec's Older): their names past the cut are taken as held, as 4
//     took them.
//   - 6: the encoding is 5's; the context keeps the title names shorter
//     than a shingle, and the filter of the words the keys of the short
//     words with a capital where they are looked up
//     (templates.Scanner.ShortNames). A sketch of 5 still reads, and an
//     index of 5 opens and goes on making sketches of 5 (Spec's Older),
//     without short names: its filters lack the keys such a name is
//     looked up by. Sketches of word shingles read the title (its rerun
//     mark, figures and fills) from this format on (Scanner.TitleWords).
//   - 7: the encoding is 6's; the context reads figures and their places
//     in every script (templates.Scanner.Unicode): digits of other scripts
//     ("١٢٠") are figures, and words of letters beyond ASCII the words
//     around a figure ("с 3 по 10 мая", a pair of letters of a script
//     written without spaces), where 6 read a line of Russian or Chinese
//     as one place its figures filled twice, left out. A sketch of 6 still
//     reads, and an index of 6 opens and goes on making sketches of 6
//     (Spec's Older), whose places are those it holds.
//   - 8: the encoding is 7's; the context reads the figures of a table
//     of stations as it writes them (templates.Scanner.Measures): "nil"
//     is the figure 0, and a unit after a figure ("33.0 MILLIMETRES",
//     "5.0 MM") no word of its place, so that a station with rain fills
//     the place of the same station without ("GUAXUPE NIL"), where 7 read
//     no figure at a station of NIL and put a station with rain in a place
//     of its unit, which no other day's table fills; and it reads
//     figures and datelines as more languages write them
//     (templates.Scanner.Languages): the numbers two to ten written as
//     words in German, French, Spanish, Polish and Russian are figures,
//     as the English ones are ("zu drei Jahren", "к трём годам"), a
//     number whose groups of thousands a space sets apart ("180 000
//     euros") one figure, and the datelines of Spanish, Russian, German
//     and French agencies are read with their days and places ("MADRID, 5
//     de marzo -", "Madrid, 5 mar (EFE).-", "Москва. 5 марта. ИНТЕРФАКС
//     -", "BERLIN, 5. März (dpa) -", "Berlin (dpa) -", "5 mars 2024
//     (Reuters) -"), where 7 read such a number as a word of a place,
//     such a sum as two figures and such a dateline without its day, or
//     as none; and it keeps a figure's decimal separator in its value, of
//     the text and the title (figures.Scanner.Decimals): "4.5 percent" and
//     "45 percent" are other figures, "1,5" and "1.5" one, where 7 read a
//     figure's digits alone.
//     A sketch of 7 still reads, and an index of 7 opens and goes on making
//     sketches of 7 (Spec's Older), whose places and datelines are those it
//     holds.
//   - 9: the encoding is 8's and, after the filter of the words, the
//     letters of each name (templates.AppendContext); the context reads
//     a figure alone at its line's end, set in a column after a
//     word ("Silver 8000"), in the place of the last column of that word's
//     row (figures.Scanner.LastColumn), so that a table of one column and
//     the same table extended by a later hour's column hold other figures
//     in the places they share, where 8 read it in its word's place, which
//     no row of two figures fills.
//     It reads a line that opens with a figure and a word and sets its
//     other figures in columns between words, none run together once one
//     is set in a column ("5-14 days   5.75 pct   5.65 pct", a rate
//     sheet's row), as a row labelled by that figure (a date, "07/04/87",
//     labels none), each later figure in its words' place and the
//     label's (figures.Scanner.RowLabels), so that two days' sheets hold
//     other figures in the rows of one label, where 8 left out the places
//     every row fills ("days _ pct").
//     It keeps the letters of the dateline's place (templates.Name.Letters),
//     so that two towns' short names whose letter pairs share a bit by
//     chance ("BURSA", "SIVAS") are other places, where 8 took them for
//     one place misspelt.
//     It folds the Turkish "ı" and "İ" to "i" (analysis.Normalize), so
//     that "KAPALI" and "kapalı" are one word, where 8 kept them
//     apart (analysis.Analyzer.DottedIApart).
//     A sketch of 8 still reads, and an index of 8 opens and goes on making
//     sketches of 8 (Spec's Older), whose places, datelines and tables are
//     those it holds.
const Format = 9

// oldestFormat is the oldest sketch format this binary reads.
const oldestFormat = 4

// AppendIndex appends the index part of s: its fingerprint.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return codec.AppendUint64(append(dst, m.o.sketchFormat()), s.FP)
}

// AppendDetail appends the detail part of s: what verification reads.
func (m *method) AppendDetail(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUvarint(append(dst, m.o.sketchFormat()), uint64(s.Cut))
	return templates.AppendContext(codec.AppendSorted32(dst, s.Set), &s.Context, m.o.sketchFormat() >= 5, m.o.sketchFormat() >= 9)
}

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if _, err := checkFormat(r); err != nil {
		return nil, err
	}
	s := &Sketch{FP: r.Uint64()}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("simhash: index part: %w", err)
	}
	return s, nil
}

// DecodeDetail reads what AppendDetail wrote.
func (m *method) DecodeDetail(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	v, err := checkFormat(r)
	if err != nil {
		return nil, err
	}
	cut := r.Uvarint()
	s := &Sketch{Set: r.Sorted32(), Cut: uint32(cut)}
	if err := templates.ReadContext(r, &s.Context, true, v >= 5, v >= 9); err != nil {
		return nil, fmt.Errorf("simhash: detail part: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("simhash: detail part: %w", err)
	}
	if cut > 1<<32-1 || len(s.Set) > 0 && s.Set[len(s.Set)-1] > s.Cut {
		return nil, fmt.Errorf("simhash: detail part: %w: cut %d below the set", codec.ErrCorrupt, cut)
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
	s.FP = k.FP
	return s, nil
}

// checkFormat reads a part's format byte and returns it, or an error when
// this binary does not read that format.
func checkFormat(r *codec.Reader) (byte, error) {
	return r.Format(Name, oldestFormat, Format)
}

// sampleShare is the least share of its fingerprints a long document keeps
// for verification (see Options.SampleSize).
const sampleShare = 4

// longText is the length in bytes above which a text's character
// shingles, and its character features weighed by their counts, are made
// a block of blockShingles at a time (see sketchBlocks), in memory about
// its sample's rather than two hashes of 64 bits for each of its
// characters.
const (
	longText      = 1 << 18
	blockShingles = 1 << 14
)

type sketcher struct {
	m      *method
	an     analysis.Analyzer
	fp     fingerprinter
	shings []uint64 // verification's shingles
	feats  []uint64 // the fingerprint's features, when they are others
	set    []uint32
	bottom sketch.Bottomer
	stream sketch.BottomStream
	tpl    templates.Scanner
	// long and block are longText and blockShingles, but in tests.
	long, block int
}

func (m *method) NewSketcher() engineSketcher {
	s := &sketcher{m: m, fp: fingerprinter{seed: m.o.Seed, weighting: m.o.Weighting}, long: longText, block: blockShingles}
	if m.o.ShingleUnit == Chars {
		s.tpl.Shingle = m.o.CharShingle // names are looked up among character shingles
	}
	s.tpl.Fills = m.o.Slots
	s.tpl.WordFilter = m.o.wordFilter()
	s.tpl.ShortNames = m.o.shortNames()
	s.tpl.TitleWords = m.o.sketchFormat() >= 6         // an index of an older format reads no title of words
	s.tpl.Unicode = m.o.sketchFormat() >= 7            // an index of an older format reads ASCII figures and places
	s.tpl.Measures = m.o.sketchFormat() >= 8           // and no "nil", a unit the word after its figure
	s.tpl.Languages = m.o.sketchFormat() >= 8          // and number words in English alone, fewer datelines
	s.tpl.Columns = m.o.sketchFormat() >= 9            // and a figure at a line's end in its word's place, no row labels
	s.an.NarrowSpaceJoins = m.o.sketchFormat() < 8     // and "180\u202f000" as one word
	s.an.ZeroWidthSpaceSplits = m.o.sketchFormat() < 8 // and "wi\u200bdth" as two
	s.an.DottedIApart = m.o.sketchFormat() < 9         // and "KAPALI" and "kapalı" as two
	return s
}

func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	o := &s.m.o
	words := s.an.Words(doc.Text)
	if len(words) == 0 {
		return nil, core.SkipNoUnits
	}
	if o.ShingleUnit == Chars && len(doc.Text) > s.long {
		return s.sketchBlocks(doc, words), core.SkipNone
	}
	s.shings = s.shingles(doc.Text, words, o.ShingleUnit, o.shingle(), s.shings)
	feats := s.shings
	if o.Features != o.ShingleUnit || o.FeatureLength != o.shingle() {
		s.feats = s.shingles(doc.Text, words, o.Features, o.FeatureLength, s.feats)
		feats = s.feats
	}
	fp := s.fp.fingerprint(feats)
	k := s.sampleSize(len(s.shings))
	var cut uint32 // the fingerprints are the shingles' low 32 bits
	s.set, cut = s.bottom.BottomLow(s.shings, k, analysis.Room(s.set, k))
	return s.finish(doc, words, fp, cut), core.SkipNone
}

// finish returns the sketch of doc, whose words are words, of fingerprint
// fp and shingle sample s.set cut at cut.
func (s *sketcher) finish(doc *core.Document, words []analysis.Token, fp uint64, cut uint32) *Sketch {
	sk := &Sketch{FP: fp, Set: slices.Clone(s.set), Cut: cut}
	s.tpl.Scan(doc, words, &sk.Context)
	sk.Own()
	return sk
}

// sampleSize is how many fingerprints a text of n shingles keeps (see
// Options.SampleSize).
func (s *sketcher) sampleSize(n int) int {
	if o := &s.m.o; o.SampleSize > 0 {
		return min(n, max(o.SampleSize, n/sampleShare))
	}
	return n
}

// sketchBlocks is Sketch of a long text of character shingles, which are
// made a block at a time, and taken into a BottomStream's sample, so that
// no more than a block of them is held; so are its features when they are
// characters weighed by their counts (TF), the fingerprint's sum being
// one of each occurrence. Other features are made whole, as Sketch makes
// them. Its sketch is the one Sketch makes of the text whole
// (TestSketchBlocksSameAsWhole).
func (s *sketcher) sketchBlocks(doc *core.Document, words []analysis.Token) *Sketch {
	o := &s.m.o
	var fp uint64
	if o.Features == Chars && o.Weighting == TF {
		var c bitCounter
		for b := range s.an.CharShingleBlocks(doc.Text, words, o.FeatureLength, false, s.block) {
			s.fp.count(&c, b)
		}
		fp = c.majority()
	} else {
		s.feats = s.shingles(doc.Text, words, o.Features, o.FeatureLength, s.feats)
		fp = s.fp.fingerprint(s.feats)
	}
	blocks := s.an.CharShingleBlocks(doc.Text, words, o.CharShingle, false, s.block)
	var cut uint32
	s.set, cut, _ = s.stream.SampleBlocks(blocks, s.sampleSize(len(doc.Text)), s.sampleSize, s.set, nil)
	return s.finish(doc, words, fp, cut)
}

// shingles returns the hashes of the n-grams of unit (Chars or Words) of a
// text whose words are words, in buf's storage when it has the room.
func (s *sketcher) shingles(text string, words []analysis.Token, unit string, n int, buf []uint64) []uint64 {
	if unit == Chars {
		return s.an.CharShingles(text, words, n, analysis.Room(buf, len(text)))
	}
	return analysis.Shingles(words, n, analysis.Room(buf, len(words)))
}
