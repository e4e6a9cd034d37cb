package templates

import (
	"fmt"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// BenchmarkScan scans made-up wire reports, with and without the words
// that fill the template's slots (Scanner.Fills): the cost --slots adds
// to each document's sketch; and as minhash's sketcher does by default,
// with its look-alikes folded (Scanner.Folded), some of the figures
// misread, and with the filter of its words (Scanner.WordFilter, sketch
// format 8), and with the title names shorter than a shingle and the keys
// of the short words with a capital in that filter (Scanner.ShortNames,
// format 9 on), and reading figures and places in every script
// (Scanner.Unicode, format 11 on), which on these texts of ASCII reads
// what it read without, and the figures of a table of stations as it
// writes them (Scanner.Measures, format 12 on), which these texts, of no
// "nil" and no unit, do not write, and figures and datelines as more
// languages write them (Scanner.Languages, format 12 on), which these
// texts of English do not.
func BenchmarkScan(b *testing.B) {
	var docs []*core.Document
	for i := range 200 {
		docs = append(docs, &core.Document{
			Title: fmt.Sprintf("GENERAL ALLOYS <GALL> SETS %d PCT STAKE IN MERIDIAN", i%40),
			Text: fmt.Sprintf("NEW YORK, April %d - General Alloys Corp said it raised its stake in Meridian Holdings Inc "+
				"to %d pct from %d.%d pct, and lead manager Morgan Stanley International said the \"Northern Star\" "+
				"eurobond was priced at 101-3/8.\n\nNY COMEX COPPER %d:%02d - The opening was steady, dealers said, "+
				"with wheat and corn futures up %d cts in light trading at the Chicago Board of Trade.\n\n"+
				"The company, based in Pittsburgh, Pa., said the purchase of %d,%03d shares was made for investment "+
				"purposes and it has no plans to seek control of Meridian, whose chairman John R. Smith declined comment. "+
				"Net %s vs 980,000.",
				i%28+1, i%50+5, i%9, i%10, i%12+8, i%60, i%7, i+100, i*7%1000, []string{"1,200,000", "1,2O0,000", "l,200,O00"}[i%3]),
		})
	}
	var an analysis.Analyzer
	words := make([][]analysis.Token, len(docs))
	for i, d := range docs {
		words[i] = append([]analysis.Token(nil), an.Words(d.Text)...)
	}
	for _, sc := range []struct {
		name      string
		fills     bool
		fold      bool
		words     bool
		short     bool
		unicode   bool
		measures  bool
		languages bool
	}{{"fills=false", false, false, false, false, false, false, false}, {"fills=true", true, false, false, false, false, false, false},
		{"folded", true, true, false, false, false, false, false}, {"folded+words", true, true, true, false, false, false, false},
		{"folded+words+short", true, true, true, true, false, false, false},
		{"folded+words+short+unicode", true, true, true, true, true, false, false},
		{"folded+words+short+unicode+measures", true, true, true, true, true, true, false},
		{"folded+words+short+unicode+measures+languages", true, true, true, true, true, true, true}} {
		b.Run(sc.name, func(b *testing.B) {
			s := Scanner{Shingle: 6, Fills: sc.fills, Folded: sc.fold, WordFilter: sc.words, ShortNames: sc.short, Unicode: sc.unicode,
				Measures: sc.measures, Languages: sc.languages}
			for b.Loop() {
				for i, d := range docs {
					var c Context
					s.Scan(d, words[i], &c)
				}
			}
		})
	}
}

// BenchmarkRecheck compares the contexts of made-up wire reports pair by
// pair as Compare and then Recheck do: what a duplicate costs beyond a
// candidate; with words=true, every name past the cut (nothing sampled) is
// looked up in the other's filter of its words (Context.WordFilter)
// instead of taken as held.
func BenchmarkRecheck(b *testing.B) {
	var ctxs, withWords []Context
	for i := range 50 {
		title := fmt.Sprintf("KELSO COPPER %d:%02d FUND <KCF> SETS %d CTS", i%12+8, i%60, i%40)
		text := fmt.Sprintf("KELSO, April %d - Kelso Copper Fund said it raised its payout to %d cts from %d cts, "+
			"and the Northern Star Trust said copper opened steady at %d.%d dlrs.\n\nPay April 30\n\nRecord April 15",
			i%28+1, i%50+5, i%9+1, i%7+60, i%10)
		ctxs = append(ctxs, contextOf(title, text))
		withWords = append(withWords, scanWith(Scanner{Shingle: 6, Fills: true, WordFilter: true}, title, text))
	}
	for _, sc := range []struct {
		recheck, words bool
	}{{false, false}, {true, false}, {true, true}} {
		ctxs := ctxs
		if sc.words {
			ctxs = withWords
		}
		name := fmt.Sprintf("recheck=%v", sc.recheck)
		if sc.words {
			name += "/words"
		}
		b.Run(name, func(b *testing.B) {
			recheck := sc.recheck
			for b.Loop() {
				for i := range ctxs {
					a, c := &ctxs[i], &ctxs[(i+1)%len(ctxs)]
					e := Compare(a, c, Sample{}, Sample{})
					if recheck {
						Recheck(a, c, Sample{}, Sample{}, &e)
					}
				}
			}
		})
	}
}
