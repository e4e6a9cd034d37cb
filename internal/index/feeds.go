package index

import (
	"context"

	"github.com/neardup/neardup/internal/store"
)

// The store's feed tables, as the index hands them to a watcher: the index
// neither reads nor writes them, but they live in its store, in its
// transactions.
type (
	// Feed is a stored feed (see store.Feed).
	Feed = store.Feed
	// FeedItem is an item of a feed dealt with (see store.FeedItem).
	FeedItem = store.FeedItem
	// FeedReader reads the feed tables (see store.FeedReader).
	FeedReader = store.FeedReader
	// FeedWriter writes the feed tables (see store.FeedWriter).
	FeedWriter = store.FeedWriter
)

// The errors of the index's store, for its clients to tell apart.
var (
	// ErrNotFound: no document, cluster or feed of the name given.
	ErrNotFound = store.ErrNotFound
	// ErrExists: a feed of that URL is stored already.
	ErrExists = store.ErrExists
	// ErrQuery: a search query that cannot be run.
	ErrQuery = store.ErrQuery
	// ErrLocked: another process held the writer lock too long.
	ErrLocked = store.ErrLocked
	// ErrReadOnly: the index cannot be written.
	ErrReadOnly = store.ErrReadOnly
)

// MaxQueryBytes is the longest search query Search runs.
const MaxQueryBytes = store.MaxQueryBytes

// Unreachable reports whether err says the index's database cannot be
// reached (see store.Unreachable).
func Unreachable(err error) bool { return store.Unreachable(err) }

// ViewFeeds runs fn in a read-only snapshot of the feed tables.
func (x *Index) ViewFeeds(ctx context.Context, fn func(r FeedReader) error) error {
	return x.st.View(ctx, func(r store.Reader) error { return fn(r) })
}

// UpdateFeeds runs fn in a write transaction of the feed tables.
func (x *Index) UpdateFeeds(ctx context.Context, fn func(w FeedWriter) error) error {
	return x.st.Update(ctx, func(w store.Writer) error { return fn(w) })
}

// Ping reads the index's head: an error when its database cannot answer.
func (x *Index) Ping(ctx context.Context) error {
	return x.st.View(ctx, func(r store.Reader) error {
		_, _, err := r.Head()
		return err
	})
}

// Meta is an index's settings (see store.Meta).
type Meta = store.Meta
