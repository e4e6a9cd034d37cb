package index_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
)

// TestItemsKeepTheirRolesAcrossChanges adds, replaces and removes copies
// of a few stories, published in another order than they arrive, each
// document with a feed item written by its add's Then, and checks after
// every change that the items' outcomes are those that reading every
// document's role afresh gives (index.RelabelAll): what each add, removal
// and replacement relabels in its own transaction is all that changed.
func TestItemsKeepTheirRolesAcrossChanges(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			eachEngine(t, 60+seed, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
				checkItemRoles(t, x, g, rand.New(rand.NewPCG(seed, 7)))
			})
		})
	}
}

func checkItemRoles(t *testing.T, x *index.Index, g *enginetest.TextGen, rng *rand.Rand) {
	var feed int64
	err := x.UpdateFeeds(t.Context(), func(w store.FeedWriter) error {
		var err error
		feed, err = w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stories := [][]string{g.Sentences(10), g.Sentences(10), g.Sentences(10)}
	// doc returns a copy of a story (exact, edited, or half of it with
	// other sentences: similar), or a story of its own.
	doc := func(id string) core.Document {
		var s []string
		switch story := stories[rng.IntN(len(stories))]; rng.IntN(5) {
		case 0, 1:
			s = slices.Clone(story)
		case 2:
			s = slices.Clone(story)
			s[rng.IntN(len(s))] = g.Sentence()
		case 3:
			s = append(slices.Clone(story[:5]), g.Sentences(5)...)
		default:
			s = g.Sentences(10)
		}
		d := enginetest.Doc(id, s)
		d.Date = time.Date(2024, 3, 1, rng.IntN(24), rng.IntN(60), 0, 0, time.UTC)
		return d
	}
	then := func(w store.FeedWriter, ms []index.Match) error {
		var items []store.FeedItem
		for _, m := range ms {
			if m.Status == index.Added || m.Status == index.Replaced {
				items = append(items, store.FeedItem{Feed: feed, Item: "https://a.example/" + m.ID, Seen: 1, Outcome: "added", Doc: m.ID})
			}
		}
		return w.SaveItems(items)
	}
	outcomes := func() map[string]string {
		out := map[string]string{}
		err := x.ViewFeeds(t.Context(), func(r store.FeedReader) error {
			var keys []string
			for i := range 100 {
				keys = append(keys, fmt.Sprintf("https://a.example/d%d", i))
			}
			items, err := r.FeedItems(feed, keys)
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
	stored := map[string]bool{}
	next := 0
	for step := range 40 {
		var what string
		switch op := rng.IntN(10); {
		case op < 6 || len(stored) < 3:
			var docs []core.Document
			for range 1 + rng.IntN(3) {
				docs = append(docs, doc(fmt.Sprint("d", next)))
				stored[docs[len(docs)-1].ID] = true
				next++
			}
			what = fmt.Sprintf("add of %d", len(docs))
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Exact: rng.IntN(2) == 0, Then: then}); err != nil {
				t.Fatal(err)
			}
		case op < 8:
			id := slices.Sorted(maps.Keys(stored))[rng.IntN(len(stored))]
			what = "replacement of " + id
			if _, err := x.Add(t.Context(), []core.Document{doc(id)}, index.AddOptions{Replace: true, Then: then}); err != nil {
				t.Fatal(err)
			}
		default:
			id := slices.Sorted(maps.Keys(stored))[rng.IntN(len(stored))]
			what = "removal of " + id
			delete(stored, id)
			if _, err := x.Remove(t.Context(), []string{id}); err != nil {
				t.Fatal(err)
			}
		}
		got := outcomes()
		if err := index.RelabelAll(t.Context(), x); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(outcomes(), got); diff != "" {
			t.Fatalf("step %d, %s: items' outcomes against their roles read afresh (-want +got)\n%s", step, what, diff)
		}
	}
}
