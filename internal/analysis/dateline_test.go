package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestParseDateline(t *testing.T) {
	tests := []struct {
		name, text string
		ok         bool
		place      string
		month      time.Month
		day        int
		rest       string
	}{
		{"english", "NEW YORK, March 3 - The Federal Reserve entered", true, "NEW YORK", time.March, 3, "The Federal Reserve entered"},
		{"region and abbreviation", "SAN MATEO, Calif., Feb 26 - Mthly div", true, "SAN MATEO", time.February, 26, "Mthly div"},
		{"day first", "AMSTERDAM, 2 March - The Dutch", true, "AMSTERDAM", time.March, 2, "The Dutch"},
		{"agency after the date", "NORTHPORT, March 3 (Newswire) - The city", true, "NORTHPORT", time.March, 3, "The city"},
		{"lower case", "amarillo, april 7 - slaughter steers", true, "amarillo", time.April, 7, "slaughter steers"},
		{"no date", "WASHINGTON (Reuters) - The Senate", true, "WASHINGTON", 0, 0, "The Senate"},
		{"polish", "WARSZAWA, 3 marca (PAP) - Sejm przyjął", true, "WARSZAWA", time.March, 3, "Sejm przyjął"},
		{"polish lower-case place", "Kraków, 15 września - Rada miasta", true, "Kraków", time.September, 15, "Rada miasta"},
		{"russian tass", "МОСКВА, 3 марта. /ТАСС/. Центральный банк", true, "МОСКВА", time.March, 3, "Центральный банк"},
		{"russian dash", "САНКТ-ПЕТЕРБУРГ, 12 апреля - Городские власти", true, "САНКТ-ПЕТЕРБУРГ", time.April, 12, "Городские власти"},
		{"spanish abbreviation", "BUENOS AIRES, ABR 7 - ARGENTINE GRAIN BELT TEMPERATURES", true, "BUENOS AIRES", time.April, 7, "ARGENTINE GRAIN BELT TEMPERATURES"},
		{"spanish", "QUITO, 14 marzo - El presidente", true, "QUITO", time.March, 14, "El presidente"},
		{"sentence with a dash", "The council said - after a long debate - that", false, "", 0, 0, ""},
		{"market table", "MAR8 -- -- MINNEAPOLIS WHEAT MAY7 285", false, "", 0, 0, ""},
		{"no dash", "LONDON, March 3 The bank said", false, "", 0, 0, ""},
		{"empty", "", false, "", 0, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A DatelineReader with Languages reads them as ParseDateline does.
			for _, r := range []DatelineReader{{}, {Languages: true}} {
				d, ok := r.Read(tc.text)
				if ok != tc.ok {
					t.Fatalf("%+v: Read(%q) ok = %v, want %v (%+v)", r, tc.text, ok, tc.ok, d)
				}
				if !ok {
					continue
				}
				if d.Place != tc.place || d.Month != tc.month || d.Day != tc.day || tc.text[d.End:] != tc.rest {
					t.Errorf("%+v: Read(%q) = %q %v %d, rest %q; want %q %v %d, rest %q",
						r, tc.text, d.Place, d.Month, d.Day, tc.text[d.End:], tc.place, tc.month, tc.day, tc.rest)
				}
			}
			if d, ok := ParseDateline(tc.text); ok != tc.ok || ok && (d.Place != tc.place || d.Month != tc.month || d.Day != tc.day) {
				t.Errorf("ParseDateline(%q) = %+v, %v; want the zero DatelineReader's", tc.text, d, ok)
			}
		})
	}
}

// TestDatelineLanguages: a DatelineReader with Languages reads the
// datelines Spanish and Russian wire copy writes besides those
// ParseDateline reads: the day and month joined by "de", EFE's ".-" after
// the agency, Interfax's place ended by a full stop before the day; and
// takes no opening sentence, which ends with a full stop too, for one.
// It reads German and French datelines too: their months' names, a place
// that an agency in parentheses alone follows, a date and an agency
// without a place. Without it (the sketch formats before it) the first
// and a German or French date are a dateline without its date (a place in
// capitals) or none, and the others none: a weekly notice under them was
// read as of no day.
func TestDatelineLanguages(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		ok         bool
		place      string
		month      time.Month
		day        int
		rest       string
		before     string // the place the zero DatelineReader reads, "" for no dateline (it reads no date of any)
	}{
		{"spanish de", "MADRID, 5 de marzo - La empresa municipal", true, "MADRID", time.March, 5, "La empresa municipal", "MADRID"},
		{"spanish de, lower-case place", "Málaga, 12 de marzo - La Audiencia", true, "Málaga", time.March, 12, "La Audiencia", ""},
		{"spanish DE in capitals, a year after", "BOGOTA, 14 DE ABRIL DE 2024 - El Gobierno", true, "BOGOTA", time.April, 14, "El Gobierno", "BOGOTA"},
		{"efe", "Madrid, 5 mar (EFE).- La empresa municipal", true, "Madrid", time.March, 5, "La empresa municipal", ""},
		{"efe without a date", "MADRID (EFE).- La empresa municipal", true, "MADRID", 0, 0, "La empresa municipal", ""},
		{"notimex", "México, 30 abr (Notimex).- El Senado", true, "México", time.April, 30, "El Senado", ""},
		{"interfax", "Москва. 5 марта. ИНТЕРФАКС - Городской водоканал", true, "Москва", time.March, 5, "Городской водоканал", ""},
		{"interfax in capitals", "САНКТ-ПЕТЕРБУРГ. 12 апреля. ИНТЕРФАКС - Городские власти", true, "САНКТ-ПЕТЕРБУРГ", time.April, 12, "Городские власти", ""},
		{"interfax, a place of two words", "Нижний Новгород. 3 мая. INTERFAX.RU - Суд", true, "Нижний Новгород", time.May, 3, "Суд", ""},
		{"a sentence ended by a full stop", "Цены выросли. 5 марта ИНТЕРФАКС - данные", false, "", 0, 0, "", ""},
		{"a sentence and a figure", "Prices rose. 5 companies said - later", false, "", 0, 0, "", ""},
		{"a sentence with de", "La empresa informó el 5 de marzo - que", false, "", 0, 0, "", ""},
		{"a sentence ended by .-", "El ministro dijo que no.- Luego", false, "", 0, 0, "", ""},
		{"an abbreviation before .-", "U.S.- JAPAN TRADE TALKS", false, "", 0, 0, "", ""},
		{"a capital's abbreviation", "ST. LOUIS, 5 de marzo - La", true, "ST. LOUIS", time.March, 5, "La", "ST. LOUIS"},
		{"german", "BERLIN, 5. März (dpa) - Der Senat", true, "BERLIN", time.March, 5, "Der Senat", "BERLIN"},
		{"german abbreviation", "MÜNCHEN, 12. Mär. (dpa) - Die Stadt", true, "MÜNCHEN", time.March, 12, "Die Stadt", "MÜNCHEN"},
		{"german in capitals", "WIEN, 3. JÄNNER (APA) - Die", true, "WIEN", time.January, 3, "Die", "WIEN"},
		{"german, lower-case place", "Hamburg, 30. Dez. (dpa) - Der Hafen", true, "Hamburg", time.December, 30, "Der Hafen", ""},
		{"agency alone", "Berlin (dpa) - Der Senat", true, "Berlin", 0, 0, "Der Senat", ""},
		{"regional agency alone", "Düsseldorf (dpa/lnw) - Der Landtag", true, "Düsseldorf", 0, 0, "Der Landtag", ""},
		{"french", "PARIS, 5 mars (AFP) - Le gouvernement", true, "PARIS", time.March, 5, "Le gouvernement", "PARIS"},
		{"french abbreviation", "Lyon, 3 févr. (AFP) - La mairie", true, "Lyon", time.February, 3, "La mairie", ""},
		{"french août", "MARSEILLE, 15 août (AFP) - Le port", true, "MARSEILLE", time.August, 15, "Le port", "MARSEILLE"},
		{"french without accents", "PARIS, 2 FEVRIER (Reuters) - Le", true, "PARIS", time.February, 2, "Le", "PARIS"},
		{"french first", "PARIS, 1er déc. (AFP) - Le", true, "PARIS", time.December, 1, "Le", "PARIS"},
		{"date and agency", "5 mars 2024 (Reuters) - Le groupe", true, "", time.March, 5, "Le groupe", ""},
		{"english date and agency", "March 5, 2024 (Reuters) - The group", true, "", time.March, 5, "The group", ""},
		{"date and agency, no year", "12 Mär (dpa) - Die", true, "", time.March, 12, "Die", ""},
		{"a sentence and an agency", "Le gouvernement (AFP) - a dit", false, "", 0, 0, "", ""},
		{"an agency and its partner", "Frankfurt (dpa-AFX) - Die Börse", true, "Frankfurt", 0, 0, "Die Börse", ""},
		{"an agency of two words", "Madrid (Europa Press) - El Gobierno", true, "Madrid", 0, 0, "El Gobierno", ""},
		{"a ticker, no agency", "Apple Inc (AAPL.O) - The company", false, "", 0, 0, "", ""},
		{"a party, no agency", "John Smith (Republican) - The senator", false, "", 0, 0, "", ""},
		{"a date and no agency", "5 mars 2024 (Mars) - le", false, "", 0, 0, "", ""},
		{"a sentence, a date and an agency", "Le 5 mars (AFP) - le", false, "", 0, 0, "", ""},
		{"figures and an agency", "5 companies (Reuters) - said", false, "", 0, 0, "", ""},
		{"a date, a word and an agency", "5 mars et (AFP) - le", false, "", 0, 0, "", ""},
		{"a place and words in parentheses", "Berlin (Brandenburger Tor) - Die", false, "", 0, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := DatelineReader{Languages: true}.Read(tc.text)
			if ok != tc.ok {
				t.Fatalf("Read(%q) ok = %v, want %v (%+v)", tc.text, ok, tc.ok, d)
			}
			if ok && (d.Place != tc.place || d.Month != tc.month || d.Day != tc.day || tc.text[d.End:] != tc.rest) {
				t.Errorf("Read(%q) = %q %v %d, rest %q; want %q %v %d, rest %q",
					tc.text, d.Place, d.Month, d.Day, tc.text[d.End:], tc.place, tc.month, tc.day, tc.rest)
			}
			d, ok = ParseDateline(tc.text)
			if ok != (tc.before != "") || ok && (d.Place != tc.before || d.Month != 0) {
				t.Errorf("ParseDateline(%q) = %+v, %v; want place %q without a date", tc.text, d, ok, tc.before)
			}
		})
	}
}

func FuzzParseDateline(f *testing.F) {
	f.Add("NEW YORK, March 3 - The Federal Reserve")
	f.Add("МОСКВА, 3 марта. /ТАСС/. Текст")
	f.Add("WARSZAWA, 3 marca (PAP) - Sejm")
	f.Add("MADRID, 5 de marzo - La empresa")
	f.Add("Madrid, 5 mar (EFE).- La empresa")
	f.Add("Москва. 5 марта. ИНТЕРФАКС - Текст")
	f.Add("BERLIN, 5. März (dpa) - Der Senat")
	f.Add("Berlin (dpa) - Der Senat")
	f.Add("5 mars 2024 (Reuters) - Le groupe")
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range []DatelineReader{{}, {Languages: true}} {
			d, ok := r.Read(text)
			if !ok {
				continue
			}
			placeless := d.Place == "" && (!r.Languages || d.Month == 0) // only a date and an agency are a dateline without a place
			if d.End < 0 || d.End > len(text) || placeless || d.Day < 0 || d.Day > 31 || (d.Day == 0) != (d.Month == 0) {
				t.Fatalf("%+v: Read(%q) = %+v", r, text, d)
			}
		}
	})
}

// TestDatelineWords checks the word splitting of datelines, which does not
// allocate, against the strings functions it stands for, and the month
// names looked up in any case.
func TestDatelineWords(t *testing.T) {
	dateSep := func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == '(' || r == ')' || r == '/'
	}
	for _, s := range []string{
		"", " ", "NEW YORK", " SAN  MATEO\t", ", March 3", ", Calif., March 2 (Reuters)", "(Reuters)", ", 3 marca (PAP)",
		", 3 марта. /ТАСС/.", "a\u00a0b\u2003c", "a\xffb", "\xff", "x,y/z(w)v", strings.Repeat("1 ", 40),
	} {
		if got, want := countFields(s), len(strings.Fields(s)); got != want {
			t.Errorf("countFields(%q) = %d, len(strings.Fields) %d", s, got, want)
		}
		if got, want := appendDateWords(nil, s), strings.FieldsFunc(s, dateSep); !slices.Equal(got, want) {
			t.Errorf("appendDateWords(%q) = %q, strings.FieldsFunc %q", s, got, want)
		}
	}
	for _, w := range []string{"March", "MARCH", "mar.", "Sept.", "МАРТА", "Marca", "Września", "WRZEŚNIA", "Tuesday", "x", "", "december-december"} {
		if got, want := monthOf(w), monthNames[strings.ToLower(strings.TrimSuffix(w, "."))]; got != want {
			t.Errorf("monthOf(%q) = %v, want %v", w, got, want)
		}
	}
}

// BenchmarkParseDateline reads the datelines of wire stories, as every
// document's sketch does once.
func BenchmarkParseDateline(b *testing.B) {
	texts := []string{
		"NEW YORK, March 3 - The Federal Reserve said it would add reserves.",
		"SAN MATEO, Calif., March 2 - Alpha Corp said it raised its dividend.",
		"WASHINGTON (Reuters) - The budget deficit narrowed in February.",
		"The company said it raised its dividend - the first rise in years.",
	}
	for b.Loop() {
		for _, text := range texts {
			ParseDateline(text)
		}
	}
}
