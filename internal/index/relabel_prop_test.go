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
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestItemsKeepTheirRolesAcrossChanges adds, replaces, removes and
// expires copies of a few stories, published in another order than they
// arrive (some undated, some exact copies by URL), under each linking and
// some under a window, each document with a feed item written by its
// add's Then, and checks after every change that the items' outcomes are
// those that reading every document's role afresh gives
// (index.RelabelAll): what each change relabels in its own transaction is
// all that changed.
func TestItemsKeepTheirRolesAcrossChanges(t *testing.T) {
	for _, link := range []cluster.Linking{cluster.Any, cluster.Anchor, cluster.Majority} {
		for seed := range uint64(4) {
			for _, e := range storetest.Engines {
				t.Run(fmt.Sprint(link, "/", seed, "/", e), func(t *testing.T) {
					x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: link})
					rng := rand.New(rand.NewPCG(seed, 11))
					if rng.IntN(3) == 0 {
						x.SetWindow(time.Duration(1+rng.IntN(6)) * time.Hour)
					}
					checkItemRoles(t, x, enginetest.NewTextGen(100+seed), rng)
				})
			}
		}
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
	// doc returns a copy of a story (exact, edited, most or half of it
	// with other sentences), or a story of its own.
	doc := func(id string) core.Document {
		var s []string
		k := rng.IntN(len(stories))
		switch story := stories[k]; rng.IntN(6) {
		case 0, 1:
			s = slices.Clone(story)
		case 2:
			s = slices.Clone(story)
			s[rng.IntN(len(s))] = g.Sentence()
		case 3:
			s = append(slices.Clone(story[:5]), g.Sentences(5)...)
		case 4:
			s = append(slices.Clone(story[:7]), g.Sentences(3)...)
		default:
			s = g.Sentences(10)
		}
		d := enginetest.Doc(id, s)
		if rng.IntN(4) == 0 {
			d.URL = fmt.Sprintf("https://s.example/story-%d", rng.IntN(4))
		}
		if rng.IntN(8) != 0 {
			d.Date = time.Date(2024, 3, 1, rng.IntN(24), rng.IntN(60), 0, 0, time.UTC)
		}
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
			for i := range 400 {
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
	var log []string
	for step := range 50 {
		var what string
		switch op := rng.IntN(20); {
		case op < 12 || len(stored) < 3:
			var docs []core.Document
			for range 1 + rng.IntN(4) {
				docs = append(docs, doc(fmt.Sprint("d", next)))
				stored[docs[len(docs)-1].ID] = true
				next++
			}
			ex := rng.IntN(2) == 0
			what = fmt.Sprintf("add of %d exact=%v", len(docs), ex)
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Exact: ex, Then: then}); err != nil {
				t.Fatal(err)
			}
		case op < 15:
			ids := slices.Sorted(maps.Keys(stored))
			var docs []core.Document
			for range 1 + rng.IntN(3) {
				if rng.IntN(2) == 0 {
					docs = append(docs, doc(ids[rng.IntN(len(ids))]))
				} else {
					docs = append(docs, doc(fmt.Sprint("d", next)))
					stored[docs[len(docs)-1].ID] = true
					next++
				}
			}
			ex := rng.IntN(2) == 0
			what = fmt.Sprintf("replace-add of %d exact=%v", len(docs), ex)
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Replace: true, Exact: ex, Then: then}); err != nil {
				t.Fatal(err)
			}
		case op < 18:
			id := slices.Sorted(maps.Keys(stored))[rng.IntN(len(stored))]
			what = "removal of " + id
			delete(stored, id)
			if _, err := x.Remove(t.Context(), []string{id}); err != nil {
				t.Fatal(err)
			}
		default:
			before := time.Date(2024, 3, 1, rng.IntN(4), 0, 0, 0, time.UTC)
			what = "expire before " + before.Format(time.Kitchen)
			if _, err := x.Expire(t.Context(), before); err != nil {
				t.Fatal(err)
			}
		}
		log = append(log, what)
		got := outcomes()
		if err := index.RelabelAll(t.Context(), x); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(outcomes(), got); diff != "" {
			t.Fatalf("step %d, %s (after %q): items' outcomes against their roles read afresh (-want +got)\n%s", step, what, log, diff)
		}
	}
}
