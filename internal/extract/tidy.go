package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tidy removes from an extracted text the advertisement labels that
// engines leave inside an article ("Advertisement" where an ad slot sat
// between two paragraphs), reading times, copyright notices and the lines
// that say when the article was published or updated, each a line of its
// own.
func tidy(text string) string {
	paras := strings.Split(text, "\n\n")
	out := paras[:0]
	for _, p := range paras {
		lines := strings.Split(p, "\n")
		kept := lines[:0]
		for _, l := range lines {
			if !isAdLabel(l) && !isReadingTime(l) && !isRightsNotice(l) && !isStampLine(l) {
				kept = append(kept, l)
			}
		}
		if len(kept) > 0 {
			out = append(out, strings.Join(kept, "\n"))
		}
	}
	return strings.Join(out, "\n\n")
}

// fold reduces a line to its lower-case letters and digits, single spaces
// between words (wordsOf joined), for comparing a line with the headline.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte(' ')
		}
		gap = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// wordsOf returns the words of s in lower case: runs of letters and
// digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// adLabels are the labels of advertisement slots, folded.
var adLabels = map[string]bool{
	"advertisement": true, "advertisements": true, "advert": true, "adverts": true, "ad": true,
	"sponsored": true, "sponsored content": true, "paid content": true, "promoted content": true,
	"story continues below advertisement": true, "article continues below advertisement": true,
	"article continues below": true, "continue reading below": true, "scroll to continue with content": true,
	"advertisement scroll to continue": true, "anzeige": true, "werbung": true, "reklama": true,
	"реклама": true, "publicité": true, "publicidad": true, "pubblicità": true, "publicidade": true,
	"advertentie": true, "continue reading the main story": true, "story continues below": true,
	"continua depois da publicidade": true, "continua após a publicidade": true,
	"continúa después de la publicidad": true, "la suite après la publicité": true,
	"la suite après cette publicité": true, "weiterlesen nach der anzeige": true,
	"lesen sie nach der anzeige weiter": true, "artikel wird nach der anzeige fortgesetzt": true,
	"dalsza część artykułu pod reklamą": true, "dalszy ciąg artykułu pod reklamą": true,
	"lees verder na de advertentie": true, "l articolo continua dopo la pubblicità": true,
	"продолжение после рекламы": true,
}

// readingTime matches a line that only says how long the article takes to
// read ("5 min read", "Lesezeit: ca. 3 Minuten", "Czas czytania: 4 min"),
// folded.
var readingTime = regexp.MustCompile(`^(?:(?:(?:reading|read|estimated reading) time|lesezeit|lesedauer|czas czytania|tiempo de lectura|temps de lecture|tempo de leitura|tempo di lettura|leestijd|время чтения) (?:(?:ca|approx|about|etwa|około|около) )?` + readingSpan + `|` + readingSpan + ` (?:read|reading|lesezeit|de lectura|de lecture|czytania|чтения))$`)

// readingSpan is a span of minutes, folded: "5 min", "3 5 minutes".
const readingSpan = `\d+(?: \d+)? ?(?:min|mins|minute|minutes|minuten|minutos|minut|minuty|minuti|мин|минут|минуты)`

// isReadingTime reports whether a line only says how long the article
// takes to read.
func isReadingTime(line string) bool {
	if len(line) > 60 {
		return false
	}
	f := fold(line)
	return strings.ContainsFunc(f, unicode.IsDigit) && readingTime.MatchString(f)
}

// isAdLabel reports whether a line is only an advertisement label, or two
// of them ("Advertisement - Continue Reading Below").
func isAdLabel(line string) bool {
	if len(line) > 60 {
		return false
	}
	f := fold(line)
	if adLabels[f] {
		return true
	}
	for i := range len(f) {
		if f[i] == ' ' && adLabels[f[:i]] && adLabels[f[i+1:]] {
			return true
		}
	}
	return false
}

// dateWords are the words a date or time line is made of besides figures:
// months, weekdays (English, full and short), time zones and the verbs that
// introduce a date, folded.
var dateWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`january february march april may june july august september october
		november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday
		thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun am pm a m p m gmt
		utc bst cet cest est edt cst cdt mst mdt pst pdt et pt msk ist published updated posted last
		modified first on at st nd rd th of the`) {
		m[w] = true
	}
	return m
}()

// monthWords are the month names and abbreviations among dateWords.
var monthWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`january february march april may june july august september october
		november december jan feb mar apr jun jul aug sep sept oct nov dec`) {
		m[w] = true
	}
	return m
}()

// localDateWords are the words besides months a date or time line of the
// languages localDate reads is made of: their weekdays, whole, the words
// that label a date ("Opublikowano:", "Опубликовано", "Gepubliceerd op",
// "Mis à jour le", "Stand:"), the words after a year ("5 marca 2024 r.",
// "5 марта 2024 г.") and those that join
// a day and a clock ("Dienstag, 5. März 2024 um 14:23 Uhr", "5 marca 2024
// o godz. 14:23", "5 de março de 2024 às 10:00", "5 marzo 2024 ore 10:00",
// "5 maart 2024 om 10:00", "5 марта 2024 г. в 14:23"), as localDate reads
// them (localTime, namedDate).
var localDateWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(localWeekdays + ` um uhr h le à às a las de del el il alle ore o godz op om kl klockan в г года r roku
		opublikowano zaktualizowano aktualizacja опубликовано обновлено gepubliceerd bijgewerkt laatst veröffentlicht
		aktualisiert stand publié publiée modifié mis jour publicado actualizado atualizado em pubblicato aggiornato`) {
		m[w] = true
	}
	return m
}()

// isDateLine reports whether a line is only a date, a time or both, with at
// most a word such as "Updated" before it: every word a figure or a word of
// dateWords, localMonths or localDateWords, at least one figure, and a
// month name or a figure joined by "-", "/" or "." (2026-11-02, 02/11/2026)
// or by ":" or "h" (a time: 14:23, 14h23).
func isDateLine(line string) bool {
	if n := utf8.RuneCountInString(line); n == 0 || n > 60 {
		return false
	}
	figures, month, joined := 0, false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == '|' || r == '(' || r == ')' || r == '\u2013' || r == '\u2014' || r == '·' || r == '•'
	}) {
		w = strings.Trim(w, ".-")
		switch {
		case w == "":
		case isFigure(w):
			figures++
			joined = joined || strings.ContainsAny(w, "-/.:")
		case isFigure(strings.Replace(w, "h", ":", 1)) && w[0] != 'h':
			figures, joined = figures+1, true // a clock written 14h23
		case strings.HasSuffix(w, ":") && (dateWords[strings.TrimSuffix(w, ":")] || localDateWords[strings.TrimSuffix(w, ":")]):
		case dateWords[w]:
			month = month || monthWords[w]
		case localMonths[w] > 0:
			month = true
		case localDateWords[w]:
		case isOrdinal(w):
			figures++
		default:
			return false
		}
	}
	return figures > 0 && (month || joined)
}

// isFigure reports a run of digits, possibly joined by "-", "/", "." or
// ":" (2026-11-02, 10:32, 2.11.2026).
func isFigure(w string) bool {
	digits := 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' || c == '/' || c == '.' || c == ':':
		default:
			return false
		}
	}
	return digits > 0
}

// isOrdinal reports a day written as an ordinal: 1st, 22nd, 3rd, 4th.
func isOrdinal(w string) bool {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i == 0 || i > 2 {
		return false
	}
	switch w[i:] {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// rightsPhrases say that a text's rights are reserved, or that it may not
// be copied, in lower case.
var rightsPhrases = []string{"all rights reserved", "alle rechte vorbehalten", "todos los derechos reservados",
	"tous droits réservés", "tutti i diritti riservati", "todos os direitos reservados", "wszelkie prawa zastrzeżone",
	"все права защищены", "alle rechten voorbehouden", "may not be published, broadcast",
	"may not be reproduced", "may not be republished", "may not be redistributed"}

// isRightsNotice reports whether a line is a copyright notice: one that
// opens with the copyright sign ("© 2024 The Daily Example", "Copyright ©
// 2019 AP", "(c) 2021"), a short one (maxRightsNotice) that says all rights are
// reserved or forbids copies ("This material may not be published,
// broadcast, rewritten or redistributed", the wire services' line under
// every story they sell, and so under every reprint of it), or a longer
// one that opens with the word and says so ("Copyright 2012 The Associated
// Press. All rights reserved. This material may not be …"). A line that
// only opens with the word ("Copyright 1954, softbound manual", a section
// "Copyright, property, or business matters") may be the article's, and
// so may a long credit that ends in the phrase (a book excerpt's).
func isRightsNotice(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) > 250 || t == "" {
		return false
	}
	for _, sign := range [...]string{"©", "copyright ©", "copyright (c)"} {
		if len(t) >= len(sign) && strings.EqualFold(t[:len(sign)], sign) {
			return true
		}
	}
	if len(t) > 4 && strings.EqualFold(t[:4], "(c) ") && isDigit(t[4]) {
		return true // "(c) 2021 Example Media", not a list's item "(c) the minister shall…"
	}
	if len(t) > maxRightsNotice && !(len(t) > 10 && strings.EqualFold(t[:10], "copyright ")) {
		return false
	}
	l := strings.ToLower(t)
	for _, p := range rightsPhrases {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// maxRightsNotice is the longest line (bytes) isRightsNotice takes for a
// notice by its reserved rights alone.
const maxRightsNotice = 120

// publishLabels open a line that says when the article was published,
// folded ("first published", "veröffentlicht", "publié"), in eleven
// languages.
var publishLabels = []string{"published", "first published", "veröffentlicht", "publié", "publicado",
	"pubblicato", "opublikowano", "gepubliceerd", "опубликовано", "publicerad", "publisert", "udgivet",
	"erstellt", "publiziert", "online seit"}

// updateLabels open a line that says when the article was last changed,
// folded ("last updated", "aktualisiert", "stand", "mis à jour").
var updateLabels = []string{"updated", "last updated", "last modified", "aktualisiert", "zuletzt aktualisiert",
	"mis à jour", "actualizado", "aggiornato", "zaktualizowano", "bijgewerkt", "laatst bijgewerkt", "обновлено",
	"uppdaterad", "oppdatert", "sist oppdatert", "opdateret", "sidst opdateret", "stand"}

// stampLabels open a line that says when the article was published or
// last changed, folded: publishLabels and updateLabels. The date reader
// takes the same labels before a page's date (dateLabel).
var stampLabels = slices.Concat(publishLabels, updateLabels)

// stampWords are the words of a stamp's date besides figures and dateWords:
// relative times ("3 hours ago", "vor 2 Stunden") and prepositions of
// other languages, folded.
var stampWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`ago hour hours minute minutes min mins day days week weeks just now
		am um uhr vor stunde stunden minuten tag tagen le à el de il alle
		o godz op om в januar februar märz mai juni juli oktober dezember janvier février mars avril juin
		juillet août septembre octobre novembre décembre enero febrero marzo abril mayo junio julio agosto
		septiembre octubre noviembre diciembre kl klokken januari februari maj augusti oktober okt mai juni juli
		heute gestern today yesterday lesedauer lesezeit read`) {
		m[w] = true
	}
	return m
}()

// isStampLine reports whether a line only says when the article was
// published or updated ("Published Aug 28, 2024 • Last updated 1 hour
// ago", "Aktualisiert am 28. April 2023, 20:22 Uhr"): parts split at "•",
// "|" or "·", each a label of stampLabels followed by a date, a time or a
// relative time (and another label's), or a reading time. A time may be
// written 10h15.
func isStampLine(line string) bool {
	if len(line) > 4*120 || !strings.ContainsFunc(line, unicode.IsDigit) {
		return false
	}
	if n := utf8.RuneCountInString(line); n == 0 || n > 120 {
		return false
	}
	stamps := 0
	for part := range strings.FieldsFuncSeq(line, func(r rune) bool { return r == '•' || r == '|' || r == '·' }) {
		f := fold(part)
		if f == "" {
			continue
		}
		if isReadingTime(part) {
			continue
		}
		rest, ok := stampDate(f)
		if !ok || !strings.ContainsFunc(rest, unicode.IsDigit) {
			return false
		}
		for _, w := range strings.Fields(rest) {
			if !isFigure(w) && !dateWords[w] && !stampWords[w] && !labelWords[w] && !isOrdinal(w) && !isFigure(strings.Replace(w, "h", ":", 1)) {
				return false
			}
		}
		stamps++
	}
	return stamps > 0
}

// labelWords are the words of stampLabels: a second label in a part
// ("Publicerad 23 okt 2025 kl 10.23 Uppdaterad kl 12.17").
var labelWords = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range stampLabels {
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m
}()

// stampDate returns what follows the label of stampLabels that opens the
// folded line f, and whether one does.
func stampDate(f string) (string, bool) {
	for _, l := range stampLabels {
		if r, found := strings.CutPrefix(f, l); found && (r == "" || r[0] == ' ') {
			return strings.TrimSpace(r), true
		}
	}
	return "", false
}
