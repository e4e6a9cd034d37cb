package neardup

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/store"
)

// The feed tables an index keeps beside its documents, for a feed watcher
// (`neardup watch`): the index neither reads nor writes them, but they live
// in its database, in its transactions, so that the items of a feed and
// the documents made of them commit together (AddOptions.Then).
type (
	// Feed is a stored feed: its URL, and its settings and state as the
	// watcher encodes them.
	Feed = store.Feed
	// FeedItem is an item of a feed dealt with, and what became of it.
	FeedItem = store.FeedItem
	// FeedReader reads the feed tables.
	FeedReader = store.FeedReader
	// FeedWriter writes the feed tables.
	FeedWriter = store.FeedWriter
)

// ViewFeeds runs fn in a read-only snapshot of the feed tables.
func (x *Index) ViewFeeds(ctx context.Context, fn func(r FeedReader) error) error {
	return x.x.ViewFeeds(ctx, fn)
}

// UpdateFeeds runs fn in a write transaction of the feed tables: what fn
// writes commits if it returns nil, else nothing does.
func (x *Index) UpdateFeeds(ctx context.Context, fn func(w FeedWriter) error) error {
	return x.x.UpdateFeeds(ctx, fn)
}

// FeedTables are the feed tables of an index opened alone: neither its
// documents nor its in-memory index are read, which is all managing feeds
// (`neardup feeds`) needs.
type FeedTables struct{ st store.Store }

// OpenFeeds opens the feed tables of the index at path: a SQLite file
// (created when missing) or a PostgreSQL URL. Close it when done.
func OpenFeeds(ctx context.Context, path string) (*FeedTables, error) {
	return openFeeds(ctx, path, false)
}

// OpenStoredFeeds opens the feed tables of an index that exists: a SQLite
// file that is not there or is empty, or a PostgreSQL database without
// the index's tables, is an error (fs.ErrNotExist, ErrNoIndex) and
// nothing is created.
func OpenStoredFeeds(ctx context.Context, path string) (*FeedTables, error) {
	return openFeeds(ctx, path, true)
}

func openFeeds(ctx context.Context, path string, existing bool) (*FeedTables, error) {
	if existing && !store.IsPostgres(path) {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("%s: no index there: %w", path, err)
		}
	}
	so := store.DefaultOptions()
	so.Existing = existing
	so.Accept = index.AcceptStored(methods.All) // an index this binary refuses is left unwritten
	st, err := store.Open(ctx, path, so)
	if errors.As(err, new(*store.NamedError)) {
		return nil, err // the store named the index
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", store.Name(path), err)
	}
	return &FeedTables{st}, nil
}

// ViewFeeds runs fn in a read-only snapshot of the feed tables.
func (t *FeedTables) ViewFeeds(ctx context.Context, fn func(r FeedReader) error) error {
	return t.st.View(ctx, func(r store.Reader) error { return fn(r) })
}

// UpdateFeeds runs fn in a write transaction of the feed tables: what fn
// writes commits if it returns nil, else nothing does.
func (t *FeedTables) UpdateFeeds(ctx context.Context, fn func(w FeedWriter) error) error {
	return t.st.Update(ctx, func(w store.Writer) error { return fn(w) })
}

// Close closes the tables' database.
func (t *FeedTables) Close() error { return t.st.Close() }
