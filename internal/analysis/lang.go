package analysis

import (
	"math/bits"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/gen -stopwords=${STOPWORDS_ISO_JSON}

// Lang is a language, as its ISO 639-1 code.
type Lang string

// The languages DetectLang tells apart. English, Polish and Russian are
// the tuned ones; the others are there so that their documents are not
// taken for one of those.
const (
	Unknown   Lang = ""
	English   Lang = "en"
	Polish    Lang = "pl"
	Russian   Lang = "ru"
	Ukrainian Lang = "uk"
	German    Lang = "de"
	French    Lang = "fr"
	Spanish   Lang = "es"
	Italian   Lang = "it"
	Czech     Lang = "cs"
)

// langs lists the known languages; a language's index is its bit in a
// langMask and its index in stopWordLists.
var langs = [...]Lang{English, Polish, Russian, Ukrainian, German, French, Spanish, Italian, Czech}

// langMask is a set of languages, bit i standing for langs[i].
type langMask uint16

const (
	cyrillicLangs = 1<<2 | 1<<3 // Russian, Ukrainian
	latinLangs    = (1<<len(langs) - 1) &^ cyrillicLangs
)

// langIndex returns the index of lang in langs, or -1.
func langIndex(lang Lang) int {
	for i, l := range langs {
		if l == lang {
			return i
		}
	}
	return -1
}

// detectWords bounds the words DetectLang reads: the first 256 words of a
// document decide, which keeps the cost per document flat.
const detectWords = 256

// DetectLang returns the language of text among the known ones, or Unknown
// when the text gives no evidence (no stop word or telling letter in a
// known script). It is safe for concurrent use; an Analyzer's DetectLang
// or DetectLangTokens avoid its pooling overhead on a hot path.
func DetectLang(text string) Lang {
	a := analyzerPool.Get().(*Analyzer)
	defer analyzerPool.Put(a)
	return a.DetectLang(text)
}

var analyzerPool = sync.Pool{New: func() any { return new(Analyzer) }}

// DetectLang is DetectLang with the Analyzer's buffers: it segments only
// the first words of text (64, or up to 256 while no language leads
// clearly) and does not allocate.
func (a *Analyzer) DetectLang(text string) Lang {
	text = clip(text)
	a.tokenizeUpTo(text, 64)
	lang, sure := detect(text, a.tokens, false)
	if !sure && len(a.tokens) == 64 {
		a.tokenizeUpTo(text, detectWords)
		lang, _ = detect(text, a.tokens, false)
	}
	return lang
}

// DetectLangTokens returns the language of text from its word tokens (as
// returned by Words or Analyze for the same text), reading at most the
// first 256. Each stop word votes for the languages whose list holds it,
// with weight 1/(number of such languages); so does each word holding a
// letter that only some languages use ("ł", "ř", "ß", "ñ", "ї", "ы", ...).
// The script of most words (Latin or Cyrillic) restricts the candidates;
// Cyrillic text without evidence is taken for Russian.
//
// A telling letter written decomposed, its base letter and a combining
// mark ("o" and U+0308), tells as the precomposed "ö", so that a text and
// its NFD copy are of one language.
func DetectLangTokens(text string, tokens []Token) Lang {
	lang, _ := detect(text, tokens, false)
	return lang
}

// DetectLangTokensPrecomposed is DetectLangTokens reading only precomposed
// telling letters, a decomposed one no evidence, as the sketch formats
// before cosine 6 and tfidf 4 read them.
func DetectLangTokensPrecomposed(text string, tokens []Token) Lang {
	lang, _ := detect(text, tokens, true)
	return lang
}

// detect is DetectLangTokens (DetectLangTokensPrecomposed with
// precomposedOnly); sure reports that a language took a clear lead, so
// that more words would not change the outcome.
func detect(text string, tokens []Token, precomposedOnly bool) (lang Lang, sure bool) {
	if len(tokens) > detectWords {
		tokens = tokens[:detectWords]
	}
	t := stopTables()
	var score [len(langs)]float32
	latin, cyrillic := 0, 0
	for i, tok := range tokens {
		w := text[tok.Start:tok.End]
		switch scriptOf(w) {
		case scriptLatin:
			latin++
		case scriptCyrillic:
			cyrillic++
		}
		vote(&score, t.get(tok.Hash))
		vote(&score, letterEvidence(w, precomposedOnly))
		if i%32 == 31 && clearLead(&score, candidatesOf(latin, cyrillic)) {
			sure = true
			break
		}
	}
	if latin == 0 && cyrillic == 0 {
		return Unknown, false
	}
	candidates := candidatesOf(latin, cyrillic)
	best, _, _ := leader(&score, candidates)
	if best < 0 {
		if candidates == cyrillicLangs {
			return Russian, false
		}
		return Unknown, false
	}
	return langs[best], sure
}

// candidatesOf returns the languages of the script most words are in.
func candidatesOf(latin, cyrillic int) langMask {
	if cyrillic > latin {
		return cyrillicLangs
	}
	return latinLangs
}

// leader returns the index and score of the best candidate (-1 if none
// scored) and the runner-up's score.
func leader(score *[len(langs)]float32, candidates langMask) (best int, first, second float32) {
	best = -1
	for i, s := range score {
		if candidates&(1<<i) == 0 || s <= 0 {
			continue
		}
		switch {
		case s > first:
			best, first, second = i, s, first
		case s > second:
			second = s
		}
	}
	return best, first, second
}

// clearLead reports whether one candidate leads by enough that reading
// more words cannot change the outcome in practice: at least 12 votes and
// three times the runner-up.
func clearLead(score *[len(langs)]float32, candidates langMask) bool {
	_, first, second := leader(score, candidates)
	return first >= 12 && first >= 3*second
}

// vote adds one vote shared among the languages of m.
func vote(score *[len(langs)]float32, m langMask) {
	if m == 0 {
		return
	}
	w := 1 / float32(bits.OnesCount16(uint16(m)))
	for ; m != 0; m &= m - 1 {
		score[bits.TrailingZeros16(uint16(m))] += w
	}
}

// Scripts of a word, by its first letter.
const (
	scriptOther = iota
	scriptLatin
	scriptCyrillic
)

// scriptOf classifies w by its first rune.
func scriptOf(w string) int {
	c := w[0]
	switch {
	case c < utf8.RuneSelf:
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			return scriptLatin
		}
		return scriptOther
	}
	r, _ := utf8.DecodeRuneInString(w)
	switch {
	case 0xC0 <= r && r < 0x250:
		return scriptLatin
	case 0x400 <= r && r < 0x530:
		return scriptCyrillic
	}
	return scriptOther
}

// letterLangs maps letters used by only some known languages (both
// cases) to those languages.
var letterLangs = func() (t [foldTableSize]langMask) {
	add := func(letters string, ls ...Lang) {
		var m langMask
		for _, l := range ls {
			m |= 1 << langIndex(l)
		}
		for _, r := range letters {
			t[r] = m
			t[unicode.ToUpper(r)] = m
		}
	}
	add("ąęłńśźżć", Polish)
	add("ó", Polish, Spanish)
	add("řěůďťň", Czech)
	add("čšžý", Czech)
	add("á", Czech, Spanish)
	add("íú", Czech, Spanish)
	add("é", French, Spanish, Italian, Czech)
	add("äö", German)
	add("ü", German, Spanish)
	add("èàù", French, Italian)
	add("ìò", Italian)
	add("êçëîïôûœâ", French)
	add("ñ", Spanish)
	add("іїєґ", Ukrainian)
	add("ыэъё", Russian)
	t['ß'] = 1 << langIndex(German)
	return t
}()

// decomposedLetters maps a telling letter of letterLangs written
// decomposed, as its base letter and one combining mark (NFD: "o" and
// U+0308 for "ö"), to the letter.
var decomposedLetters = func() map[[2]rune]rune {
	m := make(map[[2]rune]rune)
	for r := rune(utf8.RuneSelf); r < foldTableSize; r++ {
		if letterLangs[r] == 0 {
			continue
		}
		if d := []rune(norm.NFD.String(string(r))); len(d) == 2 && d[0] < foldTableSize && isCombiningMark(d[1]) {
			m[[2]rune{d[0], d[1]}] = r
		}
	}
	return m
}()

// isCombiningMark reports whether r is in the block of combining
// diacritical marks (U+0300 to U+036F), the marks of the decomposed
// letters of letterLangs.
func isCombiningMark(r rune) bool { return 0x300 <= r && r <= 0x36F }

// letterEvidence returns the languages that use every telling letter of
// word w (or, when no language uses them all, any of them), or 0. A
// telling letter written decomposed (NFD) tells as the precomposed one,
// unless precomposedOnly.
func letterEvidence(w string, precomposedOnly bool) langMask {
	var all, any langMask = 1<<len(langs) - 1, 0
	for i := 0; i < len(w); {
		var r rune
		switch c := w[i]; {
		case c < utf8.RuneSelf:
			r = rune(c)
			i++
		case c < 0xC0 || c >= 0xE0 || i+1 >= len(w):
			i++ // beyond the table or a continuation byte
			continue
		default:
			r = rune(c&0x1F)<<6 | rune(w[i+1]&0x3F) // two-byte rune
			i += 2
		}
		if !precomposedOnly && i+1 < len(w) && (w[i] == 0xCC || w[i] == 0xCD) {
			mark := rune(w[i]&0x1F)<<6 | rune(w[i+1]&0x3F)
			if l, ok := decomposedLetters[[2]rune{r, mark}]; ok {
				r = l
				i += 2
			}
		}
		if m := letterLangs[r]; m != 0 {
			all &= m
			any |= m
		}
	}
	if all == 0 || any == 0 {
		return any
	}
	return all
}
