package sentences

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/templates"
)

// Sketch is one document as the method compares it: its sentences' hashes
// in increasing order, each with its length in characters, and what the
// template rules read of it.
type Sketch struct {
	Hashes []uint64
	Chars  []int32
	// Context is what the template rules read (see package templates):
	// the figures, dates, title, names and the filter of its words; empty
	// in a sketch of format 1.
	templates.Context
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the hashes, then each sentence's length. Everything
//     is in the index part; there is no detail part.
//   - 2: the index part is as in 1; the detail part, read only to verify a
//     pair its score makes a duplicate, is templates.AppendContext's
//     encoding with the filter of the words: a change there is a new
//     format here. A sketch of 1 still reads, without a context, and an
//     index of 1 opens and goes on making sketches of 1 (Spec's Older),
//     whose pairs no template rule refuses.
//   - 3: the encoding is 2's; with --names the context keeps the title
//     names shorter than a shingle, and the filter of the words the keys
//     of the short words with a capital where they are looked up
//     (templates.Scanner.ShortNames). A sketch of 2 still reads, and an
//     index of 2 opens and goes on making sketches of 2 (Spec's Older),
//     without short names: its filters lack the keys such a name is
//     looked up by.
//   - 4: the encoding is 3's; the context reads figures and their places
//     in every script (templates.Scanner.Unicode): digits of other scripts
//     ("١٢٠") are figures, and words of letters beyond ASCII the words
//     around a figure ("с 3 по 10 мая", a pair of letters of a script
//     written without spaces), where 3 read a line of Russian or Chinese
//     as one place its figures filled twice, left out. A sketch of 3 still
//     reads, and an index of 3 opens and goes on making sketches of 3
//     (Spec's Older), whose places are those it holds.
//   - 5: the encoding is 4's; the context reads the figures of a table
//     of stations as it writes them (templates.Scanner.Measures): "nil"
//     is the figure 0, and a unit after a figure ("33.0 MILLIMETRES",
//     "5.0 MM") no word of its place, so that a station with rain fills
//     the place of the same station without ("GUAXUPE NIL"), where 4 read
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
//     (Reuters) -"), where 4 read such a number as a word of a place,
//     such a sum as two figures and such a dateline without its day, or
//     as none; and it keeps a figure's decimal separator in its value, of
//     the text and the title (figures.Scanner.Decimals): "4.5 percent" and
//     "45 percent" are other figures, "1,5" and "1.5" one, where 4 read a
//     figure's digits alone; and it ends no sentence at a period that a comma, a
//     semicolon or a colon follows (analysis.Analyzer.PeriodBeforeCommaEnds),
//     where 4 made two of "STAMFORD, Conn., Feb 26 - Qtly div ...", the
//     second shared by every company's notice of a state's dateline;
//     and it ends a sentence at the period after a figure with a decimal
//     point ("$9.3bn. Analysts", "12.5km. The") as after one without
//     (analysis.Analyzer.DecimalAbbreviates), where 4 read such a figure
//     as a dotted abbreviation ("Ph.D.") and joined the two sentences.
//     A sketch of 4 still reads, and an index of 4 opens and goes on making
//     sketches of 4 (Spec's Older), whose places, datelines and sentences
//     are those it holds.
//   - 6: the encoding is 5's and, after the filter of the words, the
//     letters of each name (templates.AppendContext); the context reads
//     a figure alone at its line's end, set in a column after a
//     word ("Silver 8000"), in the place of the last column of that word's
//     row (figures.Scanner.LastColumn), so that a table of one column and
//     the same table extended by a later hour's column hold other figures
//     in the places they share, where 5 read it in its word's place,
//     which no row of two figures fills.
//     It reads a line that opens with a figure and a word and sets its
//     other figures in columns between words, none run together once one
//     is set in a column ("5-14 days   5.75 pct   5.65 pct", a rate
//     sheet's row), as a row labelled by that figure (a date, "07/04/87",
//     labels none), each later figure in its words' place and the
//     label's (figures.Scanner.RowLabels), so that two days' sheets hold
//     other figures in the rows of one label, where 5 left out the places
//     every row fills ("days _ pct").
//     It keeps the letters of the dateline's place (templates.Name.Letters),
//     so that two towns' short names whose letter pairs share a bit by
//     chance ("BURSA", "SIVAS") are other places, where 5 took them for
//     one place misspelt.
//     It folds the Turkish "ı" and "İ" to "i" (analysis.Normalize), so
//     that "KAPALI" and "kapalı" are one word, where 5 kept them
//     apart (analysis.Analyzer.DottedIApart).
//     A sketch of 5 still reads, and an index of 5 opens and goes on making
//     sketches of 5 (Spec's Older), whose places, datelines, tables and
//     sentences are those it holds.
//   - 7: the encoding is 6's; a sentence ends at the full stops of more
//     scripts (analysis.Analyzer.FewTerminators): the Urdu "۔", Burmese
//     "။", Khmer "។" and "៕", Amharic "።", Armenian "։", Tibetan "།" and
//     "༎", the Devanagari "॥" and a fixed list of a few more
//     (analysis's scriptTerminator: "‽", "｡", the Mongolian "᠃", …; not
//     Unicode's Sentence_Terminal, which grows with each version), where 6 read a text of those scripts as one sentence per paragraph,
//     so that a copy with one word changed shared none. A sketch of 6
//     still reads, and an index of 6 opens and goes on making sketches of
//     6 (Spec's Older), whose sentences are those it holds.
const Format = 7

// AppendIndex appends the index part of s: its sentences.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	dst = codec.AppendUint64s(append(dst, m.o.sketchFormat()), s.Hashes)
	for _, c := range s.Chars {
		dst = codec.AppendUvarint(dst, uint64(c))
	}
	return dst
}

// AppendDetail appends the detail part of s: its context; nothing in
// format 1.
func (m *method) AppendDetail(dst []byte, s *Sketch) []byte {
	if m.o.sketchFormat() < 2 {
		return dst
	}
	return templates.AppendContext(append(dst, m.o.sketchFormat()), &s.Context, true, m.o.sketchFormat() >= 6)
}

// DecodeIndex reads what AppendIndex wrote.
func (m *method) DecodeIndex(b []byte) (*Sketch, error) {
	s, _, err := decodeIndex(b)
	return s, err
}

// decodeIndex reads an index part and returns its format too.
func decodeIndex(b []byte) (*Sketch, byte, error) {
	r := codec.NewReader(b)
	v, err := checkFormat(r, 1)
	if err != nil {
		return nil, v, err
	}
	s := &Sketch{Hashes: r.Uint64s()}
	s.Chars = make([]int32, len(s.Hashes))
	for i := range s.Chars {
		c := r.Uvarint()
		if c > 1<<31-1 {
			return nil, v, fmt.Errorf("sentences: sentence length %d: %w", c, codec.ErrCorrupt)
		}
		s.Chars[i] = int32(c)
	}
	if err := r.Done(); err != nil {
		return nil, v, fmt.Errorf("sentences: %w", err)
	}
	for i := 1; i < len(s.Hashes); i++ {
		if s.Hashes[i] <= s.Hashes[i-1] {
			return nil, v, fmt.Errorf("sentences: hashes out of order: %w", codec.ErrCorrupt)
		}
	}
	return s, v, nil
}

// DecodeDetail reads what AppendDetail wrote: a sketch holding the
// context alone. A sketch of format 1 has no detail part.
func (m *method) DecodeDetail(b []byte) (*Sketch, error) {
	r := codec.NewReader(b)
	v, err := checkFormat(r, 2)
	if err != nil {
		return nil, err
	}
	s := &Sketch{}
	if err := templates.ReadContext(r, &s.Context, true, true, v >= 6); err != nil {
		return nil, fmt.Errorf("sentences: detail part: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("sentences: detail part: %w", err)
	}
	return s, nil
}

// DecodeSketch reads both parts into a whole sketch; the detail part of a
// sketch of format 1 is not read (it has none).
func (m *method) DecodeSketch(index, detail []byte) (*Sketch, error) {
	s, v, err := decodeIndex(index)
	if err != nil || v < 2 {
		return s, err
	}
	d, err := m.DecodeDetail(detail)
	if err != nil {
		return nil, err
	}
	s.Context = d.Context
	return s, nil
}

// checkFormat reads a part's format byte: oldest to Format.
func checkFormat(r *codec.Reader, oldest byte) (byte, error) {
	return r.Format(Name, oldest, Format)
}

type sketcher struct {
	m   *method
	an  analysis.Analyzer
	tpl templates.Scanner
	// scan says to read the template rules' context: a sketch of format 2
	// with a rule in force (the context of one without is left empty).
	scan bool
}

// NewSketcher returns a sketcher for one goroutine. Having no character
// shingles, the method looks names up in the filter of the other
// document's words (templates.Scanner.WordFilter, kept with --names alone,
// the only rule that reads it), of shingles of six folded characters (as
// minhash's).
func (m *method) NewSketcher() engine.DocSketcher[Sketch] {
	s := &sketcher{m: m}
	if r := m.o.rules(); !r.Off() { // rules() are off for format 1
		s.tpl = templates.Scanner{Shingle: contextShingle, Folded: true, Fills: m.o.Slots, WordFilter: m.o.Names,
			ShortNames: m.o.shortNames(), Unicode: m.o.sketchFormat() >= 4, Measures: m.o.sketchFormat() >= 5,
			Languages: m.o.sketchFormat() >= 5, Columns: m.o.sketchFormat() >= 6}
		s.scan = true
	}
	s.an = analyzer(m.o.sketchFormat())
	return s
}

// analyzer returns the analyzer that reads sentences as sketches of
// format do: the formats before 5 read "180\u202f000" as one word,
// "wi\u200bdth" as two, a sentence ended at the period before the comma
// of "Conn., Feb 26" and not at the one after "$9.3bn" (analysis.Analyzer's
// NarrowSpaceJoins, ZeroWidthSpaceSplits, PeriodBeforeCommaEnds,
// DecimalAbbreviates), those before 6 "KAPALI" and "kapalı" as two
// words (DottedIApart), and those before 7 a text of Urdu, Burmese,
// Khmer, Amharic, Armenian or Tibetan as one sentence per paragraph
// (FewTerminators). The sketcher and the quotes of a pair's evidence both
// read through it, so that they agree.
func analyzer(format byte) analysis.Analyzer {
	older := format < 5
	return analysis.Analyzer{NarrowSpaceJoins: older, ZeroWidthSpaceSplits: older, PeriodBeforeCommaEnds: older,
		DecimalAbbreviates: older, DottedIApart: format < 6, FewTerminators: format < 7}
}

// contextShingle is the length in characters of the shingles the names
// and the filter of the words are made of (templates.Scanner.Shingle):
// minhash's default.
const contextShingle = 6

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
	if s.scan {
		s.tpl.Scan(doc, s.an.Words(doc.Text), &sk.Context)
		sk.Own()
	}
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
