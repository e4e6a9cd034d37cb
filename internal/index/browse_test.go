package index_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// browsed adds a story (a), a copy of it (b), a rewrite of half of it (c)
// and an unrelated document (d, with markup in its text), dated a day
// apart, to a new index that stores texts.
func browsed(t *testing.T, e string) *index.Index {
	t.Helper()
	x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
	g := enginetest.NewTextGen(5)
	story := g.Sentences(12)
	copied := append([]string(nil), story...)
	copied[11] = g.Sentence()
	half := append(append([]string(nil), story[:6]...), g.Sentences(6)...)
	docs := []core.Document{
		enginetest.Doc("a", story), enginetest.Doc("b", copied), enginetest.Doc("c", half),
		enginetest.Doc("d", append(g.Sentences(8), "A <b>bold</b> & zebra-crossing sentence.")),
	}
	for i := range docs {
		docs[i].Title = "Title of " + docs[i].ID
		docs[i].Source = "wire"
		docs[i].Date = time.Unix(int64(86400*(i+1)), 0)
	}
	docs[3].Source = "paper"
	add(t, x, docs...)
	return x
}

func TestBrowse(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := browsed(t, e)
			ctx := t.Context()

			d, err := x.Document(ctx, "b")
			if err != nil {
				t.Fatal(err)
			}
			if d.Title != "Title of b" || d.Text == "" || d.Cluster == 0 || d.Date != time.Unix(2*86400, 0).UTC() {
				t.Errorf("document b: %+v", d.Doc)
			}
			if len(d.Marks) == 0 || d.Marks[0].A != "a" || d.Marks[0].B != "b" || d.Marks[0].Label != core.Duplicate ||
				d.Marks[0].Other == nil || d.Marks[0].Other.ID != "a" || len(d.Marks[0].Evidence) == 0 {
				t.Errorf("marks of b: %+v", d.Marks)
			}
			if _, err := x.Document(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("a missing document: %v", err)
			}

			latest, more, err := x.Latest(ctx, store.DocFilter{}, store.Page{Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := summaryIDs(latest); !cmp.Equal(got, []string{"d", "c", "b"}) || !more {
				t.Errorf("latest: %v more %v", got, more)
			}
			if latest[0].Best != nil || latest[2].Best == nil || latest[2].Best.Other.ID != "a" || latest[2].Duplicates == 0 {
				t.Errorf("latest marks: %+v", latest)
			}
			dups, _, err := x.Latest(ctx, store.DocFilter{Label: core.Duplicate, Until: 2*86400 + 1}, store.Page{})
			if err != nil || !cmp.Equal(summaryIDs(dups), []string{"b", "a"}) {
				t.Errorf("duplicates until day 2: %v %v", summaryIDs(dups), err)
			}

			cs, more, err := x.Clusters(ctx, store.ClusterFilter{Source: "wire"}, store.Page{})
			if err != nil || len(cs) != 1 || more || cs[0].First.ID != "a" || cs[0].Size < 2 {
				t.Fatalf("clusters: %+v %v %v", cs, more, err)
			}
			c, err := x.Cluster(ctx, cs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if c.Representative == "" || c.Why == "" || len(c.Members) != cs[0].Size || len(c.Marks) == 0 || c.Marks[0].Other != nil {
				t.Errorf("cluster: %+v", c)
			}
			if _, err := x.Cluster(ctx, 999); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("a missing cluster: %v", err)
			}
			if cs, _, err := x.Clusters(ctx, store.ClusterFilter{Source: "paper"}, store.Page{}); err != nil || len(cs) != 0 {
				t.Errorf("clusters of paper: %+v %v", cs, err)
			}

			res, err := x.Search(ctx, "zebra bold", store.Page{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != 1 || len(res.Hits) != 1 || res.Hits[0].ID != "d" || res.Query != "zebra bold" {
				t.Fatalf("search: %+v", res)
			}
			h := res.Hits[0]
			// PostgreSQL's headline drops what looks like markup; both
			// escape what is left.
			if !strings.Contains(h.Snippet, "& zebra") || !strings.Contains(h.SnippetHTML, "<mark>bold</mark>") ||
				!strings.Contains(h.SnippetHTML, "&amp; <mark>zebra</mark>") || strings.Contains(h.SnippetHTML, "<b>") {
				t.Errorf("snippet %q, html %q", h.Snippet, h.SnippetHTML)
			}
			if _, err := x.Search(ctx, "-zebra", store.Page{}); !errors.Is(err, store.ErrQuery) {
				t.Errorf("a query of exclusions only: %v", err)
			}
		})
	}
}

func summaryIDs(s []browse.Summary) []string {
	out := []string{}
	for _, d := range s {
		out = append(out, d.ID)
	}
	return out
}

// TestRecentStats: a small index is counted afresh on every call; once a
// count is slow, the last counts are shown while they are under ten seconds
// old, and older ones are counted again in the background.
func TestRecentStats(t *testing.T) {
	x := browsed(t, "sqlite")
	g := enginetest.NewTextGen(9)
	docs := func() int {
		st, err := x.RecentStats(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return st.Documents
	}
	if n := docs(); n != 4 {
		t.Fatalf("%d documents, want 4", n)
	}
	add(t, x, enginetest.Doc("e", g.Sentences(8)))
	index.PretendQuickCount(x) // a loaded machine may have made the first count slow
	if n := docs(); n != 5 {
		t.Errorf("a quick count: %d documents, want 5", n)
	}
	index.PretendSlowCount(x, 0)
	add(t, x, enginetest.Doc("f", g.Sentences(8)))
	if n := docs(); n != 5 {
		t.Errorf("a slow count a moment ago: %d documents, want the last count, 5", n)
	}
	index.PretendSlowCount(x, time.Minute)
	if n := docs(); n != 5 {
		t.Errorf("a slow count a minute ago: %d documents, want the last count, 5, at once", n)
	}
	index.WaitCounts(x)
	if n := docs(); n != 6 {
		t.Errorf("after the count in the background: %d documents, want 6", n)
	}
	// Close waits for a count in the background.
	index.PretendSlowCount(x, time.Minute)
	docs()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRecentStatsAfterClose: RecentStats after Close fails with
// store.ErrClosed, as every call does; once a count had been slow it gave
// the last counts and no error.
func TestRecentStatsAfterClose(t *testing.T) {
	for name, age := range map[string]time.Duration{"recent": 0, "old": time.Minute} {
		t.Run(name, func(t *testing.T) {
			x := browsed(t, "sqlite")
			if _, err := x.RecentStats(t.Context()); err != nil {
				t.Fatal(err)
			}
			index.PretendSlowCount(x, age)
			if err := x.Close(); err != nil {
				t.Fatal(err)
			}
			if st, err := x.RecentStats(t.Context()); !errors.Is(err, store.ErrClosed) {
				t.Errorf("RecentStats after Close: %d documents, %v; want ErrClosed", st.Documents, err)
			}
		})
	}
}

// TestCountInBackground: the first count started in the background is the
// one the first call waits for and shows; Close waits for it.
func TestCountInBackground(t *testing.T) {
	x := browsed(t, "sqlite")
	x.CountInBackground()
	st, err := x.RecentStats(t.Context())
	if err != nil || st.Documents != 4 {
		t.Fatalf("%d documents, %v; want 4", st.Documents, err)
	}
	index.PretendSlowCount(x, 0)
	x.CountInBackground() // counted already: no count more
	index.WaitCounts(x)
	add(t, x, enginetest.Doc("e", enginetest.NewTextGen(9).Sentences(8)))
	if st, _ := x.RecentStats(t.Context()); st.Documents != 4 {
		t.Errorf("%d documents, want the last count, 4", st.Documents)
	}

	y := browsed(t, "sqlite")
	y.CountInBackground()
	if err := y.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBrowseDatePastYear9999 pins the fault where an index holding a
// document dated past year 9999 in UTC (stored before such dates were
// refused) made every answer that shows it fail: encoding/json writes no
// such time, and the API answered 500. The date reads as none.
func TestBrowseDatePastYear9999(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			g := enginetest.NewTextGen(9)
			b := enginetest.Doc("b", g.Sentences(12))
			b.Date = time.Unix(2*86400, 0)
			add(t, x, b)
			x.Close()
			// As an older index stored it: a skipped document in b's cluster.
			st, err := store.Open(t.Context(), dsn, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = st.Update(t.Context(), func(w store.Writer) error {
				ord, err := w.Insert(&store.Doc{ID: "a", Text: "Short.", Date: 253402318800, Added: 86400, Skip: core.SkipTooShort}, nil)
				if err != nil {
					return err
				}
				ords, err := w.Lookup([]string{"b"})
				if err != nil {
					return err
				}
				c, err := w.NewCluster()
				if err != nil {
					return err
				}
				return w.SetCluster([]int64{ord, ords["b"]}, c)
			})
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			x = open(t, dsn, index.OpenOptions{StoreText: true})
			ctx := t.Context()
			d, err := x.Document(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			if !d.Date.IsZero() {
				t.Errorf("document a is dated %v, want no date", d.Date)
			}
			docs, _, err := x.Latest(ctx, store.DocFilter{}, store.Page{})
			if err != nil {
				t.Fatal(err)
			}
			cs, _, err := x.Clusters(ctx, store.ClusterFilter{}, store.Page{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 1 || cs[0].Size != 2 {
				t.Fatalf("clusters %+v, want one of a and b", cs)
			}
			for what, v := range map[string]any{"document a": d, "the latest": docs, "the clusters": cs} {
				if _, err := json.Marshal(v); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
		})
	}
}
