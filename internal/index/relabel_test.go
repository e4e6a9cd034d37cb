package index_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// saveItems stores a feed and, for each document ID of outcomes, an item
// of it made into that document with the given outcome.
func saveItems(t *testing.T, x *index.Index, outcomes map[string]string) {
	t.Helper()
	err := x.UpdateFeeds(t.Context(), func(w store.FeedWriter) error {
		feed, err := w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)})
		if err != nil {
			return err
		}
		var items []store.FeedItem
		for doc, outcome := range outcomes {
			items = append(items, store.FeedItem{Feed: feed, Item: "https://a.example/" + doc, Seen: 1, Outcome: outcome, Doc: doc})
		}
		return w.SaveItems(items)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// itemOutcomes returns the outcome of each item saved by saveItems, by its
// document's ID.
func itemOutcomes(t *testing.T, x *index.Index, ids ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := x.ViewFeeds(t.Context(), func(r store.FeedReader) error {
		feeds, err := r.Feeds()
		if err != nil || len(feeds) != 1 {
			t.Fatalf("feeds %+v: %v", feeds, err)
		}
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = "https://a.example/" + id
		}
		items, err := r.FeedItems(feeds[0].ID, keys)
		for _, it := range items {
			out[it.Doc] = it.Outcome
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLateOriginalRelabelsItemsOfEveryAdd: an article stored by any add
// (index add and the API add without AddOptions.Then) that was published
// before stored copies of it makes their feed items duplicates in its
// transaction. Regression: only watch's add relabelled them, and a reprint
// polled before the wire stored by index add stayed added.
func TestLateOriginalRelabelsItemsOfEveryAdd(t *testing.T) {
	eachEngine(t, 41, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story, other := g.Sentences(10), g.Sentences(10)
		add(t, x, storyAt(g, story, "reprint", 11, -1), storyAt(g, other, "other", 12, -1))
		saveItems(t, x, map[string]string{"reprint": "added", "other": "added"})
		if _, err := x.Add(t.Context(), []core.Document{storyAt(g, story, "wire", 8, -1)}, index.AddOptions{Exact: true}); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"reprint": "duplicate", "other": "added"}
		if diff := cmp.Diff(want, itemOutcomes(t, x, "reprint", "other")); diff != "" {
			t.Errorf("items once the wire is stored (-want +got)\n%s", diff)
		}
	})
}

// TestHeirsItemsAreNoLongerDuplicates: when the original of a story goes
// (removed, expired, replaced), the copy that takes its place as the
// original of what is left, a copy of nothing stored published before it,
// has its feed items added again in the removal's transaction; a later
// copy's stay duplicates. Regression: the heir's items stayed duplicates
// of an article no longer stored.
func TestHeirsItemsAreNoLongerDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name string
		gone func(t *testing.T, x *index.Index, g *enginetest.TextGen) error
	}{
		{"remove", func(t *testing.T, x *index.Index, _ *enginetest.TextGen) error {
			_, err := x.Remove(t.Context(), []string{"wire"})
			return err
		}},
		{"expire", func(t *testing.T, x *index.Index, _ *enginetest.TextGen) error {
			_, err := x.Expire(t.Context(), time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)) // the wire alone is older
			return err
		}},
		{"replace", func(t *testing.T, x *index.Index, g *enginetest.TextGen) error {
			_, err := x.Add(t.Context(), []core.Document{storyAt(g, g.Sentences(10), "wire", 8, -1)}, index.AddOptions{Replace: true})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachEngine(t, 43, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
				story := g.Sentences(10)
				add(t, x, storyAt(g, story, "wire", 8, -1), storyAt(g, story, "reprint", 11, -1), storyAt(g, story, "late", 14, -1))
				saveItems(t, x, map[string]string{"wire": "added", "reprint": "duplicate", "late": "duplicate"})
				if err := tc.gone(t, x, g); err != nil {
					t.Fatal(err)
				}
				ex := export(t, x)
				if len(ex.clusters) != 1 || ex.clusters[0].Original != "reprint" {
					t.Fatalf("exported clusters %+v, want reprint the original", ex.clusters)
				}
				want := map[string]string{"wire": "added", "reprint": "added", "late": "duplicate"}
				if diff := cmp.Diff(want, itemOutcomes(t, x, "wire", "reprint", "late")); diff != "" {
					t.Errorf("items once the wire is gone (-want +got)\n%s", diff)
				}
			})
		})
	}
}

// TestReplacedDocumentsItemsTakeItsRole: an add that replaces a document
// gives the items made into it the outcome of the version stored: an
// article replaced by a copy of a wire published before it becomes a
// duplicate, and a duplicate replaced by a text of its own becomes added.
// Regression (a reviewer's finding): the items kept what the version
// replaced had earned.
func TestReplacedDocumentsItemsTakeItsRole(t *testing.T) {
	eachEngine(t, 49, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		add(t, x, storyAt(g, story, "wire", 8, -1), storyAt(g, g.Sentences(10), "x", 12, -1), storyAt(g, story, "y", 13, -1))
		saveItems(t, x, map[string]string{"wire": "added", "x": "added", "y": "duplicate"})
		if _, err := x.Add(t.Context(), []core.Document{storyAt(g, story, "x", 12, -1), storyAt(g, g.Sentences(10), "y", 13, -1)},
			index.AddOptions{Replace: true}); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"wire": "added", "x": "duplicate", "y": "added"}
		if diff := cmp.Diff(want, itemOutcomes(t, x, "wire", "x", "y")); diff != "" {
			t.Errorf("items once x and y are replaced (-want +got)\n%s", diff)
		}
	})
}

// TestMergeMakesTheLaterOriginalADuplicate: an add that merges two
// clusters makes the later cluster's original a
// copy: its item, added, becomes a duplicate though the add replaces
// nothing and names it in no late copy (the add's document is published
// after it).
func TestMergeMakesTheLaterOriginalADuplicate(t *testing.T) {
	eachEngine(t, 77, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		x.SetWindow(time.Hour) // two clusters of one story, five hours apart
		add(t, x, storyAt(g, story, "a", 0, -1), storyAt(g, story, "ca", 1, -1))
		add(t, x, storyAt(g, story, "b", 5, -1), storyAt(g, story, "cb", 6, -1))
		saveItems(t, x, map[string]string{"a": "added", "ca": "duplicate", "b": "added", "cb": "duplicate"})
		x.SetWindow(0) // another process, without --window
		ms := add(t, x, storyAt(g, story, "n", 7, -1))
		if ms[0].Original != "a" {
			t.Fatalf("match %+v, want a the original", ms[0])
		}
		want := map[string]string{"a": "added", "ca": "duplicate", "b": "duplicate", "cb": "duplicate"}
		if diff := cmp.Diff(want, itemOutcomes(t, x, "a", "ca", "b", "cb")); diff != "" {
			t.Errorf("items once n merged the clusters (-want +got)\n%s", diff)
		}
	})
}

// TestEarlierCopyOutsideTheClusterMakesItsOriginalADuplicate: under
// anchor linking an earlier copy of a cluster's original that does
// not link to the cluster's first member stays out of the cluster; the
// original, which the add does not read as a member, is a duplicate
// through the add's late copies alone.
func TestEarlierCopyOutsideTheClusterMakesItsOriginalADuplicate(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Anchor})
			g := enginetest.NewTextGen(78)
			story := g.Sentences(10)
			x.SetWindow(3 * time.Hour)
			add(t, x, storyAt(g, story, "f", 9, -1))
			add(t, x, storyAt(g, story, "o", 7, -1)) // joins f's cluster, its original
			saveItems(t, x, map[string]string{"f": "duplicate", "o": "added"})
			// n1 links to f, the first member, and joins; n, within the
			// window of o alone, does not.
			ms := add(t, x, storyAt(g, story, "n1", 10, -1), storyAt(g, story, "n", 4, -1))
			if ms[0].Original != "o" || ms[1].Cluster == ms[0].Cluster || len(ms[1].Pairs) != 1 {
				t.Fatalf("matches %+v, want n1 in o's cluster, n out of it, paired with o", ms)
			}
			want := map[string]string{"f": "duplicate", "o": "duplicate"}
			if diff := cmp.Diff(want, itemOutcomes(t, x, "f", "o")); diff != "" {
				t.Errorf("items once n is stored (-want +got)\n%s", diff)
			}
		})
	}
}
