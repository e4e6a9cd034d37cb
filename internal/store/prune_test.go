package store_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// TestPruneItems: the items of a feed it no longer lists are deleted past
// the keep of them seen last (the latest seen first, then by key), the
// items it lists are kept however long ago they were seen, another
// feed's are left alone, and the deleted are counted by outcome. A
// pruning whose transaction fails deletes nothing, and a View cannot
// prune. Nothing pruned the items of a feed: one whose links changed on
// every poll added its items' rows for good (60 MB a poll).
func TestPruneItems(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var a, b int64
		update(t, st, func(w store.Writer) error {
			var err error
			if a, err = w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)}); err != nil {
				return err
			}
			if b, err = w.AddFeed(&store.Feed{URL: "https://b.example/rss", Config: []byte(`{}`), State: []byte(`{}`)}); err != nil {
				return err
			}
			var items []store.FeedItem
			for i := range 10 { // i0 seen first, i9 last
				outcome := "added"
				if i%2 == 1 {
					outcome = "refused"
				}
				items = append(items, store.FeedItem{Feed: a, Item: fmt.Sprint("i", i), Seen: int64(100 + i), Outcome: outcome},
					store.FeedItem{Feed: b, Item: fmt.Sprint("i", i), Seen: int64(100 + i), Outcome: "added"})
			}
			return w.SaveItems(items)
		})
		keys := func(feed int64) []string {
			var out []string
			view(t, st, func(r store.Reader) error {
				items, err := r.RecentItems(feed, 100)
				for _, it := range items {
					out = append(out, it.Item)
				}
				return err
			})
			slices.Sort(out)
			return out
		}
		// A failed transaction deletes nothing.
		failed := errors.New("the poll's write failed")
		if err := st.Update(t.Context(), func(w store.Writer) error {
			if _, err := w.PruneItems(a, nil, 2); err != nil {
				return err
			}
			return failed
		}); !errors.Is(err, failed) {
			t.Fatalf("a failing transaction: %v", err)
		}
		if got := keys(a); len(got) != 10 {
			t.Errorf("after a failed transaction: %v, want the 10 items", got)
		}
		if err := st.View(t.Context(), func(r store.Reader) error {
			_, err := r.(store.Writer).PruneItems(a, nil, 2)
			return err
		}); err == nil {
			t.Error("PruneItems in a View: no error")
		}
		// Fewer items than keep: nothing to read or delete.
		update(t, st, func(w store.Writer) error {
			got, err := w.PruneItems(a, nil, 10)
			if len(got) != 0 {
				t.Errorf("keep 10 of 10: deleted %v", got)
			}
			return err
		})
		// i0 and i3, seen first, are listed: kept. Of the others, the 3
		// seen last (i9, i8, i7) are kept.
		var gone map[string]int
		update(t, st, func(w store.Writer) error {
			var err error
			gone, err = w.PruneItems(a, []string{"i0", "i3", "new"}, 3)
			return err
		})
		if want := map[string]int{"added": 3, "refused": 2}; !maps.Equal(gone, want) { // i2 i4 i6, i1 i5
			t.Errorf("deleted %v, want %v", gone, want)
		}
		if got, want := keys(a), []string{"i0", "i3", "i7", "i8", "i9"}; !slices.Equal(got, want) {
			t.Errorf("kept %v, want %v", got, want)
		}
		if got := keys(b); len(got) != 10 {
			t.Errorf("the other feed's items: %v, want all 10", got)
		}
	})
}
