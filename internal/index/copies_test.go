package index_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// TestMajorityCountsCopiesOfAnHeir: a story's original is removed, and the
// first copy by content, stored after a copy by URL, takes its place
// (heirs); a reprint matched with that heir, under majority, joins the
// story's cluster in the index, after a rescore too, as dedup of the
// documents left puts it there. Regression: the copies were counted for
// the copy by URL, the earliest of their exact marks, which is never
// compared, and the reprint, one link of four members, joined none.
func TestMajorityCountsCopiesOfAnHeir(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	text := strings.Join(story, " ")
	docs := []core.Document{{ID: "s", Title: "Story", Text: text, URL: "https://a.example/story"}}
	docs = append(docs, core.Document{ID: "c0", Title: "Story, updated", Text: text, URL: "https://a.example/story"})
	for i := 1; i <= 3; i++ {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: text})
	}
	r := core.Document{ID: "r", Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")}
	rest := append(append([]core.Document{}, docs[1:]...), r)
	want := batchGroups(t, minhash.Defaults(), cluster.Majority, rest)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Majority})
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := x.Remove(t.Context(), []string{"s"}); err != nil {
				t.Fatal(err)
			}
			if _, err := x.Add(t.Context(), []core.Document{r}, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != want {
				t.Errorf("index: %s, want %s", got, want)
			}
			groupsAfterRescore(t, x, want)
		})
	}
}

// TestCentralScoresACopyByURLByItsOwn: under --keep central, an exact copy
// by URL, whose text is longer than its original's, is not scored with its
// original's sketch, so that the export chooses dedup's representative.
// Regression: scored as its original, the copy tied with it and won the
// tie as the longest, where dedup, which compares it, chose the original.
func TestCentralScoresACopyByURLByItsOwn(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	text := strings.Join(story, " ")
	docs := []core.Document{{ID: "s", Title: "Story", Text: text, URL: "https://a.example/story"}}
	docs = append(docs, core.Document{ID: "u", Title: "Story", Text: text + " " + strings.Join(g.Sentences(2), " "), URL: "https://a.example/story"})
	for i := range 2 {
		docs = append(docs, core.Document{ID: fmt.Sprint("r", i), Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")})
	}
	for _, spec := range []engine.Spec{minhash.Spec} {
		b, err := spec.NewBatchWith(spec.Defaults(), engine.Grouping{Keep: cluster.Central})
		if err != nil {
			t.Fatal(err)
		}
		enginetest.Feed(t, b, docs)
		want := b.Result().Clusters
		b.Close()
		for _, e := range storetest.Engines {
			x, err := index.Open(t.Context(), storetest.DSN(t, e), store.Options{Sync: "normal"}, []engine.Spec{spec},
				index.OpenOptions{Keep: cluster.Central, StoreText: true})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			got := export(t, x).clusters
			if len(got) != 1 || got[0].Representative != want[0].Representative {
				t.Errorf("exported %+v, want the batch's %+v", got, want[0])
			}
		}
	}
}

// TestMajorityCountsCopiesOfACopy: a story's copies by URL of its copy by
// content stand for the story too, and a reprint matched with the story
// joins its cluster under majority, in the add as in a rescore and dedup.
// Regression: an add counted the exact marks joined to the matched
// document directly, and the reprint (two links of five members) joined
// none.
func TestMajorityCountsCopiesOfACopy(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	text := strings.Join(story, " ")
	docs := []core.Document{
		{ID: "s", Title: "Story", Text: text, URL: "https://a.example/s"},
		{ID: "c1", Title: "Story", Text: text, URL: "https://b.example/s"},
	}
	for i := 2; i <= 4; i++ {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: fmt.Sprint("Story ", i), Text: text, URL: "https://b.example/s"})
	}
	r := core.Document{ID: "r", Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")}
	want := batchGroups(t, minhash.Defaults(), cluster.Majority, append(append([]core.Document{}, docs...), r))
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Majority})
			if _, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := x.Add(t.Context(), []core.Document{r}, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != want {
				t.Errorf("index: %s, want %s", got, want)
			}
			groupsAfterRescore(t, x, want)
		})
	}
}

// BenchmarkReprintOfAStoryOfCopies adds reprints, one at a time, of a story
// stored with 500 exact copies, under --link any and majority, in SQLite:
// under majority each reprint reads the exact marks of the documents it
// matched, once, and each cluster's members once, not every member's exact
// marks for each match (go test ./internal/index -run '^$' -bench
// ReprintOfAStoryOfCopies).
func BenchmarkReprintOfAStoryOfCopies(b *testing.B) {
	for _, link := range []cluster.Linking{cluster.Any, cluster.Majority} {
		b.Run(string(link), func(b *testing.B) { reprintsOfCopies(b, link) })
	}
}

// reprintsOfCopies is BenchmarkReprintOfAStoryOfCopies under link.
func reprintsOfCopies(b *testing.B, link cluster.Linking) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	text := strings.Join(story, " ")
	x, err := index.Open(b.Context(), storetest.DSN(b, "sqlite"), store.Options{Sync: "normal"}, specs,
		index.OpenOptions{Link: link})
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	docs := []core.Document{{ID: "s", Title: "Story", Text: text}}
	for i := range 500 {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: text})
	}
	if _, err := x.Add(b.Context(), docs, index.AddOptions{Exact: true}); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		r := core.Document{ID: fmt.Sprint("r", i), Title: fmt.Sprint("Reprint ", i), Text: strings.Join(append(g.Sentences(1), story...), " ")}
		if _, err := x.Add(b.Context(), []core.Document{r}, index.AddOptions{Exact: true}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCopyIntoAClusterWithAFeed adds exact copies, one at a time, of
// a story stored with 2,000 copies, in SQLite, without a feed and with
// one whose item was made into the story: with a feed an add relabels the
// items of the cluster it joined, reading its members whose items are no
// duplicates and the original's duplicates outside the cluster, not every
// member (go test ./internal/index -run '^$' -bench CopyIntoAClusterWithAFeed).
func BenchmarkCopyIntoAClusterWithAFeed(b *testing.B) {
	for _, feed := range []bool{false, true} {
		b.Run(map[bool]string{false: "no-feed", true: "feed"}[feed], func(b *testing.B) {
			text := strings.Join(enginetest.NewTextGen(62).Sentences(12), " ")
			x, err := index.Open(b.Context(), storetest.DSN(b, "sqlite"), store.Options{Sync: "normal"}, specs, index.OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			docs := []core.Document{{ID: "s", Title: "Story", Text: text}}
			for i := range 2000 {
				docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: text})
			}
			if _, err := x.Add(b.Context(), docs, index.AddOptions{Exact: true}); err != nil {
				b.Fatal(err)
			}
			if feed {
				err := x.UpdateFeeds(b.Context(), func(w store.FeedWriter) error {
					id, err := w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)})
					if err != nil {
						return err
					}
					return w.SaveItems([]store.FeedItem{{Feed: id, Item: "https://a.example/s", Seen: 1, Outcome: "added", Doc: "s"}})
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			i := 0
			for b.Loop() {
				d := core.Document{ID: fmt.Sprint("r", i), Title: "Story", Text: text}
				if _, err := x.Add(b.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
