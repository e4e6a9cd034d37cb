package tfidf

import (
	"github.com/neardup/neardup/internal/analysis"
)

// tmMinBytes is the shortest term tm keeps by default (its wordLengths
// lower bound, 3), counted as tm counts it: in bytes of the lower-cased
// UTF-8 text, so "£5" (three bytes) is a term.
const tmMinBytes = 3

// tmDelim marks the bytes tm's default tokenizer splits at: the ASCII
// space characters and the ASCII punctuation, as C's isspace and ispunct
// class them (every byte of a non-ASCII character is a word byte, so
// curly quotes, dashes and currency signs stay inside terms).
var tmDelim = func() (d [256]bool) {
	for c := range 128 {
		space := c == ' ' || '\t' <= c && c <= '\r'
		punct := '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
		d[c] = space || punct
	}
	return d
}()

// tmTerms turns texts into terms the way R tm's DocumentTermMatrix does
// with its defaults for a SimpleCorpus: the text lower-cased (each
// character's simple lower case, as R's tolower), split at every ASCII
// space and punctuation byte ("don't" is "don" and "t", "U.S." is "u" and
// "s"), and the pieces of at least tmMinBytes bytes kept, with no stop
// list and no stemming. The zero value is ready; it reuses its buffers
// and is not safe for concurrent use.
type tmTerms struct {
	lower []byte
}

// appendHashes appends to dst the hash (analysis.HashWord) of each term of
// text, in order, repeats included, and returns it.
func (t *tmTerms) appendHashes(dst []uint64, text string) []uint64 {
	t.lower = analysis.AppendLower(t.lower[:0], text)
	start := 0
	for i, c := range t.lower {
		if !tmDelim[c] {
			continue
		}
		if i-start >= tmMinBytes {
			dst = append(dst, analysis.HashWord(t.lower[start:i]))
		}
		start = i + 1
	}
	if len(t.lower)-start >= tmMinBytes {
		dst = append(dst, analysis.HashWord(t.lower[start:]))
	}
	return dst
}
