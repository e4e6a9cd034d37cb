package vector

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// Terms turns a document's title and body into the terms of the vector
// methods: their words less the stop words of the document's language,
// optionally stemmed. TF-IDF gives a word found in every document a weight
// of 1, not 0, so function words would otherwise make any two texts alike
// (a third of news text is "the", "of", "said" and their kind).
//
// The zero value is ready and does not stem. A Terms is not safe for
// concurrent use: make one per goroutine.
type Terms struct {
	// Stem hashes each word's stem, where the language has a stemmer,
	// instead of the word.
	Stem bool
	// Title and Body are the content words of the title and the body of
	// the document last analysed, in order; valid until the next call.
	Title, Body []analysis.Token

	// NarrowSpaceJoins reads "180\u202f000" as one word (see
	// analysis.Analyzer.NarrowSpaceJoins).
	NarrowSpaceJoins bool
	// ZeroWidthSpaceSplits reads "wi\u200bdth" as two words (see
	// analysis.Analyzer.ZeroWidthSpaceSplits).
	ZeroWidthSpaceSplits bool
	// DottedIApart reads "KAPALI" and "kapalı" as two words (see
	// analysis.Analyzer.DottedIApart).
	DottedIApart bool
	// PrecomposedLetters detects the language from precomposed letters
	// alone (analysis.DetectLangTokensPrecomposed), a decomposed "ö" no
	// evidence.
	PrecomposedLetters bool

	an      analysis.Analyzer
	stemmer analysis.Stemmer
	buf     []byte
}

// Analyze sets t.Title and t.Body to the content words of doc's title and
// body. Each Hash is that of the normalised word or, with Stem and a
// language that has a stemmer, of its stem. The language is detected from
// the body, or from the title when the body has no words.
func (t *Terms) Analyze(doc *core.Document) {
	t.an.NarrowSpaceJoins, t.an.ZeroWidthSpaceSplits = t.NarrowSpaceJoins, t.ZeroWidthSpaceSplits
	t.an.DottedIApart = t.DottedIApart
	detect := analysis.DetectLangTokens
	if t.PrecomposedLetters {
		detect = analysis.DetectLangTokensPrecomposed
	}
	words := t.an.Words(doc.Text)
	lang := detect(doc.Text, words)
	t.Body = t.filter(doc.Text, words, lang, analysis.Room(t.Body, len(words)))
	words = t.an.Words(doc.Title)
	if len(t.Body) == 0 && len(words) > 0 {
		lang = detect(doc.Title, words)
	}
	t.Title = t.filter(doc.Title, words, lang, analysis.Room(t.Title, len(words)))
}

// filter appends to dst the tokens of text that are not stop words of lang,
// stemmed if t.Stem.
func (t *Terms) filter(text string, tokens []analysis.Token, lang analysis.Lang, dst []analysis.Token) []analysis.Token {
	for _, tok := range tokens {
		if analysis.IsStopToken(lang, tok) {
			continue
		}
		if t.Stem {
			t.buf = t.an.AppendNormalized(t.buf[:0], text[tok.Start:tok.End])
			if stem := t.stemmer.StemBytes(lang, t.buf); stem != string(t.buf) {
				tok.Hash = analysis.HashWordString(stem)
			}
		}
		dst = append(dst, tok)
	}
	return dst
}
