package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
	xlanguage "golang.org/x/text/language"
)

// langSample bounds how much text language detection reads: its trigram
// profile costs time in proportion, and a paragraph or two is enough.
const langSample = 1024

// language returns the ISO 639-1 code of text's language: the page's
// declared language (<html lang>) when it has one, else English when its
// start is clearly English (clearlyEnglish), else detected from the text
// when the detector is sure, else "". Detection costs a tenth of the rest
// of the extraction (0.2 – 0.3 ms), so the declaration, present on most
// news pages, is trusted, and English prose is told by its function words;
// but "en" is the default of many publishing systems, and an English
// declaration over a text that hardly holds an English function word (a
// Polish paper's pages, a Russian one's) is checked by detection.
func language(text, declared string) string {
	tag := primaryTag(declared)
	if tag != "" && (tag != "en" || englishEnough(text)) {
		return tag
	}
	if tag == "" && englishShare(text) >= clearlyEnglish {
		return "en" // the detector would say so, at ten times the cost
	}
	if detected := detect(text); detected != "" || tag == "" {
		return detected
	}
	return tag
}

// minEnglish is the share of an English text's words (in its first
// langSample bytes) that are among englishWords: about a fifth in news
// prose, none in another language's but for a name or a quotation.
const minEnglish = 0.04

// englishWords are the commonest English function words.
var englishWords = map[string]bool{"the": true, "and": true, "of": true, "to": true, "in": true, "is": true,
	"that": true, "for": true, "on": true, "with": true, "was": true, "as": true, "it": true, "by": true,
	"are": true, "at": true, "be": true, "this": true, "from": true, "has": true, "have": true, "said": true}

// englishEnough reports whether the start of text is in the Latin script
// and holds English function words at the share of English prose
// (minEnglish), or is too short to say.
func englishEnough(text string) bool {
	share := englishShare(text)
	return share < 0 || share >= minEnglish
}

// clearlyEnglish is the share of English function words (englishWords)
// above which a text is English without asking the detector: over a
// fifth in English prose, under 5 % in the other languages' of the
// development pages but for a few quoting English.
const clearlyEnglish = 0.15

// englishShare returns the share of the words at the start of text (its
// first langSample bytes, words with a lower-case letter) that are English
// function words (englishWords): 0 when the start is mostly in another
// script than the Latin, and -1 when it holds too few words to say
// (minLangWords).
func englishShare(text string) float64 {
	sample := text[:min(len(text), langSample)]
	latin, other := 0, 0
	for _, r := range sample {
		if unicode.IsLetter(r) {
			if r < 0x250 {
				latin++
			} else {
				other++
			}
		}
	}
	if other > latin {
		return 0
	}
	words, hits := 0, 0
	for w := range strings.FieldsFuncSeq(sample, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if !strings.ContainsFunc(w, unicode.IsLower) {
			continue // an abbreviation, a table's heading: no language
		}
		words++
		if len(w) <= 4 && englishWords[strings.ToLower(w)] {
			hits++
		}
	}
	if words < minLangWords {
		return -1
	}
	return float64(hits) / float64(words)
}

// minLangWords is the fewest words whose function words tell a language.
const minLangWords = 30

// detect returns the ISO 639-1 code of the language the detector finds
// text to be in when it is sure, else "".
func detect(text string) string {
	sample := text
	if len(sample) > langSample {
		sample = sample[:langSample]
		for !utf8.ValidString(sample) {
			sample = sample[:len(sample)-1]
		}
	}
	if sample == "" {
		return ""
	}
	if japaneseKana(sample) {
		return "ja"
	}
	info := whatlanggo.Detect(sample)
	if !info.IsReliable() {
		return ""
	}
	return info.Lang.Iso6391()
}

// japaneseKana reports whether text writes in Japanese: its Han and kana
// letters are most of its letters, and a tenth or more of them, three at
// least, are kana. Japanese writes its endings and particles in kana beside
// the kanji (about a third of a news story's letters); Chinese writes none.
// The detector, which counts scripts, takes a story dense in kanji for
// Chinese. A text in another script quoting a Japanese name ("Nintendo
// (ニンテンドー)") is not Japanese.
func japaneseKana(text string) bool {
	han, kana, letters := 0, 0, 0
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return kana >= 3 && 10*kana >= han+kana && 2*(han+kana) > letters
}

// primaryTag returns the primary subtag of a language tag, in its ISO 639-1
// form when it has one: "en-GB" → "en", "deu" → "de"; "" for what names no
// language ("utf-8", "x").
func primaryTag(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	tag, _, _ = strings.Cut(tag, "-")
	tag, _, _ = strings.Cut(tag, "_")
	if len(tag) < 2 || len(tag) > 3 {
		return ""
	}
	base, err := xlanguage.ParseBase(tag)
	if err != nil {
		return ""
	}
	return base.String()
}
