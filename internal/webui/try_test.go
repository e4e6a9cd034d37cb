package webui

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/conntest"
	"github.com/neardup/neardup/internal/watch"
)

// trialStory is the text of the article pages of these tests.
var trialStory = strings.Repeat("The river rose through the night and the council opened the shelters before dawn. ", 12)

// articlePage answers with an article page of trialStory.
func articlePage(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Floods</title></head><body><article><h1>Floods</h1><p>%s</p></article></body></html>`, trialStory)
}

// rssOf answers with an RSS feed of the links, the newest first.
func rssOf(w http.ResponseWriter, links ...string) {
	w.Header().Set("Content-Type", "application/rss+xml")
	var b strings.Builder
	for i, l := range links {
		fmt.Fprintf(&b, `<item><title>%d</title><link>%s</link></item>`, i, html.EscapeString(l))
	}
	fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Daily</title>%s</channel></rss>`, b.String())
}

// trialError is the error a trial's page shows, unescaped; "" for none.
func trialError(body string) string {
	if m := regexp.MustCompile(`(?s)<p class="error" role="alert">(.*?)</p>`).FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

// trialForm is the form of a rule tried on testURL, article_url matching
// the site's /news/ pages.
func trialForm(site, testURL string) url.Values {
	return url.Values{"url": {"https://daily.example/rss"}, "no_check": {"1"}, "interval": {"15m"},
		"article_url": {"^" + regexp.QuoteMeta(site) + "/news/"}, "test_url": {testURL}}
}

// TestTryRuleOfAFeedPassesOverAFailingItem pins the trial of a feed's URL
// whose newest item's page, not matching article_url, answered 404: it
// showed the error (the newest item of feed ...: HTTP 404 ...) where the
// watcher adds the older article. Now it shows the older article and the
// item passed over, with why.
func TestTryRuleOfAFeedPassesOverAFailingItem(t *testing.T) {
	t.Parallel()
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/rss.xml":
			rssOf(w, site.URL+"/promo/1", site.URL+"/news/1")
		case "/news/1":
			articlePage(w)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-", AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	a := f.post("/feeds/try", trialForm(site.URL, site.URL+"/rss.xml"), true)
	a.want(t, "a feed whose newest item fails", http.StatusOK,
		"the page of its newest item the watcher would extract is tried, newer ones passed over (1 HTTP 404)",
		"Page tried", site.URL+"/news/1", "The river rose through the night",
		"<dt>Passed over</dt>", site.URL+"/promo/1: HTTP 404 Not Found from "+site.URL+"/promo/1")
	if e := trialError(a.body); e != "" {
		t.Errorf("error shown: %s", e)
	}
}

// TestTryRuleOfAFeedOutOfTime pins the trial of a feed's URL that ran out
// of its time among its items' pages: the page said "The page could not
// be fetched or extracted: the newest item of feed ...: context deadline
// exceeded", naming no item nor how many were tried. Now it says how many
// items were tried and why each was passed over. (Its time is cut to
// 1.5 s here.)
func TestTryRuleOfAFeedOutOfTime(t *testing.T) {
	t.Parallel()
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rss.xml" {
			var links []string
			for i := range 20 {
				links = append(links, fmt.Sprintf("%s/other/%d", site.URL, i))
			}
			rssOf(w, links...)
			return
		}
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		articlePage(w)
	}))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-", AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
		tryTimeout: 1500 * time.Millisecond})
	a := f.post("/feeds/try", trialForm(site.URL, site.URL+"/rss.xml"), true)
	want := regexp.MustCompile(`^` + regexp.QuoteMeta("The page could not be fetched or extracted: "+site.URL+"/rss.xml: a feed (RSS), not an article page, and none of its ") + `\d+ ` +
		regexp.QuoteMeta("newest items the watcher would fetch is a page it would extract within the 1.5s a trial may take (") +
		`\d+ not matching article_url(, 1 cut off when time ran out)?; \d+ older not tried\): give the URL of an article page; ` +
		regexp.QuoteMeta("the newest fetched: "+site.URL+"/other/0: not matching article_url") + `$`)
	if e := trialError(a.body); a.code != http.StatusOK || !want.MatchString(e) {
		t.Errorf("status %d, error shown:\n%s\nwant it to match\n%s", a.code, e, want)
	}
	a.want(t, "out of time", http.StatusOK, "<dt>Passed over</dt>", site.URL+"/other/0: not matching article_url")
}

// TestTryRuleOfAFeedFetchesAtMostMaxTryItems pins the trial of a hostile
// feed, its thousands of items on as many hosts, where the host delay,
// which is per host, holds nothing back: a signed-in user's trial made a
// request to each (20,000 in seconds). Now it fetches watch.MaxTryItems
// pages at most. Twenty servers stand for the hosts, at the default host
// delay.
func TestTryRuleOfAFeedFetchesAtMostMaxTryItems(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	var hosts []*httptest.Server
	for range 20 {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			articlePage(w)
		}))
		defer s.Close()
		hosts = append(hosts, s)
	}
	const n = 2000
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		links := make([]string, n)
		for i := range links {
			links[i] = fmt.Sprintf("%s/p%d", hosts[i%len(hosts)].URL, i)
		}
		rssOf(w, links...)
	}))
	defer feed.Close()
	f := newFixture(t, Options{Watch: watch.Options{BrowserUserAgent: "-", AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	a := f.post("/feeds/try", trialForm("https://daily.example", feed.URL+"/rss.xml"), true)
	if got := hits.Load(); got > watch.MaxTryItems {
		t.Errorf("%d pages fetched, want %d at most", got, watch.MaxTryItems)
	}
	want := fmt.Sprintf("none of its %d newest items the watcher would fetch is a page it would extract (%d not matching article_url; %d older not tried)",
		watch.MaxTryItems, watch.MaxTryItems, n-watch.MaxTryItems)
	if e := trialError(a.body); a.code != http.StatusOK || !strings.Contains(e, want) {
		t.Errorf("status %d, error shown:\n%s\nwant it to hold\n%s", a.code, e, want)
	}
}

// TestTrialsLeaveNoConnectionOpen pins rule trials and checks of feeds
// added, one after another: each trial (POST /feeds/try) and each check
// of a feed added (POST /feeds) made a transport of its own and left its
// connections idle for 90 s, so that 300 trials held 242 sockets open, and
// a token holder could run the server out of file descriptors. Now each
// closes its connections when it ends.
func TestTrialsLeaveNoConnectionOpen(t *testing.T) {
	t.Parallel()
	var site *httptest.Server
	site = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/rss.xml":
			rssOf(w, site.URL+"/news/1")
		default:
			articlePage(w)
		}
	}))
	conns := conntest.Track(site)
	site.Start()
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-", AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	const n = 20
	for i := range n {
		f.post("/feeds/try", trialForm(site.URL, site.URL+"/news/1"), true).want(t, "a trial", http.StatusOK, "The river rose through the night")
		f.post("/feeds/try", trialForm(site.URL, site.URL+"/rss.xml"), true).want(t, "a trial of a feed", http.StatusOK, "The river rose through the night")
		add := url.Values{"url": {fmt.Sprintf("%s/rss.xml?n=%d", site.URL, i)}, "interval": {"15m"}}
		if a := f.post("/feeds", add, true); a.code != http.StatusSeeOther {
			t.Fatalf("adding a feed checked: %d %s", a.code, a.body)
		}
	}
	if c := conns.Settle(0, 5*time.Second); c > 0 {
		t.Errorf("%d connections left open after %d trials and %d checks, want none", c, 2*n, n)
	}
}

// TestTryRuleOfAPageOutOfTime pins the trial of a page that does not answer
// within the time a trial may take: it said Go's "context deadline
// exceeded", where feeds test says "cut off when time ran out".
func TestTryRuleOfAPageOutOfTime(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-", AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
		tryTimeout: 500 * time.Millisecond})
	a := f.post("/feeds/try", trialForm(site.URL, site.URL+"/hang"), true)
	want := "The page could not be fetched or extracted: " + site.URL + "/hang: cut off when time ran out"
	if e := trialError(a.body); a.code != http.StatusOK || e != want {
		t.Errorf("status %d, error shown:\n%s\nwant\n%s", a.code, e, want)
	}
}
