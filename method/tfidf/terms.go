package tfidf

import (
	"github.com/neardup/neardup/internal/analysis"
)

// tmMinBytes is the shortest term tm keeps by default (its wordLengths
// lower bound, 3), counted as tm counts it: in bytes of the lower-cased
// UTF-8 text, so "£5" (three bytes) is a term and "ok" is not.
const tmMinBytes = 3

// tmSpace marks the bytes tm's tokenizer of a SimpleCorpus splits at: the
// ASCII white space (space, tab, line feed, vertical tab, form feed,
// carriage return). Punctuation and every non-ASCII character, no-break
// space included, are part of terms.
var tmSpace = func() (d [256]bool) {
	for _, c := range []byte(" \t\n\v\f\r") {
		d[c] = true
	}
	return d
}()

// tmTerms turns texts into terms the way R tm (0.7-11) makes a
// DocumentTermMatrix of a SimpleCorpus with its defaults: the text
// lower-cased (each character's simple lower case, as R's tolower), split
// at ASCII white space only, so punctuation stays with its word ("said,"
// and "said" are two terms, "don't" and "$1.13bn" one each), and the
// pieces of at least tmMinBytes bytes kept, with no stop list and no
// stemming. The zero value is ready; it reuses its buffers and is not safe
// for concurrent use.
type tmTerms struct {
	lower        []byte
	whole        bool // pieces whole in every script, as tm (sketch format 2)
	dottedIApart bool // "ı" apart from "i", as tm (sketch formats 2 and 3)
}

// appendHashes appends to dst the hash (analysis.HashWord) of each term of
// text, in order, repeats included, and returns it.
func (t *tmTerms) appendHashes(dst []uint64, text string) []uint64 {
	if t.dottedIApart {
		t.lower = analysis.AppendLowerDottedIApart(t.lower[:0], text)
	} else {
		t.lower = analysis.AppendLower(t.lower[:0], text)
	}
	// A text without letters of a script written without spaces (most)
	// is read once for them, not again in each of its pieces.
	unspaced := !t.whole && analysis.HasUnspaced(t.lower)
	start := 0
	for i, c := range t.lower {
		if !tmSpace[c] {
			continue
		}
		dst = appendPiece(dst, t.lower[start:i], unspaced)
		start = i + 1
	}
	return appendPiece(dst, t.lower[start:], unspaced)
}

// appendPiece appends the terms of one piece of text between ASCII white
// space: the piece itself when it is tmMinBytes long or more, as tm keeps
// it; but a piece holding letters of a script written without spaces
// (Chinese, Japanese, Thai, …: a whole clause or paragraph, one term to
// tm, that an edit anywhere in it makes another) gives the terms
// analysis.AppendUnspaced gives, its other runs tmMinBytes long or more;
// unspaced false keeps every piece whole.
func appendPiece(dst []uint64, piece []byte, unspaced bool) []uint64 {
	if len(piece) < tmMinBytes {
		return dst
	}
	if unspaced && analysis.HasUnspaced(piece) {
		return analysis.AppendUnspaced(dst, piece, tmMinBytes)
	}
	return append(dst, analysis.HashWord(piece))
}
