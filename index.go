package neardup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/store"
)

// IndexStats describe a stored index: its method and options, and how many
// documents, skipped documents, marks and clusters it holds.
type IndexStats = index.IndexStats

// Counts is what IndexStats embeds: how many documents the index holds,
// the skipped ones by reason, its marks by label, its clusters and the
// documents in them.
type Counts = store.Counts

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

// Repaired is what Repair mended: a line a fault mended, with what was
// done; the IDs of the documents removed, to add again from their source;
// and how many documents were sketched again, places cleared, marks
// mended, entries of the change log cleared and rows of no document
// deleted.
type Repaired = index.Repaired

// ErrStoreDamaged is Repair's error for damage the store itself finds
// (SQLite's integrity check), which it does not mend.
var ErrStoreDamaged = index.ErrStoreDamaged

// Repair mends the faults Verify finds in the index at path (a SQLite file
// or a PostgreSQL URL, as Open takes), without loading the index, which
// damage may keep from loading. First the records that do not match their
// checksums, in one transaction: a document whose sketch alone is damaged
// is sketched again from its stored text when the index stores texts; one
// whose record is sound but for an impossible place has its place cleared
// (it keeps its text, sketch, marks and cluster, and ranks among the
// documents of its date by its ordinal); any other damaged document is
// removed (Repaired.Removed names them: add them
// again from their source); damaged marks are made again (exact copies'
// marks) or removed, and the clusters placed again; damaged entries of the
// change log are cleared. Then, in a second, what the consistency checks
// find: marks that name no stored document or do not decode are removed,
// sketches that do not decode made again or their documents removed, and
// the clusters placed again. The feed items of the documents whose pairs or
// cluster change take the outcome of their documents' roles then, in the
// same transactions. An index without such faults is left as it is.
// Repaired says what committed, with an error too. Damage of the
// store's own (SQLite's integrity check) is ErrStoreDamaged, nothing
// changed. Of o, only Sync and LockWait apply.
func Repair(ctx context.Context, path string, o Options) (Repaired, error) {
	so, err := o.storeOptions()
	if err != nil {
		return Repaired{}, err
	}
	if !store.IsPostgres(path) {
		if _, err := os.Stat(path); err != nil { // opening would create it
			return Repaired{}, fmt.Errorf("%s: no index there: %w", path, err)
		}
	}
	so.Existing = true
	so.Accept = index.AcceptStored(methods.All)
	st, err := store.Open(ctx, path, so)
	if err != nil {
		return Repaired{}, err
	}
	defer st.Close()
	r, err := index.Repair(ctx, st, methods.All)
	if err != nil && !errors.As(err, new(*store.NamedError)) {
		err = fmt.Errorf("%s: %w", store.Name(path), err)
	}
	return r, err
}

// Rescore judges every pair again with the statistics of the whole index
// (for the methods that weigh by them: sentences, tfidf, rarewords, cosine)
// as `neardup dedup` over the stored documents in the order they were added
// would, and replaces the marks and clusters. It pairs under the window
// SetWindow set, as Dedup under Options.Window; the window of earlier adds
// is not stored, so an index added to under a window is rescored under the
// same one only when it is set again. The feed items of the documents take
// the outcome of their documents' roles then, in its transaction. It holds
// the writer lock while it runs.
func (x *Index) Rescore(ctx context.Context, progress func(done int)) (Stats, error) {
	st, err := x.x.Rescore(ctx, progress)
	return statsOf(st), err
}

// Export writes the index as `neardup dedup` writes its results: pairs.jsonl,
// clusters.jsonl, kept.jsonl (the documents compared that are in no
// cluster and each cluster's representative, an exact copy too, with their
// text when the index stores texts), removed.jsonl (the other members of
// each cluster), rejects.jsonl (the documents stored without being
// compared that are in no cluster, with their reason but no file or line,
// which the index does not keep) and stats.json, in dir, replacing what was
// there only once all is written.
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
