package figures

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLanguages: a Scanner with Languages reads the numbers two to ten
// written as words in German, French, Spanish, Polish and Russian as
// figures, as the English ones are, so that a notice of one template
// filled in twice, "zu drei Jahren" and "zu vier Jahren", has other
// figures in two places (the sentence and the sum), as its English
// twin has, and a copy none; the Scanner of the formats before it read
// the word as the word of a place, and the notice had one place with
// another figure, too few to tell a template filled in twice.
func TestLanguages(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		a, b                  string
		shared, other         int // what InPlace returns of the texts read with Languages
		zeroShared, zeroOther int // and of the texts read without
	}{
		{"English, as before", "sentenced him to three years in prison for taking 180,000 euros; barred for five years",
			"sentenced him to four years in prison for taking 260,000 euros; barred for five years", 3, 2, 3, 2},
		{"German", "wegen Bestechlichkeit zu drei Jahren Haft verurteilt, 180.000 Euro angenommen, fünf Jahre lang kein Amt",
			"wegen Bestechlichkeit zu vier Jahren Haft verurteilt, 260.000 Euro angenommen, fünf Jahre lang kein Amt", 3, 2, 0, 0},
		{"French", "condamné à trois ans de prison, il avait perçu 180 000 euros, interdit pendant cinq ans",
			"condamné à quatre ans de prison, il avait perçu 260 000 euros, interdit pendant cinq ans", 4, 2, 2, 1}, // "180 000": two cells
		{"Spanish", "condenó a tres años de prisión; aceptó 180.000 euros; inhabilitación durante cinco años",
			"condenó a cuatro años de prisión; aceptó 260.000 euros; inhabilitación durante cinco años", 3, 2, 0, 0},
		{"Polish", "skazał na trzy lata więzienia, przyjął 180 tys. zł, zakaz przez pięć lat",
			"skazał na cztery lata więzienia, przyjął 260 tys. zł, zakaz przez pięć lat", 3, 2, 0, 0},
		{"Polish, declined", "zatrzymano trzech mężczyzn, przyjęli 180 tys. zł, zarzuty dla dwóch osób",
			"zatrzymano czterech mężczyzn, przyjęli 260 tys. zł, zarzuty dla dwóch osób", 3, 2, 0, 0},
		{"Russian", "приговорил к трем годам колонии, получил 1,8 млн рублей, в течение пяти лет",
			"приговорил к четырем годам колонии, получил 2,6 млн рублей, в течение пяти лет", 3, 2, 0, 0},
		{"Russian with ё, declined", "приговорил к трём годам колонии, получил 1,8 млн рублей, вместе с тремя сообщниками",
			"приговорил к четырём годам колонии, получил 2,6 млн рублей, вместе с четырьмя сообщниками", 3, 3, 0, 0},
		{"a copy", "zu drei Jahren Haft verurteilt, 180.000 Euro angenommen, fünf Jahre lang kein Amt",
			"zu drei Jahren Haft verurteilt, 180.000 Euro angenommen, fünf Jahre lang kein Amt", 3, 0, 0, 0},
		{"names written with a capital", "rain at Tres Pontas 5.0 MM, Seis Pros sold 80 pct, at Dos Hermanas 12 stations",
			"rain at Tres Pontas 7.0 MM, Seis Pros sold 90 pct, at Dos Hermanas 15 stations", 3, 3, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Scanner{Unicode: true, Languages: true}
			_, a := l.OfSlots(tc.a)
			_, b := l.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.shared || other != tc.other {
				t.Errorf("with Languages: InPlace = %d shared, %d other, want %d, %d", shared, other, tc.shared, tc.other)
			}
			u := Scanner{Unicode: true}
			_, a = u.OfSlots(tc.a)
			_, b = u.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.zeroShared || other != tc.zeroOther {
				t.Errorf("without: InPlace = %d shared, %d other, want %d, %d", shared, other, tc.zeroShared, tc.zeroOther)
			}
		})
	}
}

// TestEverySpelledNumber: each word of spelledNumbers, in lower case, is
// the figure of its value in its place ("zu _ jahren"), as the English
// words are in any case; written with a capital, or in capitals, it is
// none, nor are the words for one and the others left out (see
// spelledNumbers), nor a number word against a digit.
func TestEverySpelledNumber(t *testing.T) {
	figure := func(w string) string { // the figure the place "zu _ jahren" holds, "" for none
		s := Scanner{Unicode: true, Languages: true}
		_, slots := s.OfSlots("zu " + w + " Jahren und 12 Monaten")
		want := slot(placeOf("zu", "jahren"), nil) >> slotShift
		for _, v := range slots {
			if v>>slotShift == want {
				return string(slotFigure(v, nil))
			}
		}
		return ""
	}
	for value, words := range spelledNumbers {
		for _, w := range strings.Fields(words) {
			if got := figure(w); got != strconv.Itoa(value) {
				t.Errorf("%q is the figure %q, want %d", w, got, value)
			}
			if w == "six" {
				continue // English's too, in any case
			}
			_, n := utf8.DecodeRuneInString(w)
			for _, capital := range []string{strings.ToUpper(w[:n]) + w[n:], strings.ToUpper(w)} {
				if got := figure(capital); got != "" {
					t.Errorf("%q is the figure %q, want none", capital, got)
				}
			}
		}
	}
	for i, w := range numberWords {
		for _, c := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			if got := figure(c); got != strconv.Itoa(i+1) {
				t.Errorf("%q is the figure %q, want %d", c, got, i+1)
			}
		}
	}
	for _, w := range []string{"ein", "eine", "eins", "un", "une", "uno", "una", "jeden", "jedna", "один", "одна", "sept", "семью",
		"drei5", "5drei", "dreier", "dre", "trzydzieści", "тремоло", "тре", "fünfzig", "dwóchsetny"} {
		if got := figure(w); got != "" {
			t.Errorf("%q is the figure %q, want none", w, got)
		}
	}
}

// placeOf returns the place between the words before and after, as flush
// hashes it.
func placeOf(before, after string) uint32 {
	return wordHash(before)*16777619 ^ wordHash(after)
}

// TestSpelledNumberSameAsPlain compares spelledNumber, which looks a word
// up in one load or by its hash, with its plain form (EqualFold against
// each English number word, == against each of spelledNumbers) on random
// words of their letters, and on every word and its neighbours in length;
// and the look-up without Languages with EqualFold against the English
// words alone.
func TestSpelledNumberSameAsPlain(t *testing.T) {
	var all []string
	plain := func(w string) string {
		for i, n := range numberWords {
			if strings.EqualFold(w, n) {
				return strconv.Itoa(i + 1)
			}
		}
		for value, words := range spelledNumbers {
			if slices.Contains(strings.Fields(words), w) {
				return strconv.Itoa(value)
			}
		}
		return ""
	}
	look := func(w string) string {
		var key uint64
		if isShortASCII(w) {
			key = packWord(w)
		}
		return spelledNumber(key, w)
	}
	for _, words := range spelledNumbers {
		all = append(all, strings.Fields(words)...)
	}
	all = append(all, numberWords...)
	english := func(w string) string {
		for i, n := range numberWords {
			if strings.EqualFold(w, n) {
				return strconv.Itoa(i + 1)
			}
		}
		return ""
	}
	for _, w := range all {
		for _, v := range []string{w, w[:len(w)-1], w + "a", strings.ToUpper(w), "z" + w} {
			if !utf8.ValidString(v) {
				continue
			}
			if got, want := look(v), plain(v); got != want {
				t.Errorf("spelledNumber(%q) = %q, want %q", v, got, want)
			}
			if isShortASCII(v) { // the look-up of a Scanner without Languages
				if got, want := shortNumbers.of(packWord(v), v, false), english(v); got != want {
					t.Errorf("shortNumbers.of(%q, without Languages) = %q, want %q", v, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	letters := []rune("dwatrzyczesięćośmiuпятьдесятчетырёхDTRSzo")
	for range 50000 {
		var b strings.Builder
		for range 2 + rng.IntN(9) {
			b.WriteRune(letters[rng.IntN(len(letters))])
		}
		w := b.String()
		if rng.IntN(4) == 0 {
			w = all[rng.IntN(len(all))]
		}
		if got, want := look(w), plain(w); got != want {
			t.Fatalf("spelledNumber(%q) = %q, want %q", w, got, want)
		}
	}
}

// FuzzLanguagesSameWithoutTheirWords: a Scanner with Languages reads the
// figures of any text as a Scanner without it does, and its places too
// once every word of spelledNumbers in it is made another word: what
// Languages reads otherwise is those words alone, and the sketch formats
// before it, which read without it, read as before. With Unicode and
// without, with Measures and without; any text, UTF-8 or not, reads
// without a panic.
func FuzzLanguagesSameWithoutTheirWords(f *testing.F) {
	for _, s := range []string{"zu drei Jahren Haft, 180.000 Euro, fünf Jahre", "a tres años de prisión, 180.000 euros, cinco años",
		"na trzy lata, dla dwóch osób, 5dwa trzy5", "к трём годам колонии, 1,8 млн рублей, с четырьмя, пяти лет",
		"à trois ans de prison, six ans, sept 30", "Tres Pontas 5.0 MM, DOS 3.3, Shr nil vs 12 cts, five cts",
		"JUNIN......29.......18......5\nCORDOBA.....30 mm....17......0", "с 3 по 10 мая, 5月3日至5月10日, ١٢٫٥\xd9\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		masked := maskSpelledNumbers(text)
		for _, unicode := range []bool{false, true} {
			for _, measures := range []bool{false, true} {
				without := Scanner{Unicode: unicode, Measures: measures}
				with := Scanner{Unicode: unicode, Measures: measures, Languages: true}
				wof, _ := without.OfSlots(text)
				lof, _ := with.OfSlots(text)
				if !slices.Equal(wof, lof) {
					t.Fatalf("Unicode %v, Measures %v, Of(%q): %v, with Languages %v", unicode, measures, text, wof, lof)
				}
				_, wslots := without.OfSlots(masked)
				_, lslots := with.OfSlots(masked)
				if !slices.Equal(wslots, lslots) {
					t.Fatalf("Unicode %v, Measures %v, Slots(%q): %x, with Languages %x", unicode, measures, masked, wslots, lslots)
				}
			}
		}
	})
}

// maskSpelledNumbers returns text with the first letter of each word of
// spelledNumbers in it, wherever it stands (inside another word too), made
// another letter of as many bytes: 'x' for a letter of ASCII, 'ъ' for a
// Cyrillic one. No word of spelledNumbers starts with either, nor does one
// become another so.
func maskSpelledNumbers(text string) string {
	b := []byte(text)
	for _, words := range spelledNumbers {
		for _, w := range strings.Fields(words) {
			for from := 0; ; {
				k := strings.Index(text[from:], w)
				if k < 0 {
					break
				}
				at := from + k
				if b[at] < utf8.RuneSelf {
					b[at] = 'x'
				} else {
					copy(b[at:], "ъ")
				}
				from = at + 1
			}
		}
	}
	return string(b)
}
