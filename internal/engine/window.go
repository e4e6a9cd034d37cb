package engine

import "github.com/neardup/neardup/core"

// Windowed is the Source a method is given to match a document while a
// news window is in force (Grouping.Window, Index.SetWindow): it knows which
// candidates are dated too far from that document to pair with it.
type Windowed interface {
	// Outside reports whether the candidate other and the document being
	// matched are both dated and farther apart than the window.
	Outside(other int32) bool
}

// Outside reports whether src, the Source of a match, rules the candidate
// other out: the two documents are dated farther apart than the news
// window. A method that reads its candidates' sketches through src asks
// before reading one, so that a candidate outside the window is neither read
// nor verified; the engine drops the pairs of those that do not ask.
func Outside[S any](src Source[S], other int32) bool {
	w, ok := src.(Windowed)
	return ok && w.Outside(other)
}

// FarApart reports whether two dates (Unix seconds, 0 unknown) are both
// known and more than window seconds apart; a window of 0 or less is none.
func FarApart(a, b, window int64) bool {
	return window > 0 && a != 0 && b != 0 && max(a-b, b-a) > window
}

// windowSource is a Batch's Source for matching document ord under a
// window.
type windowSource[S any, E core.Evidence] struct {
	b   *batch[S, E]
	ord int32
}

func (w windowSource[S, E]) Sketch(other int32) (*S, error) { return w.b.Sketch(other) }

func (w windowSource[S, E]) Outside(other int32) bool { return w.b.outside(other, w.ord) }
