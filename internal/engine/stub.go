package engine

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// StubSkip returns why doc is not compared as a stub, whatever the method:
// a gallery or video caption (core.SkipGallery) or a text under minChars
// characters (core.SkipTooShort); see analysis.StubOf, which minChars is
// given to (0: its default, negative: no rule). It is the one rule of the
// kind: a Batch's sketches and an Index's (and through it the API's and
// the watcher's) pass it before the method's own.
func StubSkip(doc *core.Document, minChars int) core.SkipReason {
	switch analysis.StubOf(doc.Text, minChars) {
	case analysis.StubShort:
		return core.SkipTooShort
	case analysis.StubGallery:
		return core.SkipGallery
	}
	return core.SkipNone
}
