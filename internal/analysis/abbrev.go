package analysis

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// abbrevKind says how a period after a word behaves before a word that
// starts with a capital letter or a digit (a period before a lower-case
// word never ends a sentence).
type abbrevKind uint8

const (
	// notAbbrev: an ordinary word; the period ends the sentence.
	notAbbrev abbrevKind = iota
	// abbrevTitle precedes a name or a clause and practically never ends a
	// sentence: "Mr. Smith", "e.g. The", "np. Warszawa", "т.е. Москва".
	abbrevTitle
	// abbrevNumber precedes a number ("No. 5", "Jan. 5", "godz. 12",
	// "стр. 7") and is an ordinary word otherwise ("The answer was No. The
	// ...", "for Oct/Dec. Buyers were ...").
	abbrevNumber
	// abbrevFinal often ends a sentence but is often followed by a name
	// too ("Apple Inc. The ..." vs "Apple Inc. Chief ..."): the period ends
	// the sentence only before a capitalised function word (see starters),
	// never before a digit ("Co. 5").
	abbrevFinal
	// abbrevUnit is abbrevFinal, except that after a number it ends the
	// sentence before any capitalised word: "w 2020 r. Prezydent",
	// "в 2019 г. Власти", "at 5 p.m. Officials".
	abbrevUnit
)

// Abbreviations, written in normalised form as their token appears (the
// final period is not part of the token; inner periods are).
var abbrevLists = map[abbrevKind]string{
	abbrevTitle: `mr mrs ms messrs mme mlle dr prof gen sen rep gov lt col sgt capt cmdr adm maj
		rev hon pres supt det insp fr e.g i.e cf viz vs
		np tzw ul pl m.in tj ww wg mgr inż ks św płk ppłk gen im
		т.е т.к т.н ул им пер проф акад ген напр просп пос`,
	abbrevNumber: `no nos vol p pp fig art sec ch approx ca tel
		jan feb mar apr jun jul aug sep sept oct nov dec
		nr ok godz str s pkt poz ust rozdz
		стр ст п ч рис табл тел`,
	abbrevFinal: `inc corp ltd co jr sr bros plc llc etc dept univ assn st mt ave blvd al os
		u.s u.k u.n e.u u.s.a
		itd itp
		т.д т.п др пр д с обл`,
	abbrevUnit: `a.m p.m r rr tys mln mld zł gr proc
		г гг в вв млн млрд тыс руб коп долл`,
}

// Capitalised function words that start sentences but rarely names: after
// an abbrevFinal period they mean a new sentence. The lists are shared by
// all languages, so words that are also abbreviations elsewhere are left
// out (Polish "co" is English "Co.").
const starterList = `the a an this that these those there then he she it its they we i you
	his her their our my your in on at for from by with after before as but and or so if
	when while although though since because however meanwhile also yet still some many
	most all both each no not one two what who why how where which today yesterday last
	according under over during despite
	w we na z ze do od po o u za przez przed dla to ten ta te tym tego jest był była było
	są nie i a ale lecz jednak więc także również on ona ono oni one my wy ja jak gdy kiedy
	jeśli jeżeli choć chociaż według dlatego tak kto czy już jeszcze wtedy teraz obecnie
	ponadto natomiast
	в во на с со к ко по о об от до из за у при для без это этот эта эти тот та те он она
	оно они мы вы я но и а однако также тоже так как когда если хотя что кто где почему
	уже еще сейчас теперь сегодня вчера кроме поэтому`

// sentenceTables are the abbreviation and starter sets keyed by word hash.
type sentenceTables struct {
	abbrevs  map[uint64]abbrevKind
	starters map[uint64]struct{}
}

var tables = sync.OnceValue(func() *sentenceTables {
	t := &sentenceTables{abbrevs: map[uint64]abbrevKind{}, starters: map[uint64]struct{}{}}
	for kind, list := range abbrevLists {
		for _, w := range strings.Fields(list) {
			t.abbrevs[HashWord([]byte(Normalize(w)))] = kind
		}
	}
	for _, w := range strings.Fields(starterList) {
		t.starters[HashWord([]byte(Normalize(w)))] = struct{}{}
	}
	return t
})

// abbrevKindOf classifies the word token tok of text (followed by a
// period): listed abbreviations by their hash, then single capital
// letters (initials: "J. R. Smith") and dotted short forms ("U.S.A",
// "Ph.D") as abbrevFinal. A figure with a decimal point ("9.3", "9.3bn",
// "12.5km") is no dotted short form unless decimals: as the sketch
// formats before sentences 5 read it (Analyzer.DecimalAbbreviates), or a
// day and a month after a word that introduces a date ("am 5.3. Gericht",
// see datedFigure).
func abbrevKindOf(text string, tok Token, decimals bool) abbrevKind {
	if k, ok := tables().abbrevs[tok.Hash]; ok {
		return k
	}
	w := text[tok.Start:tok.End]
	if r, size := utf8.DecodeRuneInString(w); size == len(w) && isUpper(r) {
		return abbrevFinal
	}
	if strings.IndexByte(w, '.') >= 0 && shortSegments(w) && (decimals || !isNumberToken(text, tok)) {
		return abbrevFinal
	}
	return notAbbrev
}

// dateWords introduce a date written as a day and a month with periods,
// in German and Polish ("am 5.3.", "seit 31.12.", "od 5.3.", "dnia 5.3.").
var dateWords = []string{"am", "vom", "zum", "bis", "seit", "ab", "od", "do", "dnia", "dniu"}

// datedFigure reports whether tok, a figure followed by a period, is a
// day and a month that the word before it, before, introduces as a date
// ("am 5.3. Gericht …"), so that the period ends no sentence as after
// any dotted short form; "rose 2.5. Analysts" ends one.
func datedFigure(text string, before, tok Token) bool {
	if !dayAndMonth(text[tok.Start:tok.End]) {
		return false
	}
	w := text[before.Start:before.End]
	for _, d := range dateWords {
		if strings.EqualFold(w, d) {
			return true
		}
	}
	return false
}

// dayAndMonth reports whether w is a day and a month written with a
// period between them, as German and Polish dates are ("5.3", "31.12"):
// one or two digits of 1 to 31, a period, one or two digits of 1 to 12.
func dayAndMonth(w string) bool {
	day, month, ok := strings.Cut(w, ".")
	return ok && smallNumber(day, 31) && smallNumber(month, 12)
}

// smallNumber reports whether s is one or two ASCII digits of a value from
// 1 to max.
func smallNumber(s string, max int) bool {
	if len(s) < 1 || len(s) > 2 {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n >= 1 && n <= max
}

// shortSegments reports whether every period-separated part of w has at
// most three runes.
func shortSegments(w string) bool {
	for _, part := range strings.Split(w, ".") {
		if utf8.RuneCountInString(part) > 3 {
			return false
		}
	}
	return true
}

// isStarter reports whether tok is a listed sentence-starting word and not
// an initial: a one-letter starter ("A", "W", "С") followed by a period is
// taken for an initial ("J. A. Smith", "А. С. Пушкин").
func isStarter(text string, tok Token) bool {
	if _, ok := tables().starters[tok.Hash]; !ok {
		return false
	}
	_, size := utf8.DecodeRuneInString(text[tok.Start:tok.End])
	initial := int(tok.Start)+size == int(tok.End) && int(tok.End) < len(text) && text[tok.End] == '.'
	return !initial
}

// isNumberToken reports whether the token starts with a digit.
func isNumberToken(text string, tok Token) bool {
	r, _ := utf8.DecodeRuneInString(text[tok.Start:tok.End])
	return unicode.IsDigit(r)
}
