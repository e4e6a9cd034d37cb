package output

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
)

// Limits are the limits under which a run does not compare a document,
// each with the flag that sets it, so that rejects.jsonl says what a user
// can change. A limit of 0 is one the run does not have, or does not know.
// Of the limits that could have skipped a document, its text tells which
// did; where what would tell is not known, each is named.
type Limits struct {
	MinText          int // characters a text needs whatever the method, white space not counted (--min-text; see engine.StubSkip)
	MinWords         int // words a text needs (rarewords' --min-words)
	MinSentenceChars int // characters a sentence needs to count (sentences' --min-sentence-chars)
	// MinTextUnknown: the documents were skipped under a --min-text not
	// known (an index's export: the one they were added with is not
	// stored); MinText is 0.
	MinTextUnknown bool
	// TextUnknown: the documents' texts are not known (an index's export,
	// of an index that stores none), so that neither tells the limits
	// apart.
	TextUnknown bool
}

// LimitsOf returns the limits of a run of method options c (nil: none),
// read by the names of their flags, with a minimum length of text minText
// as engine.StubSkip takes it (0: analysis.DefaultStubChars, negative:
// none).
func LimitsOf(c engine.Config, minText int) Limits {
	l := Limits{MinText: max(minText, 0)}
	if minText == 0 {
		l.MinText = analysis.DefaultStubChars
	}
	if c == nil {
		return l
	}
	if v, ok := flagopts.Get(c, "min-words"); ok {
		l.MinWords, _ = v.(int)
	}
	if v, ok := flagopts.Get(c, "min-sentence-chars"); ok {
		l.MinSentenceChars, _ = v.(int)
	}
	return l
}

// Why says why doc was not compared for the reason skip, as the error of
// its line of rejects.jsonl says it after "not compared: ": the limit it
// fell under and its flag, when l knows them, else the reason's general
// words. It reads doc's text, which tells the limits apart: a run that
// keeps the words to write them later (a checkpoint's journal, which
// holds no text) calls it while it has the text.
func (l Limits) Why(doc *core.Document, skip core.SkipReason) string {
	switch skip {
	case core.SkipTooShort:
		return l.whyTooShort(doc)
	case core.SkipNoUnits:
		const noWords = "no words left to compare once the text is analysed (punctuation, numbers or stop words only)"
		if l.MinSentenceChars <= 0 {
			return noWords
		}
		short := fmt.Sprintf("no sentence of %d characters or more (--min-sentence-chars), as in a table or a list of short lines",
			l.MinSentenceChars)
		switch {
		case l.TextUnknown:
			return short + ", or " + noWords
		case hasWords(doc.Text):
			return short
		}
		return noWords
	}
	return string(skip)
}

// whyTooShort says which limit of length doc fell under.
func (l Limits) whyTooShort(doc *core.Document) string {
	added := fmt.Sprintf("a text shorter than the --min-text it was added with (%d characters by default, white space not counted)",
		analysis.DefaultStubChars)
	switch {
	case l.MinText > 0 && engine.StubSkip(doc, l.MinText) == core.SkipTooShort:
		return fmt.Sprintf("a text of fewer than %d characters, white space not counted (--min-text)", l.MinText)
	case l.MinTextUnknown && l.MinWords > 0:
		return fmt.Sprintf("fewer than %d words (--min-words), or %s", l.MinWords, added)
	case l.MinTextUnknown:
		return added
	case l.MinWords > 0:
		return fmt.Sprintf("fewer than %d words (--min-words)", l.MinWords)
	}
	return "too short to compare"
}

// hasWords reports whether text has a sentence with words, as the
// sentences method splits it: a text without one has nothing to compare
// whatever the length a sentence needs.
func hasWords(text string) bool {
	var an analysis.Analyzer
	for _, sn := range an.Sentences(text) {
		if sn.Hash != 0 {
			return true
		}
	}
	return false
}
