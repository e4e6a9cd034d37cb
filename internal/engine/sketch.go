package engine

import (
	"fmt"

	"github.com/neardup/neardup/core"
)

// A sketch crosses the engine's type-erased edges (Batch, Live) as a Sketch
// or a LiveSketch: two types, so that a Batch's sketch cannot be given to a
// Live index, nor a Live index's to a Batch, and each holds the method's
// typed sketch in a sealed value that only the Batch or Live index that made
// it reads back, checked by its maker.

// Sketch is a document analysed by a Batch's method, ready for that Batch's
// Add, and only its Add.
type Sketch struct {
	v    held
	by   *maker
	skip core.SkipReason
	// length is 1 + the length of the document's text when Batch.Decode
	// made the sketch, of a document given without its text; 0 otherwise.
	length int
	// copy is the document's CopyKey when keyed, under a method's Copies
	// stage.
	copy  CopyKey
	keyed bool
}

// Skip is the reason the method will not compare the document, if any.
func (s Sketch) Skip() core.SkipReason { return s.skip }

// CopyKey returns the document's CopyKey when the Batch that made the
// sketch reads it (under its method's Copies stage), for a caller that
// keeps the sketch's encoding and gives it back to Decode (a checkpoint's
// journal): WithCopyKey puts it back.
func (s Sketch) CopyKey() (CopyKey, bool) { return s.copy, s.keyed }

// WithCopyKey returns s with the document's CopyKey k, as CopyKey gave it.
func (s Sketch) WithCopyKey(k CopyKey) Sketch {
	s.copy, s.keyed = k, true
	return s
}

// Sketcher analyses documents for a Batch, for one goroutine. It is not
// safe for concurrent use; make one per goroutine.
type Sketcher struct {
	sketch func(doc *core.Document) Sketch
}

// Sketch analyses doc. The result keeps no reference to doc's text.
func (s *Sketcher) Sketch(doc *core.Document) Sketch { return s.sketch(doc) }

// LiveSketch is a document analysed by a Live index's method, with its
// sketch's encoding (see Codec), ready for that Live index's Begin, Probe
// or Candidates, and only its.
type LiveSketch struct {
	v             held
	by            *maker
	skip          core.SkipReason
	index, detail []byte
}

// Skip is the reason the method will not compare the document, if any.
func (s LiveSketch) Skip() core.SkipReason { return s.skip }

// Encoded returns the two parts of the sketch's encoding; nil for a
// document skipped.
func (s LiveSketch) Encoded() (index, detail []byte) { return s.index, s.detail }

// LiveSketcher analyses and encodes documents for a Live index, for one
// goroutine. It is not safe for concurrent use; make one per goroutine.
type LiveSketcher struct {
	sketch func(doc *core.Document) LiveSketch
}

// Sketch analyses doc. The result keeps no reference to doc's text.
func (s *LiveSketcher) Sketch(doc *core.Document) LiveSketch { return s.sketch(doc) }

// held is a method's typed sketch inside a Sketch or LiveSketch: sealed,
// only typed implements it.
type held interface{ sealed() }

// typed holds a sketch of type S.
type typed[S any] struct{ s *S }

func (typed[S]) sealed() {}

// maker is the Batch or Live index that made a sketch: a sketch is given
// back only to its maker, whose method's sketch type it holds.
type maker struct {
	kind   string // "batch" or "index"
	method string
}

// newMaker returns the maker of a Batch or Live index ("batch", "index")
// of the named method.
func newMaker(kind, method string) *maker { return &maker{kind: kind, method: method} }

// unwrap returns the method's sketch that v holds (nil for a document
// skipped), v being made by by and given to owner, whose method's sketches
// are of type S.
func unwrap[S any](v held, by, owner *maker) (*S, error) {
	if by != owner {
		if by == nil {
			return nil, fmt.Errorf("engine: an empty sketch given to the %s %s", owner.method, owner.kind)
		}
		return nil, fmt.Errorf("engine: a sketch made by another %s (%s) given to the %s %s", by.kind, by.method, owner.method, owner.kind)
	}
	if v == nil {
		return nil, nil
	}
	return v.(typed[S]).s, nil // its maker made it of type S
}
