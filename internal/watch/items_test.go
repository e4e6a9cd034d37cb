package watch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// exactEvidence returns the evidence of the exact-copy mark of a stored
// document; fails when it has none.
func exactEvidence(t *testing.T, x *neardup.Index, id string) index.ExactEvidence {
	t.Helper()
	_, marks := stored(t, x, id)
	for _, m := range marks {
		if m.Method == neardup.ExactMethod {
			var ev index.ExactEvidence
			if err := json.Unmarshal(m.Evidence, &ev); err != nil {
				t.Fatal(err)
			}
			return ev
		}
	}
	t.Fatalf("%s: no exact mark among %+v", id, marks)
	return index.ExactEvidence{}
}

// Two URLs of one site with one article slug, published within two days,
// are one article, marked an exact copy with the slug as evidence: when
// the id in the URL changes, and when the story moves to another section
// (".../storm_hits_the_coast/77.html"). A slug counts only when it is made
// of the headline's words: one-word slugs ("index.html") never match, and
// neither do a section's name and an id ("/news/uk-england-london-2001"),
// which every story of the section has, nor a slug whose page is another (a
// site that redirects the story's URL to its home page).
//
// Regression: the slug alone made a copy on any site and at any date, so
// that another site's own story under the same headline, and the site's
// own headline a week on, were marked exact copies (score 1) of texts they
// do not share. They are now compared by the index's method.
func TestSameSlugExactCopy(t *testing.T) {
	x := newIndex(t)
	a, b := newSite(t), newSiteAt(t, "127.0.0.2")
	first, update, other, home := newStory(1), newStory(2), newStory(3), newStory(4)
	first.title, update.title = "Storm hits the coast", "Storm hits the coast: thousands leave their homes"
	london1, london2, reprint := newStory(6), newStory(7), newStory(8)
	reprint.title = "Storm hits the coast" // another site's text under the headline
	moved, weekOn := newStory(9), newStory(10)
	moved.title, weekOn.title = "Storm hits the coast", "Storm hits the coast again"
	a.serve("/news/storm-hits-the-coast-1001", "text/html", first.page("A", ""))
	a.serve("/news/storm-hits-the-coast-1002", "text/html", update.page("A", "")) // the id changed, the text too
	a.serve("/world/storm_hits_the_coast/77.html", "text/html", moved.page("A", ""))
	a.serve("/news/storm-hits-the-coast-1009", "text/html", weekOn.page("A", ""))
	a.serve("/news/index.html", "text/html", other.page("A", ""))
	a.serve("/news/uk-england-london-2001", "text/html", london1.page("A", ""))
	a.serve("/news/uk-england-london-2002", "text/html", london2.page("A", ""))
	a.serve("/", "text/html", home.page("A", ""))
	b.serve("/world/index.html", "text/html", newStory(5).page("B", ""))
	b.serve("/2026/11/storm_hits_the_coast.html", "text/html", reprint.page("B", ""))
	b.handle("/2026/11/storm_hits_the_coast_live.html", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, a.URL+"/", http.StatusFound) // to the other site's home page
	})
	a.serve("/feed", "application/rss+xml", rss2(
		item{title: "London", link: a.URL + "/news/uk-england-london-2002", date: time.Date(2026, 11, 3, 9, 30, 0, 0, time.UTC)},
		item{title: "London", link: a.URL + "/news/uk-england-london-2001", date: time.Date(2026, 11, 3, 9, 15, 0, 0, time.UTC)},
		item{title: "A week on", link: a.URL + "/news/storm-hits-the-coast-1009", date: time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC)},
		item{title: "Moved", link: a.URL + "/world/storm_hits_the_coast/77.html", date: time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)},
		item{title: "Update", link: a.URL + "/news/storm-hits-the-coast-1002", date: time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)},
		item{title: "Index", link: a.URL + "/news/index.html", date: time.Date(2026, 11, 3, 8, 30, 0, 0, time.UTC)},
		item{title: "Storm", link: a.URL + "/news/storm-hits-the-coast-1001", date: time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC)}))
	b.serve("/feed", "application/rss+xml", rss2(
		item{title: "Storm", link: b.URL + "/2026/11/storm_hits_the_coast.html"},
		item{title: "Storm live", link: b.URL + "/2026/11/storm_hits_the_coast_live.html"},
		item{title: "World", link: b.URL + "/world/index.html"}))
	w := newWatcher(t, x, allowOnly("127.0.0.0/30")) // two sites: 127.0.0.1 and 127.0.0.2
	addFeed(t, x, Feed{URL: a.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, w)
	addFeed(t, x, Feed{URL: b.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, w)

	ai, bi := storedItems(t, x, a.URL+"/feed"), storedItems(t, x, b.URL+"/feed")
	for key, want := range map[string]string{
		a.URL + "/news/storm-hits-the-coast-1001":     OutcomeAdded,
		a.URL + "/news/storm-hits-the-coast-1002":     OutcomeDuplicate,
		a.URL + "/world/storm_hits_the_coast/77.html": OutcomeDuplicate,
		a.URL + "/news/storm-hits-the-coast-1009":     OutcomeAdded, // a week on: another story
		a.URL + "/news/index.html":                    OutcomeAdded,
		a.URL + "/news/uk-england-london-2001":        OutcomeAdded,
		a.URL + "/news/uk-england-london-2002":        OutcomeAdded,
	} {
		if got := ai[key].Outcome; got != want {
			t.Errorf("%s: %s, want %s", key, got, want)
		}
	}
	for key, want := range map[string]string{
		b.URL + "/2026/11/storm_hits_the_coast.html":      OutcomeAdded, // another site's text
		b.URL + "/2026/11/storm_hits_the_coast_live.html": OutcomeAdded, // the home page, compared
		b.URL + "/world/index.html":                       OutcomeAdded,
	} {
		if got := bi[key].Outcome; got != want {
			t.Errorf("%s: %s, want %s", key, got, want)
		}
	}
	for _, id := range []string{a.URL + "/news/storm-hits-the-coast-1002", a.URL + "/world/storm_hits_the_coast/77.html"} {
		if ev := exactEvidence(t, x, id); ev != (index.ExactEvidence{By: "slug", Slug: "storm-hits-the-coast"}) {
			t.Errorf("%s: evidence %+v", id, ev)
		}
	}
}

// A site rule whose body selector matches nothing is said so: the item
// keeps the note, the poll and the feed count it, and the page is
// extracted without the rule.
func TestRuleMiss(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 10, 3)
	s.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour), Rule: &Rule{Body: ".story-body"}})
	w := newWatcher(t, x, testOptions())
	res := once(t, w)
	if r := res[0]; r.RuleMisses != 3 || r.Outcomes[OutcomeAdded] != 3 {
		t.Errorf("poll %+v, want 3 added, 3 rule misses", r)
	}
	if got := w.Totals().RuleMisses; got != 3 {
		t.Errorf("totals: %d rule misses", got)
	}
	for key, it := range storedItems(t, x, s.URL+"/feed") {
		if !strings.Contains(it.Detail, `body ".story-body" matched nothing`) || !strings.Contains(it.Detail, "site rule of feed "+s.URL+"/feed") {
			t.Errorf("%s: detail %q", key, it.Detail)
		}
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil {
		t.Fatal(err)
	}
	if st := feeds[0].State; st.RuleMisses != 3 || !strings.Contains(st.RuleMiss, "matched nothing") {
		t.Errorf("feed state %+v", st)
	}
	tr, err := Try(t.Context(), items[0].link, &Rule{Body: ".story-body"}, testOptions())
	if err != nil || !strings.Contains(tr.Article.RuleMiss, "matched nothing") || tr.Article.Text == "" {
		t.Errorf("trial %+v, %v", tr, err)
	}
	if tr, _ := Try(t.Context(), items[0].link, &Rule{Body: "article"}, testOptions()); tr.Article.RuleMiss != "" {
		t.Errorf("a rule that matches: %q", tr.Article.RuleMiss)
	}
}

// TestRuleMissHidesPassword: the note of a private feed's site rule that
// matched nothing names the feed without its password, in the items'
// details, the feed's state and the log; it named the rule "the site rule
// of feed" and the URL as stored, password and all.
func TestRuleMissHidesPassword(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.serve("/feed", "application/rss+xml", rss2(publish(s, "Daily", 10, 2)...))
	private := strings.Replace(s.URL, "http://", "http://reader:s3cret@", 1) + "/feed"
	addFeed(t, x, Feed{URL: private, Interval: Duration(time.Hour), Rule: &Rule{Body: ".story-body"}})
	var log bytes.Buffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	if res := once(t, newWatcher(t, x, o)); len(res) != 1 || res[0].RuleMisses != 2 {
		t.Fatalf("results %+v, want 2 rule misses", res)
	}
	shown := "site rule of feed " + ShownURL(private)
	for key, it := range storedItems(t, x, private) {
		if !strings.Contains(it.Detail, shown) || strings.Contains(it.Detail, "s3cret") {
			t.Errorf("%s: detail %q, want it to name the %s", key, it.Detail, shown)
		}
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil {
		t.Fatal(err)
	}
	if st := feeds[0].State; !strings.Contains(st.RuleMiss, shown) || strings.Contains(st.RuleMiss, "s3cret") {
		t.Errorf("the feed's state's rule miss %q, want it to name the %s", st.RuleMiss, shown)
	}
	if strings.Contains(log.String(), "s3cret") {
		t.Errorf("the log shows the password:\n%s", log.String())
	}
}

// A page whose text starts with a gallery word is skipped as a gallery,
// with the reason; one whose URL has one is not fetched.
func TestGalleryPages(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	pics := newStory(20)
	pics.paras[0] = "Gallery: " + pics.paras[0]
	s.serve("/news/week-in-review", "text/html", pics.page("Daily", ""))
	s.serve("/news/gallery-photos-3.html", "text/html", newStory(21).page("Daily", ""))
	s.serve("/feed", "application/rss+xml", rss2(item{title: "Week", link: s.URL + "/news/week-in-review"},
		item{title: "Photos", link: s.URL + "/news/gallery-photos-3.html"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, newWatcher(t, x, testOptions()))
	items := storedItems(t, x, s.URL+"/feed")
	if it := items[s.URL+"/news/week-in-review"]; it.Outcome != OutcomeGallery || !strings.Contains(it.Detail, `text starts with the gallery word "gallery"`) {
		t.Errorf("gallery by text: %+v", it)
	}
	if it := items[s.URL+"/news/gallery-photos-3.html"]; it.Outcome != OutcomeGallery || !strings.Contains(it.Detail, `URL has the gallery word "gallery"`) {
		t.Errorf("gallery by URL: %+v", it)
	}
	if n := s.hit("/news/gallery-photos-3.html"); n != 0 {
		t.Errorf("the gallery URL was fetched %d times", n)
	}
	if x.Len() != 0 {
		t.Errorf("%d documents stored, want none", x.Len())
	}
}

// CheckFeed takes feeds of every format, and refuses an HTML page (naming
// the feeds it links to), a 404 and a text file.
func TestCheckFeed(t *testing.T) {
	s := newSite(t)
	s.serve("/rss", "application/rss+xml", rss2(publish(s, "Daily", 30, 2)...))
	s.serve("/atom", "application/atom+xml", atomFeed(publish(s, "Daily", 30, 2)...))
	s.serve("/json", "application/feed+json", jsonFeed(publish(s, "Daily", 30, 2)...))
	s.serve("/page", "text/html", `<html><head><link rel="alternate" type="application/rss+xml" href="/rss"></head><body><p>Hello</p></body></html>`)
	s.serve("/notes.txt", "text/plain", "just some notes")
	// Regression: a feed in a charset no reader knows was called an HTML
	// page; its own error says why it failed.
	s.serve("/bogus", "text/xml", `<?xml version="1.0" encoding="x-bogus-42"?><rss version="2.0"><channel>`+
		`<title>x</title><item><title>a</title><link>`+s.URL+`/a</link></item></channel></rss>`)
	for _, path := range []string{"/rss", "/atom", "/json"} {
		if n, err := CheckFeed(t.Context(), s.URL+path, testOptions()); err != nil || n != 2 {
			t.Errorf("%s: %d items, %v", path, n, err)
		}
	}
	for path, want := range map[string]string{
		"/page":      "an HTML page, not a feed; it links to the feeds " + s.URL + "/rss",
		"/missing":   "404",
		"/notes.txt": "not a feed",
		"/bogus":     "x-bogus-42",
	} {
		_, err := CheckFeed(t.Context(), s.URL+path, testOptions())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error holding %q", path, err, want)
		}
		if path != "/missing" && !errors.Is(err, ErrNotFeed) {
			t.Errorf("%s: %v is not ErrNotFeed", path, err)
		}
	}
}

// concurrentPasses runs two passes over a feed of one item at the same
// moment (two watch --once, or one beside serve --watch): the first
// pass's fetch of the item's page waits until the second pass has ended,
// then gets the page, or a 404 when firstFails. It returns the first
// pass's outcomes, the second's, and the feed's stored items by outcome.
func concurrentPasses(t *testing.T, firstFails bool) (first, second, stored map[string]int) {
	t.Helper()
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 1)
	s.serve("/feed", "application/rss+xml", rss2(items...))
	page := strings.TrimPrefix(items[0].link, s.URL)
	body := newStory(1).page("Daily", "")
	release := make(chan struct{})
	var asked atomic.Int32
	s.handle(page, func(rw http.ResponseWriter, r *http.Request) {
		if asked.Add(1) == 1 {
			<-release // the first pass's fetch waits for the second pass to end
			if firstFails {
				http.Error(rw, "gone", http.StatusNotFound)
				return
			}
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, body)
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	done := make(chan []Result, 1)
	go func() {
		res, err := newWatcher(t, x, testOptions()).Once(t.Context())
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	for deadline := time.Now().Add(10 * time.Second); asked.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	res2 := once(t, newWatcher(t, x, testOptions()))
	close(release)
	res1 := <-done
	feeds, err := Feeds(t.Context(), x)
	if err != nil {
		t.Fatal(err)
	}
	return res1[0].Outcomes, res2[0].Outcomes, feeds[0].Items
}

// TestConcurrentPassesKeepTheFirstOutcome pins two passes over one feed at
// the same moment: the pass that fetched an item's page second found its
// article stored by the other and wrote the item's outcome as exists, over
// the other's added, so that the feed counted no article added. The first
// outcome stored stays.
func TestConcurrentPassesKeepTheFirstOutcome(t *testing.T) {
	first, second, stored := concurrentPasses(t, false)
	if second[OutcomeAdded] != 1 || first[OutcomeExists] != 1 {
		t.Fatalf("the second pass found %v, the first %v; want it added by the second, found stored by the first", second, first)
	}
	if stored[OutcomeAdded] != 1 || stored[OutcomeExists] != 0 {
		t.Errorf("the feed's items %v, want the one added", stored)
	}
}

// TestConcurrentPassFailureKeepsTheOtherOutcome: a pass whose fetch of a
// page fails while another pass stores that page's article leaves the
// item as the other pass stored it (added), not as its own failure, which a
// later pass would then have turned into "exists".
func TestConcurrentPassFailureKeepsTheOtherOutcome(t *testing.T) {
	first, second, stored := concurrentPasses(t, true)
	if second[OutcomeAdded] != 1 || first[OutcomeError] != 1 {
		t.Fatalf("the second pass found %v, the first %v; want it added by the second, failed in the first", second, first)
	}
	if stored[OutcomeAdded] != 1 || stored[OutcomeError] != 0 {
		t.Errorf("the feed's items %v, want the one added", stored)
	}
}

// Two watchers polling one index at once, each its own store (two
// processes), both count their poll and their page on which the site
// rule matched nothing: the counts a pass writes back add to those stored
// when it writes, on both engines. The feed and the page are answered only
// once both passes asked for them, so that each read the feed's counts
// before the other wrote. Regression: each pass wrote the counts it had
// read at its start plus its own, and the last to write won (1 poll, 1
// rule miss).
func TestConcurrentPassesAddTheirCounts(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x, y := newIndexAt(t, dsn), newIndexAt(t, dsn)
			s := newSite(t)
			st := newStory(40)
			answerBoth(s, "/story/0", "text/html; charset=utf-8", st.page("Daily", ""))
			answerBoth(s, "/feed", "application/rss+xml", rss2(item{title: st.title, link: s.URL + "/story/0", guid: "g0",
				date: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour), Rule: &Rule{Body: ".story-body"}})
			feeds := passBoth(t, x, y)
			if got := feeds[0].State; got.Polls != 2 || got.RuleMisses != 2 {
				t.Errorf("after two passes at once: %d polls, %d rule misses; want 2, 2", got.Polls, got.RuleMisses)
			}
		})
	}
}

// Two watchers polling one index at once, each its own store, both fail
// to read a feed: the feed's failures in a row count both, and its next
// poll backs off from two failures, on both engines. The feed answers 500
// only once both passes asked. Regression: each pass wrote the failures it
// had read at its start plus one, and the last to write won (1 failure, a
// backoff of one interval), as a success's reset could be overwritten by a
// failure's count from before it.
func TestConcurrentPassesCountTheirFailures(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x, y := newIndexAt(t, dsn), newIndexAt(t, dsn)
			s := newSite(t)
			s.handle("/feed", bothAsked(func(rw http.ResponseWriter, r *http.Request) {
				http.Error(rw, "down for maintenance", http.StatusInternalServerError)
			}))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			start := time.Now()
			feeds := passBoth(t, x, y)
			if f := feeds[0]; f.State.Failures != 2 || !f.NextPoll.After(start.Add(90*time.Minute)) {
				t.Errorf("after two failed passes at once: %d failures, next poll in %s; want 2, over 90m",
					f.State.Failures, f.NextPoll.Sub(start).Round(time.Minute))
			}
		})
	}
}

// answerBoth serves path as a fixed body of a content type once two
// requests for it have come (see bothAsked).
func answerBoth(s *site, path, contentType, body string) {
	s.handle(path, bothAsked(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", contentType)
		fmt.Fprint(rw, body)
	}))
}

// bothAsked returns h, answering once two requests have come (then at
// once): two passes that both asked have both read what they read before.
func bothAsked(h http.HandlerFunc) http.HandlerFunc {
	var mu sync.Mutex
	asked := 0
	both := make(chan struct{})
	return func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if asked++; asked == 2 {
			close(both)
		}
		mu.Unlock()
		select {
		case <-both:
		case <-r.Context().Done():
			return
		}
		h(rw, r)
	}
}

// passBoth runs a pass of a watcher on each of x and y, two stores of one
// index, at once, and returns the feeds as stored after both.
func passBoth(t *testing.T, x, y *neardup.Index) []Stored {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, z := range []*neardup.Index{x, y} {
		w := newWatcher(t, z, testOptions())
		wg.Go(func() { _, errs[i] = w.Once(t.Context()) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil {
		t.Fatal(err)
	}
	return feeds
}

// TestItemPageFetchedAtItsLink pins the reviewer's finding that the
// watcher fetched an item's page at its canonical link: the site saw
// /index.php?%2Farchives%2F101-story.html= and /article (both 404), never
// the links the feed gave, and the two items /article?id=N;s=1 were one.
// Each page is fetched at its link as written (its fragment aside), and
// each item is an article of its own.
func TestItemPageFetchedAtItsLink(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	pages := map[string]story{
		"/index.php?/archives/101-story.html": newStory(101),
		"/article?id=7;s=1":                   newStory(7),
		"/article?id=8;s=1":                   newStory(8),
	}
	var mu sync.Mutex
	var asked []string
	page := func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.RequestURI())
		mu.Unlock()
		st, ok := pages[r.URL.RequestURI()]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, st.page("A", ""))
	}
	s.handle("/index.php", page)
	s.handle("/article", page)
	s.serve("/feed", "application/rss+xml", rss2(
		item{title: "A", link: s.URL + "/index.php?/archives/101-story.html#comments"},
		item{title: "B", link: s.URL + "/article?id=7;s=1"},
		item{title: "C", link: s.URL + "/article?id=8;s=1"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.New != 3 || r.Outcomes[OutcomeAdded] != 3 {
		t.Errorf("poll %+v, want 3 new items, 3 added", r)
	}
	slices.Sort(asked)
	if want := slices.Sorted(maps.Keys(pages)); !slices.Equal(asked, want) {
		t.Errorf("the site was asked for %q, want %q", asked, want)
	}
	got := storedItems(t, x, s.URL+"/feed")
	for link := range pages {
		if it := got[s.URL+link]; it.Outcome != OutcomeAdded || it.Doc != s.URL+link {
			t.Errorf("item %s: %+v, want added as its own article", link, it)
		}
	}
}

// TestLinkWithASpaceInItsQuery is the regression test of an item whose
// link holds a raw space in its query ("?q=hello world"): it was sent so,
// the server answered 400, and the item failed for good. The page is now
// asked for with the query encoded, as browsers send it; the item's key is
// the link's canonical form, as before.
func TestLinkWithASpaceInItsQuery(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	var asked atomic.Value
	body := newStory(1).page("Daily", "")
	s.handle("/news/a", func(rw http.ResponseWriter, r *http.Request) {
		asked.Store(r.RequestURI)
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, body)
	})
	s.serve("/feed", "application/rss+xml", rss2(item{title: "A", link: s.URL + "/news/a?q=hello world&x=ä"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, newWatcher(t, x, testOptions()))
	if got, _ := asked.Load().(string); got != "/news/a?q=hello%20world&x=%C3%A4" {
		t.Errorf("the page was asked for as %q", got)
	}
	items := storedItems(t, x, s.URL+"/feed")
	for key, it := range items {
		if it.Outcome != OutcomeAdded || key != Canonical(s.URL+"/news/a?q=hello world&x=ä") {
			t.Errorf("item %q: %s (%s), want added under the canonical link", key, it.Outcome, it.Detail)
		}
	}
	if len(items) != 1 {
		t.Errorf("%d items stored, want 1", len(items))
	}
}

// TestArticleFieldsAnIndexStores: an article's title, URL and source are
// what an index stores: none longer than its bound
// (core.Document.OverlongField), none not UTF-8. A page's title too long
// is cut at a character's start, and so is an item's title taken for a
// page without one; a canonical URL the page names, too long, of a host
// too long for a source, or not UTF-8 (a byte of Latin-1 in its query,
// which a canonical URL keeps as written), is not taken, as none is: the
// article's URL is the address the page was fetched from; an article
// fetched from an address too long is stored without a URL, its source
// the host. Regression: each overlong field was
// stored as it was, which `index export` wrote and `index add` of the
// export skipped as malformed, and an index now refuses; a URL not UTF-8
// failed the chunk's add, and the feed's every pass.
func TestArticleFieldsAnIndexStores(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	page := func(seed uint64, title, canonical string) string {
		var b strings.Builder
		b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">`)
		if title != "" {
			fmt.Fprintf(&b, "<title>%s</title>", title)
		}
		if canonical != "" {
			fmt.Fprintf(&b, `<link rel="canonical" href="%s">`, canonical)
		}
		b.WriteString("</head><body><article>")
		for _, p := range newStory(seed).paras {
			fmt.Fprintf(&b, "<p>%s</p>\n", p)
		}
		b.WriteString("</article></body></html>")
		return b.String()
	}
	longTitle := strings.Repeat("€", 2000) // 6,000 bytes, 3 a character
	longPath := "/story/" + strings.Repeat("long-", 1000)
	type want struct{ title, url string }
	cases := map[string]want{ // by path
		"/title":          {longTitle, s.URL + "/title"},
		"/item-title":     {longTitle, s.URL + "/item-title"},
		"/canonical":      {"Canonical", s.URL + "/canonical"},
		"/canonical-host": {"Canonical host", s.URL + "/canonical-host"},
		"/canonical-byte": {"Canonical byte", s.URL + "/canonical-byte"},
		longPath:          {"Long link", ""},
	}
	s.serve("/title", "text/html", page(1, longTitle, ""))
	s.serve("/item-title", "text/html", page(2, "", ""))
	s.serve("/canonical", "text/html", page(3, "Canonical", s.URL+"/news/"+strings.Repeat("c", core.MaxURLBytes)))
	s.serve("/canonical-host", "text/html", page(4, "Canonical host", "http://"+strings.Repeat("h", core.MaxSourceBytes)+".example/news/1"))
	s.serve("/canonical-byte", "text/html", page(5, "Canonical byte", s.URL+"/news/1?caf\xe9"))
	s.serve(longPath, "text/html", page(6, "Long link", ""))
	var items []item
	for path := range cases {
		title := "Item"
		if path == "/item-title" {
			title = longTitle
		}
		items = append(items, item{title: title, link: s.URL + path})
	}
	s.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != len(cases) {
		t.Fatalf("%+v (%v), want %d added", r, r.Err, len(cases))
	}
	for path, w := range cases {
		d, _ := stored(t, x, articleID(Canonical(s.URL+path)))
		doc := core.Document{Title: d.Title, URL: d.URL, Source: d.Source}
		if field, _ := doc.OverlongField(); field != "" || !utf8.ValidString(d.Title) {
			t.Errorf("%.40s: the %s stored too long, or the title not UTF-8: %d bytes of title, %d of URL, %d of source",
				path, field, len(d.Title), len(d.URL), len(d.Source))
		}
		if !strings.HasPrefix(w.title, d.Title) || len(d.Title) < min(len(w.title), core.MaxTitleBytes-3) {
			t.Errorf("%.40s: title %.40q (%d bytes), want %.40q cut to at most %d bytes", path, d.Title, len(d.Title), w.title, core.MaxTitleBytes)
		}
		if d.URL != w.url || d.Source != "127.0.0.1" {
			t.Errorf("%.40s: URL %.60q, source %.40q; want %.60q, 127.0.0.1", path, d.URL, d.Source, w.url)
		}
	}
}
