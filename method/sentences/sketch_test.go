package sentences

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

// bulletin is a weather bulletin of a city: a template whose slots are the
// city and the figures. testdata/format1.hex was sketched from
// bulletin("Raleigh", "24", "35").
func bulletin(city, high, rain string) core.Document {
	text := strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday, May 2: morning sunshine " +
		"will give way to clouds by the afternoon. The high will reach " + high + " degrees Celsius, with an overnight low of 14 degrees.\n\n" +
		"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
		"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
		"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
		"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
		"Sunrise is at 5:52 a.m. and sunset at 8:16 p.m. The weather desk updates its forecasts every six hours."
	return core.Document{ID: strings.ToLower(city), Title: city + " weather: high of " + high + "C on Thursday", Text: text,
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
}

// TestFormat1Fixture: a sketch of format 1, as the binary of that format
// wrote it (testdata/format1.hex: the index part of a weather bulletin
// sketched at the defaults; format 1 had no detail part), still decodes,
// without a context, with the defaults' options as with an index's of
// format 1 (Spec's Older); and those sketch that bulletin into those very
// bytes, where the defaults make the current format, whose detail part
// holds the context with the filter of the words.
func TestFormat1Fixture(t *testing.T) {
	index := enginetest.ReadFixture(t, "testdata/format1.hex", 1)[0]
	doc := bulletin("Raleigh", "24", "35")
	c, ok := older(1, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 1")
	}
	var methods [2]*method
	for i, o := range []Options{c.(Options), Defaults()} {
		m := newMethod(o)
		methods[i] = m
		sk, err := m.DecodeSketch(index, nil)
		if err != nil {
			t.Fatalf("a sketch of format 1 does not decode with the options of format %d: %v", m.o.sketchFormat(), err)
		}
		if len(sk.Names) != 0 || sk.WordFilter != nil || sk.Nums != nil {
			t.Errorf("a sketch of format 1 decoded with a context: %+v", sk.Context)
		}
	}
	m1, m2 := methods[0], methods[1]
	fresh, _ := m1.NewSketcher().Sketch(&doc)
	if i, d := m1.AppendIndex(nil, fresh), m1.AppendDetail(nil, fresh); !bytes.Equal(i, index) || len(d) != 0 {
		t.Errorf("the options of an index of format 1 sketch other bytes than format 1 did:\n index  %x\n detail %x", i, d)
	}
	s2, _ := m2.NewSketcher().Sketch(&doc)
	i2, d2 := m2.AppendIndex(nil, s2), m2.AppendDetail(nil, s2)
	if i2[0] != Format || len(d2) == 0 || d2[0] != Format || s2.WordFilter == nil || len(s2.Names) == 0 {
		t.Fatalf("the defaults sketch index format %d, detail %x, filter %v, names %v; want %d with a context", i2[0], d2, s2.WordFilter, s2.Names, Format)
	}
	if !bytes.Equal(i2[1:], index[1:]) {
		t.Errorf("the index part of format %d is not format 1's but for its format byte", Format)
	}
	back, err := m2.DecodeSketch(i2, d2)
	if err != nil {
		t.Fatal(err)
	}
	if i, d := m2.AppendIndex(nil, back), m2.AppendDetail(nil, back); !bytes.Equal(i, i2) || !bytes.Equal(d, d2) {
		t.Errorf("a sketch of format %d changes when decoded and encoded again", Format)
	}
}

// TestFormat2Fixture: a sketch of format 2, as the binary of that format
// wrote it (testdata/format2.hex: the index part, then the detail part, of
// Leeds' weather bulletin sketched at the defaults), still decodes, with
// the filter of its words; and the options of an index of format 2
// (Spec's Older) sketch that bulletin into those very bytes, without the
// title name "Leeds", shorter than a shingle, whose key its filter lacks,
// where the defaults (format 3 on) keep it.
func TestFormat2Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format2.hex", 2)
	doc := bulletin("Leeds", "24", "35")
	shortNames := func(s *Sketch) int {
		n := 0
		for _, x := range s.Names {
			if x.Kind() == templates.TitleName && x.Shingle == 0 {
				n++
			}
		}
		return n
	}
	c, ok := older(2, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 2")
	}
	m2 := newMethod(c.(Options))
	sk, err := m2.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 2 does not decode: %v", err)
	}
	if sk.WordFilter == nil || len(sk.Names) == 0 || shortNames(sk) != 0 {
		t.Errorf("decoded: filter %v, names %+v; want a filter and names, none a short title name", sk.WordFilter, sk.Names)
	}
	fresh, _ := m2.NewSketcher().Sketch(&doc)
	if i, d := m2.AppendIndex(nil, fresh), m2.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 2 sketch other bytes than format 2 did:\n index  %x\n detail %x", i, d)
	}
	m3 := newMethod(Defaults())
	if s3, _ := m3.NewSketcher().Sketch(&doc); shortNames(s3) != 1 || m3.AppendDetail(nil, s3)[0] != Format {
		t.Errorf("the defaults sketch format %d, names %+v; want %d with the short title name", m3.AppendDetail(nil, s3)[0], s3.Names, Format)
	}
}

// TestFormat3Fixture: a sketch of format 3, as the binary of that format
// wrote it (testdata/format3.hex: the index part, then the detail part, of
// a notice in Russian, "с 3 по 10 мая", sketched at the defaults), still
// decodes, without places: read in ASCII alone, its line is one place
// both figures fill, left out; and the options of an index of format 3
// (Spec's Older) sketch that notice into those very bytes, where the
// defaults (format 4 on) keep the places its Russian words make.
func TestFormat3Fixture(t *testing.T) {
	parts := enginetest.ReadFixture(t, "testdata/format3.hex", 2)
	doc := enginetest.Notice("ru", '0', 0, 3, 10)
	c, ok := older(3, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 3")
	}
	m3 := newMethod(c.(Options))
	sk, err := m3.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 3 does not decode: %v", err)
	}
	if len(sk.Nums) != 2 || sk.Slots != nil {
		t.Errorf("decoded: figures %v, places %x; want two figures and no places", sk.Nums, sk.Slots)
	}
	fresh, _ := m3.NewSketcher().Sketch(&doc)
	if i, d := m3.AppendIndex(nil, fresh), m3.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 3 sketch other bytes than format 3 did:\n index  %x\n detail %x", i, d)
	}
	m4 := newMethod(Defaults())
	if s4, _ := m4.NewSketcher().Sketch(&doc); len(s4.Slots) != 2 || m4.AppendDetail(nil, s4)[0] != Format {
		t.Errorf("the defaults sketch format %d, places %x; want %d with two places", m4.AppendDetail(nil, s4)[0], s4.Slots, Format)
	}
}

// TestFormat4Fixture: a sketch of format 4, as the binary of that format
// wrote it (testdata/format4.hex: the index part, then the detail part, of
// a table of the rainfall at fourteen stations, twelve of them NIL, two
// "33.0 MILLIMETRES" and "5.0 MM", sketched at the defaults), still
// decodes, with the four places that format read: none at a station of
// NIL, those with rain in the places of their units; and the options of
// an index of format 4 (Spec's Older) sketch that table into those very
// bytes, where the defaults make format 5 and read a place at each of the
// fourteen stations, NIL the figure 0 there.
func TestFormat4Fixture(t *testing.T) {
	c, ok := older(4, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	enginetest.StationsFixture[Sketch](t, "testdata/format4.hex", newMethod(c.(Options)), newMethod(Defaults()),
		func(s *Sketch) []uint64 { return s.Slots }, Format)
}

// TestFormat5Fixture: a sketch of format 5, as the binary of that format
// wrote it (testdata/format5.hex: a table of volumes of one column under
// a dateline, sketched at the defaults), still decodes, its place without
// letters, and the options of an index of format 5 (Spec's Older) sketch
// the table into those very bytes, where the defaults read each figure in
// its row's last column and keep the place's letters.
func TestFormat5Fixture(t *testing.T) {
	c, ok := older(5, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 5")
	}
	enginetest.ColumnsFixture(t, "testdata/format5.hex", newMethod(c.(Options)), newMethod(Defaults()),
		func(s *Sketch) []uint64 { return s.Slots }, func(s *Sketch) []uint32 { return templatestest.PlaceLetters(s.Names) }, Format)
}

// BenchmarkSketchNews sketches 200 news-sized texts (about 450 words, one
// word in eight a capitalised name, under a dateline and a title) at the
// defaults, as format 1 did, as format 2 did with the template rules'
// context, as format 3 did with the title names shorter than a shingle
// and their keys in the filter of the words, as format 4 did reading
// figures and places in every script, which on these texts of ASCII reads
// what 3 read, and as format 5 does reading "nil" and the units of a table
// of stations, which these texts do not write (the options of indexes of
// formats 1 to 4 against the defaults): the cost of each to a document's
// sketch, MB/s of text.
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
	c1, _ := older(1, Defaults())
	c2, _ := older(2, Defaults())
	c3, _ := older(3, Defaults())
	c4, _ := older(4, Defaults())
	for _, o := range []struct {
		name string
		opts Options
	}{{"format=1", c1.(Options)}, {"format=2", c2.(Options)}, {"format=3", c3.(Options)}, {"format=4", c4.(Options)},
		{"format=5", Defaults()}} {
		b.Run(o.name, func(b *testing.B) {
			m := newMethod(o.opts)
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

// TestNoContextWithRulesOff: with every template rule off (--profile
// corpus) a sketch reads no context, which would cost a fifth to half of
// the sketching for nothing, and with one rule on it reads it; the filter
// of the words only with --names.
func TestNoContextWithRulesOff(t *testing.T) {
	doc := bulletin("Raleigh", "24", "35")
	off := Defaults()
	off.NumberAgreement, off.DateApart, off.Names, off.Template, off.Slots = -1, 0, false, false, false
	on := off
	on.Names = true
	for _, tc := range []struct {
		o    Options
		want bool
	}{{off, false}, {on, true}} {
		sk, _ := newMethod(tc.o).NewSketcher().Sketch(&doc)
		if got := sk.WordFilter != nil || len(sk.Names) > 0; got != tc.want {
			t.Errorf("rules %+v: context read %t, want %t (%+v)", tc.o, got, tc.want, sk.Context)
		}
	}
	// The filter of the words serves --names alone: another rule reads
	// the context without it.
	tpl := off
	tpl.Template = true
	sk, _ := newMethod(tpl).NewSketcher().Sketch(&doc)
	if sk.WordFilter != nil || len(sk.Names) == 0 {
		t.Errorf("--template alone: filter %v, names %v; want no filter and the names", sk.WordFilter, sk.Names)
	}
}

// TestNarrowSpaceFormat4Fixture: an index of format 4 goes on reading a
// narrow no-break space (U+202F) between figures as that format did,
// joining them ("180\u202f000" one word), in every analyzer its sketches read
// words from (analysis.Analyzer.NarrowSpaceJoins): its sketch of
// enginetest.NarrowSpaceDoc is the bytes the binary of that format wrote.
func TestNarrowSpaceFormat4Fixture(t *testing.T) {
	c, ok := older(4, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	m := newMethod(c.(Options))
	enginetest.NarrowSpaceFixture[Sketch](t, "testdata/narrow-format4.hex", m)
}

// TestZeroWidthSpaceFormat4Fixture: the options of an index of format 4
// read a zero-width space inside a word as that format did, a word boundary
// ("ra\u200bte" two words), in every analyzer its sketches read words from
// (analysis.Analyzer.ZeroWidthSpaceSplits): its sketch of
// enginetest.ZeroWidthSpaceDoc is the bytes the binary of that format wrote.
func TestZeroWidthSpaceFormat4Fixture(t *testing.T) {
	c, ok := older(4, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	m := newMethod(c.(Options))
	enginetest.ZeroWidthSpaceFixture[Sketch](t, "testdata/zwsp-format4.hex", m)
}

// sentenceEndsDoc is a dividend notice whose dateline names a state with
// a period before a comma ("STAMFORD, Conn., Feb 26 -") and whose text
// ends a sentence after a figure with a decimal point ("$9.3bn.").
func sentenceEndsDoc() core.Document {
	return core.Document{ID: "ends", Title: "Combustion Engineering sets regular dividend",
		Text: "STAMFORD, Conn., Feb 26 - Qtly div 25 cts vs 25 cts prior, payable April 30 to holders of record April 16.\n" +
			"    The company agreed last year to buy its smaller rival for $9.3bn. Analysts said the price looked high for a " +
			"company of its size.\n    Sales rose to 12.5 mln dlrs; Portland, Ore., said orders fell.",
		Date: time.Date(1987, 2, 26, 10, 0, 0, 0, time.UTC)}
}

// TestSentenceEndsFormat4Fixture: the options of an index of format 4
// split sentences as that format did, ending one at a period before a
// comma and not after a figure with a decimal point
// (analysis.Analyzer.PeriodBeforeCommaEnds, DecimalAbbreviates): its
// sketch of sentenceEndsDoc is the bytes the binary of that format wrote.
func TestSentenceEndsFormat4Fixture(t *testing.T) {
	c, ok := older(4, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	enginetest.FormatFixture[Sketch](t, "testdata/ends-format4.hex", newMethod(c.(Options)), sentenceEndsDoc())
}

// scriptStopsDoc is a story of four sentences, each in another script
// whose full stop the formats before 7 did not read: Urdu, Armenian,
// Amharic and Burmese.
func scriptStopsDoc() core.Document {
	return core.Document{ID: "stops", Title: "شہر میں بارش",
		Text: "آج شہر میں دن بھر تیز بارش ہوئی۔ لوگ سارا دن اپنے گھروں میں رہے۔ " +
			"Այսօր քաղաքում ամբողջ օրը անձրև եկավ։ Վաղը արևոտ եղանակ կլինի։\n\n" +
			"ዛሬ በከተማው ቀኑን ሙሉ ዝናብ ዘነበ። ነገ በከተማው ፀሐያማ እና ሞቃት ቀን ይሆናል።\n\n" +
			"ဒီနေ့ မြို့မှာ တစ်နေကုန် မိုးရွာတယ်။ မနက်ဖြန် မြို့မှာ တစ်နေကုန် နေသာမယ်။",
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
}

// TestScriptStopsFormat6Fixture: the options of an index of format 6
// split sentences as that format did, at none of the full stops of Urdu,
// Armenian, Amharic and Burmese (analysis.Analyzer.FewTerminators): its
// sketch of scriptStopsDoc is the bytes the binary of that format wrote
// (testdata/stops-format6.hex), three sentences, one a paragraph, where
// the defaults end a sentence at each of those stops.
func TestScriptStopsFormat6Fixture(t *testing.T) {
	c, ok := older(6, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 6")
	}
	enginetest.FormatFixture[Sketch](t, "testdata/stops-format6.hex", newMethod(c.(Options)), scriptStopsDoc())
	doc := scriptStopsDoc()
	s, _ := newMethod(Defaults()).NewSketcher().Sketch(&doc)
	if len(s.Hashes) != 8 {
		t.Errorf("the defaults read %d sentences of scriptStopsDoc, want 8", len(s.Hashes))
	}
}
