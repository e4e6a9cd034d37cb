package sentences

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }

// TestEvidenceSharedCountsEverySentence pins the bug where the evidence's
// shared count stopped at the five sentences it quotes: two texts holding
// seven sentences in common said "shared": 5 beside a score of 7/8.
// Boilerplate, which does not score, is not counted.
func TestEvidenceSharedCountsEverySentence(t *testing.T) {
	g := enginetest.NewTextGen(7)
	common := g.Sentences(7)
	boiler := "Subscribe to our newsletter for the news of the day."
	docs := []core.Document{
		enginetest.Doc("a", append(append([]string{}, common...), boiler)),
		enginetest.Doc("b", append(append([]string{}, common...), g.Sentence(), boiler)),
	}
	o := Defaults()
	for i := range o.MaxDocs { // the boilerplate sentence is in 12 documents
		docs = append(docs, enginetest.Doc(fmt.Sprint("bg", i), append(g.Sentences(3), boiler)))
	}
	for _, weighted := range []bool{false, true} {
		t.Run(fmt.Sprint("weighted=", weighted), func(t *testing.T) {
			o.Weighted = weighted
			p, ok := enginetest.Batch(t, Spec, o, docs)["a~b"]
			if !ok {
				t.Fatal("a and b are not a pair")
			}
			ev := p.Evidence.(Evidence)
			if ev.Shared != len(common) || len(ev.Sentences) != maxQuoted {
				t.Errorf("shared %d, %d sentences quoted; want %d shared, %d quoted", ev.Shared, len(ev.Sentences), len(common), maxQuoted)
			}
			if !weighted && p.Score != 7.0/8 {
				t.Errorf("score %v, want 7/8", p.Score)
			}
		})
	}
}

// TestShortSentenceLengthIgnoresSpacing pins the bug where a sentence's
// length counted every rune of white space while its hash ignores spacing:
// "Prices rose a lot." (18 characters, under the 20 a sentence needs) was
// left out of one text and kept in its copy with doubled spaces, so the
// two scored 1/4 instead of 1/3 and were not marked similar.
func TestShortSentenceLengthIgnoresSpacing(t *testing.T) {
	g := enginetest.NewTextGen(3)
	shared := g.Sentence()
	docs := []core.Document{
		enginetest.Doc("a", []string{"Prices rose a lot.", shared, g.Sentence()}),
		enginetest.Doc("b", []string{"Prices  rose  a  lot.", shared, g.Sentence()}),
	}
	p, ok := enginetest.Batch(t, Spec, Defaults(), docs)["a~b"]
	if !ok {
		t.Fatal("a and b are not a pair")
	}
	if math.Abs(p.Score-1.0/3) > 0.001 {
		t.Errorf("score %v, want 1/3 (the short sentence left out of both)", p.Score)
	}
}

// TestVetoedPairIsSimilar: two bulletins of one template, alike but for
// the city and two figures, whose shared sentences make them a duplicate
// by score, are similar (the method reports similar pairs at
// --similar 0.3), refused by a template rule; with the rules off (as
// --profile corpus sets them) they are a duplicate, and with --similar 0
// not reported. Their evidence says what the rules read.
func TestVetoedPairIsSimilar(t *testing.T) {
	docs := []core.Document{bulletin("Tucson", "24", "30"), bulletin("Raleigh", "26", "35")}
	off := Defaults()
	off.NumberAgreement, off.DateApart, off.Names, off.Template, off.Slots = -1, 0, false, false, false
	noSimilar := Defaults()
	noSimilar.Similar = 0
	for _, tc := range []struct {
		name string
		o    Options
		want core.Label
	}{{"defaults", Defaults(), core.Similar}, {"rules off", off, core.Duplicate}, {"similar 0", noSimilar, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := enginetest.Batch(t, Spec, tc.o, docs)["tucson~raleigh"]
			if p.Label != tc.want {
				t.Fatalf("the bulletins of two cities are %q (reported %v), want %q", p.Label, ok, tc.want)
			}
			if !ok {
				return
			}
			if p.Score < tc.o.Threshold {
				t.Errorf("score %v, below the threshold %v: the case tests nothing", p.Score, tc.o.Threshold)
			}
			ev := p.Evidence.(Evidence)
			if tc.want == core.Similar && !ev.FiguresChanged {
				t.Errorf("evidence %+v: the figures did not change", ev)
			}
		})
	}
}

// TestEvidenceQuotesUnescaped pins the bug where the evidence, written by
// its own MarshalJSON once it carried the template rules' fields, quoted
// "&" as "\u0026" where the writer of pairs.jsonl, which escapes no HTML,
// wrote "&".
func TestEvidenceQuotesUnescaped(t *testing.T) {
	o := 0.5
	ev := Evidence{Shared: 1, Sentences: []string{"Networked & Electronic Media <NEM> initiative."}}
	ev.NumberOverlap = &o
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		t.Fatal(err)
	}
	want := `{"shared":1,"sentences":["Networked & Electronic Media <NEM> initiative."],"number_overlap":0.5}` + "\n"
	if b.String() != want {
		t.Errorf("evidence written as\n%s want\n%s", b.String(), want)
	}
}

// TestScoreShownOnItsSide: two texts sharing two of their three sentences
// score 2/3, under a --threshold of 0.66667, and are similar; their score
// is written 0.666667, not 0.6667, which would meet the threshold beside
// the label "similar".
func TestScoreShownOnItsSide(t *testing.T) {
	g := enginetest.NewTextGen(5)
	common := g.Sentences(2)
	docs := []core.Document{
		enginetest.Doc("a", append(append([]string{}, common...), g.Sentence())),
		enginetest.Doc("b", common),
	}
	o := Defaults()
	o.Threshold = 0.66667
	p, ok := enginetest.Batch(t, Spec, o, docs)["a~b"]
	if !ok {
		t.Fatal("a and b are not a pair")
	}
	if p.Label != core.Similar || p.Score != 0.666667 {
		t.Errorf("%s of score %v, want similar of score 0.666667", p.Label, p.Score)
	}
}

// TestDatelineRegionStartsNoSentence pins the bug where a period before
// the comma of a US dateline ended a sentence ("STAMFORD, Conn., Feb 26 -"):
// the rest of the line, ", Feb 26 - Qtly div 25 cts vs 25 cts prior", was
// a sentence of its own that two companies' notices shared, a duplicate of
// score 1 with the template rules off (as --profile corpus sets them). An
// index of format 4 goes on splitting as it did.
func TestDatelineRegionStartsNoSentence(t *testing.T) {
	docs := []core.Document{
		{ID: "stamford", Title: "COMBUSTION ENGINEERING INC REGULAR DIV",
			Text: "STAMFORD, Conn., Feb 26 - Qtly div 25 cts vs 25 cts prior\n    Pay April 30\n    Record April 16"},
		{ID: "reading", Title: "MERIDIAN BANCORP INC SETS REGULAR PAYOUT",
			Text: "READING, Penn., Feb 26 - Qtly div 25 cts vs 25 cts prior\n    Pay April one\n    Record March 15"},
	}
	off := Defaults()
	off.NumberAgreement, off.DateApart, off.Names, off.Template, off.Slots = -1, 0, false, false, false
	if p, ok := enginetest.Batch(t, Spec, off, docs)["stamford~reading"]; ok {
		t.Errorf("the notices of two companies are a pair: %s of score %v, evidence %+v", p.Label, p.Score, p.Evidence)
	}
	c, ok := older(4, off)
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	p := enginetest.Batch(t, Spec, c.(Options), docs)["stamford~reading"]
	if p.Score != 1 {
		t.Errorf("format 4: score %v, want 1 (the sentence after the region shared, as that format split it)", p.Score)
	}
	// The evidence quotes the shared sentence as that format split it: its
	// hash is the sketches'.
	if ev, _ := p.Evidence.(Evidence); !slices.Equal(ev.Sentences, []string{", Feb 26 - Qtly div 25 cts vs 25 cts prior"}) {
		t.Errorf("format 4: evidence %+v, want the sentence after the region quoted", p.Evidence)
	}
}

// TestFigureWithDecimalPointEndsSentence pins the bug where the period
// after a figure with a decimal point ("$9.3bn.") ended no sentence, read
// as a dotted abbreviation's ("Ph.D."): two reports of a deal, alike but
// for the sentence after the figure, shared 2 sentences of 6 (0.5), where
// with "$9bn" they share 3 of 5 (0.6). An index of format 4 goes on
// splitting as it did.
func TestFigureWithDecimalPointEndsSentence(t *testing.T) {
	report := func(id, figure, comment string) core.Document {
		return core.Document{ID: id, Text: "Shares in the group rose sharply in early trading in London on Monday. " +
			"The firm agreed to buy its smaller rival for " + figure + ". " + comment +
			" The deal is expected to close before the end of the year."}
	}
	off := Defaults()
	off.NumberAgreement, off.DateApart, off.Names, off.Template, off.Slots = -1, 0, false, false, false
	format4, ok := older(4, off)
	if !ok {
		t.Fatal("Spec's Older refuses format 4")
	}
	for _, tc := range []struct {
		name   string
		o      Options
		figure string
		shared int
		score  float64
	}{
		{"decimal", off, "$9.3bn", 3, 0.6},
		{"whole", off, "$9bn", 3, 0.6},
		{"unit after a decimal", off, "12.5km", 3, 0.6},
		{"format 4 decimal", format4.(Options), "$9.3bn", 2, 0.5},
		{"format 4 whole", format4.(Options), "$9bn", 3, 0.6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []core.Document{report("a", tc.figure, "Analysts said the price looked high for a company of its size."),
				report("b", tc.figure, "Critics said the price looked far too high for a firm like that.")}
			p, ok := enginetest.Batch(t, Spec, tc.o, docs)["a~b"]
			if !ok {
				t.Fatal("a and b are not a pair")
			}
			if ev := p.Evidence.(Evidence); ev.Shared != tc.shared || math.Abs(p.Score-tc.score) > 1e-6 {
				t.Errorf("shared %d, score %v; want %d, %v", ev.Shared, p.Score, tc.shared, tc.score)
			}
		})
	}
}
