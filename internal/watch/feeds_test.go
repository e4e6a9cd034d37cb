package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
)

// TestShownURL: a URL's password is left out of what is shown, and any
// other URL is shown as it is.
func TestShownURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://reader:s3cret@daily.example/rss": "https://reader:xxxxx@daily.example/rss",
		"https://reader@daily.example/rss":        "https://reader@daily.example/rss",
		"https://daily.example/rss?key=1":         "https://daily.example/rss?key=1",
		"%zz":                                     "%zz",
		// URLs that do not parse, or give no scheme, have what stands for
		// a password left out all the same.
		"https://reader:s3cret@daily.example:bad/rss": "https://reader:xxxxx@daily.example:bad/rss",
		"https://reader:s3cret@daily.example/r\x01ss": "https://reader:xxxxx@daily.example/r\x01ss",
		"https://reader:s3/cret@daily.example/rss":    "https://reader:xxxxx@daily.example/rss",
		"https://reader:s3cret#x@daily.example/rss":   "https://reader:xxxxx@daily.example/rss",
		"https://reader:s3cret@ho st/rss":             "https://reader:xxxxx@ho st/rss",
		"reader:s3cret@daily.example/rss":             "reader:xxxxx@daily.example/rss",
		"https://daily.example:8080/@desk:news/rss":   "https://daily.example:8080/@desk:news/rss",
		"https://daily.example/%zz/@desk:news":        "https://daily.example/%zz/@desk:news",
		// Regression: a host and a port before a backslash are no user
		// part (a browser reads the "@" as in the path): its port was
		// shown as a password.
		`http://127.0.0.2:18080\@127.0.0.1:18081/e15`: `http://127.0.0.2:18080\@127.0.0.1:18081/e15`,
		`http://[::1]:18080\@127.0.0.1:18081/e15`:     `http://[::1]:18080\@127.0.0.1:18081/e15`,
		`https://reader:s3\cret@daily.example/rss`:    "https://reader:xxxxx@daily.example/rss",
	} {
		if got := ShownURL(in); got != want {
			t.Errorf("ShownURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPasswordNotLogged: a private feed's password shows in no log line
// and no error of a pass: the feed answers 500 once, then holds an item
// whose page fails.
func TestPasswordNotLogged(t *testing.T) {
	s := newSite(t)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) { http.Error(rw, "down", http.StatusInternalServerError) })
	x := newIndex(t)
	u := strings.Replace(s.URL, "http://", "http://reader:s3cret@", 1) + "/feed"
	addFeed(t, x, Feed{URL: u})
	var log bytes.Buffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	res := once(t, newWatcher(t, x, o))
	if len(res) != 1 || res[0].Err == nil {
		t.Fatalf("results %+v, want the feed failed", res)
	}
	if strings.Contains(log.String(), "s3cret") || strings.Contains(res[0].Err.Error(), "s3cret") {
		t.Errorf("the password shows:\nlog: %s\nerror: %v", log.String(), res[0].Err)
	}
	if !strings.Contains(log.String(), "reader:xxxxx@") {
		t.Errorf("the log does not name the feed:\n%s", log.String())
	}
}

// TestCheckHidesPassword: a private feed's settings error shows its URL
// without the password: an interval too short, and a site rule that does
// not compile, in Check and in a feeds file (a *RuleError named the URL as
// it was, password and all).
func TestCheckHidesPassword(t *testing.T) {
	const u = "https://reader:s3cret@daily.example/rss"
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		feed Feed
		yaml string // the feed in a feeds file
	}{
		{"an interval too short", Feed{URL: u, Interval: Duration(time.Second)}, "interval: 1s"},
		{"a rule's regexp that does not compile", Feed{URL: u, Interval: Duration(time.Hour), Rule: &Rule{StripRegex: []string{"("}}},
			`rule: {strip_regex: ["("]}`},
		{"a rule's selector that does not parse", Feed{URL: u, Interval: Duration(time.Hour), Rule: &Rule{Body: "[[["}},
			`rule: {body: "[[["}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.feed.Check()
			if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "reader:xxxxx@daily.example") {
				t.Errorf("Check: %v, want an error naming the feed without its password", err)
			}
			file := filepath.Join(dir, "feeds.yaml")
			if err := os.WriteFile(file, fmt.Appendf(nil, "version: 1\nfeeds:\n  - url: %q\n    %s\n", u, tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadFile(file); err == nil || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("ReadFile: %v, want an error without the password", err)
			}
		})
	}
}

// badPrivateURLs are feed URLs carrying the password s3cret that do not
// parse, or are refused, each a way url.Parse's error quoted the URL whole.
var badPrivateURLs = []string{
	"https://reader:s3cret@daily.example:bad/rss",
	"https://reader:s3cret@daily.example/r\x01ss",
	"https://reader:s3cret@[::1/rss",
	"https://reader:s3cret@daily.example/%zz",
	"https://reader:s3cret@ho st/rss",
	"https://reader:s3cret@daily.example:99999/rss",
	"https://reader:s3/cret@daily.example/rss",
	"https://reader:s3cret#x@daily.example/rss",
	"ftp://reader:s3cret@daily.example/rss",
	"reader:s3cret@daily.example/rss",
}

// TestBadURLHidesPassword pins the errors of a feed URL that does not
// parse, which quoted it whole, password included (`parse
// "https://reader:s3cret@daily.example:bad/rss": invalid port ":bad" after
// host`): no error of the feeds' administration, of a feeds file, of a
// check or a trial of the URL, nor of a pass over a feed stored with such
// a URL, nor a log line, shows the password; each names the part at
// fault.
func TestBadURLHidesPassword(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	for _, u := range badPrivateURLs {
		t.Run(u, func(t *testing.T) {
			x := newIndex(t)
			yaml := filepath.Join(dir, "feeds.yaml")
			opml := filepath.Join(dir, "feeds.opml")
			if err := errors.Join(
				os.WriteFile(yaml, fmt.Appendf(nil, "version: 1\nfeeds:\n  - url: %q\n", u), 0o644),
				os.WriteFile(opml, fmt.Appendf(nil, "<opml version=\"2.0\"><body><outline text=\"x\" xmlUrl=\"%s\"/></body></opml>\n", html.EscapeString(u)), 0o644),
			); err != nil {
				t.Fatal(err)
			}
			_, feedErr := FeedURL(u)
			_, addErr := AddFeed(ctx, x, Feed{URL: u})
			_, yamlErr := ReadFile(yaml)
			_, opmlErr := ReadFile(opml)
			_, checkErr := CheckFeed(ctx, u, testOptions())
			_, tryErr := Try(ctx, u, nil, testOptions())
			for name, err := range map[string]error{"FeedURL": feedErr, "AddFeed": addErr, "ReadFile of YAML": yamlErr,
				"ReadFile of OPML": opmlErr, "CheckFeed": checkErr, "Try": tryErr,
				"UpdateFeed": UpdateFeed(ctx, x, u, func(*Feed) error { return nil }), "RemoveFeed": RemoveFeed(ctx, x, u)} {
				if err == nil || strings.Contains(err.Error(), "s3") {
					t.Errorf("%s: %v, want an error without the password", name, err)
				}
			}
			if !strings.Contains(feedErr.Error(), "reader:xxxxx@") {
				t.Errorf("FeedURL: %v, want the URL named without its password", feedErr)
			}

			// A feed stored with the URL as it is, as before URLs were
			// checked, fails its pass.
			err := x.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
				_, err := w.AddFeed(&neardup.Feed{URL: u, Config: marshalJSON(Feed{URL: u, Interval: Duration(DefaultInterval)}), State: marshalJSON(State{})})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			o := testOptions()
			o.Logger = slog.New(slog.NewTextHandler(&log, nil))
			res, err := newWatcher(t, x, o).Once(ctx)
			if err != nil || len(res) != 1 || res[0].Err == nil {
				t.Fatalf("pass: %+v %v, want the feed failed", res, err)
			}
			feeds, err := Feeds(ctx, x)
			if err != nil || len(feeds) != 1 {
				t.Fatalf("feeds: %+v %v", feeds, err)
			}
			if strings.Contains(log.String(), "s3") || strings.Contains(res[0].Err.Error(), "s3") || strings.Contains(feeds[0].State.Status, "s3") {
				t.Errorf("the password shows:\nlog: %s\nerror: %v\nstatus: %s", log.String(), res[0].Err, feeds[0].State.Status)
			}
		})
	}
}

// TestPasswordNotShownOfLinks pins what a private feed's URL passes on:
// the feeds an HTML page links to, resolved against a URL with a password,
// were named with it in feeds add's check, and so were an item's page
// (a relative link) in the "item failed" log line and a body cut short in
// the stored error.
func TestPasswordNotShownOfLinks(t *testing.T) {
	s := newSite(t)
	s.serve("/page", "text/html", `<html><head><link rel="alternate" type="application/rss+xml" href="/feed"></head><body>hi</body></html>`)
	s.serve("/feed", "application/rss+xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>/</link>
<item><title>A</title><link>/missing</link></item>
<item><title>B</title><link>big</link></item>
</channel></rss>`)
	s.handle("/big", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		rw.Header().Set("Content-Length", "100000000")
	})
	private := strings.Replace(s.URL, "http://", "http://reader:s3cret@", 1)
	_, err := CheckFeed(t.Context(), private+"/page", testOptions())
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "reader:xxxxx@") {
		t.Errorf("CheckFeed of a page: %v, want the page and its feeds named without the password", err)
	}
	x := newIndex(t)
	addFeed(t, x, Feed{URL: private + "/feed"})
	var log bytes.Buffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	once(t, newWatcher(t, x, o))
	if strings.Contains(log.String(), "s3cret") || !strings.Contains(log.String(), "item failed") {
		t.Errorf("the log shows the password, or no item failed:\n%s", log.String())
	}
	for key, it := range storedItems(t, x, private+"/feed") {
		if strings.Contains(it.Detail, "s3cret") {
			t.Errorf("item %s: its stored detail shows the password: %s", ShownURL(key), it.Detail)
		}
	}
}

// TestPasswordShownAsEverywhere: a link carrying a password whose page is
// refused by the outbound rule, or whose connection fails, is shown in the
// item's stored detail and the log line with "xxxxx" for the password, as
// every other message shows it. Regression: the HTTP client's error showed
// it as "***" ("http://u:***@127.0.0.2:8080/x: refused: ...").
func TestPasswordShownAsEverywhere(t *testing.T) {
	s := newSite(t)
	closed := startAt(t, "127.0.0.1", http.NotFoundHandler())
	closed.Close() // connections to its port are refused
	port := s.URL[strings.LastIndexByte(s.URL, ':'):]
	links := map[string]string{ // by what the detail says
		"refused": "http://u:s3cret@127.0.0.2" + port + "/x",
		"error":   strings.Replace(closed.URL, "http://", "http://u:s3cret@", 1) + "/x",
	}
	s.serve("/feed", "application/rss+xml", rss2(item{title: "Refused", link: links["refused"]}, item{title: "Closed", link: links["error"]}))
	x := newIndex(t)
	addFeed(t, x, Feed{URL: s.URL + "/feed"})
	var log bytes.Buffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	once(t, newWatcher(t, x, o))
	items := storedItems(t, x, s.URL+"/feed")
	for outcome, link := range links {
		shown := strings.Replace(strings.TrimSuffix(link, "/x"), "s3cret", "xxxxx", 1)
		it := items[Canonical(withoutUser(link))]
		if it.Outcome != outcome || !strings.Contains(it.Detail, shown) || strings.Contains(it.Detail, "s3cret") || strings.Contains(it.Detail, "***") {
			t.Errorf("item %s: %s %q, want %s naming %s", withoutUser(link), it.Outcome, it.Detail, outcome, shown)
		}
		if !strings.Contains(log.String(), shown) {
			t.Errorf("the log does not name %s:\n%s", shown, log.String())
		}
	}
	if strings.Contains(log.String(), "s3cret") || strings.Contains(log.String(), "***") {
		t.Errorf("the log shows the password, or \"***\" for it:\n%s", log.String())
	}
}

// TestPrivateFeedArticlesKeepNoPassword: the pages of a private feed are
// fetched with the password its URL holds when its links are relative
// (they take it from the feed's URL) or carry it themselves, while the
// articles' ids, URLs and the items' keys the index stores and shows hold
// none, a page's naming a relative canonical link neither.
func TestPrivateFeedArticlesKeepNoPassword(t *testing.T) {
	s := newSite(t)
	host := strings.TrimPrefix(s.URL, "http://")
	st1, st2 := newStory(1), newStory(2)
	for path, body := range map[string]string{
		"/story/1": st1.page("Daily", ""),
		"/story/2": st2.page("Daily", "/news/story-2"),
		"/feed":    rss2(item{title: "One", link: "/story/1"}, item{title: "Two", link: "http://reader:s3cret@" + host + "/story/2"}),
	} {
		s.handle(path, func(rw http.ResponseWriter, r *http.Request) {
			if u, p, ok := r.BasicAuth(); !ok || u != "reader" || p != "s3cret" {
				rw.WriteHeader(http.StatusUnauthorized)
				return
			}
			fmt.Fprint(rw, body)
		})
	}
	private := "http://reader:s3cret@" + host + "/feed"
	x := newIndex(t)
	addFeed(t, x, Feed{URL: private})
	if r := once(t, newWatcher(t, x, testOptions()))[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 2 {
		t.Fatalf("pass: %+v, want both pages fetched and added", r)
	}
	for key, it := range storedItems(t, x, private) {
		if strings.Contains(key, "s3cret") || strings.Contains(it.Doc, "s3cret") {
			t.Errorf("item %q, article %q: the password is stored", key, it.Doc)
		}
	}
	for id, url := range map[string]string{s.URL + "/story/1": s.URL + "/story/1", s.URL + "/story/2": s.URL + "/story/2"} {
		d, _ := stored(t, x, id)
		if d.URL != url {
			t.Errorf("article %s: URL %q, want %q", id, d.URL, url)
		}
	}
}

// TestRetryAfterShowsNoPassword: a private feed's page (a relative link)
// answering 429 with Retry-After, and the feed itself answering 503 with
// it: the item's stored detail, the feed's error and its stored status hold
// no password.
func TestRetryAfterShowsNoPassword(t *testing.T) {
	s := newSite(t)
	host := strings.TrimPrefix(s.URL, "http://")
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprint(rw, rss2(item{title: "One", link: "/story/1"}))
	})
	s.handle("/story/1", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "120")
		rw.WriteHeader(http.StatusTooManyRequests)
	})
	private := "http://reader:s3cret@" + host + "/feed"
	x := newIndex(t)
	addFeed(t, x, Feed{URL: private})
	r := once(t, newWatcher(t, x, testOptions()))[0]
	if r.Outcomes[OutcomeError] != 1 {
		t.Errorf("pass %+v, want the page failed", r)
	}
	for key, it := range storedItems(t, x, private) {
		if strings.Contains(it.Detail, "s3cret") {
			t.Errorf("item %q: stored detail %q holds the password", key, it.Detail)
		}
	}
}

func TestFeedRetryAfterShowsNoPassword(t *testing.T) {
	s := newSite(t)
	host := strings.TrimPrefix(s.URL, "http://")
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "120")
		rw.WriteHeader(http.StatusServiceUnavailable)
	})
	private := "http://reader:s3cret@" + host + "/feed"
	x := newIndex(t)
	addFeed(t, x, Feed{URL: private})
	r := once(t, newWatcher(t, x, testOptions()))[0]
	if r.Err == nil || strings.Contains(r.Err.Error(), "s3cret") {
		t.Errorf("feed error %v: none, or it holds the password", r.Err)
	}
	fs, err := Feeds(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if strings.Contains(f.State.Status, "s3cret") {
			t.Errorf("feed's stored status %q holds the password", f.State.Status)
		}
	}
}
