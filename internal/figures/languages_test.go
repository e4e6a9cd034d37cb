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
			"condamné à quatre ans de prison, il avait perçu 260 000 euros, interdit pendant cinq ans", 3, 2, 2, 1}, // without Languages "180 000" is two cells
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

// TestThousandsSpaced: a Scanner with Languages reads a number whose
// groups of thousands a space sets apart, as French, Polish and Russian
// write it (a no-break or narrow no-break space too), as one figure, in
// its fingerprints and in its places, as it reads the number written
// without the spaces; the Scanner of the formats before it read two
// figures or more (a table's cells). Two figures set apart by two spaces,
// a group of other than three digits after the space, a first group of
// four digits, a decimal or a figure a letter touches (a contract month's
// "MAY7 274 1/2"), and figures a plain space sets apart that no unit
// follows (a table row's buyer and seller, "COPPER     875 877") are two
// figures, with Languages too.
func TestThousandsSpaced(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		one        string // the text as Languages reads it, "" for as without Languages
	}{
		{"French", "il avait perçu 180 000 euros d'une entreprise", "il avait perçu 180000 euros d'une entreprise"},
		{"Polish, three groups", "przyjął 1 250 000 zł w zamian", "przyjął 1250000 zł w zamian"},
		{"Russian, no-break space", "получил 12\u00a0500 руб. за содействие", "получил 12500 руб. за содействие"},
		{"narrow no-break space", "perçu 2\u202f345\u202f678 euros", "perçu 2345678 euros"},
		{"thin space", "perçu 2\u2009345 euros", "perçu 2345 euros"},
		{"a decimal comma after", "pour 1 250,50 euros", "pour 1250,50 euros"},
		{"a currency sign after", "perçu 180 000 € au total", "perçu 180000 € au total"},
		{"a count of people", "ils étaient 180 000 manifestants", "ils étaient 180000 manifestants"},
		{"a line break before the unit", "przyjął 1 250 000\nzł w zamian", "przyjął 1250000\nzł w zamian"},
		{"a line break between groups", "une enveloppe de 180\n000 euros pour", "une enveloppe de 180000 euros pour"},
		{"a line break of CRLF between groups", "une enveloppe de 180\r\n000 euros pour", "une enveloppe de 180000 euros pour"},
		{"a no-break space at the end of the text", "le total: 12\u00a0500", ""},
		{"a plain space at the end of the text", "le total: 12 500", ""},
		{"before a comma, a narrow space", "ils étaient 180\u202f000, selon la CGT", ""},
		{"a day before a sum", "agreed to sell on July 6 100 mln dlrs of debentures", ""},
		{"a day before a count", "Backlog at January 31 747 mln dlrs", ""},
		{"a letter after", "ordered 15 747s from Boeing", ""},
		{"a row before words", "Iridium 360 380 a troy ounce\naug 724 734 nil", ""},
		{"five groups after the first", "codes 123 456 789 012 345 678 euros", ""},
		{"a table's row, buyer and seller", "    COPPER     875 877\n    LEAD       298 300\n", ""},
		{"a plain space before another figure", "scores 12 500 18 pts", ""},
		{"two spaces", "JUNIN 12  500 euros", ""},
		{"four digits after", "entre 12 5000 euros", ""},
		{"two digits after", "entre 12 50 euros", ""},
		{"a first group of four", "en 1234 500 personnes", ""},
		{"a decimal before", "hausse de 1.5 000 points", ""},
		{"a letter before", "MAY7 274 1/2 UP 1/2", ""},
		{"a Cyrillic letter before", "серии Б7 274 штуки", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.one
			if want == "" {
				want = tc.text
			}
			var l, l2, z Scanner
			l.Languages, l2.Languages = true, true
			gotOf, gotSlots := l.OfSlots(tc.text)
			wantOf, wantSlots := l2.OfSlots(want)
			if !slices.Equal(gotOf, wantOf) || !slices.Equal(gotSlots, wantSlots) {
				t.Errorf("with Languages: %v %x, want those of %q: %v %x", gotOf, gotSlots, want, wantOf, wantSlots)
			}
			zOf, zSlots := z.OfSlots(tc.text)
			if same := slices.Equal(zOf, gotOf) && slices.Equal(zSlots, gotSlots); same != (tc.one == "") {
				t.Errorf("without Languages: %v %x, the same as with %v", zOf, zSlots, same)
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
// figures and places of any text as a Scanner without it does once every
// word of spelledNumbers in it is made another word and every space
// between two digits another rune: what Languages reads otherwise is
// those words and numbers of groups of thousands alone, and the sketch
// formats before it, which read without it, read as before. With Unicode and
// without, with Measures and without; any text, UTF-8 or not, reads
// without a panic.
func FuzzLanguagesSameWithoutTheirWords(f *testing.F) {
	for _, s := range []string{"zu drei Jahren Haft, 180.000 Euro, fünf Jahre", "a tres años de prisión, 180.000 euros, cinco años",
		"na trzy lata, dla dwóch osób, 5dwa trzy5", "к трём годам колонии, 1,8 млн рублей, с четырьмя, пяти лет",
		"à trois ans de prison, six ans, sept 30", "Tres Pontas 5.0 MM, DOS 3.3, Shr nil vs 12 cts, five cts",
		"JUNIN......29.......18......5\nCORDOBA.....30 mm....17......0", "с 3 по 10 мая, 5月3日至5月10日, ١٢٫٥\xd9\xff",
		"perçu 180 000 euros, 1\u00a0250\u202f000 zł, 12\u2009500 руб., 12 5000, 1.5 000, ١٢ ٥٠٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		masked := maskThousands(maskSpelledNumbers(text))
		for _, unicode := range []bool{false, true} {
			for _, measures := range []bool{false, true} {
				without := Scanner{Unicode: unicode, Measures: measures}
				with := Scanner{Unicode: unicode, Measures: measures, Languages: true}
				with.OfSlots(text) // any text reads without a panic
				wof, wslots := without.OfSlots(masked)
				lof, lslots := with.OfSlots(masked)
				if !slices.Equal(wof, lof) {
					t.Fatalf("Unicode %v, Measures %v, Of(%q): %v, with Languages %v", unicode, measures, masked, wof, lof)
				}
				if !slices.Equal(wslots, lslots) {
					t.Fatalf("Unicode %v, Measures %v, Slots(%q): %x, with Languages %x", unicode, measures, masked, wslots, lslots)
				}
			}
		}
	})
}

// maskThousands returns text with each space that can set apart groups
// of thousands (see thousandsSpace) made as many bytes '_' after a digit
// of any script: a number whose groups spaces set apart is then two
// figures or more with Languages too.
func maskThousands(text string) string {
	b := []byte(text)
	digit := false // the rune before is a digit
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if digit && (r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009') {
			copy(b[i:i+n], "___")
		}
		_, other := asciiDigit(r)
		digit = other || r < utf8.RuneSelf && isDigit(byte(r))
		i += n
	}
	return string(b)
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

// FuzzThousandsSpacesAlike: a Scanner with Languages reads the figures of
// a text as those of the same text with its no-break, narrow no-break and
// thin spaces and its line breaks made plain spaces, as a reprint makes
// them (or wraps its lines again): a sum's groups of
// thousands are one figure, or figures apart, whatever the space between
// them. (Their places may differ: figures a plain space sets apart are a
// table's cells, as they were before Languages.)
func FuzzThousandsSpacesAlike(f *testing.F) {
	for _, s := range []string{"perçu 180\u202f000 euros", "ils étaient 180\u00a0000, selon la CGT", "1\u2009250\u202f000\nzł",
		"COPPER 875\u00a0877", "codes 123\u00a0456 789 012 345 678 euros", "codes 123 456 789\n012 345 678 euros",
		"codes 123 456 789\r\n012 345 678 euros"} {
		f.Add(s)
	}
	plain := strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ", "\r\n", " ", "\n", " ")
	f.Fuzz(func(t *testing.T, text string) {
		for _, unicode := range []bool{false, true} {
			a, b := Scanner{Unicode: unicode, Languages: true}, Scanner{Unicode: unicode, Languages: true}
			aOf, _ := a.OfSlots(text)
			p := plain.Replace(text)
			bOf, _ := b.OfSlots(p)
			if !slices.Equal(aOf, bOf) {
				t.Fatalf("Unicode %v: Of(%q) = %v, Of(%q) = %v", unicode, text, aOf, p, bOf)
			}
		}
	})
}
