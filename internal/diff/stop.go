package diff

import (
	"context"
	"strings"
	"unicode"

	"github.com/neardup/neardup/internal/analysis"
)

// MaxServedWords is the Options.MaxWords of the diffs the HTTP server and
// its web UI make of stored documents: 100,000 words of each text, about
// 600 KB of prose, take at most a few tenths of a second and some 50 MB,
// whatever the texts repeat, where two texts of 1.5 million words take
// seconds and hundreds of megabytes.
const MaxServedWords = 100_000

// checkEvery is how many calls of stopper.stopped pass between two looks
// at the context.
const checkEvery = 1024

// stopper tells a long comparison that its context has ended. Its zero
// value (no context) never stops.
type stopper struct {
	ctx  context.Context
	left int   // calls before the next look at ctx
	err  error // ctx's error once seen
}

// checked, when not nil, is called at each look at the context (a test's
// hook: how many looks a comparison made).
var checked func()

// stopped reports whether the context has ended, looking at it once every
// checkEvery calls (and at the first).
func (s *stopper) stopped() bool {
	if s.err != nil {
		return true
	}
	if s.ctx == nil {
		return false
	}
	if s.left > 0 {
		s.left--
		return false
	}
	s.left = checkEvery
	if checked != nil {
		checked()
	}
	s.err = s.ctx.Err()
	return s.err != nil
}

// now looks at the context at once, between two stages of a comparison.
func (s *stopper) now() bool {
	s.left = 0
	return s.stopped()
}

// cutWords returns the prefix of text that holds its first max words, up
// to the start of the next (the punctuation after the last word kept), and
// whether text holds more; max <= 0 keeps it whole. It reads a prefix of
// text twice as long each time until that prefix holds more than max words,
// so that its work is bounded by max, not by the text's length.
func cutWords(an *analysis.Analyzer, text string, max int) (string, bool) {
	if max <= 0 {
		return text, false
	}
	for n := 16 * max; ; n *= 2 {
		if n >= len(text) {
			if ws := an.Words(text); len(ws) > max {
				return text[:ws[max].Start], true
			}
			return text, false
		}
		prefix, whole := text[:n], 0
		// A prefix is read up to its last white space, where no word
		// starts or ends: a word the prefix would end inside may be split
		// otherwise where the whole text's is not ("Foo.Bar.Bazzz.com" is
		// one word, "Foo.Bar.Ba" three), and the text cut inside it.
		if i := strings.LastIndexFunc(prefix, unicode.IsSpace); i > 0 {
			prefix, whole = prefix[:i], 1
		}
		// Without white space (unspaced scripts), the last word of the
		// prefix may be cut short; the one before it is whole and starts
		// where the text's does.
		if ws := an.Words(prefix); len(ws) > max+1-whole {
			return text[:ws[max].Start], true
		}
	}
}
