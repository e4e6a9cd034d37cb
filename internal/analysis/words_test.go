package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wordTexts returns the original text of each token.
func wordTexts(text string, toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = text[t.Start:t.End]
	}
	return out
}

func TestWords(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", []string{}},
		{"only space and punctuation", "  ,.;!? -- … «»  ", []string{}},
		{"ascii sentence", "The cat sat, on the mat.", []string{"The", "cat", "sat", "on", "the", "mat"}},
		{"apostrophe joins", "don't O'Brien rock'n'roll", []string{"don't", "O'Brien", "rock'n'roll"}},
		{"typographic apostrophe joins", "don’t", []string{"don’t"}},
		{"hyphen splits", "well-known state-of-the-art", []string{"well", "known", "state", "of", "the", "art"}},
		{"decimal point", "up 3.5 percent", []string{"up", "3.5", "percent"}},
		{"thousands comma", "1,000 people", []string{"1,000", "people"}},
		{"european number", "1.000,5 zł", []string{"1.000,5", "zł"}},
		{"number with unit", "$1.13bn (£600m)", []string{"1.13bn", "600m"}},
		{"polish diacritics", "Zażółć gęślą jaźń", []string{"Zażółć", "gęślą", "jaźń"}},
		{"cyrillic", "Учёные, из Москвы.", []string{"Учёные", "из", "Москвы"}},
		{"emoji and symbols dropped", "ok 👍 + = % ok", []string{"ok", "ok"}},
		{"glued sentence period splits", "said here.Another one", []string{"said", "here", "Another", "one"}},
		{"glued after abbreviation", "U.S.Army e.g.The", []string{"U.S", "Army", "e.g", "The"}},
		{"glued cyrillic", "г.Москва", []string{"г", "Москва"}},
		{"domain kept whole", "www.Example.com example.com", []string{"www.Example.com", "example.com"}},
		{"lower-case glue kept", "end.next", []string{"end.next"}},
		{"acronym glue kept", "ASP.NET Node.JS", []string{"ASP.NET", "Node.JS"}},
		{"soft hyphen inside word", "co\u00adoperate", []string{"co\u00adoperate"}},
		{"combining accent", "cafe\u0301 ok", []string{"cafe\u0301", "ok"}},
		{"ligature", "ﬁle", []string{"ﬁle"}},
		{"ideographs one per token", "東京 ok", []string{"東", "京", "ok"}},
		{"newlines and tabs", "a\tb\r\nc\n\nd", []string{"a", "b", "c", "d"}},
		{"narrow no-break space sets figures apart", "180\u202f000 euros", []string{"180", "000", "euros"}},
		{"narrow no-break spaces, a word after", "prix\u202f: 1\u202f250\u202f000\u202f€", []string{"prix", "1", "250", "000"}},
		{"no-break space sets figures apart", "180\u00a0000 euros", []string{"180", "000", "euros"}},
	}
	var a Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := wordTexts(tc.text, a.Words(tc.text))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Words(%q) mismatch (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

func TestWordsOffsets(t *testing.T) {
	type span struct{ Start, End int32 }
	tests := []struct {
		name string
		text string
		want []span
	}{
		{"ascii", "ab cd", []span{{0, 2}, {3, 5}}},
		{"after two-byte runes", "łó ab", []span{{0, 4}, {5, 7}}},
		{"after three-byte punctuation", "„ab” — cd", []span{{3, 5}, {13, 15}}},
		{"after NFKC-changing ligature", "ﬁ ab", []span{{0, 3}, {4, 6}}},
		{"full-width letters", "ＡＢ cd", []span{{0, 6}, {7, 9}}},
		{"after emoji", "👍ab", []span{{4, 6}}},
		{"glued split keeps original offsets", "ło.Ab", []span{{0, 3}, {4, 6}}},
	}
	var a Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []span
			for _, tok := range a.Words(tc.text) {
				got = append(got, span{tok.Start, tok.End})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Words(%q) spans (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

func TestWordHashes(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		equal bool
	}{
		{"polish case", "Łódź", "ŁÓDŹ", true},
		{"ligature", "ﬁle", "file", true},
		{"full-width", "ＡＢＣ", "abc", true},
		{"typographic apostrophe", "don’t", "DON'T", true},
		{"modifier apostrophe", "donʼt", "don't", true},
		{"cyrillic case", "Москва", "МОСКВА", true},
		{"cyrillic yo", "Учёные", "ученые", true},
		{"sharp s", "Straße", "STRASSE", true},
		{"soft hyphen", "co\u00adoperate", "cooperate", true},
		{"decomposed accent", "cafe\u0301", "CAFÉ", true},
		{"greek final sigma", "ΟΔΟΣ", "οδος", true},
		{"diacritics matter", "łódź", "lodz", false},
		{"plural differs", "file", "files", false},
		{"latin and cyrillic look-alikes differ", "ok", "оk", false},
	}
	var an Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := append([]Token(nil), an.Words(tc.b)...)
			ta := an.Words(tc.a)
			if len(ta) != 1 || len(tb) != 1 {
				t.Fatalf("want one token each, got %d and %d", len(ta), len(tb))
			}
			if got := ta[0].Hash == tb[0].Hash; got != tc.equal {
				t.Errorf("hash(%q) == hash(%q) is %v, want %v", tc.a, tc.b, got, tc.equal)
			}
		})
	}
}

// TestHashStability pins persisted hash values: if it fails, the hashing
// scheme changed and HashVersion must be incremented with the new values.
func TestHashStability(t *testing.T) {
	var a Analyzer
	toks := a.Words("Hello, Łódź! Привет")
	got := []uint64{toks[0].Hash, toks[1].Hash, toks[2].Hash, HashTokens(toks)}
	got = Shingles(toks, 2, got)
	got = a.CharShingles("Corn 10", a.Words("Corn 10"), 4, got)
	got = a.FoldedCharShingles("Corn 10", a.Words("Corn 10"), 4, got)
	want := []uint64{
		16805880435649801683, 7377960066200122163, 15153511575572870776, // hello, łódź, привет
		17447680354117484405,                    // the sequence
		378654908367321514, 6491400793853850527, // 2-shingles
		15249845381002137393, 14652811758111830351, 9276139328387216282, // character 4-shingles of "Corn 10"
		8103354825955113663, 2565711511002830950, // folded, "comlo"
	}
	if HashVersion != 1 {
		t.Fatalf("HashVersion = %d: update the pinned values", HashVersion)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hashes changed (-want +got):\n%s", diff)
	}
}

// TestNoAllocationsAfterWarmUp pins the zero-allocation contract of the
// hot path on ASCII text (Polish and Russian take the table path, also
// allocation-free).
func TestNoAllocationsAfterWarmUp(t *testing.T) {
	texts := []string{benchText("en", 4000), benchText("pl", 4000), benchText("ru", 4000)}
	var a Analyzer
	for _, text := range texts {
		a.Words(text)
		a.Sentences(text)
	}
	for _, text := range texts {
		if n := testing.AllocsPerRun(20, func() { a.Words(text) }); n != 0 {
			t.Errorf("Words allocates %v times per call", n)
		}
		if n := testing.AllocsPerRun(20, func() { a.Sentences(text) }); n != 0 {
			t.Errorf("Sentences allocates %v times per call", n)
		}
	}
}

// TestZeroWidthSpaceInsideWords: a text with zero-width spaces (U+200B)
// inside its words gives the words of the text without them, glued
// sentences and domain names too; with ZeroWidthSpaceSplits, as the older
// sketch formats read it, the space is a word boundary.
func TestZeroWidthSpaceInsideWords(t *testing.T) {
	hashes := func(a *Analyzer, text string) []uint64 {
		var out []uint64
		for _, tok := range a.Words(text) {
			out = append(out, tok.Hash)
		}
		return out
	}
	for _, text := range []string{"the wi\u200bdth of it", "rose on Tuesday.\u200bAnalysts said", "rose on Tuesday\u200b.Analysts said",
		"visit www.Example.\u200bcom now", "금융통화\u200b위원회는 동결했다", "\u200bleading and trailing\u200b", "3.\u200b5 percent"} {
		var a Analyzer
		plain := strings.ReplaceAll(text, "\u200b", "")
		if got, want := hashes(&a, text), hashes(&a, plain); !slices.Equal(got, want) {
			t.Errorf("%q: %d words, %x; without the spaces %d, %x", text, len(got), got, len(want), want)
		}
	}
	old := Analyzer{ZeroWidthSpaceSplits: true}
	if got := len(old.Words("the wi\u200bdth")); got != 3 {
		t.Errorf("with ZeroWidthSpaceSplits: %d words, want 3", got)
	}
}
