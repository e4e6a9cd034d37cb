package neardup

import (
	"context"

	"github.com/neardup/neardup/internal/index"
)

// Sketch is a document analysed by a Sketcher of an Index, ready for
// Index.AddSketched: the analysis, the costly part of an add, can run on
// the caller's goroutines while the index writes.
type Sketch = index.Sketch

// Sketcher analyses documents for one Index, on one goroutine: it is not
// safe for concurrent use (take one per goroutine, or a sync.Pool).
type Sketcher = index.Sketcher

// NewSketcher returns a Sketcher of the index's method for one goroutine.
func (x *Index) NewSketcher() *Sketcher { return x.x.NewSketcher() }

// AddSketched adds docs in one transaction, as Add does (Replace with
// o.Replace), or checks them without storing them with o.Query, as Query
// does; sks are their sketches made by a Sketcher of this Index, in
// order, or nil to have them made here. A sketch made for another document
// (of another title or text) is refused, naming the document, and nothing
// is stored; the check reads the title and text as an exact copy is told
// (case and runs of white space aside), so a sketch of the same text made
// for a document of another source is not refused, and rarewords, which
// keeps the source in its sketch, then judges the document by that one.
// o.Exact, o.Slug and o.Then apply; o.Chunk, o.Workers and o.OnMatch are
// AddSeq's and are not used.
func (x *Index) AddSketched(ctx context.Context, docs []Document, sks []Sketch, o AddOptions) ([]Match, error) {
	if o.Query {
		return matches(x.x.QuerySketched(ctx, docs, sks))
	}
	ms, err := x.x.AddSketched(ctx, docs, sks, o.index())
	return matches(ms, unstorable(err))
}
