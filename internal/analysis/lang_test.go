package analysis

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestDetectLang(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Lang
	}{
		{"empty", "", Unknown},
		{"digits and symbols", "12 345 — 67%!", Unknown},
		{"unknown latin word", "Xqzt", Unknown},
		{"han script", "东京是日本的首都", Unknown},
		{"english", "The committee said on Monday that it would publish the report after the election.", English},
		{"english title", "Prices rise as the bank holds its rates", English},
		{"polish", "Rząd przyjął we wtorek projekt ustawy, który trafi teraz do Sejmu.", Polish},
		{"polish without diacritics", "Rzad przyjal we wtorek projekt ustawy, ktory trafi teraz do Sejmu i jest to", Polish},
		{"polish title", "Wybory w Łodzi: kto wygra?", Polish},
		{"russian", "Правительство объявило во вторник, что новый закон вступит в силу в январе.", Russian},
		{"russian title", "Цены на нефть выросли", Russian},
		{"cyrillic without evidence is russian", "Москва", Russian},
		{"ukrainian", "Уряд оголосив у вівторок, що новий закон набуде чинності в січні.", Ukrainian},
		{"german", "Die Regierung hat am Dienstag mitgeteilt, dass das neue Gesetz im Januar in Kraft tritt.", German},
		{"french", "Le gouvernement a annoncé mardi que la nouvelle loi entrera en vigueur en janvier.", French},
		{"spanish", "El gobierno anunció el martes que la nueva ley entrará en vigor en enero.", Spanish},
		{"italian", "Il governo ha annunciato martedì che la nuova legge entrerà in vigore a gennaio.", Italian},
		{"czech", "Vláda v úterý oznámila, že nový zákon vstoupí v platnost v lednu.", Czech},
		{"mostly cyrillic with latin names", "Компания Apple и Google заявили, что это не так.", Russian},
		{"long english document", strings.Repeat("The market fell and the analysts said that it was expected. ", 100), English},
	}
	var a Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.DetectLang(tc.text); got != tc.want {
				t.Errorf("Analyzer.DetectLang(%q) = %q, want %q", tc.text, got, tc.want)
			}
			if got := DetectLang(tc.text); got != tc.want {
				t.Errorf("DetectLang(%q) = %q, want %q", tc.text, got, tc.want)
			}
			if got := DetectLangTokens(tc.text, a.Words(tc.text)); got != tc.want {
				t.Errorf("DetectLangTokens(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestDetectLangDecomposed pins the fault of a Turkish text whose NFD copy
// (its accents written as combining marks) was of no language: the
// telling letters written decomposed tell as the precomposed ones.
func TestDetectLangDecomposed(t *testing.T) {
	tests := []struct {
		name, text string
		want       Lang
	}{
		{"turkish read by its letters", "Köprü yıkıldı, yol kapalı; ışıklar yanmıyor ve sürücüler bekliyor.", German},
		{"polish", "Rząd przyjął we wtorek projekt ustawy, który trafi teraz do Sejmu.", Polish},
		{"czech", "Vláda v úterý oznámila, že nový zákon vstoupí v platnost v lednu.", Czech},
		{"ukrainian", "Уряд оголосив у вівторок, що новий закон набуде чинності в січні.", Ukrainian},
		{"russian yo", "Ёлка", Russian},
	}
	var a Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nfd := norm.NFD.String(tc.text)
			if nfd == tc.text {
				t.Fatal("the test text has no decomposable letter")
			}
			if got := DetectLang(tc.text); got != tc.want {
				t.Errorf("DetectLang(NFC) = %q, want %q", got, tc.want)
			}
			if got := DetectLang(nfd); got != tc.want {
				t.Errorf("DetectLang(NFD) = %q, want %q as the NFC text", got, tc.want)
			}
			if got := DetectLangTokens(nfd, a.Words(nfd)); got != tc.want {
				t.Errorf("DetectLangTokens(NFD) = %q, want %q as the NFC text", got, tc.want)
			}
		})
	}
	// The older formats' reading: a decomposed letter tells nothing.
	text := norm.NFD.String("Köprü yıkıldı, yol kapalı; ışıklar yanmıyor ve sürücüler bekliyor.")
	if got := DetectLangTokensPrecomposed(text, a.Words(text)); got == German {
		t.Errorf("DetectLangTokensPrecomposed(NFD) = %q, want another language than the NFC text's", got)
	}
}

func TestDetectLangReadsOnlyTheStart(t *testing.T) {
	text := strings.Repeat("The market fell and the analysts said that it was expected. ", 40) +
		strings.Repeat("Rynek spadł, a analitycy powiedzieli, że tego się spodziewali. ", 400)
	if got := DetectLang(text); got != English {
		t.Errorf("DetectLang = %q, want the language of the first words, en", got)
	}
}

func TestDetectLangDoesNotAllocate(t *testing.T) {
	var a Analyzer
	text := strings.Repeat("Rząd przyjął we wtorek projekt ustawy, który trafi do Sejmu. ", 50)
	a.DetectLang(text)
	if n := testing.AllocsPerRun(20, func() { a.DetectLang(text) }); n != 0 {
		t.Errorf("DetectLang allocates %v times per call", n)
	}
}

func TestIsStopWord(t *testing.T) {
	tests := []struct {
		lang Lang
		word string
		want bool
	}{
		{English, "the", true},
		{English, "and", true},
		{English, "parliament", false},
		{English, "się", false},
		{Polish, "się", true},
		{Polish, "że", true},
		{Polish, "sejm", false},
		{Russian, "это", true},
		{Russian, "что", true},
		{Russian, "еще", true}, // "ещё" normalised
		{Russian, "парламент", false},
		{Ukrainian, "але", true},
		{German, "und", true},
		{French, "les", true},
		{Spanish, "pero", true},
		{Italian, "della", true},
		{Czech, "jsem", true},
		{Unknown, "the", false},
		{Lang("xx"), "the", false},
	}
	for _, tc := range tests {
		if got := IsStopWord(tc.lang, tc.word); got != tc.want {
			t.Errorf("IsStopWord(%q, %q) = %v, want %v", tc.lang, tc.word, got, tc.want)
		}
	}
}

func TestIsStopTokenMatchesIsStopWord(t *testing.T) {
	text := "The U.S. and Łódź, Это ЕЩЁ не всё, że się DON’T"
	var a Analyzer
	for _, tok := range a.Words(text) {
		w := Normalize(text[tok.Start:tok.End])
		for _, lang := range langs {
			if IsStopToken(lang, tok) != IsStopWord(lang, w) {
				t.Errorf("%s %q: IsStopToken and IsStopWord disagree", lang, w)
			}
		}
	}
}

func TestStopWordListsAreNormalised(t *testing.T) {
	for i, list := range stopWordLists {
		words := strings.Fields(list)
		if len(words) < 50 {
			t.Errorf("%s: only %d stop words", langs[i], len(words))
		}
		for _, w := range words {
			if Normalize(w) != w {
				t.Errorf("%s: stop word %q is not normalised", langs[i], w)
			}
		}
	}
}
