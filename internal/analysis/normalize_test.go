package analysis

import (
	"testing"
	"unicode/utf8"

	"github.com/zeebo/xxh3"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ascii lower-cased", "Hello WORLD", "hello world"},
		{"polish", "ŁÓDŹ Zażółć", "łódź zażółć"},
		{"cyrillic", "МОСКВА", "москва"},
		{"cyrillic yo folded to ye", "Учёные ЁЛКА", "ученые елка"},
		{"ligature", "ﬁle ﬂow", "file flow"},
		{"full-width", "ＡＢＣ１２３", "abc123"},
		{"sharp s", "Straße ẞ", "strasse ss"},
		{"final sigma", "ΟΔΟΣ οδός", "οδοσ οδόσ"},
		{"decomposed accent composed", "e\u0301", "é"},
		{"soft hyphen removed", "co\u00adoperate", "cooperate"},
		{"zero-width characters removed", "a\u200bb\u200dc\ufeff", "abc"},
		{"typographic apostrophes", "don’t ‘x rockʼn", "don't 'x rock'n"},
		{"superscript digit", "x²", "x2"},
		{"roman numeral", "Ⅻ", "xii"},
		{"invalid utf-8 replaced", "a\xffb", "a\ufffdb"},
		// Fault: the Turkish "KAPALI" and "kapalı" were two words.
		{"turkish dotless i", "KAPALI kapalı YIKILDI yıkıldı", "kapali kapali yikildi yikildi"},
		{"turkish dotted capital i", "İSTANBUL İstanbul istanbul", "istanbul istanbul istanbul"},
		{"turkish dotted capital i decomposed", "I\u0307stanbul", "istanbul"},
		{"i with a combining dot above", "i\u0307stanbul", "istanbul"},
		{"dot above kept on another letter", "q\u0307", "q\u0307"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := Normalize(tc.want); got != tc.want {
				t.Errorf("Normalize not idempotent on %q: %q", tc.want, got)
			}
			var a Analyzer
			if got := string(a.AppendNormalized([]byte("prefix:"), tc.in)); got != "prefix:"+tc.want {
				t.Errorf("AppendNormalized(%q) = %q, want %q", tc.in, got, "prefix:"+tc.want)
			}
		})
	}
}

// TestFoldTableMatchesNormalize checks the fast path rune by rune and in
// context against Normalize for every two-byte rune.
func TestFoldTableMatchesNormalize(t *testing.T) {
	var a Analyzer
	var dst []byte
	for r := rune(utf8.RuneSelf); r < foldTableSize; r++ {
		for _, w := range []string{string(r), "Ab" + string(r), string(r) + "ŁŻ", string(r) + string(r) + "ё"} {
			dst = a.AppendNormalized(dst[:0], w)
			if want := Normalize(w); string(dst) != want {
				t.Errorf("U+%04X in %q: AppendNormalized = %q, Normalize = %q", r, w, dst, want)
			}
		}
	}
}

// TestDottedIApart checks that an Analyzer of the older sketch formats
// folds "ı" and "İ" as Unicode's case folding alone does, on the fast path
// and the slow one.
func TestDottedIApart(t *testing.T) {
	a := Analyzer{DottedIApart: true}
	for in, want := range map[string]string{
		"KAPALI kapalı":  "kapali kapalı",
		"İSTANBUL":       "i\u0307stanbul",
		"I\u0307stanbul": "i\u0307stanbul",
		"ŁÓDŹ":           "łódź",
	} {
		if got := string(a.AppendNormalized(nil, in)); got != want {
			t.Errorf("AppendNormalized(%q) with DottedIApart = %q, want %q", in, got, want)
		}
	}
}

func TestAppendNormalizedASCIIDoesNotAllocate(t *testing.T) {
	var a Analyzer
	dst := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		dst = a.AppendNormalized(dst[:0], "Washington")
		dst = a.AppendNormalized(dst[:0], "Łódź")
		dst = a.AppendNormalized(dst[:0], "Правительство")
	})
	if allocs != 0 {
		t.Errorf("AppendNormalized allocates %v times per run, want 0", allocs)
	}
}

func TestHashWordIsSeededXXH3(t *testing.T) {
	if got, want := HashWord([]byte("hello")), xxh3.HashStringSeed("hello", hashSeed); got != want {
		t.Errorf("HashWord(hello) = %d, want xxh3 %d", got, want)
	}
}

// TestAppendLowerTurkishI pins the fault of the Turkish "KAPALI" and
// "kapalı", two terms to the recipes' lower-casing: both are "kapali",
// but to the older formats' AppendLowerDottedIApart.
func TestAppendLowerTurkishI(t *testing.T) {
	tests := []struct {
		name, in, want, apart string
	}{
		{"dotless i", "KAPALI kapalı", "kapali kapali", "kapali kapalı"},
		{"dotted capital i", "İSTANBUL", "istanbul", "istanbul"},
		{"other letters", "ŁÓDŹ Straße ẞ", "łódź straße ß", "łódź straße ß"},
		{"not utf-8", "A\xffB", "a\xffb", "a\xffb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendLower(nil, tc.in)); got != tc.want {
				t.Errorf("AppendLower(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := string(AppendLowerDottedIApart(nil, tc.in)); got != tc.apart {
				t.Errorf("AppendLowerDottedIApart(%q) = %q, want %q", tc.in, got, tc.apart)
			}
		})
	}
}
