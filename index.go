package neardup

import (
	"context"
	"time"

	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/store"
)

// IndexStats describe a stored index: its method and options, and how many
// documents, skipped documents, marks and clusters it holds.
type IndexStats = index.IndexStats

// Stats counts what the index holds.
func (x *Index) Stats(ctx context.Context) (IndexStats, error) { return x.x.Stats(ctx) }

// Faults is what Verify found: the first MaxFaults faults, one line each
// (List), and how many it found in all (Total). The index is sound when
// Total is 0.
type Faults = store.Faults

// MaxFaults bounds the faults Verify lists; past it, it only counts them.
const MaxFaults = store.MaxFaults

// Verify checks the index: the store's own integrity, every sketch
// decoding, every mark joining stored documents, every cluster being the
// group its duplicate marks join. It returns the faults it found: the
// first MaxFaults listed, and how many in all. When damage stops the check
// part way, it returns the faults found until then with the error.
func (x *Index) Verify(ctx context.Context, progress func(done int)) (Faults, error) {
	return x.x.Verify(ctx, progress)
}

// Rescore judges every pair again with the statistics of the whole index
// (for the methods that weigh by them: sentences, tfidf, rarewords, cosine)
// as `neardup dedup` over the stored documents in the order they were added
// would, and replaces the marks and clusters. It pairs under the window
// SetWindow set, as Dedup under Options.Window; the window of earlier adds
// is not stored, so an index added to under a window is rescored under the
// same one only when it is set again. It holds the writer lock while it
// runs.
func (x *Index) Rescore(ctx context.Context, progress func(done int)) (Stats, error) {
	st, err := x.x.Rescore(ctx, progress)
	return statsOf(st), err
}

// Export writes the index as `neardup dedup` writes its results: pairs.jsonl,
// clusters.jsonl, kept.jsonl (the documents compared that are in no
// cluster and each cluster's representative, with their text when the
// index stores texts), removed.jsonl (the other members of each cluster),
// rejects.jsonl (the documents stored without being compared, with their
// reason but no file or line, which the index does not keep) and
// stats.json, in dir, replacing what was there only once all is written.
func (x *Index) Export(ctx context.Context, dir string) error { return output.Export(ctx, x.x, dir) }

// Len counts the documents the index compares: those stored, less those
// its method skipped (too short, no text it can compare), as this Index
// value last read the store. What another Index value or process stored
// since is counted once this one adds or checks a document.
func (x *Index) Len() int { return x.x.Len() }

// SetWindow makes Add, Query and Rescore pair a document only with stored documents
// dated at most d from it, as Options.Window does for Dedup (undated
// documents pair with any); 0, the default, pairs with every one. It holds
// for this Index value only; nothing is stored.
func (x *Index) SetWindow(d time.Duration) { x.x.SetWindow(d) }

// StoresText reports whether the index keeps each document's text (as
// Options.StoreText asks of a new index).
func (x *Index) StoresText() bool { return x.x.Meta().StoreText }
