package watch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/conntest"
	"github.com/neardup/neardup/internal/extract"
)

// TestTryFeedGoesOnAsTheWatcherDoes pins a trial of a feed's URL that
// ended with an error at a newer item whose page failed (a 404, a refused
// address after a redirect, a redirect loop, a page too large) or was a
// feed, where the watcher records that item's outcome and adds the older
// article, and where the trial before it fetched items in turn extracted
// that article. Now the trial passes the item over as the watcher does,
// counts why, and tries the older one.
func TestTryFeedGoesOnAsTheWatcherDoes(t *testing.T) {
	internal := newSiteAt(t, "127.0.0.3") // an internal service
	internal.serve("/secret", "text/html", newStory(2).page("Internal", ""))
	redirect := func(s *site, from, to string) {
		s.handle(from, func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, to, http.StatusFound) })
	}
	for _, c := range []struct {
		name    string
		setup   func(s *site) // serves /promo/1, the newer item
		passed  string
		outcome string // the watcher's, of /promo/1
	}{
		{"HTTP 404", func(s *site) {}, "1 HTTP 404", OutcomeError},
		{"refused after a redirect", func(s *site) { redirect(s, "/promo/1", internal.URL+"/secret") }, "1 refused (an internal address)", OutcomeRefused},
		{"no address after a redirect", func(s *site) {
			_, port, _ := strings.Cut(strings.TrimPrefix(s.URL, "http://"), ":")
			redirect(s, "/promo/1", "http://:"+port+"/story/1")
		}, "1 refused (no address)", OutcomeRefused},
		{"redirect loop", func(s *site) { redirect(s, "/promo/1", "/promo/1") }, "1 too many redirects", OutcomeError},
		{"too large", func(s *site) { s.serve("/promo/1", "text/html", strings.Repeat("x", 60000)) }, "1 too large", string(extract.SkipTooLarge)},
		{"a feed after a redirect", func(s *site) { // at a URL article_url matches
			redirect(s, "/promo/1", "/story/feed.xml")
			s.serve("/story/feed.xml", "application/rss+xml", rss2(item{title: "x", link: s.URL + "/story/0"}))
		}, "1 whose page is a feed", string(extract.SkipFeed)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSiteAt(t, "127.0.0.2")
			stories := publish(s, "Daily", 60, 1)
			c.setup(s)
			promo := item{title: "promo", link: s.URL + "/promo/1", guid: "p", date: stories[0].date.Add(time.Hour)}
			s.serve("/feed", "application/rss+xml", rss2(promo, stories[0]))
			rule := &Rule{Body: "article", ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/story/"}
			o := allowOnly("127.0.0.2/32")
			o.MaxBytes = 50000
			tr, err := Try(t.Context(), s.URL+"/feed", rule, o)
			if err != nil || tr.Feed == nil || tr.Feed.Page != stories[0].link || tr.Feed.Passed != c.passed || tr.URL != stories[0].link || tr.Article.Text == "" {
				t.Errorf("trial: feed %+v, tried %q, %v; want %s tried and extracted, passed over: %s", tr.Feed, tr.URL, err, stories[0].link, c.passed)
			}
			x := newIndex(t)
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour), Rule: rule})
			once(t, newWatcher(t, x, o))
			got := map[string]string{}
			for key, it := range storedItems(t, x, s.URL+"/feed") {
				got[key] = it.Outcome
			}
			if want := map[string]string{promo.link: c.outcome, stories[0].link: OutcomeAdded}; !maps.Equal(got, want) {
				t.Errorf("the watcher's outcomes %v, want %v", got, want)
			}
		})
	}
	if n := internal.hitsAll(); n != 0 {
		t.Errorf("the internal service was asked %d times", n)
	}
}

// TestTryFeedFetchesAtMostMaxTryItems pins a trial of a feed's URL that
// fetched every item's page looking for one its rule's article_url
// matches: a feed of 500 items, none matching, made 501 requests (a feed
// of 3,000 on one host, 50 minutes at the default host delay). Now it
// fetches MaxTryItems at most and says what it passed over and what it
// left.
func TestTryFeedFetchesAtMostMaxTryItems(t *testing.T) {
	s := newSite(t)
	const n = 500
	var items []item
	for i := range n {
		path := fmt.Sprintf("/other/%d", i)
		s.serve(path, "text/html", newStory(uint64(i)).page("Daily", ""))
		items = append(items, item{title: path, link: s.URL + path})
	}
	s.serve("/feed", "application/rss+xml", rss2(items...))
	rule := &Rule{ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/story/"}
	tr, err := Try(t.Context(), s.URL+"/feed", rule, testOptions())
	if got := s.hitsAll(); got > MaxTryItems+1 {
		t.Errorf("%d requests, want the feed's and %d items' at most", got, MaxTryItems)
	}
	want := fmt.Sprintf("%s/feed: a feed (RSS), not an article page, and none of its %d newest items the watcher would fetch is a page it would extract (%d not matching article_url; %d older not tried): give the URL of an article page; the newest fetched: %s/other/0: not matching article_url",
		s.URL, MaxTryItems, MaxTryItems, n-MaxTryItems, s.URL)
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant\n%s", err, want)
	}
	if tr.Feed == nil || tr.Feed.Page != "" || tr.URL != "" {
		t.Errorf("feed %+v, tried %q; want no page", tr.Feed, tr.URL)
	}
}

// TestTryFeedHasADeadline pins a trial of a feed's URL whose time nothing
// bounded but the items' timeouts (the CLI's: 3 slow pages, 3 times
// --timeout), or that ran out of its caller's time (the web UI's 30 s)
// with an error naming nothing ("the newest item of feed ...: context
// deadline exceeded"). Now a trial is given a deadline when its caller
// gives none, and running out of time is an error that says how many
// items were tried, why each was passed over, and which was fetched first.
func TestTryFeedHasADeadline(t *testing.T) {
	s := newSite(t)
	var items []item
	for i := range 20 {
		path := fmt.Sprintf("/slow/%d", i)
		s.handle(path, func(rw http.ResponseWriter, r *http.Request) {
			select { // under the timeout (on a loaded machine a page may still time out)
			case <-time.After(400 * time.Millisecond):
			case <-r.Context().Done():
			}
			rw.Header().Set("Content-Type", "text/html")
			fmt.Fprint(rw, newStory(7).page("Daily", ""))
		})
		items = append(items, item{title: path, link: s.URL + path})
	}
	s.serve("/feed", "application/rss+xml", rss2(items...))
	rule := &Rule{ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/story/"}
	o := testOptions()
	o.Timeout = 500 * time.Millisecond // a trial without a deadline may take 2s
	for _, c := range []struct {
		name  string
		limit time.Duration // what the trial may take
		ctx   func() (context.Context, context.CancelFunc)
	}{
		{"the caller's deadline", 1500 * time.Millisecond, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(t.Context(), 1500*time.Millisecond)
		}},
		{"no deadline", 2 * time.Second, func() (context.Context, context.CancelFunc) { return t.Context(), func() {} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := c.ctx()
			defer cancel()
			start := time.Now()
			tr, err := Try(ctx, s.URL+"/feed", rule, o)
			if took := time.Since(start); took > c.limit+time.Second {
				t.Errorf("took %s, want %s at most", took, c.limit)
			}
			want := regexp.MustCompile(`^` + regexp.QuoteMeta(s.URL+"/feed: a feed (RSS), not an article page, and none of its ") + `\d+` +
				regexp.QuoteMeta(" newest items the watcher would fetch is a page it would extract within the "+c.limit.String()+" a trial may take (") +
				`\d+ not matching article_url(, \d+ timed out)?(, 1 cut off when time ran out)?; \d+ older not tried\): give the URL of an article page; ` +
				regexp.QuoteMeta("the newest fetched: "+s.URL+"/slow/0: not matching article_url") + `$`)
			if err == nil || !want.MatchString(err.Error()) {
				t.Errorf("error:\n%v\nwant it to match\n%s", err, want)
			}
			if tr.Feed == nil || tr.Feed.Page != "" {
				t.Errorf("feed %+v; want no page", tr.Feed)
			}
		})
	}
}

// TestTryFeedErrorNamesTheItem pins the error of a trial of a feed's URL
// that met an item's page it could not fetch: it said "the newest item of
// feed ..." of the third item, named where the item's link redirected in
// place of the link, left out the items passed over before it, and gave
// that item as the page tried (FeedTrial.Page). Now the error counts every
// item passed over, names the first by its link and where it redirected,
// and no page is said to be tried; the error wraps the item's.
func TestTryFeedErrorNamesTheItem(t *testing.T) {
	s := newSite(t)
	s.handle("/go/5", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/story/5", http.StatusFound) })
	s.serve("/other/1", "text/html", newStory(1).page("Daily", ""))
	d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.serve("/feed", "application/rss+xml", rss2(
		item{title: "c", link: s.URL + "/go/5", date: d.Add(3 * time.Hour)},
		item{title: "b", link: s.URL + "/photos/2", date: d.Add(2 * time.Hour)},
		item{title: "a", link: s.URL + "/other/1", date: d.Add(time.Hour)}))
	rule := &Rule{ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/story/"}
	tr, err := Try(t.Context(), s.URL+"/feed", rule, testOptions())
	want := s.URL + "/feed: a feed (RSS), not an article page, and no item of it links to a page the watcher would extract " +
		"(1 HTTP 404, 1 with a gallery URL, 1 not matching article_url): give the URL of an article page; " +
		"the newest fetched: " + s.URL + "/go/5, redirected to " + s.URL + "/story/5: HTTP 404 Not Found from " + s.URL + "/story/5"
	if err == nil || err.Error() != want || !errors.Is(err, ErrStatus) {
		t.Errorf("error:\n%v\nwant\n%s\nwrapping the item's (ErrStatus)", err, want)
	}
	if tr.Feed == nil || tr.Feed.Page != "" || tr.Feed.Passed != "1 HTTP 404, 1 with a gallery URL, 1 not matching article_url" || tr.URL != "" {
		t.Errorf("feed %+v, tried %q; want no page and every item passed over counted", tr.Feed, tr.URL)
	}
}

// TestTrialsLeaveNoConnectionOpen pins trials and checks of feeds made
// one after another, as the web UI makes them: each made a transport of
// its own and left its connections idle for 90 s, so that 300 trials held
// 242 sockets open. Now each closes its connections as it returns.
func TestTrialsLeaveNoConnectionOpen(t *testing.T) {
	page := newStory(71).page("Daily", "")
	var feed string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/feed" {
			rw.Header().Set("Content-Type", "application/rss+xml")
			rw.Write([]byte(feed))
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		rw.Write([]byte(page))
	}))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener.Close()
	srv.Listener = ln
	conns := conntest.Track(srv)
	srv.Start()
	t.Cleanup(srv.Close)
	feed = rss2(item{title: "a", link: srv.URL + "/news/a"}, item{title: "b", link: srv.URL + "/news/b"})
	o := allowOnly("127.0.0.2/32")
	const n = 20
	for range n {
		if _, err := Try(t.Context(), srv.URL+"/news/a", nil, o); err != nil {
			t.Fatal(err)
		}
		if _, err := Try(t.Context(), srv.URL+"/feed", nil, o); err != nil {
			t.Fatal(err)
		}
		if _, err := CheckFeed(t.Context(), srv.URL+"/feed", o); err != nil {
			t.Fatal(err)
		}
	}
	if c := conns.Settle(0, 5*time.Second); c > 0 {
		t.Errorf("%d connections left open after %d trials and %d checks, want none", c, 2*n, n)
	}
}

// TestTryBudget: a trial's time is its requests' timeouts and host delays,
// and a timeout or delay past what their sum can hold (feeds test
// --timeout 100000d) gives the longest a time.Duration holds, not a sum
// wrapped round into the past, which failed the trial at once.
func TestTryBudget(t *testing.T) {
	for _, tc := range []struct {
		timeout, delay, want time.Duration
	}{
		{30 * time.Second, time.Second, tryTimeouts*30*time.Second + MaxTryItems*time.Second},
		{100000 * 24 * time.Hour, 0, math.MaxInt64},
		{26700 * 24 * time.Hour, time.Second, math.MaxInt64},
		{time.Second, 100000 * 24 * time.Hour, math.MaxInt64},
	} {
		if got := tryBudget(tc.timeout, tc.delay); got != tc.want || got <= 0 {
			t.Errorf("tryBudget(%v, %v) = %v, want %v", tc.timeout, tc.delay, got, tc.want)
		}
	}
}

// TestTryBrokenFeed pins a trial of a feed the watcher cannot read: cut
// short, declared UTF-8 with Latin-1 bytes, of an unknown encoding, using
// an entity of its own DTD, or a JSON Feed cut short. It was tried as a page, "Skipped: feed"
// or "not-html" with no reason, and stored under the feed's URL; now it is
// the feed's error, ErrNotFeed, as a poll and CheckFeed give it, and no
// trial.
func TestTryBrokenFeed(t *testing.T) {
	s := newSite(t)
	whole := rss2(item{title: "One", link: s.URL + "/story/1"})
	jsonFeed := `{"version":"https://jsonfeed.org/version/1.1","title":"Daily","items":[{"id":"1","url":"` + s.URL + `/story/1","title":"One","content_text":"x"}]}`
	for _, c := range []struct{ name, body, want string }{
		{"JSON Feed cut short", jsonFeed[:len(jsonFeed)-3], "unexpected end of JSON input"},
		{"cut short", whole[:len(whole)-40], "unexpected EOF"},
		{"Latin-1 bytes declared UTF-8", strings.Replace(whole, "One", "Caf\xe9", 1), "not well-formed"},
		{"unknown encoding", strings.Replace(whole, `encoding="UTF-8"`, `encoding="x-klingon"`, 1), "x-klingon"},
		{"an entity of its own DTD", strings.Replace(strings.Replace(whole, "<rss", "<!DOCTYPE rss [<!ENTITY own \"x\">]>\n<rss", 1), "One", "&own;", 1), "own"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "unknown encoding" && !strings.Contains(c.body, "x-klingon") {
				t.Fatalf("the feed has no encoding to replace:\n%.200s", c.body)
			}
			path, typ := "/"+strings.ReplaceAll(c.name, " ", "-")+".xml", "application/rss+xml"
			if strings.HasPrefix(c.name, "JSON") {
				path, typ = strings.TrimSuffix(path, ".xml")+".json", "application/feed+json"
			}
			s.serve(path, typ, c.body)
			tr, err := Try(t.Context(), s.URL+path, nil, testOptions())
			if !errors.Is(err, ErrNotFeed) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), s.URL+path) {
				t.Errorf("Try: %v; want ErrNotFeed naming the feed and %q", err, c.want)
			}
			if tr.Canonical != "" || tr.Skip != "" {
				t.Errorf("a trial of a broken feed: stored under %q, skipped %q", tr.Canonical, tr.Skip)
			}
			if _, cerr := CheckFeed(t.Context(), s.URL+path, testOptions()); err != nil && (cerr == nil || cerr.Error() != err.Error()) {
				t.Errorf("CheckFeed says %v, Try %v", cerr, err)
			}
		})
	}
}
