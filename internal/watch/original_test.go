package watch

import (
	"maps"
	"slices"
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

// storySentences returns the sentences of the story of seed, in order.
func storySentences(seed uint64) []string {
	var out []string
	for _, p := range newStory(seed).paras {
		for s := range strings.SplitAfterSeq(p, ". ") {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// paragraphs returns sentences three to a paragraph, the first led by lead.
func paragraphs(lead string, sentences ...[]string) []string {
	all := slices.Concat(sentences...)
	var out []string
	for i := 0; i < len(all); i += 3 {
		out = append(out, strings.Join(all[i:min(i+3, len(all))], " "))
	}
	out[0] = lead + out[0]
	return out
}

// pollOne serves st as the one item of a feed of a new site, dated date,
// polls it and returns the article's ID, a function that reads its item's
// outcome and the outcome the poll counted.
func pollOne(t *testing.T, x *neardup.Index, st story, date time.Time) (id string, outcome func() string, counted string) {
	t.Helper()
	s := newSite(t)
	s.serve("/story/0", "text/html", st.page("Site", ""))
	s.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: s.URL + "/story/0", date: date}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	for o := range once(t, newWatcher(t, x, testOptions()))[0].Outcomes {
		counted = o
	}
	return s.URL + "/story/0", func() string { return storedItems(t, x, s.URL+"/feed")[s.URL+"/story/0"].Outcome }, counted
}

// TestAddGivesItemsTheRoleOfTheirDocument: an add that puts a stored
// article in a cluster whose original is another, earlier article makes
// its item a duplicate, and an article a watcher stores into a cluster
// whose original is published before it, though its one duplicate pair
// names it the original, has its item stored as a duplicate: the items
// agree with the roles that the index's clusters say. Regression: the
// outcomes were read from the add's pairs alone, and an article similar to
// the wire, then in the wire's cluster through an article that copies
// both, stayed similar; one that copies only a later copy of the wire
// stayed added.
func TestAddGivesItemsTheRoleOfTheirDocument(t *testing.T) {
	s, u := storySentences(41), storySentences(43)
	day := func(month time.Month, d int) time.Time { return time.Date(2024, month, d, 8, 0, 0, 0, time.UTC) }
	for _, engine := range storetest.Engines {
		t.Run(engine+"/joined through a later copy", func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			wire := neardup.Document{ID: "wire", Title: "Wire story about the harbour", Text: strings.Join(s[:12], " "), Date: day(3, 1)}
			if _, err := x.Add(t.Context(), wire); err != nil {
				t.Fatal(err)
			}
			_, outcome, _ := pollOne(t, x, story{title: "Second paper covers the port", paras: paragraphs("", s[:6], u[:6])}, day(3, 3))
			if got := outcome(); got != OutcomeSimilar {
				t.Fatalf("the item similar to the wire %q, want similar", got)
			}
			both := neardup.Document{ID: "both", Title: "Third paper looks at the docks", Text: strings.Join(slices.Concat(s[:8], u[:3]), " "), Date: day(3, 4)}
			if ms, err := x.Add(t.Context(), both); err != nil || ms[0].Original != "wire" || len(ms[0].Pairs) != 2 {
				t.Fatalf("adding a copy of both: %+v, %v", ms, err)
			}
			if got := outcome(); got != OutcomeDuplicate {
				t.Errorf("the item in the wire's cluster %q, want duplicate", got)
			}
		})
		t.Run(engine+"/a copy of a later copy", func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			for _, d := range []neardup.Document{
				{ID: "wire", Title: "Wire story about the harbour", Text: strings.Join(s[:12], " "), Date: day(5, 1)},
				{ID: "copy", Title: "Second paper covers the port", Text: strings.Join(slices.Concat(s[:10], u[:2]), " "), Date: day(5, 3)},
			} {
				if _, err := x.Add(t.Context(), d); err != nil {
					t.Fatal(err)
				}
			}
			id, outcome, counted := pollOne(t, x, story{title: "Third paper looks at the docks", paras: paragraphs("", s[:6], u[:6])}, day(5, 2))
			d, _ := stored(t, x, id)
			if d.Original == nil || d.Original.ID != "wire" {
				t.Fatalf("the article's original %+v, want the wire", d.Original)
			}
			if got := outcome(); got != OutcomeDuplicate || counted != OutcomeDuplicate {
				t.Errorf("the item in the wire's cluster %q, counted by its poll %q, want duplicate", got, counted)
			}
		})
	}
}

// TestRemovalGivesItemsTheRoleOfTheirDocument: the wire story, dated a
// week after its dateline, and a copy of it by content dated the
// dateline's day are stored; an article of the next day's dateline, which
// a watcher stores, is similar to the wire (days apart) and its item
// similar. Once the wire is removed, the copy takes its place, the pair is
// judged again by the copy's date, a duplicate published before the
// article, and the article's item becomes a duplicate. Regression: a
// removal changed only items that were duplicates, and the item stayed
// similar.
func TestRemovalGivesItemsTheRoleOfTheirDocument(t *testing.T) {
	s, u := storySentences(41), storySentences(43)
	day := func(d int) time.Time { return time.Date(2024, 3, d, 10, 0, 0, 0, time.UTC) }
	text := "HARBOURTON, March 5 - " + strings.Join(s[:12], " ")
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			for _, d := range []neardup.Document{
				{ID: "wire", Title: "Wire story about the harbour", Text: text, Date: day(12)},
				{ID: "copy", Title: "Wire story about the harbour", Text: text, Date: day(5)},
			} {
				if _, err := x.AddSketched(t.Context(), []neardup.Document{d}, nil, neardup.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			_, outcome, _ := pollOne(t, x, story{title: "Second paper covers the port",
				paras: paragraphs("HARBOURTON, March 6 - ", s[:11], u[:1])}, day(6))
			if got := outcome(); got != OutcomeSimilar {
				t.Fatalf("the item similar to the wire %q, want similar", got)
			}
			if _, err := x.Remove(t.Context(), "wire"); err != nil {
				t.Fatal(err)
			}
			if got := outcome(); got != OutcomeDuplicate {
				t.Errorf("the item once the copy takes the wire's place %q, want duplicate", got)
			}
		})
	}
}

// TestPollCountsWhatIsStored: a poll's counts are the outcomes its items
// hold once it is done, also when a later chunk's add relabels an earlier
// chunk's item. Regression: with one item a chunk, an article similar to
// the wire, then put in the wire's cluster by a later article copying both,
// was counted similar where its item says duplicate.
func TestPollCountsWhatIsStored(t *testing.T) {
	s, u := storySentences(41), storySentences(43)
	day := func(d int) time.Time { return time.Date(2024, 3, d, 8, 0, 0, 0, time.UTC) }
	x := newIndexAt(t, storetest.DSN(t, "sqlite"))
	wire := neardup.Document{ID: "wire", Title: "Wire story about the harbour", Text: strings.Join(s[:12], " "), Date: day(1)}
	if _, err := x.Add(t.Context(), wire); err != nil {
		t.Fatal(err)
	}
	site := newSite(t)
	a := story{title: "Second paper covers the port", paras: paragraphs("", s[:6], u[:6])}
	b := story{title: "Third paper looks at the docks", paras: paragraphs("", s[:8], u[:3])}
	site.serve("/story/a", "text/html", a.page("Site", ""))
	site.serve("/story/b", "text/html", b.page("Site", ""))
	site.serve("/feed", "application/rss+xml", rss2(
		item{title: a.title, link: site.URL + "/story/a", date: day(3)},
		item{title: b.title, link: site.URL + "/story/b", date: day(4)}))
	addFeed(t, x, Feed{URL: site.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Chunk = 1
	res := once(t, newWatcher(t, x, o))[0]
	stored := map[string]int{}
	for _, it := range storedItems(t, x, site.URL+"/feed") {
		stored[it.Outcome]++
	}
	if stored[OutcomeDuplicate] != 2 {
		t.Fatalf("stored %v, want both items duplicate (the test's premise)", stored)
	}
	if !maps.Equal(res.Outcomes, stored) {
		t.Errorf("poll counted %v, stored %v", res.Outcomes, stored)
	}
}

// TestOnceCountsWhatIsStoredAcrossFeeds: a pass's results and the
// watcher's totals (the summary of watch --once, the metrics) count each
// new item by the outcome it holds once every feed is polled. Regression:
// a reprint's feed polled before the wire's counted the reprint's item
// added, though the wire's article, published before it, made it a
// duplicate later in the same pass.
func TestOnceCountsWhatIsStoredAcrossFeeds(t *testing.T) {
	x := newIndexAt(t, storetest.DSN(t, "sqlite"))
	wire, a := newSite(t), newSite(t)
	st := newStory(37)
	r := st
	r.title = "Reprinted: " + st.title
	r.paras = append([]string{"Our correspondent adds that the details are still emerging tonight."}, st.paras...)
	a.serve("/story/0", "text/html", r.page("Site", ""))
	a.serve("/feed", "application/rss+xml", rss2(item{title: r.title, link: a.URL + "/story/0",
		date: time.Date(2024, 3, 1, 11, 0, 0, 0, time.UTC)}))
	wire.serve("/story/0", "text/html", st.page("Wire", ""))
	wire.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: wire.URL + "/story/0",
		date: time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)}))
	addFeed(t, x, Feed{URL: a.URL + "/feed", Interval: Duration(time.Hour)}) // polled first: one worker
	addFeed(t, x, Feed{URL: wire.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Workers = 1
	w := newWatcher(t, x, o)
	res := once(t, w)
	if got := storedItems(t, x, a.URL+"/feed")[a.URL+"/story/0"].Outcome; got != OutcomeDuplicate {
		t.Fatalf("the reprint's item %q, want duplicate (the test's premise)", got)
	}
	for _, r := range res {
		want := map[string]int{OutcomeAdded: 1}
		if r.Feed == a.URL+"/feed" {
			want = map[string]int{OutcomeDuplicate: 1}
		}
		if !maps.Equal(r.Outcomes, want) {
			t.Errorf("%s: counted %v, want %v", r.Feed, r.Outcomes, want)
		}
	}
	if got, want := w.Totals().Items, map[string]int{OutcomeAdded: 1, OutcomeDuplicate: 1}; !maps.Equal(got, want) {
		t.Errorf("totals %v, want %v", got, want)
	}
}
