package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestCopiesPolledFirst: the feeds of two sites that reprint a wire story
// are polled before the wire's own feed. The story, published first, is
// the original when it arrives: its item is added, the reprints' items are
// duplicates (the first reprint's item changes in the transaction that
// stores the story), the feeds' counts say so, and the index's cluster
// names the story its original.
func TestCopiesPolledFirst(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			wire, a, b := newSite(t), newSite(t), newSite(t)
			st := newStory(35)
			reprint := func(s *site, lead string, h int) {
				r := st
				r.title = "Reprinted: " + st.title
				r.paras = append([]string{lead}, st.paras...)
				s.serve("/story/0", "text/html", r.page("Site", ""))
				s.serve("/feed", "application/rss+xml", rss2(item{title: r.title, link: s.URL + "/story/0",
					date: time.Date(2024, 3, 1, h, 0, 0, 0, time.UTC)}))
			}
			reprint(a, "Our correspondent adds that the details are still emerging tonight.", 11)
			reprint(b, "A spokesman declined to comment on the report when asked on Friday.", 12)
			wire.serve("/story/0", "text/html", st.page("Wire", ""))
			wire.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: wire.URL + "/story/0",
				date: time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)}))
			w := newWatcher(t, x, testOptions())
			outcomes := func(sites ...*site) []string {
				var out []string
				for _, s := range sites {
					out = append(out, storedItems(t, x, s.URL+"/feed")[s.URL+"/story/0"].Outcome)
				}
				return out
			}
			for _, s := range []*site{a, b} {
				addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
				once(t, w)
			}
			if got := outcomes(a, b); got[0] != OutcomeAdded || got[1] != OutcomeDuplicate {
				t.Fatalf("before the wire's feed is polled, outcomes (wire, a, b) %v, want a added, b duplicate", got)
			}
			addFeed(t, x, Feed{URL: wire.URL + "/feed", Interval: Duration(time.Hour)})
			res := once(t, w)
			if got, want := outcomes(wire, a, b), []string{OutcomeAdded, OutcomeDuplicate, OutcomeDuplicate}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
				t.Errorf("outcomes (wire, a, b) %v, want %v", got, want)
			}
			for _, r := range res {
				if r.Feed == wire.URL+"/feed" && r.Outcomes[OutcomeAdded] != 1 {
					t.Errorf("the wire's poll: %+v", r)
				}
			}
			feeds, err := Feeds(t.Context(), x)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range feeds {
				dups, want := f.Items[OutcomeDuplicate], 1
				if f.URL == wire.URL+"/feed" {
					want = 0
				}
				if dups != want || len(f.Items) != 1 {
					t.Errorf("feed %s counts %v, want %d duplicate", f.URL, f.Items, want)
				}
			}
			d, _ := stored(t, x, a.URL+"/story/0")
			if d.Original == nil || d.Original.ID != wire.URL+"/story/0" {
				t.Errorf("the first reprint's original: %+v", d.Original)
			}
			c, err := x.Cluster(t.Context(), d.Cluster)
			if err != nil || c.Original != wire.URL+"/story/0" || len(c.Members) != 3 {
				t.Errorf("cluster %+v: %v", c, err)
			}
		})
	}
}

// TestOriginalStoredOrRemovedOutsideWatch: a reprint's feed is polled; the
// wire story it reprints, published before it, is then stored by an add of
// the index's own (index add, the API), and later removed. The reprint's
// item becomes a duplicate when the wire is stored and is added again when
// it is removed, the reprint then the original. Regression: only the
// watcher's add relabelled items, and no removal did.
func TestOriginalStoredOrRemovedOutsideWatch(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			a := newSite(t)
			st := newStory(37)
			r := st
			r.paras = append([]string{"Our correspondent adds that the details are still emerging tonight."}, st.paras...)
			a.serve("/story/0", "text/html", r.page("Site", ""))
			a.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: a.URL + "/story/0",
				date: time.Date(2024, 3, 1, 11, 0, 0, 0, time.UTC)}))
			addFeed(t, x, Feed{URL: a.URL + "/feed", Interval: Duration(time.Hour)})
			once(t, newWatcher(t, x, testOptions()))
			outcome := func() string { return storedItems(t, x, a.URL+"/feed")[a.URL+"/story/0"].Outcome }
			if got := outcome(); got != OutcomeAdded {
				t.Fatalf("the reprint's item %q, want added", got)
			}
			wire := neardup.Document{ID: "wire", Title: st.title, Text: strings.Join(st.paras, "\n\n"),
				Date: time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)}
			ms, err := x.Add(t.Context(), wire)
			if err != nil || ms[0].Original != "wire" {
				t.Fatalf("adding the wire: %+v, %v", ms, err)
			}
			if got := outcome(); got != OutcomeDuplicate {
				t.Errorf("the reprint's item once the wire is stored %q, want duplicate", got)
			}
			if _, err := x.Remove(t.Context(), "wire"); err != nil {
				t.Fatal(err)
			}
			if got := outcome(); got != OutcomeAdded {
				t.Errorf("the reprint's item once the wire is removed %q, want added", got)
			}
		})
	}
}

// TestRescoreAndRepairRelabelItems: a reprint's feed is polled, and the
// wire story it reprints, published five days before it, is stored under a
// window of one day, which pairs them not. A rescore without the window
// pairs them, and the reprint's item becomes a duplicate; one under the
// window again unpairs them, and it is added again. A repair that removes
// the damaged mark between them, or the mark that names the wire once its
// record is gone, leaves the reprint a copy of nothing, and its item is
// added again. Regression: rescore and repair changed the pairs and
// clusters but not the items, which kept the outcome of their add.
func TestRescoreAndRepairRelabelItems(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			x := newIndexAt(t, dsn)
			a := newSite(t)
			st := newStory(39)
			r := st
			r.paras = append([]string{"Our correspondent adds that the details are still emerging tonight."}, st.paras...)
			a.serve("/story/0", "text/html", r.page("Site", ""))
			a.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: a.URL + "/story/0",
				date: time.Date(2024, 3, 6, 11, 0, 0, 0, time.UTC)}))
			addFeed(t, x, Feed{URL: a.URL + "/feed", Interval: Duration(time.Hour)})
			x.SetWindow(24 * time.Hour)
			once(t, newWatcher(t, x, testOptions()))
			wire := neardup.Document{ID: "wire", Title: st.title, Text: strings.Join(st.paras, "\n\n"),
				Date: time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)}
			if ms, err := x.Add(t.Context(), wire); err != nil || len(ms[0].Pairs) != 0 {
				t.Fatalf("adding the wire under the window: %+v, %v", ms, err)
			}
			outcome := func() string { return storedItems(t, x, a.URL+"/feed")[a.URL+"/story/0"].Outcome }
			if got := outcome(); got != OutcomeAdded {
				t.Fatalf("the reprint's item %q, want added", got)
			}
			rescore := func(window time.Duration, want string) {
				t.Helper()
				x.SetWindow(window)
				if _, err := x.Rescore(t.Context(), nil); err != nil {
					t.Fatal(err)
				}
				if got := outcome(); got != want {
					t.Errorf("the reprint's item after a rescore under a window of %v: %q, want %q", window, got, want)
				}
			}
			rescore(0, OutcomeDuplicate)
			rescore(24*time.Hour, OutcomeAdded)
			for _, damage := range []string{`UPDATE marks SET score = score / 2`, `DELETE FROM docs WHERE id = 'wire'`} {
				rescore(0, OutcomeDuplicate)
				storetest.Exec(t, dsn, damage)
				if _, err := neardup.Repair(t.Context(), dsn, neardup.Options{}); err != nil {
					t.Fatal(err)
				}
				if got := outcome(); got != OutcomeAdded {
					t.Errorf("the reprint's item after a repair of %q: %q, want added", damage, got)
				}
			}
		})
	}
}
