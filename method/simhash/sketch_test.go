package simhash

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/templates"
	"github.com/neardup/neardup/internal/templates/templatestest"
)

// TestFormat4Fixture: a sketch of format 4, as the binary of that format
// wrote it (testdata/format4.hex: the index part, then the detail part, of
// a weather bulletin sketched at the defaults), still decodes, without the
// filter of its words; and the options of an index of format 4 (Spec's
// Older) sketch that bulletin into those very bytes, where the defaults
// make the current format and keep the filter.
func TestFormat4Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format4.hex", 2)
	doc := bulletin("raleigh", "Raleigh", "35", 10)

	c, ok := older(4, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	m4 := newMethod(c.(Options))
	sk, err := m4.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 4 does not decode: %v", err)
	}
	if sk.WordFilter != nil || len(sk.Names) == 0 || len(sk.Set) == 0 || sk.FP == 0 {
		t.Errorf("decoded: filter %v, %d names, %d fingerprints, fingerprint %x; want no filter, names, a sample and a fingerprint",
			sk.WordFilter, len(sk.Names), len(sk.Set), sk.FP)
	}
	fresh, _ := m4.NewSketcher().Sketch(&doc)
	if i, d := m4.AppendIndex(nil, fresh), m4.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 4 sketch other bytes than format 4 did:\n index  %x\n detail %x", i, d)
	}
	if _, ok := older(3, Defaults()); ok {
		t.Error("Spec's Older takes format 3, which no binary reads")
	}
	m := newMethod(Defaults())
	s, _ := m.NewSketcher().Sketch(&doc)
	if i, d := m.AppendIndex(nil, s), m.AppendDetail(nil, s); s.WordFilter == nil || i[0] != Format || d[0] != Format {
		t.Errorf("the defaults sketch formats %d and %d, filter %v; want %d with a filter", i[0], d[0], s.WordFilter, Format)
	}
	again, err := m.DecodeSketch(m.AppendIndex(nil, s), m.AppendDetail(nil, s))
	if err != nil {
		t.Fatalf("a sketch of format %d does not decode: %v", Format, err)
	}
	if !slices.Equal(again.WordFilter, s.WordFilter) {
		t.Errorf("a sketch of format %d decodes with filter %v, want %v", Format, again.WordFilter, s.WordFilter)
	}
}

// TestFormat5Fixture: a sketch of format 5, as the binary of that format
// wrote it (testdata/format5.hex: the index part, then the detail part, of
// Leeds' weather bulletin sketched at the defaults), still decodes, with
// the filter of its words; and the options of an index of format 5
// (Spec's Older) sketch that bulletin into those very bytes, without the
// title name "Leeds", shorter than a shingle, whose key its filter lacks,
// where the defaults (format 6 on) keep it.
func TestFormat5Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format5.hex", 2)
	doc := bulletin("leeds", "Leeds", "35", 10)
	shortNames := func(s *Sketch) int {
		n := 0
		for _, x := range s.Names {
			if x.Kind() == templates.TitleName && x.Shingle == 0 {
				n++
			}
		}
		return n
	}
	c, ok := older(5, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 5")
	}
	m5 := newMethod(c.(Options))
	sk, err := m5.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 5 does not decode: %v", err)
	}
	if sk.WordFilter == nil || len(sk.Names) == 0 || shortNames(sk) != 0 {
		t.Errorf("decoded: filter %v, names %+v; want a filter and names, none a short title name", sk.WordFilter, sk.Names)
	}
	fresh, _ := m5.NewSketcher().Sketch(&doc)
	if i, d := m5.AppendIndex(nil, fresh), m5.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 5 sketch other bytes than format 5 did:\n index  %x\n detail %x", i, d)
	}
	m6 := newMethod(Defaults())
	if s6, _ := m6.NewSketcher().Sketch(&doc); shortNames(s6) != 1 || m6.AppendDetail(nil, s6)[0] != Format {
		t.Errorf("the defaults sketch format %d, names %+v; want %d with the short title name", m6.AppendDetail(nil, s6)[0], s6.Names, Format)
	}
}

// TestFormat6Fixture: a sketch of format 6, as the binary of that format
// wrote it (testdata/format6.hex: the index part, then the detail part, of
// a notice in Russian, "с 3 по 10 мая", sketched at the defaults), still
// decodes, without places: read in ASCII alone, its line is one place
// both figures fill, left out; and the options of an index of format 6
// (Spec's Older) sketch that notice into those very bytes, where the
// defaults (format 7 on) keep the places its Russian words make.
func TestFormat6Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format6.hex", 2)
	doc := enginetest.Notice("ru", '0', 0, 3, 10)
	c, ok := older(6, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 6")
	}
	m6 := newMethod(c.(Options))
	sk, err := m6.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 6 does not decode: %v", err)
	}
	if len(sk.Nums) != 2 || sk.Slots != nil {
		t.Errorf("decoded: figures %v, places %x; want two figures and no places", sk.Nums, sk.Slots)
	}
	fresh, _ := m6.NewSketcher().Sketch(&doc)
	if i, d := m6.AppendIndex(nil, fresh), m6.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 6 sketch other bytes than format 6 did:\n index  %x\n detail %x", i, d)
	}
	m7 := newMethod(Defaults())
	if s7, _ := m7.NewSketcher().Sketch(&doc); len(s7.Slots) != 2 || m7.AppendDetail(nil, s7)[0] != Format {
		t.Errorf("the defaults sketch format %d, places %x; want %d with two places", m7.AppendDetail(nil, s7)[0], s7.Slots, Format)
	}
}

// TestFormat7Fixture: a sketch of format 7, as the binary of that format
// wrote it (testdata/format7.hex: the index part, then the detail part, of
// a table of the rainfall at fourteen stations, twelve of them NIL, two
// "33.0 MILLIMETRES" and "5.0 MM", sketched at the defaults), still
// decodes, with the four places that format read: none at a station of
// NIL, those with rain in the places of their units; and the options of
// an index of format 7 (Spec's Older) sketch that table into those very
// bytes, where the defaults make format 8 and read a place at each of the
// fourteen stations, NIL the figure 0 there.
func TestFormat7Fixture(t *testing.T) {
	c, ok := older(7, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 7")
	}
	enginetest.StationsFixture[Sketch](t, "testdata/format7.hex", newMethod(c.(Options)), newMethod(Defaults()),
		func(s *Sketch) []uint64 { return s.Slots }, Format)
}

// TestFormat8Fixture: a sketch of format 8, as the binary of that format
// wrote it (testdata/format8.hex: a table of volumes of one column under
// a dateline, sketched at the defaults), still decodes, its place without
// letters, and the options of an index of format 8 (Spec's Older) sketch
// the table into those very bytes, where the defaults read each figure in
// its row's last column and keep the place's letters.
func TestFormat8Fixture(t *testing.T) {
	c, ok := older(8, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 8")
	}
	enginetest.ColumnsFixture(t, "testdata/format8.hex", newMethod(c.(Options)), newMethod(Defaults()),
		func(s *Sketch) []uint64 { return s.Slots }, func(s *Sketch) []uint32 { return templatestest.PlaceLetters(s.Names) }, Format)
}

// BenchmarkSketchNews sketches 200 news-sized texts (about 450 words, one
// word in eight a capitalised name, under a dateline and a title) at the
// defaults, as format 4 did, as format 5 did with the filter of the words,
// as format 6 did with the title names shorter than a shingle and their
// keys in that filter, as format 7 did reading figures and places in
// every script, which on these texts of ASCII reads what 6 read, and as
// format 8 does reading "nil" and the units of a table of stations, which
// these texts do not write (the options of indexes of formats 4 to 7
// against the defaults): the cost of each to a document's sketch, MB/s of
// text.
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
	c4, _ := older(4, Defaults())
	c5, _ := older(5, Defaults())
	c6, _ := older(6, Defaults())
	c7, _ := older(7, Defaults())
	for _, o := range []struct {
		name string
		opts Options
	}{{"format=4", c4.(Options)}, {"format=5", c5.(Options)}, {"format=6", c6.(Options)}, {"format=7", c7.(Options)},
		{"format=8", Defaults()}} {
		b.Run(o.name, func(b *testing.B) {
			s := newMethod(o.opts).NewSketcher()
			b.SetBytes(int64(size))
			for b.Loop() {
				for i := range docs {
					s.Sketch(&docs[i])
				}
			}
		})
	}
}

// TestNarrowSpaceFormat7Fixture: an index of format 7 goes on reading a
// narrow no-break space (U+202F) between figures as that format did,
// joining them ("180\u202f000" one word), in every analyzer its sketches read
// words from (analysis.Analyzer.NarrowSpaceJoins): its sketch of
// enginetest.NarrowSpaceDoc is the bytes the binary of that format wrote.
func TestNarrowSpaceFormat7Fixture(t *testing.T) {
	c, ok := older(7, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 7")
	}
	m := newMethod(c.(Options))
	enginetest.NarrowSpaceFixture[Sketch](t, "testdata/narrow-format7.hex", m)
}

// TestZeroWidthSpaceFormat7Fixture: the options of an index of format 7
// read a zero-width space inside a word as that format did, a word boundary
// ("ra\u200bte" two words), in every analyzer its sketches read words from
// (analysis.Analyzer.ZeroWidthSpaceSplits): its sketch of
// enginetest.ZeroWidthSpaceDoc is the bytes the binary of that format wrote.
func TestZeroWidthSpaceFormat7Fixture(t *testing.T) {
	c, ok := older(7, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 7")
	}
	m := newMethod(c.(Options))
	enginetest.ZeroWidthSpaceFixture[Sketch](t, "testdata/zwsp-format7.hex", m)
}
