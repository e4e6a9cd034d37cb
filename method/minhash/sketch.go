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
	// documents gains one). The title keys follow (see story.go).
	Keys []uint32
	// Context is what the template rules read (see package templates):
	// the figures, dates, title and names.
	templates.Context
	// Lead is the sorted least fingerprints of the shingles of the text's
	// opening (see story.go).
	Lead []uint32
	// TitleWords are the sorted distinct hashes of the title's words (see
	// story.go).
	TitleWords []uint32
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
//   - 4: the index part adds the title keys after the band keys; the detail
//     part adds the lead and the title's words (Rice-coded) after the
//     context. A sketch of 3 still reads, without them.
//   - 5: the context adds the words that fill the template's slots
//     (fixed width: place, kind, the letter pairs of the words' shape and
//     their initials). A sketch of 4 still reads, without them.
//   - 6: the title keys of a dated document name its periods (see
//     titleKeys), and the title's words drop an apostrophe instead of
//     following the text's tokens. A sketch of 5 still reads; its title
//     keys meet only other sketches of 5.
//   - 7: character shingles are folded (analysis.FoldedCharShingles: the
//     look-alikes of character recognition read as one character), so
//     the fingerprints and band keys of 6 are not comparable with them:
//     an index of 6 is built again.
//   - 8: the context adds the filter of the character shingles of the
//     words (templates.Context.WordFilter, fixed width), where a name past
//     the other sample's cut is looked up. A sketch of 7 still reads,
//     without it, and an index of 7 opens and goes on making sketches of
//     7 (Spec's Older): their names past the cut are taken as held, as 7
//     took them.
//   - 9: the encoding is 8's; the context keeps the title names shorter
//     than a shingle, and the filter of the words the keys of the short
//     words with a capital where they are looked up
//     (templates.Scanner.ShortNames). A sketch of 8 still reads, and an
//     index of 8 opens and goes on making sketches of 8 (Spec's Older),
//     without short names: its filters lack the keys such a name is
//     looked up by. Sketches of word shingles read the title (its rerun
//     mark, figures and fills) from this format on (Scanner.TitleWords).
//   - 10: the encoding is 9's; sketches of word shingles keep the names
//     and the filter of the words' character shingles, where every name
//     is looked up (their sample holds word shingles, no name's), and
//     read figures with their look-alikes folded ("1,2O0" is 1200), as
//     sketches of character shingles do. A sketch of 9 still reads, and
//     an index of 9 opens and goes on making sketches of 9 (Spec's
//     Older): of word shingles, without names or folded figures.
//   - 11: the encoding is 10's; the context reads figures and their
//     places in every script (templates.Scanner.Unicode): digits of other
//     scripts ("١٢٠") are figures, and words of letters beyond ASCII the
//     words around a figure ("с 3 по 10 мая", a pair of letters of a
//     script written without spaces), where 10 read a line of Russian or
//     Chinese as one place its figures filled twice, left out. A sketch
//     of 10 still reads, and an index of 10 opens and goes on making
//     sketches of 10 (Spec's Older), whose places are those it holds.
//   - 12: the encoding is 11's; the context reads the figures of a table
//     of stations as it writes them (templates.Scanner.Measures): "nil"
//     is the figure 0, and a unit after a figure ("33.0 MILLIMETRES",
//     "5.0 MM") no word of its place, so that a station with rain fills
//     the place of the same station without ("GUAXUPE NIL"), where 11 read
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
//     (Reuters) -"), where 11 read such a number as a word of a place,
//     such a sum as two figures and such a dateline without its day, or
//     as none; and it keeps a figure's decimal separator in its value, of
//     the text and the title (figures.Scanner.Decimals): "4.5 percent" and
//     "45 percent" are other figures, "1,5" and "1.5" one, where 11 read a
//     figure's digits alone.
//     A sketch of 11 still reads, and an index of 11 opens and goes on
//     making sketches of 11 (Spec's Older), whose places and datelines
//     are those it holds.
//   - 13: the encoding is 12's and, after the filter of the words, the
//     letters of each name (templates.AppendContext); the context reads
//     a figure alone at its line's end, set in a column after a
//     word ("Silver 8000"), in the place of the last column of that word's
//     row (figures.Scanner.LastColumn), so that a table of one column and
//     the same table extended by a later hour's column hold other figures
//     in the places they share, where 12 read it in its word's place,
//     which no row of two figures fills.
//     It reads a line that opens with a figure and a word and sets its
//     other figures in columns between words, none run together once one
//     is set in a column ("5-14 days   5.75 pct   5.65 pct", a rate
//     sheet's row), as a row labelled by that figure (a date, "07/04/87",
//     labels none), each later figure in its words' place and the
//     label's (figures.Scanner.RowLabels), so that two days' sheets hold
//     other figures in the rows of one label, where 12 left out the places
//     every row fills ("days _ pct").
//     It keeps the letters of the dateline's place (templates.Name.Letters),
//     so that two towns' short names whose letter pairs share a bit by
//     chance ("BURSA", "SIVAS") are other places, where 12 took them for
//     one place misspelt.
//     It folds the Turkish "ı" and "İ" to "i" (analysis.Normalize), so
//     that "KAPALI" and "kapalı" are one word, where 12 kept them
//     apart (analysis.Analyzer.DottedIApart).
//     A sketch of 12 still reads, and an index of 12 opens and goes on
//     making sketches of 12 (Spec's Older), whose places, datelines and
//     tables are those it holds.
//
// After the cut and the set, the detail part is templates.AppendContext's
// encoding: a change there is a new format here, and so is a change of
// what the context keeps.
const Format = 13

// oldestFormat is the oldest sketch format this binary reads.
const oldestFormat = 3

// AppendIndex appends the index part of s: its band keys.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return codec.AppendUint32s(append(dst, m.o.sketchFormat()), s.Keys)
}

// AppendDetail appends the detail part of s: what verification reads.
func (m *method) AppendDetail(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUvarint(append(dst, m.o.sketchFormat()), uint64(s.Cut))
	dst = templates.AppendContext(codec.AppendSorted32(dst, s.Set), &s.Context, m.o.sketchFormat() >= 8, m.o.sketchFormat() >= 13)
	return codec.AppendSorted32(codec.AppendSorted32(dst, s.Lead), s.TitleWords)
}

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	if _, err := checkFormat(r); err != nil {
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
	v, err := checkFormat(r)
	if err != nil {
		return nil, err
	}
	cut := r.Uvarint()
	s := &Sketch{Set: r.Sorted32(), Cut: uint32(cut)}
	if err := templates.ReadContext(r, &s.Context, v >= 5, v >= 8, v >= 13); err != nil {
		return nil, fmt.Errorf("minhash: detail part: %w", err)
	}
	if v >= 4 {
		s.Lead, s.TitleWords = r.Sorted32(), r.Sorted32()
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

func checkFormat(r *codec.Reader) (byte, error) {
	return r.Format(Name, oldestFormat, Format)
}

// sampleShare is the least share of its fingerprints a long document keeps
// (see Options.SampleSize): a short document inside a long one is then
// still compared on a quarter of its shingles.
const sampleShare = 4

// longText is the length in bytes above which a text's character
// shingles are made and sketched a block of blockShingles at a time (see
// sketchBlocks), in memory about its sample's, a quarter of its shingles
// in 32 bits, rather than a hash of 64 bits for each of its characters and
// the sorting of them. A shorter text, as news is, takes one pass over
// all its shingles.
const (
	longText      = 1 << 18
	blockShingles = 1 << 14
)

type sketcher struct {
	m      *method
	an     analysis.Analyzer
	shings []uint64
	set    []uint32
	sig    []uint32
	keys   []uint64
	bottom sketch.Bottomer
	stream sketch.BottomStream
	tpl    templates.Scanner
	buf    []byte
	lead   []uint32
	title  []uint32
	// long and block are longText and blockShingles, but in tests.
	long, block int
}

func (m *method) NewSketcher() engineSketcher {
	s := &sketcher{m: m, long: longText, block: blockShingles}
	if m.o.ShingleUnit == Chars || m.o.wordNames() {
		s.tpl.Shingle = m.o.CharShingle // names are looked up among character shingles
		s.tpl.Folded = true
	}
	s.tpl.Fills = m.o.Slots
	s.tpl.WordFilter = m.o.wordFilter()
	s.tpl.ShortNames = m.o.shortNames()
	s.tpl.TitleWords = m.o.sketchFormat() >= 9          // an index of an older format reads no title of words
	s.tpl.Unicode = m.o.sketchFormat() >= 11            // an index of an older format reads ASCII figures and places
	s.tpl.Measures = m.o.sketchFormat() >= 12           // and no "nil", a unit the word after its figure
	s.tpl.Languages = m.o.sketchFormat() >= 12          // and number words in English alone, fewer datelines
	s.tpl.Columns = m.o.sketchFormat() >= 13            // and a figure at a line's end in its word's place, no row labels
	s.an.NarrowSpaceJoins = m.o.sketchFormat() < 12     // and "180\u202f000" as one word
	s.an.ZeroWidthSpaceSplits = m.o.sketchFormat() < 12 // and "wi\u200bdth" as two
	s.an.DottedIApart = m.o.sketchFormat() < 13         // and "KAPALI" and "kapalı" as two
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
	if o.ShingleUnit == Chars {
		s.shings = s.an.FoldedCharShingles(doc.Text, words, o.CharShingle, analysis.Room(s.shings, len(doc.Text)))
	} else {
		s.shings = analysis.Shingles(words, o.WordShingle, analysis.Room(s.shings, len(words)))
	}
	s.sig = s.m.mh.Signature(s.shings, s.sig)
	k := s.sampleSize(len(s.shings))
	var cut uint32 // the fingerprints are the shingles' low 32 bits
	s.set, cut = s.bottom.BottomLow(s.shings, k, analysis.Room(s.set, k))
	sk := &Sketch{Cut: cut}
	s.tpl.Scan(doc, words, &sk.Context)
	s.leadOf(doc, words, s.shings, sk) // after Scan: reads its dateline
	return s.finish(doc, sk), core.SkipNone
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
// made a block at a time: each block lowers the signature and joins the
// sample, so that no more than a block of them is held. Its sketch is the one Sketch makes of the text whole
// (TestSketchBlocksSameAsWhole).
func (s *sketcher) sketchBlocks(doc *core.Document, words []analysis.Token) *Sketch {
	o := &s.m.o
	blocks := s.an.CharShingleBlocks(doc.Text, words, o.CharShingle, true, s.block)
	s.sig = s.m.mh.Start(s.sig)
	set, cut, total := s.stream.SampleBlocks(blocks, s.sampleSize(len(doc.Text)), s.sampleSize, s.set,
		func(b []uint64) { s.m.mh.Add(s.sig, b) })
	s.set, s.sig = set, s.m.mh.Finish(s.sig)
	sk := &Sketch{Cut: cut}
	s.tpl.Scan(doc, words, &sk.Context)
	s.leadOfBlocks(doc, words, blocks, total, sk) // after Scan: reads its dateline
	return s.finish(doc, sk)
}

// finish completes sk, whose fingerprint set is s.set and whose
// signature is s.sig: its title words, band keys and title keys, and its
// parts packed.
func (s *sketcher) finish(doc *core.Document, sk *Sketch) *Sketch {
	o := &s.m.o
	if o.sameStory(1) {
		s.titleOf(doc, sk) // words are not valid after it
	}
	s.keys = s.m.bands.BandKeys(s.sig, s.keys[:0])
	n := len(s.keys) + maxTitleKeys
	keys := make([]uint32, len(s.keys), n)
	for i, k := range s.keys {
		keys[i] = uint32(k >> 32)
	}
	sk.Keys = titleKeys(sk.TitleWords, sk.Date, o.storyWindow(), keys)
	sk.pack(s.set) // copies the figures the scanner holds
	return sk
}

// pack gives sk the fingerprint set and copies it, its figures, its title's
// figures, its lead, its title's words and the filter of its words into
// one array of their size: a Batch keeps every sketch until it ends, and
// one allocation a sketch instead of three takes less memory (the slack of
// appending and of rounding to a size class) and fewer objects for the
// collector to mark.
func (sk *Sketch) pack(set []uint32) {
	parts := []*[]uint32{&sk.Nums, &sk.TitleNums, &sk.Lead, &sk.TitleWords, (*[]uint32)(&sk.WordFilter)}
	n := len(set)
	for _, p := range parts {
		n += len(*p)
	}
	all := make([]uint32, n)
	at := copy(all, set)
	sk.Set = all[:at:at]
	for _, p := range parts {
		if len(*p) == 0 {
			*p = nil
			continue
		}
		end := at + copy(all[at:], *p)
		*p, at = all[at:end:end], end
	}
}
