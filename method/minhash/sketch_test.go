package minhash

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/templates"
	"github.com/neardup/neardup/internal/templates/templatestest"
)

// TestFormat7Fixture: a sketch of format 7, as the binary of that format
// wrote it (testdata/format7.hex: the index part, then the detail part, of
// a weather bulletin sketched at the defaults), still decodes, without the
// filter of its words; and the options of an index of format 7 (Spec's
// Older) sketch that bulletin into those very bytes, where the defaults
// make the current format and keep the filter.
func TestFormat7Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format7.hex", 2)
	doc := core.Document{ID: "raleigh", Title: "Raleigh weather: high of 24C on Thursday", Text: forecast("Raleigh", "24", "35"),
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}

	c, ok := older(7, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 7")
	}
	m7, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := m7.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 7 does not decode: %v", err)
	}
	if sk.WordFilter != nil || len(sk.Names) == 0 || len(sk.Set) == 0 {
		t.Errorf("decoded: filter %v, %d names, %d fingerprints; want no filter, names and fingerprints", sk.WordFilter, len(sk.Names), len(sk.Set))
	}
	fresh, _ := m7.NewSketcher().Sketch(&doc)
	if i, d := m7.AppendIndex(nil, fresh), m7.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 7 sketch other bytes than format 7 did:\n index  %x\n detail %x", i, d)
	}
	m, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := m.NewSketcher().Sketch(&doc); s.WordFilter == nil || m.AppendDetail(nil, s)[0] != Format {
		t.Errorf("the defaults sketch format %d, filter %v; want %d with a filter", m.AppendDetail(nil, s)[0], s.WordFilter, Format)
	}
}

// TestFormat8Fixture: a sketch of format 8, as the binary of that format
// wrote it (testdata/format8.hex: the index part, then the detail part, of
// Leeds' weather bulletin sketched at the defaults), still decodes, with
// the filter of its words; and the options of an index of format 8
// (Spec's Older) sketch that bulletin into those very bytes, without the
// title name "Leeds", shorter than a shingle, whose key its filter lacks,
// where the defaults (format 9 on) keep it.
func TestFormat8Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format8.hex", 2)
	doc := core.Document{ID: "leeds", Title: "Leeds weather: high of 24C on Thursday", Text: forecast("Leeds", "24", "35"),
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
	shortNames := func(s *Sketch) int {
		n := 0
		for _, x := range s.Names {
			if x.Kind() == templates.TitleName && x.Shingle == 0 {
				n++
			}
		}
		return n
	}
	c, ok := older(8, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 8")
	}
	m8, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := m8.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 8 does not decode: %v", err)
	}
	if sk.WordFilter == nil || len(sk.Names) == 0 || shortNames(sk) != 0 {
		t.Errorf("decoded: filter %v, names %+v; want a filter and names, none a short title name", sk.WordFilter, sk.Names)
	}
	fresh, _ := m8.NewSketcher().Sketch(&doc)
	if i, d := m8.AppendIndex(nil, fresh), m8.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 8 sketch other bytes than format 8 did:\n index  %x\n detail %x", i, d)
	}
	m9, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if s9, _ := m9.NewSketcher().Sketch(&doc); shortNames(s9) != 1 || m9.AppendDetail(nil, s9)[0] != Format {
		t.Errorf("the defaults sketch format %d, names %+v; want %d with the short title name", m9.AppendDetail(nil, s9)[0], s9.Names, Format)
	}
}

// TestFormat9WordsFixture: a sketch of word shingles of format 9, as the
// binary of that format wrote it (testdata/format9-words.hex: the index
// part, then the detail part, of Leeds' weather bulletin sketched at the
// defaults with --shingle-unit words), still decodes, without names; and
// the options of an index of format 9 (Spec's Older) sketch that bulletin
// into those very bytes, where the defaults (format 10 on) keep its
// names ("LEEDS", "Leeds") and the filter of its words.
func TestFormat9WordsFixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format9-words.hex", 2)
	doc := core.Document{ID: "leeds", Title: "Leeds weather: high of 24C on Thursday", Text: forecast("Leeds", "24", "35"),
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
	words := Defaults()
	words.ShingleUnit = Words
	c, ok := older(9, words)
	if !ok {
		t.Fatal("Spec's Older refuses format 9")
	}
	m9, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := m9.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 9 does not decode: %v", err)
	}
	if len(sk.Names) != 0 || sk.WordFilter != nil {
		t.Errorf("decoded: names %+v, filter %v; want neither", sk.Names, sk.WordFilter)
	}
	fresh, _ := m9.NewSketcher().Sketch(&doc)
	if i, d := m9.AppendIndex(nil, fresh), m9.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 9 sketch other bytes than format 9 did:\n index  %x\n detail %x", i, d)
	}
	m10, err := newMethod(words)
	if err != nil {
		t.Fatal(err)
	}
	s10, _ := m10.NewSketcher().Sketch(&doc)
	if len(s10.Names) == 0 || s10.WordFilter == nil || m10.AppendDetail(nil, s10)[0] != Format {
		t.Errorf("the defaults of word shingles sketch format %d, names %+v, filter %v; want %d with names and a filter",
			m10.AppendDetail(nil, s10)[0], s10.Names, s10.WordFilter, Format)
	}
	back, err := m10.DecodeSketch(m10.AppendIndex(nil, s10), m10.AppendDetail(nil, s10))
	if err != nil || len(back.Names) != len(s10.Names) || len(back.WordFilter) != len(s10.WordFilter) {
		t.Errorf("a sketch of the defaults read back: %v, names %d of %d", err, len(back.Names), len(s10.Names))
	}
}

// TestFormat10Fixture: a sketch of format 10, as the binary of that format
// wrote it (testdata/format10.hex: the index part, then the detail part, of
// a notice in Russian, "с 3 по 10 мая", sketched at the defaults), still
// decodes, without places: read in ASCII alone, its line is one place
// both figures fill, left out; and the options of an index of format 10
// (Spec's Older) sketch that notice into those very bytes, where the
// defaults (format 11 on) keep the places its Russian words make.
func TestFormat10Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format10.hex", 2)
	doc := enginetest.Notice("ru", '0', 0, 3, 10)
	c, ok := older(10, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 10")
	}
	m10, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := m10.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 10 does not decode: %v", err)
	}
	if len(sk.Nums) != 2 || sk.Slots != nil {
		t.Errorf("decoded: figures %v, places %x; want two figures and no places", sk.Nums, sk.Slots)
	}
	fresh, _ := m10.NewSketcher().Sketch(&doc)
	if i, d := m10.AppendIndex(nil, fresh), m10.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 10 sketch other bytes than format 10 did:\n index  %x\n detail %x", i, d)
	}
	m11, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if s11, _ := m11.NewSketcher().Sketch(&doc); len(s11.Slots) != 2 || m11.AppendDetail(nil, s11)[0] != Format {
		t.Errorf("the defaults sketch format %d, places %x; want %d with two places", m11.AppendDetail(nil, s11)[0], s11.Slots, Format)
	}
}

// TestFormat11Fixture: a sketch of format 11, as the binary of that format
// wrote it (testdata/format11.hex: the index part, then the detail part, of
// a table of the rainfall at fourteen stations, twelve of them NIL, two
// "33.0 MILLIMETRES" and "5.0 MM", sketched at the defaults), still
// decodes, with the four places that format read: none at a station of
// NIL, those with rain in the places of their units; and the options of
// an index of format 11 (Spec's Older) sketch that table into those very
// bytes, where the defaults make format 12 and read a place at each of the
// fourteen stations, NIL the figure 0 there.
func TestFormat11Fixture(t *testing.T) {
	c, ok := older(11, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 11")
	}
	mOld, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	mCur, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	enginetest.StationsFixture[Sketch](t, "testdata/format11.hex", mOld, mCur, func(s *Sketch) []uint64 { return s.Slots }, Format)
}

// TestFormat12Fixture: a sketch of format 12, as the binary of that format
// wrote it (testdata/format12.hex: a table of volumes of one column under
// a dateline, sketched at the defaults), still decodes, its place without
// letters, and the options of an index of format 12 (Spec's Older) sketch
// the table into those very bytes, where the defaults read each figure in
// its row's last column and keep the place's letters.
func TestFormat12Fixture(t *testing.T) {
	c, ok := older(12, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 12")
	}
	mOld, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	mCur, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	enginetest.ColumnsFixture(t, "testdata/format12.hex", mOld, mCur,
		func(s *Sketch) []uint64 { return s.Slots }, func(s *Sketch) []uint32 { return templatestest.PlaceLetters(s.Names) }, Format)
}

// BenchmarkSketchNews sketches 200 news-sized texts (about 450 words, one
// word in eight a capitalised name, under a dateline and a title) at the
// defaults, as format 7 did, as format 8 did with the filter of the words
// and as format 10 did with the title names shorter than a shingle and
// their keys in that filter (format 9's sketches of character shingles);
// and of word shingles, as format 9 did without names and as format 10
// did with them and the filter; and of both, as format 11 did reading
// figures and places in every script, which on these texts of ASCII reads
// what 10 read, and as format 12 does reading "nil" and the units of a
// table of stations, which these texts do not write (the options of
// indexes of those formats against the defaults): the cost of each to a
// document's sketch, MB/s of text.
func BenchmarkSketchNews(b *testing.B) {
	var docs []core.Document
	size := 0
	for i := range 200 {
		words := strings.Fields(enginetest.NewTextGen(uint64(i)).Text(3000))
		for j, w := range words {
			if j%8 == 3 {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		docs = append(docs, core.Document{ID: fmt.Sprint(i), Title: strings.ToUpper(strings.Join(words[3:9], " ")),
			Text: fmt.Sprintf("KELSO, May %d - ", i%28+1) + strings.Join(words, " ")})
		size += len(docs[i].Text)
	}
	c7, _ := older(7, Defaults())
	c8, _ := older(8, Defaults())
	words := Defaults()
	words.ShingleUnit = Words
	w9, _ := older(9, words)
	c10, _ := older(10, Defaults())
	w10, _ := older(10, words)
	c11, _ := older(11, Defaults())
	w11, _ := older(11, words)
	for _, o := range []struct {
		name string
		opts Options
	}{{"format=7", c7.(Options)}, {"format=8", c8.(Options)}, {"format=10", c10.(Options)}, {"format=11", c11.(Options)},
		{"format=12", Defaults()}, {"words/format=9", w9.(Options)}, {"words/format=10", w10.(Options)},
		{"words/format=11", w11.(Options)}, {"words/format=12", words}} {
		b.Run(o.name, func(b *testing.B) {
			m, err := newMethod(o.opts)
			if err != nil {
				b.Fatal(err)
			}
			s := m.NewSketcher()
			b.SetBytes(int64(size))
			for b.Loop() {
				for i := range docs {
					s.Sketch(&docs[i])
				}
			}
		})
	}
}

// TestNarrowSpaceFormat11Fixture: an index of format 11 goes on reading a
// narrow no-break space (U+202F) between figures as that format did,
// joining them ("180\u202f000" one word), in every analyzer its sketches read
// words from (analysis.Analyzer.NarrowSpaceJoins): its sketch of
// enginetest.NarrowSpaceDoc is the bytes the binary of that format wrote.
func TestNarrowSpaceFormat11Fixture(t *testing.T) {
	c, ok := older(11, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 11")
	}
	m, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	enginetest.NarrowSpaceFixture[Sketch](t, "testdata/narrow-format11.hex", m)
}

// TestZeroWidthSpaceFormat11Fixture: the options of an index of format 11
// read a zero-width space inside a word as that format did, a word boundary
// ("ra\u200bte" two words), in every analyzer its sketches read words from
// (analysis.Analyzer.ZeroWidthSpaceSplits): its sketch of
// enginetest.ZeroWidthSpaceDoc is the bytes the binary of that format wrote.
func TestZeroWidthSpaceFormat11Fixture(t *testing.T) {
	c, ok := older(11, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 11")
	}
	m, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	enginetest.ZeroWidthSpaceFixture[Sketch](t, "testdata/zwsp-format11.hex", m)
}
