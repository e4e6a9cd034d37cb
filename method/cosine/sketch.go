package cosine

import (
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/templates"
	"github.com/neardup/neardup/internal/vector"
)

// Sketch is one document as the method compares it: the counts of its
// terms, the content words of its title and body and their bigrams, and
// what the template rules read of it.
type Sketch struct {
	Terms vector.Counts
	// Context is what the template rules read (see package templates):
	// the figures, dates, title, names and the filter of its words; empty
	// in a sketch of format 1.
	templates.Context
}

// Format is the version of the sketch encoding.
//
// Changelog:
//   - 1: first version: the term hashes and counts (see
//     vector.AppendCounts). Everything is in the index part; there is no
//     detail part.
//   - 2: the index part is as in 1; the detail part, read only to verify a
//     pair its cosine makes a duplicate, is templates.AppendContext's
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
//     figure's digits alone.
//     A sketch of 4 still reads, and an index of 4 opens and goes on making
//     sketches of 4 (Spec's Older), whose places and datelines are those it
//     holds.
//   - 6: the encoding is 5's and, after the filter of the words, the
//     letters of each name (templates.AppendContext); the context reads
//     a figure alone at its line's end, set in a column after a
//     word ("Silver 8000"), in the place of the last column of that word's
//     row (figures.Scanner.LastColumn), so that a table of one column and
//     the same table extended by a later hour's column hold other figures
//     in the places they share, where 5 read it in its word's place, which
//     no row of two figures fills.
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
//     apart (analysis.Analyzer.DottedIApart);
//     and a letter written decomposed ("o" and U+0308) tells the language
//     as the precomposed "ö" does (analysis.DetectLangTokens), where 5
//     read it as no evidence (DetectLangTokensPrecomposed).
//     A sketch of 5 still reads, and an index of 5 opens and goes on making
//     sketches of 5 (Spec's Older), whose places, datelines and tables are
//     those it holds.
const Format = 6

// AppendIndex appends the index part of s: its counts.
func (m *method) AppendIndex(dst []byte, s *Sketch) []byte {
	return vector.AppendCounts(append(dst, m.o.sketchFormat()), &s.Terms)
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
	c, err := vector.ReadCounts(r)
	if err != nil {
		return nil, v, fmt.Errorf("cosine: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, v, fmt.Errorf("cosine: %w", err)
	}
	return &Sketch{Terms: c}, v, nil
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
		return nil, fmt.Errorf("cosine: detail part: %w", err)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("cosine: detail part: %w", err)
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
	o      *Options
	terms  vector.Terms
	hashes []uint64
	an     analysis.Analyzer
	tpl    templates.Scanner
	// scan says to read the template rules' context: a sketch of format 2
	// with a rule in force (the context of one without is left empty).
	scan bool
}

// NewSketcher returns a sketcher for one goroutine; it stems. Having no
// character shingles, the method looks names up in the filter of the
// other document's words (templates.Scanner.WordFilter, kept with --names
// alone, the only rule that reads it), of shingles of six folded
// characters (as minhash's).
func (m *method) NewSketcher() engine.DocSketcher[Sketch] {
	// An index of a format before 5 reads "180\u202f000" as one word and
	// "wi\u200bdth" as two; one before 6 "KAPALI" and "kapalı" as two, and
	// a decomposed "ö" as no evidence of a language.
	older, before6 := m.o.sketchFormat() < 5, m.o.sketchFormat() < 6
	s := &sketcher{o: &m.o, terms: vector.Terms{Stem: true, NarrowSpaceJoins: older, ZeroWidthSpaceSplits: older,
		DottedIApart: before6, PrecomposedLetters: before6}}
	if r := m.o.rules(); !r.Off() { // rules() are off for format 1
		s.tpl = templates.Scanner{Shingle: contextShingle, Folded: true, Fills: m.o.Slots, WordFilter: m.o.Names,
			ShortNames: m.o.shortNames(), Unicode: m.o.sketchFormat() >= 4, Measures: m.o.sketchFormat() >= 5,
			Languages: m.o.sketchFormat() >= 5, Columns: m.o.sketchFormat() >= 6}
		s.scan = true
	}
	s.an.NarrowSpaceJoins = older // the words the template rules read, too
	s.an.ZeroWidthSpaceSplits = older
	s.an.DottedIApart = before6
	return s
}

// contextShingle is the length in characters of the shingles the names
// and the filter of the words are made of (templates.Scanner.Shingle):
// minhash's default.
const contextShingle = 6

// Sketch counts the content words (not stop words), stemmed where the
// language has a stemmer, and the bigrams of consecutive content words, of
// the title and the body; a bigram never spans the two. A document with no
// content word is skipped.
func (s *sketcher) Sketch(doc *core.Document) (*Sketch, core.SkipReason) {
	s.terms.Analyze(doc)
	// Each word and the pair it starts, in room made at once: a long
	// text's terms are not copied as they grow.
	s.hashes = slices.Grow(s.hashes[:0], 2*(len(s.terms.Title)+len(s.terms.Body)))
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
	sk := &Sketch{Terms: vector.Count(s.hashes)}
	if s.scan {
		s.tpl.Scan(doc, s.an.Words(doc.Text), &sk.Context)
		sk.Own()
	}
	return sk, core.SkipNone
}
