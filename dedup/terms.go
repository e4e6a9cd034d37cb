package dedup

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// textTerms turns a document's title and body into the terms of the vector
// methods: their words less the stop words of the document's language,
// optionally stemmed. TF-IDF gives a word found in every document a weight
// of 1, not 0, so function words would otherwise make any two texts alike
// (a third of news text is "the", "of", "said" and their kind). One per
// goroutine.
type textTerms struct {
	an      analysis.Analyzer
	stemmer analysis.Stemmer
	stem    bool
	buf     []byte
	title   []analysis.Token
	body    []analysis.Token
}

// analyze sets t.title and t.body to the content words of doc's title and
// body, in order. Each Hash is that of the normalised word or, when
// stemming and the language has a stemmer, of its stem. The language is
// detected from the body, or from the title when the body has no words.
// The slices are valid until the next call.
func (s *textTerms) analyze(doc *core.Document) {
	words := s.an.Words(doc.Text)
	lang := analysis.DetectLangTokens(doc.Text, words)
	s.body = s.filter(doc.Text, words, lang, s.body[:0])
	words = s.an.Words(doc.Title)
	if len(s.body) == 0 && len(words) > 0 {
		lang = analysis.DetectLangTokens(doc.Title, words)
	}
	s.title = s.filter(doc.Title, words, lang, s.title[:0])
}

// filter appends to dst the tokens of text that are not stop words of lang,
// stemmed if s.stem.
func (s *textTerms) filter(text string, tokens []analysis.Token, lang analysis.Lang, dst []analysis.Token) []analysis.Token {
	for _, t := range tokens {
		if analysis.IsStopToken(lang, t) {
			continue
		}
		if s.stem {
			s.buf = s.an.AppendNormalized(s.buf[:0], text[t.Start:t.End])
			if stem := s.stemmer.StemBytes(lang, s.buf); stem != string(s.buf) {
				t.Hash = analysis.HashWordString(stem)
			}
		}
		dst = append(dst, t)
	}
	return dst
}
