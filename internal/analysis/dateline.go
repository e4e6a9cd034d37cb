package analysis

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Dateline is the line that opens a wire story: where it was filed and,
// often, the day, as in "NEW YORK, March 3 -", "WASHINGTON (Reuters) -",
// "WARSZAWA, 3 marca (PAP) -" or "МОСКВА, 3 марта. /ТАСС/.".
type Dateline struct {
	// Place is the place as written, without the region that may follow
	// it ("SAN MATEO" of "SAN MATEO, Calif., March 2 -").
	Place string
	// Month and Day are the date of the line; 0 when it has none. A
	// dateline gives no year.
	Month time.Month
	Day   int
	// End is the byte offset in the text where the story proper starts,
	// after the dateline and its dash.
	End int
}

// maxDateline bounds the bytes a dateline may take at the start of a text.
const maxDateline = 120

// dashes end a dateline; ". /" ends the TASS form "МОСКВА, 3 марта. /ТАСС/.".
var datelineEnds = []string{" - ", " -- ", " – ", " — ", ", - ", " -\n", ". /"}

// ParseDateline reads the dateline at the start of text. It accepts a place
// of one to six words followed by a comma, a parenthesis or the dash, then
// optionally regions, a date (English, Polish, Russian or Spanish month
// names, the day before or after the month) and an agency in parentheses or
// slashes, then a dash. A line without a date is a dateline only when its
// place is written in capitals (WASHINGTON (Reuters) -), so that an opening
// sentence with a dash is not taken for one. ok is false when text does not
// start with one. A DatelineReader with Languages reads more forms.
func ParseDateline(text string) (d Dateline, ok bool) { return DatelineReader{}.Read(text) }

// A DatelineReader reads the dateline at the start of a text. The zero
// DatelineReader reads those ParseDateline reads.
type DatelineReader struct {
	// Languages says to read too the forms Spanish, Russian, German and
	// French wire copy writes besides those: the day and month joined by
	// "de" ("MADRID, 5 de marzo -"); German and French month names (see
	// languageMonths: "BERLIN, 5. März (dpa) -", "PARIS, 5 mars (AFP) -")
	// and French's first of the month, "1er";
	// a dateline ended by ".-" after its agency in parentheses (EFE's
	// "Madrid, 5 mar (EFE).-"); a place ended by a full stop before the
	// day (Interfax's "Москва. 5 марта. ИНТЕРФАКС -"); a place not in
	// capitals and without a date that an agency in parentheses alone
	// follows ("Berlin (dpa) -"); those last two when each word of the
	// place starts with a capital, so that a sentence is not taken for a
	// place; and a date with an agency in parentheses and no place ("5
	// mars 2024 (Reuters) -"), whose Place is "". Without it, as the
	// sketch formats before it read, the first two are read without their
	// date (and, their place not in capitals, not at all), the others not
	// at all.
	Languages bool
}

// Read reads the dateline at the start of text, as ParseDateline does,
// and the forms r is set to read; ok is false when text does not start
// with one.
func (r DatelineReader) Read(text string) (d Dateline, ok bool) {
	head := text[:min(len(text), maxDateline)]
	cut, end := datelineEnd(head, r.Languages)
	if cut < 0 {
		return Dateline{}, false
	}
	line := strings.TrimSpace(head[:cut])
	if strings.HasSuffix(head[:end], ". /") {
		end = skipAgency(text, cut+2) // "/ТАСС/." and the spaces after it
	}
	if r.Languages {
		if month, day := dateAndAgency(line); month != 0 {
			d = Dateline{Month: month, Day: day, End: end}
			return d.skipSpaces(text), true
		}
	}
	place, rest, stop := splitPlace(line, r.Languages)
	if !isPlace(place) || stop && !isName(place) {
		return Dateline{}, false
	}
	d = Dateline{Place: place, End: end}
	d.Month, d.Day = findDate(rest, r.Languages)
	if d.Month == 0 && !isCapitals(place) && !(r.Languages && isName(place) && isAgency(rest)) {
		return Dateline{}, false
	}
	return d.skipSpaces(text), true
}

// skipSpaces returns d with its End past the spaces and line breaks
// after it in text.
func (d Dateline) skipSpaces(text string) Dateline {
	for d.End < len(text) && (text[d.End] == ' ' || text[d.End] == '\n') {
		d.End++
	}
	return d
}

// isAgency reports whether s, the rest of a dateline after its place, is
// an agency in parentheses alone: one of newsAgencies, in any case, with
// a desk or a partner after a "/" or a "-" ("(dpa)", "(AFP)", "(dpa/lnw)",
// "(dpa-AFX)"). A name in parentheses that is no agency ("Apple Inc
// (AAPL.O) -", "John Smith (Republican) -") leaves a sentence's opening
// no dateline.
func isAgency(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 4 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	s = s[1 : len(s)-1]
	if i := strings.IndexAny(s, "/-"); i > 0 {
		s = s[:i]
	}
	return newsAgencies[strings.ToLower(s)]
}

// newsAgencies are the news agencies a dateline names in parentheses, in
// lower case: the world's, and Europe's national ones whose copy
// DatelineReader reads.
var newsAgencies = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range strings.Fields(`reuters afp ap dpa efe ansa apa sda ats kna epd ddp dapd afx pap tass итар интерфакс
		interfax ria риа belga anp ntb tt stt ritzau ctk čtk mti bta hina tanjug lusa europa xinhua upi bloomberg
		kyodo yonhap aap pti ians ani ukrinform укринформ рбк sid`) {
		m[a] = true
	}
	for _, a := range []string{"тасс", "europa press", "риа новости", "dow jones"} {
		m[a] = true
	}
	return m
}()

// dateAndAgency reads line as a dateline without a place: a date, day and
// month with an optional year in either order ("5 mars 2024", "March 5,
// 2024"), and an agency in parentheses ("(Reuters)"; see isAgency). It
// returns the month and day, 0 when line is no such dateline.
func dateAndAgency(line string) (time.Month, int) {
	k := strings.LastIndexByte(line, '(')
	if k <= 0 || !isAgency(line[k:]) {
		return 0, 0
	}
	var words [4]string
	f := appendDateWords(words[:0], line[:k])
	if len(f) < 2 || len(f) > 3 || len(f) == 3 && !isYearWord(f[2]) {
		return 0, 0
	}
	m, day := monthIn(f[0], true), dayIn(f[1], true)
	if m == 0 {
		m, day = monthIn(f[1], true), dayIn(f[0], true)
	}
	if m == 0 || day == 0 {
		return 0, 0
	}
	return m, day
}

// isYearWord reports whether w is four digits, a year.
func isYearWord(w string) bool {
	if len(w) != 4 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// datelineEnd returns where the first of datelineEnds starts in head and
// where it ends, with languages ".- " after a closing parenthesis too
// (EFE's "(EFE).- "); -1 when none does (after the first byte).
func datelineEnd(head string, languages bool) (cut, end int) {
	for i := 1; i < len(head); i++ {
		if c := head[i]; c != ' ' && c != ',' && c != '.' {
			continue
		}
		for _, e := range datelineEnds {
			if strings.HasPrefix(head[i:], e) {
				return i, i + len(e)
			}
		}
		if languages && head[i-1] == ')' && strings.HasPrefix(head[i:], agencyEnd) {
			return i, i + len(agencyEnd)
		}
	}
	return -1, 0
}

// agencyEnd ends a Spanish dateline after its agency in parentheses
// ("Madrid, 5 mar (EFE).- "), for a DatelineReader with Languages.
const agencyEnd = ".- "

// skipAgency returns the offset past "/AGENCY/." at i.
func skipAgency(text string, i int) int {
	if j := strings.IndexByte(text[i+1:min(len(text), i+40)], '/'); j >= 0 {
		i += j + 2
		if i < len(text) && text[i] == '.' {
			i++
		}
	}
	return i
}

// splitPlace splits a dateline into its place and the rest (regions, date,
// agency): the place ends at the first comma or parenthesis and, with
// languages, at a full stop before them whose next word is a figure (the
// day of "Москва. 5 марта."), which stop reports.
func splitPlace(line string, languages bool) (place, rest string, stop bool) {
	i := strings.IndexAny(line, ",(")
	if languages {
		if k := fullStopBeforeDay(line); k >= 0 && (i < 0 || k < i) {
			return strings.TrimSpace(line[:k]), line[k+1:], true
		}
	}
	if i < 0 {
		return strings.TrimSpace(line), "", false
	}
	return strings.TrimSpace(line[:i]), line[i:], false
}

// fullStopBeforeDay returns the offset of the first ". " in line that a
// digit follows, -1 for none.
func fullStopBeforeDay(line string) int {
	for from := 0; ; {
		k := strings.Index(line[from:], ". ")
		if k < 0 {
			return -1
		}
		k += from
		j := k + 2
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] >= '0' && line[j] <= '9' {
			return k
		}
		from = k + 2
	}
}

// isName reports whether each word of s starts with a capital letter.
func isName(s string) bool {
	start := true
	for _, c := range s {
		if unicode.IsSpace(c) {
			start = true
			continue
		}
		if start && !unicode.IsUpper(c) {
			return false
		}
		start = false
	}
	return true
}

// isPlace reports whether s can be the place of a dateline: one to six
// words of letters (and ".", "'", "-", "/"), starting with a letter.
func isPlace(s string) bool {
	if n := countFields(s); n == 0 || n > 6 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(r) {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) && !strings.ContainsRune(" .'-/", c) {
			return false
		}
	}
	return true
}

// countFields returns len(strings.Fields(s)), without allocating.
func countFields(s string) int {
	n, in := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// isCapitals reports whether every letter of s is upper case.
func isCapitals(s string) bool {
	for _, c := range s {
		if unicode.IsLetter(c) && !unicode.IsUpper(c) {
			return false
		}
	}
	return true
}

// findDate finds a month name and the day next to it in the words of s,
// with languages also the day before "de" before it ("5 de marzo") and
// the month names of languageMonths.
func findDate(s string, languages bool) (time.Month, int) {
	var words [16]string // a dateline's rest has a few words: no allocation
	f := appendDateWords(words[:0], s)
	for i, w := range f {
		m := monthIn(w, languages)
		if m == 0 {
			continue
		}
		if i+1 < len(f) {
			if day := dayIn(f[i+1], languages); day > 0 {
				return m, day
			}
		}
		if i > 0 {
			if day := dayIn(f[i-1], languages); day > 0 {
				return m, day
			}
		}
		if languages && i > 1 && strings.EqualFold(f[i-1], "de") {
			if day := dayOf(f[i-2]); day > 0 {
				return m, day
			}
		}
	}
	return 0, 0
}

// appendDateWords appends to dst the words of s: its fields between white
// space, commas, parentheses and slashes (strings.FieldsFunc's).
func appendDateWords(dst []string, s string) []string {
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) || r == ',' || r == '(' || r == ')' || r == '/' {
			if start >= 0 {
				dst, start = append(dst, s[start:i]), -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// dayIn reads a day of the month as dayOf does, and with languages the
// first as French writes it, "1er".
func dayIn(w string, languages bool) int {
	if languages && (w == "1er" || w == "1ER") {
		return 1
	}
	return dayOf(w)
}

// dayOf reads a day of the month, 1 to 31 ("3", "03", "3.").
func dayOf(w string) int {
	w = strings.TrimSuffix(w, ".")
	if len(w) == 0 || len(w) > 2 {
		return 0
	}
	d := 0
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0
		}
		d = d*10 + int(w[i]-'0')
	}
	if d < 1 || d > 31 {
		return 0
	}
	return d
}

// monthNames are the month words a dateline may use, lower case, without a
// final period: English names and their three- and four-letter forms,
// Polish and Russian names in the genitive and nominative, Russian
// abbreviations.
var monthNames = func() map[string]time.Month {
	m := map[string]time.Month{}
	add := func(month time.Month, words ...string) {
		for _, w := range words {
			m[w] = month
		}
	}
	for mo := time.January; mo <= time.December; mo++ {
		name := strings.ToLower(mo.String())
		add(mo, name, name[:3])
	}
	add(time.June, "june")
	add(time.July, "july")
	add(time.September, "sept")
	add(time.January, "stycznia", "styczeń", "январь", "января", "янв")
	add(time.February, "lutego", "luty", "февраль", "февраля", "фев")
	add(time.March, "marca", "marzec", "март", "марта", "мар")
	add(time.April, "kwietnia", "kwiecień", "апрель", "апреля", "апр")
	add(time.May, "maja", "maj", "май", "мая")
	add(time.June, "czerwca", "czerwiec", "июнь", "июня", "июн")
	add(time.July, "lipca", "lipiec", "июль", "июля", "июл")
	add(time.August, "sierpnia", "sierpień", "август", "августа", "авг")
	add(time.September, "września", "wrzesień", "сентябрь", "сентября", "сен", "сент")
	add(time.October, "października", "październik", "октябрь", "октября", "окт")
	add(time.November, "listopada", "listopad", "ноябрь", "ноября", "ноя")
	add(time.December, "grudnia", "grudzień", "декабрь", "декабря", "дек")
	add(time.January, "enero", "ene")
	add(time.February, "febrero")
	add(time.March, "marzo")
	add(time.April, "abril", "abr")
	add(time.May, "mayo")
	add(time.June, "junio")
	add(time.July, "julio")
	add(time.August, "agosto", "ago")
	add(time.September, "septiembre", "setiembre")
	add(time.October, "octubre")
	add(time.November, "noviembre")
	add(time.December, "diciembre", "dic")
	return m
}()

// languageMonths are the month words of German and French datelines a
// DatelineReader with Languages reads besides monthNames, lower case,
// without a final period: the names, their abbreviations ("Mär.",
// "févr.", "déc.") and the French ones without their accents, as copy in
// capitals or in ASCII writes them ("FEVRIER", "aout").
var languageMonths = func() map[string]time.Month {
	m := map[string]time.Month{}
	add := func(month time.Month, words ...string) {
		for _, w := range words {
			m[w] = month
		}
	}
	add(time.January, "januar", "jänner", "janvier", "janv")
	add(time.February, "februar", "feber", "février", "fevrier", "févr", "fevr", "fév", "fev")
	add(time.March, "märz", "maerz", "mär", "mrz", "mars")
	add(time.April, "avril", "avr")
	add(time.May, "mai")
	add(time.June, "juni", "juin")
	add(time.July, "juli", "juillet", "juil")
	add(time.August, "août", "aout")
	add(time.September, "septembre")
	add(time.October, "oktober", "okt", "octobre")
	add(time.November, "novembre")
	add(time.December, "dezember", "dez", "décembre", "decembre", "déc")
	return m
}()

// monthOf returns the month a word names among monthNames, or 0.
func monthOf(w string) time.Month { return monthIn(w, false) }

// monthIn returns the month a word names, or 0: among monthNames, and
// with languages among languageMonths too.
func monthIn(w string, languages bool) time.Month {
	w = strings.TrimSuffix(w, ".")
	var lower [16]byte
	if len(w) > len(lower) || !isASCII(w) {
		l := strings.ToLower(w)
		if m := monthNames[l]; m != 0 || !languages {
			return m
		}
		return languageMonths[l]
	}
	for i := 0; i < len(w); i++ {
		lower[i] = asciiLower[w[i]]
	}
	if m := monthNames[string(lower[:len(w)])]; m != 0 || !languages { // looked up without a copy
		return m
	}
	return languageMonths[string(lower[:len(w)])]
}
