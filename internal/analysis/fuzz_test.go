package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"",
	"Mr. Smith said \"hello.\" Then he left!\n\nNext",
	"U.S.Army e.g.The here.Another www.Example.com 3.5 1.000,5",
	"Łódź, 2020 r. Prezydent… W 2020 r. rząd",
	"В 2019 г. Он ушёл. т.е. Москва и т. д. Всё.",
	"Headline\nA long paragraph line that goes on and on and on and on and on and on and on and on and on and on.",
	"ﬁle co\u00adoperate cafe\u0301 ΟΔΟΣ Straße ＡＢＣ",
	"***\n\n* * *\r\n\r\n\u2029 — «»",
	"a\xffb\xc3. \xe2\x80",
	"word.\u00e9 a.\u0301b x,_y 1,000 1,a state-owned it's end.) (x) a_b a:b 7;8 z\u200d",
}

func FuzzWords(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var a Analyzer
		toks := a.Words(text)
		prevEnd := int32(0)
		for _, tok := range toks {
			if tok.Start < prevEnd || tok.End <= tok.Start || int(tok.End) > len(text) {
				t.Fatalf("token [%d,%d) out of order or bounds (prev end %d, len %d)", tok.Start, tok.End, prevEnd, len(text))
			}
			prevEnd = tok.End
			w := text[tok.Start:tok.End]
			if !hasWordRune(w) {
				t.Errorf("token %q has no letter or digit", w)
			}
			if want := HashWord([]byte(Normalize(w))); tok.Hash != want {
				t.Errorf("token %q: hash differs from Normalize-based hash", w)
			}
		}
		n := Normalize(text)
		if Normalize(n) != n {
			t.Errorf("Normalize not idempotent on %q", text)
		}
		if got := string(a.AppendNormalized(nil, text)); got != n {
			t.Errorf("AppendNormalized(%q) = %q, Normalize = %q", text, got, n)
		}
	})
}

func FuzzSentences(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var a Analyzer
		words := append([]Token(nil), a.Words(text)...)
		toks, sents := a.Analyze(text)
		if len(toks) != len(words) {
			t.Fatalf("Analyze found %d words, Words %d", len(toks), len(words))
		}
		covered, next := 0, 0
		for _, s := range sents {
			if int(s.Start) < covered || s.End <= s.Start || int(s.End) > len(text) {
				t.Fatalf("sentence [%d,%d) out of order or bounds (covered %d, len %d)", s.Start, s.End, covered, len(text))
			}
			if !onlySpace(text[covered:s.Start]) {
				t.Errorf("non-space %q between sentences", text[covered:s.Start])
			}
			span := text[s.Start:s.End]
			first, _ := utf8.DecodeRuneInString(span)
			last, _ := utf8.DecodeLastRuneInString(span)
			if unicode.IsSpace(first) || unicode.IsSpace(last) {
				t.Errorf("sentence %q not trimmed", span)
			}
			own := words[next : next+int(s.Words)]
			next += int(s.Words)
			if s.Hash != HashTokens(own) {
				t.Errorf("sentence %q: hash is not HashTokens of its words", span)
			}
			if len(own) > 0 && (own[0].Start < s.Start || own[len(own)-1].End > s.End) {
				t.Errorf("sentence %q does not hold its words", span)
			}
			// A run of white space counts as one character.
			if utf8.ValidString(span) && int(s.Chars) != utf8.RuneCountInString(strings.Join(strings.Fields(span), " ")) {
				t.Errorf("sentence %q: Chars %d", span, s.Chars)
			}
			covered = int(s.End)
		}
		if !onlySpace(text[covered:]) {
			t.Errorf("non-space %q after the last sentence", text[covered:])
		}
		if next != len(words) {
			t.Errorf("sentences hold %d words of %d", next, len(words))
		}
	})
}

// onlySpace reports whether s is white space only.
func onlySpace(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// FuzzCharShingles checks that any text shingles without panicking, the
// same way twice, into one window per character beyond the first n-1 (one
// for a shorter text, none without letters or digits).
func FuzzCharShingles(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 6)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		n = n%20 + 1
		if n < 1 {
			n += 20
		}
		var a, b Analyzer
		got := a.CharShingles(text, a.Words(text), n, nil)
		again := b.CharShingles(text, b.Words(text), n, nil)
		if len(got) != len(again) {
			t.Fatalf("%d then %d shingles", len(got), len(again))
		}
		ref := charShinglesReference(text, b.Words(text), n, false)
		for i := range got {
			if got[i] != again[i] {
				t.Fatalf("shingle %d differs between runs", i)
			}
			if got[i] != ref[i] {
				t.Fatalf("shingle %d differs from the reference", i)
			}
		}
		if folded, ref := b.FoldedCharShingles(text, b.Words(text), n, nil), charShinglesReference(text, b.Words(text), n, true); !slices.Equal(folded, ref) {
			t.Fatalf("folded shingles differ from the reference:\n%x\n%x", folded, ref)
		}
		if len(got) != len(ref) {
			t.Fatalf("n=%d: %d shingles, the reference %d", n, len(got), len(ref))
		}
		// Made a block at a time, in blocks of 1 to 8 characters, they
		// are the same.
		size := 1 + len(text)%8
		for _, fold := range []bool{false, true} {
			want := got
			if fold {
				want = b.FoldedCharShingles(text, b.Words(text), n, nil)
			}
			if blocks := slices.Concat(charShingleBlocks(&b, text, n, fold, size)...); !slices.Equal(blocks, want) {
				t.Fatalf("n=%d, folded %v: blocks of %d give\n%x, not\n%x", n, fold, size, blocks, want)
			}
		}
	})
}

// FuzzWordsSameAsLibrary checks Words against the UAX #29 library run on
// the whole text, its segments cut at each narrow no-break space unless
// NarrowSpaceJoins, its zero-width spaces read as word joiners unless
// ZeroWidthSpaceSplits.
func FuzzWordsSameAsLibrary(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, a := range []Analyzer{{}, {NarrowSpaceJoins: true}, {ZeroWidthSpaceSplits: true}, {NarrowSpaceJoins: true, ZeroWidthSpaceSplits: true}} {
			got, want := a.Words(text), libraryTokens(text, 1<<30, a.NarrowSpaceJoins, a.ZeroWidthSpaceSplits)
			if len(got) != len(want) {
				t.Fatalf("NarrowSpaceJoins %v, ZeroWidthSpaceSplits %v: %d tokens, the library %d", a.NarrowSpaceJoins, a.ZeroWidthSpaceSplits, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("NarrowSpaceJoins %v, ZeroWidthSpaceSplits %v: token %d: %+v, the library %+v",
						a.NarrowSpaceJoins, a.ZeroWidthSpaceSplits, i, got[i], want[i])
				}
			}
		}
	})
}
