package engine

import (
	"slices"

	"github.com/neardup/neardup/core"
)

// This file is the one path from a method's verified candidates to found
// pairs, which a Batch, an index's writer and its checks all take: label
// each pair a method emits (dropping those outside the window), then, for
// one document's pairs, select, explain and order them.

// emitter returns the emit function a method's Match or Verify is given:
// it counts each verified pair in count (when not nil), drops those of
// documents dated outside the window (outside, when not nil, for a method
// that does not ask Outside), labels the rest, and hands each pair kept to
// add. b points at the ordinal of the document being matched.
func emitter[S any, E core.Evidence](m Method[S, E], b *int32, outside func(a, b int32) bool, add func(Found[E]),
	count *int) func(other int32, score float64, ev E) {
	return func(other int32, score float64, ev E) {
		if count != nil {
			*count++
		}
		if outside != nil && outside(other, *b) {
			return
		}
		if l, ok := m.Label(score, ev); ok {
			add(Found[E]{A: other, B: *b, Score: score, Label: l, Ev: ev})
		}
	}
}

// settle finishes the pairs of one document matched against an index:
// the method's Pairs.Select keeps the best (as for the newest document),
// its Pairs.Explain completes their evidence from doc's text, or from the
// text later returns of a pair's other document (by its place in memory)
// when not nil (see LaterTexts), and the pairs are ordered best first.
func settle[S any, E core.Evidence](m Method[S, E], found []Found[E], doc *core.Document,
	later func(other int32) (*core.Document, error)) ([]Found[E], error) {
	if m.Pairs.Select != nil {
		found = m.Pairs.Select(found, true)
	}
	if explain := m.Pairs.Explain; explain != nil {
		for i := range found {
			by := doc
			if later != nil {
				d, err := later(found[i].A)
				if err != nil {
					return nil, err
				}
				if d != nil {
					by = d
				}
			}
			explain(&found[i].Ev, by)
		}
	}
	slices.SortStableFunc(found, bestFirst(m.shownScore))
	return found, nil
}
