package analysis

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func charShingles(text string, n int) []uint64 {
	var a Analyzer
	return a.CharShingles(text, a.Words(text), n, nil)
}

func TestCharShinglesSameCharacters(t *testing.T) {
	for _, tc := range []struct{ name, a, b string }{
		{"case and punctuation", "The U.S. Treasury, said: fine.", "the us treasury said fine"},
		{"split word", "the government said", "the gov ernment said"},
		{"glued words", "prices rose. Traders said", "prices rose.Traders said"},
		{"digit grouping", "sales of 1,000,000 tonnes", "sales of 1000000 tonnes"},
		{"hyphenation", "a well-known firm", "a wellknown firm"},
		{"compatibility forms", "ﬁnance ﬁrms", "finance firms"},
		{"Polish letters fold case", "Łódź dziś", "ŁÓDŹ DZIŚ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if a, b := charShingles(tc.a, 5), charShingles(tc.b, 5); !slices.Equal(a, b) {
				t.Errorf("%q and %q shingle differently:\n%x\n%x", tc.a, tc.b, a, b)
			}
		})
	}
}

func TestCharShinglesCounts(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int
		want int
	}{
		{"", 5, 0},
		{"... !!", 5, 0},
		{"abc", 5, 1},      // shorter than a window: one shingle of it all
		{"abcde", 5, 1},    // exactly one window
		{"abcdef", 5, 2},   // two windows
		{"ab cd ef", 5, 2}, // spaces are not characters
		{"żółw", 2, 3},     // windows count characters, not bytes
		{"abc", 0, 3},      // n < 1 is 1
	} {
		if got := len(charShingles(tc.text, tc.n)); got != tc.want {
			t.Errorf("CharShingles(%q, %d): %d shingles, want %d", tc.text, tc.n, got, tc.want)
		}
	}
}

// Folded shingles read the look-alikes of character recognition as one
// character; other characters stay apart.
func TestFoldedCharShingles(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		same       bool
	}{
		{"look-alike digits and letters", "Sales rose 10 pct in 1986 to 250 mln", "5ales rose lO pct in l986 to Z50 mln", true},
		{"rn read for m", "the government was informed", "the governrnent was inforrned", true},
		{"vv read for w", "we were owed two", "vve vvere ovved tvvo", true},
		{"look-alikes beside other letters", "Kraków 10 złotych", "Kraków lO złotych", true},
		{"figures that are not look-alikes", "rose 10 pct to 150 mln", "rose 16 pct to 130 mln", false},
		{"letters that are not folded", "the ceiling", "the celling", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x Analyzer
			a := x.FoldedCharShingles(tc.a, x.Words(tc.a), 5, nil)
			b := x.FoldedCharShingles(tc.b, x.Words(tc.b), 5, nil)
			if slices.Equal(a, b) != tc.same {
				t.Errorf("%q and %q: same shingles %v, want %v", tc.a, tc.b, !tc.same, tc.same)
			}
		})
	}
	// Without look-alikes folded shingles are CharShingles'.
	text := "the weekly report was issued"
	var x Analyzer
	if a, b := x.FoldedCharShingles(text, x.Words(text), 5, nil), charShingles(text, 5); !slices.Equal(a, b) {
		t.Errorf("%q: folded %x, CharShingles %x", text, a, b)
	}
}

// A damaged character changes only the windows that hold it.
func TestCharShinglesLocalDamage(t *testing.T) {
	a := charShingles("the federal reserve entered the market", 6)
	b := charShingles("the federa1 reserve entered the market", 6)
	diff := 0
	for i := range a {
		if a[i] != b[i] {
			diff++
		}
	}
	if len(a) != len(b) || diff != 6 {
		t.Errorf("%d of %d windows differ, want 6", diff, len(a))
	}
}

func TestCharShinglesApartFromWordShingles(t *testing.T) {
	var a Analyzer
	text := "abc def"
	words := slices.Clone(a.Words(text))
	if c, w := a.CharShingles(text, words, 1, nil), Shingles(words, 1, nil); slices.ContainsFunc(c, func(h uint64) bool { return slices.Contains(w, h) }) {
		t.Error("a character shingle equals a word shingle")
	}
}

// BenchmarkCharShingles measures character shingling after segmentation;
// BenchmarkWords (bench_test.go) is the segmentation it follows.
func BenchmarkCharShingles(b *testing.B) {
	var words []Token
	var dst []uint64
	benchmarkDocs(b, func(a *Analyzer, doc string) {
		words = append(words[:0], a.Words(doc)...)
		dst = a.CharShingles(doc, words, 6, dst[:0])
	})
}

// BenchmarkFoldedCharShingles is BenchmarkCharShingles with look-alikes
// folded, as minhash shingles.
func BenchmarkFoldedCharShingles(b *testing.B) {
	var words []Token
	var dst []uint64
	benchmarkDocs(b, func(a *Analyzer, doc string) {
		words = append(words[:0], a.Words(doc)...)
		dst = a.FoldedCharShingles(doc, words, 6, dst[:0])
	})
}

// BenchmarkFoldedCharShinglesOnly is BenchmarkFoldedCharShingles without
// the segmentation: the words of each document are found beforehand.
func BenchmarkFoldedCharShinglesOnly(b *testing.B) {
	for _, lang := range []string{"en", "pl"} {
		b.Run(lang, func(b *testing.B) {
			docs := benchDocs(lang)
			var a Analyzer
			words, total := make([][]Token, len(docs)), 0
			for i, d := range docs {
				words[i], total = slices.Clone(a.Words(d)), total+len(d)
			}
			var dst []uint64
			b.SetBytes(int64(total / len(docs)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j := i % len(docs)
				dst = a.FoldedCharShingles(docs[j], words[j], 6, dst[:0])
			}
		})
	}
}

// charShinglesReference is CharShingles written plainly: every word
// normalised, its letters and digits as tokens of their rune hashes, and
// each window's hash computed afresh from its own characters, with no
// rolling.
func charShinglesReference(text string, tokens []Token, n int, fold bool) []uint64 {
	var chars []Token
	var last rune // folding: the ASCII character before, 0 after any other
	for _, t := range tokens {
		for _, r := range Normalize(text[t.Start:t.End]) {
			switch {
			case !unicode.IsLetter(r) && !unicode.IsDigit(r):
				continue
			case !fold || r >= utf8.RuneSelf:
				chars, last = append(chars, Token{Hash: runeHash(r)}), 0
				continue
			}
			if f := strings.IndexRune("01582", r); f >= 0 {
				r = rune("olsbz"[f]) // look-alikes
			}
			switch {
			case last == 'r' && r == 'n':
				chars, r = chars[:len(chars)-1], 'm'
			case last == 'v' && r == 'v':
				chars, r = chars[:len(chars)-1], 'w'
			}
			chars, last = append(chars, Token{Hash: runeHash(r)}), r
		}
	}
	if len(chars) <= n {
		if len(chars) == 0 {
			return nil
		}
		return []uint64{finishSeq(seqSum(chars)^charSalt, len(chars))}
	}
	var out []uint64
	for i := 0; i+n <= len(chars); i++ {
		out = append(out, finishSeq(seqSum(chars[i:i+n])^charSalt, n))
	}
	return out
}

func TestCharShinglesSameAsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var a Analyzer
	for i := range randomTexts() {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(segmentPieces[rng.IntN(len(segmentPieces))])
		}
		text, n := b.String(), 1+i%8
		got := a.CharShingles(text, a.Words(text), n, nil)
		if want := charShinglesReference(text, a.Words(text), n, false); !slices.Equal(got, want) {
			t.Fatalf("CharShingles(%q, %d) = %x, the reference %x", text, n, got, want)
		}
		got = a.FoldedCharShingles(text, a.Words(text), n, nil)
		if want := charShinglesReference(text, a.Words(text), n, true); !slices.Equal(got, want) {
			t.Fatalf("FoldedCharShingles(%q, %d) = %x, the reference %x", text, n, got, want)
		}
	}
}

// TestCharShinglesAppend: shingles appended after others, into a
// destination with room for them or without, are the reference's, and the
// shingles before them are kept.
func TestCharShinglesAppend(t *testing.T) {
	var a Analyzer
	texts := []string{"", "ab", "The rn vv 1O5 report", "Ürün fiyatları 12,5 % arttı", strings.Repeat("word and 東京 ", 50)}
	for _, text := range texts {
		for _, fold := range []bool{false, true} {
			for _, room := range []int{0, 2 * len(text)} {
				before := []uint64{7, 8, 9}
				dst := append(make([]uint64, 0, len(before)+room), before...)
				var got []uint64
				if fold {
					got = a.FoldedCharShingles(text, a.Words(text), 4, dst)
				} else {
					got = a.CharShingles(text, a.Words(text), 4, dst)
				}
				want := append(slices.Clone(before), charShinglesReference(text, a.Words(text), 4, fold)...)
				if !slices.Equal(got, want) {
					t.Errorf("%q, folded %v, room %d: %x, want %x", text, fold, room, got, want)
				}
			}
		}
	}
}

// foldPieces are the pieces of the random texts TestFoldedCharShinglesPairs
// joins: the letters of the pairs a recogniser makes of one letter, in
// either case, the digits folded into letters, and what stands between
// two words, ASCII or not.
var foldPieces = []string{
	"r", "R", "n", "N", "v", "V", "rn", "vv", "vvv", "m", "w", "0", "1", "5", "8", "2", "o", "l", "a",
	" ", ".", "-", "'", "é", "ŕ", "ñ", "東", "\u00ad",
}

// TestFoldedCharShinglesPairs: folded shingles of texts dense in "rn" and
// "vv", across spaces, punctuation and non-ASCII letters, match the
// reference.
func TestFoldedCharShinglesPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var a Analyzer
	for i := range randomTexts() {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(foldPieces[rng.IntN(len(foldPieces))])
		}
		text, n := b.String(), 1+i%6
		got := a.FoldedCharShingles(text, a.Words(text), n, nil)
		if want := charShinglesReference(text, a.Words(text), n, true); !slices.Equal(got, want) {
			t.Fatalf("FoldedCharShingles(%q, %d) = %x, the reference %x", text, n, got, want)
		}
	}
}

// TestNoPairIsNoHash: noPair, which appendFolded compares the hash before
// a byte with, is no code point's hash.
func TestNoPairIsNoHash(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if runeHash(r) == noPair {
			t.Fatalf("runeHash(%U) is noPair", r)
		}
	}
}

func TestASCIICharHash(t *testing.T) {
	for c := range 256 {
		if got := asciiCharHash[c] != 0; got != (c < utf8.RuneSelf && asciiWord[c]) {
			t.Errorf("byte %#x: hashed %v", c, got)
		}
	}
}

// TestShinglesSameAsHashTokens: every word shingle is the hash of its own
// window, as HashTokens computes it afresh, and fewer tokens than a window
// give one shingle of them all.
func TestShinglesSameAsHashTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		toks := make([]Token, rng.IntN(700)) // past Shingles' stack buffer too
		for i := range toks {
			toks[i].Hash = rng.Uint64()
		}
		n := 1 + rng.IntN(6)
		var want []uint64
		switch {
		case len(toks) == 0:
		case len(toks) <= n:
			want = []uint64{HashTokens(toks)}
		default:
			for i := 0; i+n <= len(toks); i++ {
				want = append(want, HashTokens(toks[i:i+n]))
			}
		}
		if got := Shingles(toks, n, nil); !slices.Equal(got, want) {
			t.Fatalf("%d tokens, windows of %d: %d shingles differ from HashTokens' %d", len(toks), n, len(got), len(want))
		}
	}
}
