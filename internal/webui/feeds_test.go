package webui

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/watch"
)

// The feed admin lists feeds with their last poll, status and counts by
// outcome, adds and edits them (refusing bad settings with the field
// named) and removes them after a confirmation.
func TestFeedAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	add := url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}, "interval": {"30m"}, "body": {"article .story"},
		"drop": {".related\n\n  aside.promo  "}}
	a := f.post("/feeds", add, true)
	if a.code != http.StatusSeeOther || !strings.HasPrefix(a.hdr.Get("Location"), "/feeds/1") {
		t.Fatalf("add: %d to %q\n%s", a.code, a.hdr.Get("Location"), a.body)
	}
	stored, err := watch.Feeds(t.Context(), f.x)
	if err != nil || len(stored) != 1 {
		t.Fatalf("feeds %v, %v", stored, err)
	}
	s := stored[0]
	if s.Interval != watch.Duration(30*time.Minute) || s.Rule == nil || s.Rule.Body != "article .story" ||
		strings.Join(s.Rule.Drop, "|") != ".related|aside.promo" {
		t.Errorf("stored feed %+v rule %+v", s.Feed, s.Rule)
	}
	f.get("/feeds/1?saved=added", true).want(t, "feed page after the add", http.StatusOK, "The feed is saved", "not polled yet",
		`value="article .story"`, ".related\naside.promo</textarea>")

	// A poll recorded: state and items by outcome.
	poll := time.Now().Add(-5 * time.Minute).UTC()
	err = f.x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		fs, err := w.Feeds()
		if err != nil {
			return err
		}
		state, _ := json.Marshal(watch.State{LastPoll: poll, Status: "fetch: 503 Service Unavailable", Failures: 2, Polls: 4})
		fs[0].State, fs[0].NextPoll = state, time.Now().Add(time.Hour).Unix()
		if err := w.SaveFeed(&fs[0]); err != nil {
			return err
		}
		var items []neardup.FeedItem
		for i, outcome := range []string{"added", "added", "added", "duplicate", "duplicate", "similar", "too-short", "gallery", "exists", "error"} {
			items = append(items, neardup.FeedItem{Feed: fs[0].ID, Item: fmt.Sprintf("https://news.example/a%d", i), Seen: poll.Unix() + int64(i),
				Outcome: outcome, Doc: fmt.Sprintf("https://news.example/a%d", i), Detail: map[bool]string{true: "connection refused"}[outcome == "error"]})
		}
		return w.SaveItems(items)
	})
	if err != nil {
		t.Fatal(err)
	}
	list := f.get("/feeds", true)
	list.want(t, "feed list", http.StatusOK, "https://news.example/rss.xml", "30m", "5m ago", "503 Service Unavailable",
		"2 failures in a row", "rule: article .story; drops 2")
	for _, n := range []string{`<td data-label="Added" class="num">3</td><td data-label="Duplicates" class="num">2</td><td data-label="Similar" class="num">1</td><td data-label="Skipped" class="num">3</td><td data-label="Failed" class="num">1</td>`} {
		if !strings.Contains(list.body, n) {
			t.Errorf("feed list lacks the counts added 3, duplicates 2, similar 1, skipped 3, failed 1:\n%s", list.body)
		}
	}
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, "10 dealt with", "connection refused",
		`href="https://news.example/a9"`, "/documents/https:%2F%2Fnews.example%2Fa3", "4 polls in all")

	// Edits: a bad interval, a bad rule, then a good edit; the URL stays.
	bad := url.Values{"interval": {"often"}}
	f.post("/feeds/1", bad, true).want(t, "bad interval", http.StatusBadRequest, "not a duration", `aria-invalid="true"`)
	bad = url.Values{"interval": {"10s"}}
	f.post("/feeds/1", bad, true).want(t, "short interval", http.StatusBadRequest, "shorter than")
	bad = url.Values{"interval": {"1h"}, "body": {"article[[["}}
	f.post("/feeds/1", bad, true).want(t, "bad selector", http.StatusBadRequest, "article[[[")
	good := url.Values{"url": {"https://elsewhere.example/"}, "no_check": {"1"}, "interval": {"1h"}, "strip": {"Subscribe now"}}
	if a := f.post("/feeds/1", good, true); a.code != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", a.code, a.body)
	}
	stored, _ = watch.Feeds(t.Context(), f.x)
	if s := stored[0]; s.URL != "https://news.example/rss.xml" || s.Interval != watch.Duration(time.Hour) || s.Rule == nil ||
		s.Rule.Body != "" || len(s.Rule.Strip) != 1 || s.State.Polls != 4 {
		t.Errorf("after the edit: %+v rule %+v state %+v", s.Feed, s.Rule, s.State)
	}

	// Adds refused: the same URL again, no URL, not http.
	f.post("/feeds", add, true).want(t, "the same feed again", http.StatusConflict, "there already")
	f.post("/feeds", url.Values{"interval": {"1h"}}, true).want(t, "no URL", http.StatusBadRequest, "URL is missing")
	f.post("/feeds", url.Values{"url": {"ftp://x.example/feed"}}, true).want(t, "ftp", http.StatusBadRequest, "http or https")

	// Removal needs the confirmation.
	f.post("/feeds/1/remove", url.Values{}, true).want(t, "remove unconfirmed", http.StatusBadRequest, "tick the box")
	if a := f.post("/feeds/1/remove", url.Values{"confirm": {"1"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("remove: %d\n%s", a.code, a.body)
	}
	f.get("/feeds", true).want(t, "after the removal", http.StatusOK, "No feeds yet")
	f.get("/feeds/1", true).want(t, "removed feed", http.StatusNotFound)
}

// TestFeedFormDropAttr: the feed form shows, takes and keeps a rule's
// filters by attribute (TAG[ATTR]=REGEXP a line), and refuses a line of
// another form naming the field. Regression: the form had no such field,
// so saving a feed from it, to change its interval, dropped the filters
// feeds import or feeds add --drop-attr had stored.
func TestFeedFormDropAttr(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	add := url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}, "interval": {"30m"},
		"drop_attr": {"div[class]=^ad\n\n  [id]=promo  "}}
	if a := f.post("/feeds", add, true); a.code != http.StatusSeeOther {
		t.Fatalf("add: %d\n%s", a.code, a.body)
	}
	want := []watch.AttrFilter{{Tag: "div", Attr: "class", Match: "^ad"}, {Attr: "id", Match: "promo"}}
	stored, err := watch.Feeds(t.Context(), f.x)
	if err != nil || len(stored) != 1 || stored[0].Rule == nil || !reflect.DeepEqual(stored[0].Rule.DropAttr, want) {
		t.Fatalf("stored %+v, %v; want the filters %v", stored, err, want)
	}
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, "div[class]=^ad\n[id]=promo</textarea>")
	// Saved again as the browser sends the form back, the interval changed.
	edit := url.Values{"interval": {"1h"}, "drop_attr": {"div[class]=^ad\n[id]=promo"}}
	if a := f.post("/feeds/1", edit, true); a.code != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", a.code, a.body)
	}
	if stored, _ = watch.Feeds(t.Context(), f.x); stored[0].Rule == nil || !reflect.DeepEqual(stored[0].Rule.DropAttr, want) {
		t.Errorf("after the edit: rule %+v, want the filters %v", stored[0].Rule, want)
	}
	bad := url.Values{"interval": {"1h"}, "drop_attr": {"div.ad"}}
	f.post("/feeds/1", bad, true).want(t, "a filter of another form", http.StatusBadRequest, "TAG[ATTR]=REGEXP", `id="drop_attr" name="drop_attr" rows="2" aria-invalid="true"`)
	bad = url.Values{"interval": {"1h"}, "drop_attr": {"div[class]=("}}
	f.post("/feeds/1", bad, true).want(t, "a bad regexp", http.StatusBadRequest, "drop_attr")
}

// TestTryRuleReopened: /feeds/try opened by its address (a reload or a
// bookmark of the page a trial showed: a GET, the form not sent again)
// goes back to the form it was tried from, the feed's when its id is in
// the address; regression: it answered 400, "the feed id "try" is not a
// positive number".
func TestTryRuleReopened(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	if a := f.post("/feeds", url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("add: %d\n%s", a.code, a.body)
	}
	for _, tc := range []struct{ path, want string }{
		{"/feeds/try", "/feeds"},
		{"/feeds/try?id=1", "/feeds/1"},
		{"/feeds/try?id=nonsense", "/feeds"},
		{"/feeds/try?id=-1", "/feeds"},
	} {
		a := f.get(tc.path, true)
		if a.code != http.StatusSeeOther || a.hdr.Get("Location") != tc.want {
			t.Errorf("GET %s: %d to %q, want 303 to %s\n%s", tc.path, a.code, a.hdr.Get("Location"), tc.want, short(500, a.body))
		}
	}
	// Signed out, it asks for the token as /feeds does.
	f.get("/feeds/try", false).want(t, "signed out", f.get("/feeds", false).code)
	// The form of a stored feed tries its rule at an address that names it.
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, `formaction="/feeds/try?id=1"`)
	f.get("/feeds", true).want(t, "feeds page", http.StatusOK, `formaction="/feeds/try"`)
}

// A site rule tried on a local page shows the title and text it extracts,
// before anything is saved, and the form keeps what was typed.
func TestTryRule(t *testing.T) {
	t.Parallel()
	story := strings.Repeat("The river rose through the night and the council opened the shelters before dawn. ", 12)
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rss.xml" || r.URL.Path == "/video/rss.xml" {
			link := "/news/floods"
			if r.URL.Path == "/video/rss.xml" {
				link = "/gallery/floods"
			}
			w.Header().Set("Content-Type", "application/rss+xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Daily</title><item><title>Floods</title><link>%s%s</link></item></channel></rss>`, site.URL, link)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Floods in the valley | Daily</title></head><body>
<nav>Home News Sport</nav><div class="teaser"><p>%s</p></div>
<article><h1>Floods in the valley</h1><div class="story"><p>%s</p><p class="promo">Subscribe to the Daily today.</p></div></article>
<footer>Copyright</footer></body></html>`, strings.Repeat("Read our other stories about unrelated sports and weather. ", 10), story)
	}))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-",
		AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	form := url.Values{"url": {"https://daily.example/rss"}, "no_check": {"1"}, "interval": {"15m"}, "body": {".story"}, "drop": {".promo"},
		"test_url": {site.URL + "/news/floods"}}
	a := f.post("/feeds/try", form, true)
	a.want(t, "trial", http.StatusOK, "Floods in the valley", "The river rose through the night", "characters",
		`value="https://daily.example/rss"`, `value=".story"`)
	if strings.Contains(a.body, "Subscribe to the Daily") || strings.Contains(a.body, "unrelated sports") {
		t.Errorf("the trial kept what the rule leaves out:\n%s", a.body)
	}
	if st, _ := watch.Feeds(t.Context(), f.x); len(st) != 0 {
		t.Errorf("a trial stored %d feeds", len(st))
	}
	// A feed's URL tries the page of its newest item, saying so.
	form.Set("test_url", site.URL+"/rss.xml")
	f.post("/feeds/try", form, true).want(t, "a feed", http.StatusOK,
		"is a feed (RSS, 1 item), not an article page: the page of its newest item the watcher would extract is tried",
		"Page tried", site.URL+"/news/floods", "The river rose through the night")
	// A feed of no item the watcher would extract says why, and neither
	// that a page is tried nor that the feed's URL, which the watcher
	// polls, is a gallery page it skips.
	form.Set("test_url", site.URL+"/video/rss.xml")
	a = f.post("/feeds/try", form, true)
	a.want(t, "a feed of gallery pages", http.StatusOK, "is a feed (RSS, 1 item), not an article page</dd>",
		"no item of it links to a page the watcher would extract (1 with a gallery URL)")
	if strings.Contains(a.body, "is tried") || strings.Contains(a.body, "gallery word") {
		t.Errorf("a feed of gallery pages: the trial says a page is tried, or the feed's URL is a gallery's:\n%s", a.body)
	}
	// An unreachable page is a trial with an error, not a failed request.
	form.Set("test_url", "http://127.0.0.1:1/none")
	f.post("/feeds/try", form, true).want(t, "unreachable page", http.StatusOK, "could not be fetched")
	// A page at an address the outbound rule refuses is not fetched.
	form.Set("test_url", "http://127.0.0.3:9200/x")
	f.post("/feeds/try", form, true).want(t, "internal page", http.StatusOK, "refused: the destination is a loopback address")
	form.Set("test_url", "file:///etc/passwd")
	f.post("/feeds/try", form, true).want(t, "file URL", http.StatusBadRequest, "http or https")
	// A scheme is read whatever its case, as a feed's URL is; a port out
	// of range is named.
	form.Set("test_url", strings.Replace(site.URL, "http://", "HTTP://", 1)+"/news/floods")
	f.post("/feeds/try", form, true).want(t, "an upper-case scheme", http.StatusOK, "The river rose through the night")
	form.Set("test_url", "http://daily.example:99999/x")
	f.post("/feeds/try", form, true).want(t, "a port out of range", http.StatusBadRequest, "port 99999 is out of range")
	form.Set("test_url", "")
	f.post("/feeds/try", form, true).want(t, "no URL", http.StatusBadRequest, "give the URL")
	form.Set("test_url", site.URL+"/x")
	form.Set("strip_regex", "(unclosed")
	f.post("/feeds/try", form, true).want(t, "bad regexp", http.StatusBadRequest, "(unclosed")

	// Tried from a stored feed's page: the page of the feed comes back.
	if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: "https://daily.example/rss"}); err != nil {
		t.Fatal(err)
	}
	form = url.Values{"id": {"1"}, "interval": {"15m"}, "body": {".story"}, "test_url": {site.URL + "/news/floods"}}
	f.post("/feeds/try", form, true).want(t, "trial of a stored feed", http.StatusOK, "Latest items", "The river rose", "Save the feed")
	form.Set("id", "99")
	f.post("/feeds/try", form, true).want(t, "trial of a missing feed", http.StatusNotFound)
	form.Set("id", "-1")
	f.post("/feeds/try", form, true).want(t, "trial of feed -1", http.StatusBadRequest)
}

// TestFeedPasswordNotShown: a private feed's URL keeps its password in the
// index, but the feeds list and the feed's page leave it out.
func TestFeedPasswordNotShown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: "https://reader:s3cret@daily.example/rss"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/feeds", "/feeds/1"} {
		a := f.get(p, true)
		a.want(t, p, http.StatusOK, "reader:xxxxx@daily.example/rss")
		if strings.Contains(a.body, "s3cret") {
			t.Errorf("%s shows the feed's password", p)
		}
	}
	// The messages of an add refused: the feed stored already (it named
	// the URL with its password), and a URL that does not parse. (The
	// form sent back: TestFeedFormShowsNoPassword.)
	f.post("/feeds", url.Values{"url": {"https://reader:s3cret@daily.example/rss"}, "no_check": {"1"}}, true).
		want(t, "the private feed again", http.StatusConflict, "the feed https://reader:xxxxx@daily.example/rss is there already")
	f.post("/feeds", url.Values{"url": {"https://reader:s3cret@daily.example:bad/rss"}, "no_check": {"1"}}, true).
		want(t, "a bad port", http.StatusBadRequest, `feed &#34;https://reader:xxxxx@daily.example:bad/rss&#34;: invalid port &#34;:bad&#34; after host`)
}

// TestFeedFormShowsNoPassword: a feed form sent back, refused or with a
// trial, shows the URLs typed in it with their passwords hidden ("xxxxx"),
// in its fields as in its messages; it gave back the feed's URL as typed,
// password and all. The hidden password sent back is refused, not stored.
func TestFeedFormShowsNoPassword(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rss" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Floods</title></head><body><article><p>%s</p></article></body></html>`,
			strings.Repeat("The river rose through the night and the council opened the shelters before dawn. ", 12))
	}))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-",
		AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: "https://reader:hunter2@daily.example/rss"}); err != nil {
		t.Fatal(err)
	}
	private := strings.Replace(site.URL, "http://", "http://reader:hunter2@", 1)
	shown := strings.Replace(site.URL, "http://", "http://reader:xxxxx@", 1)
	for _, tc := range []struct {
		name, path string
		form       url.Values
		code       int
		want       []string
	}{
		{"the feed's check fails", "/feeds", url.Values{"url": {private + "/rss"}}, http.StatusUnprocessableEntity,
			[]string{`value="` + shown + `/rss"`}},
		{"the feed there already", "/feeds", url.Values{"url": {"https://reader:hunter2@daily.example/rss"}, "no_check": {"1"}}, http.StatusConflict,
			[]string{`value="https://reader:xxxxx@daily.example/rss"`, "there already"}},
		{"a bad port", "/feeds", url.Values{"url": {"https://reader:hunter2@daily.example:bad/rss"}, "no_check": {"1"}}, http.StatusBadRequest,
			[]string{`value="https://reader:xxxxx@daily.example:bad/rss"`, "invalid port"}},
		{"a bad interval", "/feeds", url.Values{"url": {"https://reader:hunter2@weekly.example/rss"}, "interval": {"often"}}, http.StatusBadRequest,
			[]string{`value="https://reader:xxxxx@weekly.example/rss"`, "not a duration"}},
		{"a trial without a page", "/feeds/try", url.Values{"url": {"https://reader:hunter2@weekly.example/rss"}}, http.StatusBadRequest,
			[]string{`value="https://reader:xxxxx@weekly.example/rss"`, "give the URL"}},
		{"a trial", "/feeds/try", url.Values{"url": {"https://reader:hunter2@weekly.example/rss"}, "test_url": {private + "/news"}}, http.StatusOK,
			[]string{`value="https://reader:xxxxx@weekly.example/rss"`, `value="` + shown + `/news"`, "The river rose"}},
		{"a trial that fails", "/feeds/try", url.Values{"test_url": {"http://reader:hunter2@127.0.0.1:1/none"}}, http.StatusOK,
			[]string{`value="http://reader:xxxxx@127.0.0.1:1/none"`, "could not be fetched"}},
		{"a rule that does not compile", "/feeds", url.Values{"url": {"https://reader:hunter2@weekly.example/rss"}, "no_check": {"1"}, "strip_regex": {"("}},
			http.StatusBadRequest, []string{`value="https://reader:xxxxx@weekly.example/rss"`, "feed https://reader:xxxxx@weekly.example/rss: site rule: strip_regex"}},
		{"a trial of a rule that does not compile", "/feeds/try", url.Values{"test_url": {private + "/news"}, "body": {"[[["}},
			http.StatusBadRequest, []string{`value="` + shown + `/news"`, "site rule: body: bad CSS selector"}},
		{"the hidden password sent back", "/feeds", url.Values{"url": {"https://reader:xxxxx@weekly.example/rss"}, "no_check": {"1"}},
			http.StatusBadRequest, []string{"type the password again"}},
		{"the hidden password tried", "/feeds/try", url.Values{"test_url": {shown + "/news"}},
			http.StatusBadRequest, []string{"type the password again"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := f.post(tc.path, tc.form, true)
			a.want(t, tc.name, tc.code, tc.want...)
			if strings.Contains(a.body, "hunter2") {
				t.Errorf("%s: the page shows the password:\n%s", tc.name, a.body)
			}
		})
	}
	if st, _ := watch.Feeds(t.Context(), f.x); len(st) != 1 {
		t.Errorf("%d feeds stored, want the one added first", len(st))
	}
}

// TestUnreadableFeedShown: a feed whose stored settings do not decode (its
// row edited by hand) is listed as failing, with the error, and its page
// saves new settings over them; the feed admin failed whole with it.
func TestUnreadableFeedShown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	for _, u := range []string{"https://daily.example/rss", "https://weekly.example/rss"} {
		if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: u}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET config = 'garbage' WHERE url = 'https://daily.example/rss'`); err != nil {
		t.Fatal(err)
	}
	status := "error: feed https://daily.example/rss (id 1): its settings (feeds.config) do not decode"
	f.get("/feeds", true).want(t, "feed list", http.StatusOK, `<span class="status bad" title="`+status, "https://weekly.example/rss", "not yet")
	// Its form offers the default interval, which it saves as it is: it
	// offered 0s, which the save refused (shorter than 1m).
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, `<span class="status bad">`+status, `name="interval" value="15m"`)
	if a := f.post("/feeds/1", url.Values{"interval": {"15m"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", a.code, a.body)
	}
	f.get("/feeds/1", true).want(t, "feed page after the save", http.StatusOK, "not polled yet", `name="interval" value="15m"`)
	if a := f.post("/feeds/1", url.Values{"interval": {"30m"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", a.code, a.body)
	}
	f.get("/feeds/1", true).want(t, "feed page after another save", http.StatusOK, `name="interval" value="30m"`)
}

// A feed whose last poll its host's Retry-After put off shows as paused,
// not failing: it showed in the failures' red, with the 429 that paused
// the host counted "1 failure in a row".
func TestFeedPaused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	add := url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}, "interval": {"30m"}}
	if a := f.post("/feeds", add, true); a.code != http.StatusSeeOther {
		t.Fatalf("add: %d\n%s", a.code, a.body)
	}
	status := watch.StatusPaused + ": news.example asked to retry in 59m0s"
	err := f.x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		fs, err := w.Feeds()
		if err != nil {
			return err
		}
		state, _ := json.Marshal(watch.State{LastPoll: time.Now().UTC(), Status: status, Failures: 1, Polls: 2})
		fs[0].State = state
		return w.SaveFeed(&fs[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	list := f.get("/feeds", true)
	list.want(t, "feed list", http.StatusOK, `<span class="status paused" title="`+status)
	page := f.get("/feeds/1", true)
	page.want(t, "feed page", http.StatusOK, `<span class="status paused">`+status)
	for _, r := range []struct{ name, body string }{{"list", list.body}, {"page", page.body}} {
		if strings.Contains(r.body, "status bad") || strings.Contains(r.body, "in a row") {
			t.Errorf("the %s shows the paused feed as failing", r.name)
		}
	}
}

// A feed whose last poll the watcher's stop cut short (SIGTERM) shows it
// stopped, not failing: it showed in the failures' red.
func TestFeedStopped(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	add := url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}, "interval": {"30m"}}
	if a := f.post("/feeds", add, true); a.code != http.StatusSeeOther {
		t.Fatalf("add: %d\n%s", a.code, a.body)
	}
	err := f.x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		fs, err := w.Feeds()
		if err != nil {
			return err
		}
		state, _ := json.Marshal(watch.State{LastPoll: time.Now().UTC(), Status: "stopped", Polls: 1, LastNew: 3, Last: map[string]int{"added": 2}})
		fs[0].State = state
		return w.SaveFeed(&fs[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	f.get("/feeds", true).want(t, "feed list", http.StatusOK, `<span class="status ok">stopped</span>`)
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, `<span class="status ok">stopped</span>`)
}

// TestFeedPageShowsItemsLeftOut: a feed whose last poll left items out
// past the most a poll takes shows it as a warning on the feed list and
// its page, and the items the index no longer keeps are counted among
// those dealt with.
func TestFeedPageShowsItemsLeftOut(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	f.post("/feeds", url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}, "interval": {"30m"}}, true)
	err := f.x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		fs, err := w.Feeds()
		if err != nil {
			return err
		}
		state, _ := json.Marshal(watch.State{LastPoll: time.Now().UTC(), Status: "ok", Polls: 3, Cut: 1950,
			Forgotten: map[string]int{"refused": 7}})
		if err := w.SavePoll(fs[0].ID, state, time.Now().Add(time.Hour).Unix()); err != nil {
			return err
		}
		return w.SaveItems([]neardup.FeedItem{{Feed: fs[0].ID, Item: "https://news.example/a", Seen: 1, Outcome: "refused"},
			{Feed: fs[0].ID, Item: "https://news.example/b", Seen: 2, Outcome: "added"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	f.get("/feeds", true).want(t, "feed list", http.StatusOK, "1950 oldest items left out: more than a poll takes")
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, "9 dealt with: 1 added", "7 of them, long gone from the feed, no longer kept",
		"the last poll left out the feed's 1950 oldest items", "--watch-max-items")
}

// TestTryRuleOnABrokenFeed: "Test the rule" given a feed cut short showed
// "Skipped: a web feed" and "Stored under" the feed's URL, with no reason;
// now it shows the feed's error, as adding the feed would, and nothing of a
// page.
func TestTryRuleOnABrokenFeed(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Daily</title><item><title>Floods</title><link>/news/1</li`)
	}))
	defer site.Close()
	f := newFixture(t, Options{Watch: watch.Options{HostDelay: -1, BrowserUserAgent: "-",
		AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	form := url.Values{"url": {"https://daily.example/rss"}, "no_check": {"1"}, "interval": {"15m"}, "test_url": {site.URL + "/trunc.xml"}}
	a := f.post("/feeds/try", form, true)
	a.want(t, "a broken feed", http.StatusOK, "not a feed: not well-formed XML", "unexpected EOF")
	if strings.Contains(a.body, "Stored under") || strings.Contains(a.body, "<dt>Skipped</dt>") {
		t.Errorf("the trial of a broken feed shows a page's facts:\n%s", a.body)
	}
}

// TestUnreadableIntervalShown pins the feed list and page of a feed whose
// stored settings do not decode: they showed its interval 0s, while the
// watcher tries it again as a failing feed, with a backoff from the
// default interval, 15m, and its form offered 15m. They show the default
// in force, marked unreadable, as feeds list does.
func TestUnreadableIntervalShown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: "https://daily.example/rss", Interval: watch.Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET config = '{"interval": "soon"}'`); err != nil {
		t.Fatal(err)
	}
	const mark = "the default: the stored interval is unreadable"
	f.get("/feeds", true).want(t, "feed list", http.StatusOK, `<td data-label="Every">15m <span class="sub warn">`+mark)
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, `<dt>Polled every</dt><dd>15m <span class="warn">(`+mark+`)`,
		`name="interval" value="15m"`)
}
