package index

import (
	"context"

	"github.com/neardup/neardup/internal/store"
)

// Unreachable reports whether err says the index's database cannot be
// reached (see store.Unreachable).
func Unreachable(err error) bool { return store.Unreachable(err) }

// ViewFeeds runs fn in a read-only snapshot of the feed tables: the index
// neither reads nor writes them, but they live in its store, in its
// transactions.
func (x *Index) ViewFeeds(ctx context.Context, fn func(r store.FeedReader) error) error {
	return x.st.View(ctx, func(r store.Reader) error { return fn(r) })
}

// UpdateFeeds runs fn in a write transaction of the feed tables.
func (x *Index) UpdateFeeds(ctx context.Context, fn func(w store.FeedWriter) error) error {
	return x.st.Update(ctx, func(w store.Writer) error { return fn(w) })
}

// Ping reads the index's head: an error when its database cannot answer.
func (x *Index) Ping(ctx context.Context) error {
	return x.st.View(ctx, func(r store.Reader) error {
		_, _, err := r.Head()
		return err
	})
}
