package templates

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/analysis"
)

// TestNamesPastTheCut: a name whose least shingle lies past the other
// document's sample cut is looked up in that document's filter of its
// words (Context.WordFilter), not taken as held: the bulletins of two
// cities, one template filled in with another city, had no foreign name
// and no other place when the samples kept neither city's shingles (the
// reviewer's Seattle and Baltimore, a duplicate at Jaccard 0.935). A copy
// holds the names however its words carry them; without a filter (a
// sketch of an older format) such a name is taken as held, as before.
func TestNamesPastTheCut(t *testing.T) {
	s := Scanner{Shingle: 6, Folded: true, WordFilter: true}
	bulletin := func(city, upper string) (string, string) {
		return city + " weather: high of 24C on Thursday", upper + ", May 2 - The forecast for " + city +
			" for Thursday: morning sunshine will give way to clouds, with a high of 24 degrees."
	}
	tucsonTitle, tucson := bulletin("Tucson", "TUCSON")
	raleighTitle, raleigh := bulletin("Raleigh", "RALEIGH")
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		foreign              [2]int
		otherPlace           bool
	}{
		{"two cities' bulletins", tucsonTitle, tucson, raleighTitle, raleigh, [2]int{2, 2}, true},
		{"a copy", raleighTitle, raleigh, raleighTitle, raleigh, [2]int{0, 0}, false},
		{"a copy under another headline, the name possessive", raleighTitle, raleigh,
			"", "The forecast for Raleigh's Thursday: morning sunshine will give way to clouds, with a high of 24 degrees.", [2]int{0, 0}, false},
		{"a copy with its look-alikes misread", raleighTitle, raleigh,
			"", "The forecast for Ra1eigh for Thursday: morning sunshine will give way to clouds, with a high of 24 degrees.", [2]int{0, 0}, false},
		{"a copy that writes no capital", raleighTitle, raleigh,
			"", "the forecast for raleigh for thursday: morning sunshine will give way to clouds, with a high of 24 degrees.", [2]int{0, 0}, false},
		{"two cities' bulletins, one sketched without the filter", tucsonTitle, tucson, raleighTitle, raleigh, [2]int{2, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := scanWith(s, tc.titleA, tc.a), scanWith(s, tc.titleB, tc.b)
			if strings.Contains(tc.name, "without the filter") {
				a.WordFilter = nil // b's names past a's cut are taken as held
			}
			e := Compare(&a, &b, Sample{}, Sample{}) // nothing sampled: every name past the cut
			if e.ForeignNames != tc.foreign || e.OtherPlace != tc.otherPlace {
				t.Errorf("foreign names %v, other place %v; want %v, %v (names %+v and %+v)",
					e.ForeignNames, e.OtherPlace, tc.foreign, tc.otherPlace, a.Names, b.Names)
			}
			if r, want := (Rules{Names: true}), tc.foreign[0] > 0 && tc.foreign[1] > 0; (r.Veto(&e) == Names) != want {
				t.Errorf("vetoed %q, want %v (evidence %+v)", r.Veto(&e), want, e)
			}
		})
	}
}

// TestWordFilterHoldsNames: a name of one document (a title word its text
// capitalises, a dateline's place, a word of a <...> mark) has its least
// shingle in the filter of another text that writes the same word, in any
// case, whatever a word with a capital adds to it, and with its
// look-alikes misread when the scanner folds them.
func TestWordFilterHoldsNames(t *testing.T) {
	for _, folded := range []bool{false, true} {
		s := Scanner{Shingle: 6, Folded: folded, WordFilter: true}
		for _, tc := range []struct{ title, text, other string }{
			{"MERIDIAN SETS PAYOUT", "KELSO, May 2 - Meridian Holdings said it set its payout.", "A payout from MERIDIAN was set."},
			{"GRAIN STEADY", "RIVERTON, May 2 - Dealers said grain was steady.", "Riverton dealers said prices were steady."},
			{"AIRLINE BUYS PLANES", "<Qantas Airways Ltd> said it bought planes.", "Qantas Airways said it bought planes."},
			{"ZÜRICH BANK RAISES RATES", "The Zürich bank raised its rates, Zürich dealers said.", "Dealers in Zürich said rates rose."},
			{"O'BRIENS BUYS STAKE", "The stake O'Briens bought is small.", "A stake bought by O'Briens Group."},
			{"BALTIMORE BANK GROWS", "Profit at the Baltimore bank grew.", "Baltimore's bank grew."},
			{"HAMBURG MELDET WACHSTUM", "In Hamburg meldet der Senat Wachstum.", "Der Senat Hamburgs meldet Wachstum."},
			{"SWISS BANKING CURBS", "Curbs on Swiss Banking Secrecy were proposed.", "Curbs on banking secrecy were proposed."},
		} {
			if folded {
				tc.other = strings.ReplaceAll(tc.other, "l", "1") // a look-alike misread
			}
			a := scanWith(s, tc.title, tc.text)
			b := scanWith(s, "", tc.other)
			if len(a.Names) == 0 {
				t.Fatalf("%q: no names to look up", tc.text)
			}
			for _, x := range a.Names {
				if x.Shingle != 0 && !b.WordFilter.Has(x.Shingle) {
					t.Errorf("folded %v: a name of %q (shingle %08x) is not in the filter of %q", folded, tc.text, x.Shingle, tc.other)
				}
			}
		}
	}
}

// TestFilter: a filter holds every fingerprint added, and answers true
// for about filterFalse of the others: no more than 3 % at the sizes of
// news texts (a 600-word article keeps 60 to 70 shingles of its words that
// can be names), fewer for a filter of a few rounded up to a word.
func TestFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 10, 25, 66, 150, 400, 2000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = r.Uint32()
			}
			slices.Sort(keys)
			keys = slices.Compact(keys)
			f := newFilter(keys)
			for _, x := range keys {
				if !f.Has(x) {
					t.Fatalf("%08x added, not held", x)
				}
			}
			const tries = 200_000
			held := 0
			for range tries {
				if x := r.Uint32(); f.Has(x) {
					if _, ok := slices.BinarySearch(keys, x); !ok {
						held++
					}
				}
			}
			rate := float64(held) / tries
			t.Logf("%d keys in %d bytes: %.2f %% of others held", n, 4*len(f), 100*rate)
			if rate > 0.03 {
				t.Errorf("%d keys in %d bytes: %.2f %% of others held, want at most 3 %%", n, 4*len(f), 100*rate)
			}
		})
	}
	if Filter(nil).Has(1) || newFilter(nil) != nil {
		t.Error("the nil filter holds something")
	}
}

// TestSet64Grows: a set64 reset for a few values holds many more, each
// added once, as a set sized for them all does.
func TestSet64Grows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s set64
	for _, n := range []int{0, 5, 100, set64Room + 1, 5 * set64Room} {
		s.reset(min(n, 8))
		want := map[uint64]bool{}
		for range 2 * n {
			x := 1 + r.Uint64N(uint64(n)+1) // repeats
			if got := s.add(x); got != !want[x] {
				t.Fatalf("%d values: add(%d) = %v after %d distinct", n, x, got, len(want))
			}
			want[x] = true
		}
		held := slices.DeleteFunc(slices.Clone(s.t), func(x uint64) bool { return x == 0 })
		if len(held) != len(want) || s.n != len(want) || len(s.t) < 2*len(want) {
			t.Errorf("%d values: %d held (%d counted) in %d places, want %d in at least twice as many", n, len(held), s.n, len(s.t), len(want))
		}
	}
}

// TestWordFilterLongText: the filter of a text of more distinct words than
// set64Room, whose sets grow as they are filled, is the filter of its
// words' distinct fingerprints, as a text's of a few words is.
func TestWordFilterLongText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, words := range []int{300, 3 * set64Room} {
		var b strings.Builder
		for i := range words {
			w := fmt.Sprintf("w%sword%x ", strings.Repeat("o", r.IntN(3)), r.IntN(2*words))
			if i%5 == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		text := b.String()
		s := Scanner{Shingle: 6, Folded: true, WordFilter: true}
		var an analysis.Analyzer
		got := s.wordFilter(text, an.Words(text), "", nil)
		s.seen.reset(words)
		keys := s.appendWordShingles(nil, text, an.Words(text))
		slices.Sort(keys)
		if want := newFilter(slices.Compact(keys)); !slices.Equal(got, want) {
			t.Errorf("%d words: the filter differs from that of their %d distinct fingerprints", words, len(slices.Compact(keys)))
		}
	}
}

// TestWordFilterLettersWithoutShingles: a word of letters that normalise to
// nothing (U+02BC, an Arabic presentation form, a half-width sound mark)
// has no shingle to keep, and the scan goes on past it; it panicked.
func TestWordFilterLettersWithoutShingles(t *testing.T) {
	for _, shingle := range []int{1, 6} {
		for _, w := range []string{"ʼʼʼʼʼʼ", "ﱞﱞﱞﱞﱞﱞ", "ﾞﾞﾞﾞﾞﾞ", "Ȝʼʼʼʼʼ"} {
			text := "The ministry said " + w + " on Tuesday that Koval Holdings would appeal."
			s := Scanner{Shingle: shingle, Folded: true, WordFilter: true}
			var an analysis.Analyzer
			if got := s.wordFilter(text, an.Words(text), "", nil); got == nil {
				t.Errorf("shingle %d, %q: no filter", shingle, w)
			}
		}
	}
}

// TestASCIINameMask compares asciiNameMask, which reads an ASCII word's
// bytes once, with the mask addName gives a name (normalised, its digit
// look-alikes folded, nameMask) and its letterCount, on random words.
func TestASCIINameMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	pieces := []string{"a", "Z", "q", "M", "0", "1", "5", "8", "9", "'", ".", "-", "s", "S", "l", "O"}
	var an analysis.Analyzer
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		w := b.String()
		for _, folded := range []bool{false, true} {
			buf := an.AppendNormalized(nil, w)
			if folded {
				for i, c := range buf {
					if l := digitLookAlikes[c]; l != 0 {
						buf[i] = l
					}
				}
			}
			mask, n, ok := asciiNameMask(w, folded)
			if !ok || mask != nameMask(buf) || n != letterCount(w) {
				t.Fatalf("asciiNameMask(%q, %v) = %x, %d, %v; want %x, %d", w, folded, mask, n, ok, nameMask(buf), letterCount(w))
			}
		}
	}
	if _, _, ok := asciiNameMask("Zürich", true); ok {
		t.Error("asciiNameMask read a word beyond ASCII")
	}
}
