package watch

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/store/storetest"
)

func TestFeedAdmin(t *testing.T) {
	x := newIndex(t)
	st := x
	ctx := t.Context()
	f := Feed{URL: "https://a.example/rss", Rule: &Rule{Body: "article .story-body", Drop: []string{".related"}}}
	if _, err := AddFeed(ctx, st, f); err != nil {
		t.Fatal(err)
	}
	if _, err := AddFeed(ctx, st, f); !errors.Is(err, neardup.ErrExists) {
		t.Errorf("a second add: %v", err)
	}
	for _, bad := range []Feed{
		{URL: "ftp://a.example/rss"},
		{URL: "https://b.example/rss", Interval: Duration(time.Second)},
		{URL: "https://b.example/rss", Rule: &Rule{Body: "div[["}},
		{URL: "https://b.example/rss", Rule: &Rule{StripRegex: []string{"("}}},
	} {
		if _, err := AddFeed(ctx, st, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if err := SetFeed(ctx, st, Feed{URL: f.URL, Interval: Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := SetFeed(ctx, st, Feed{URL: "https://none.example/"}); !errors.Is(err, ErrNoFeed) {
		t.Errorf("setting a missing feed: %v", err)
	}
	feeds, err := Feeds(ctx, st)
	if err != nil || len(feeds) != 1 || feeds[0].Interval != Duration(time.Hour) || feeds[0].Rule != nil {
		t.Fatalf("feeds %+v %v", feeds, err)
	}

	// Export and import round trip; f, which gives no interval, keeps the
	// stored one (1h) and gets its rule back.
	if _, _, err := Import(ctx, st, []Feed{{URL: "https://b.example/atom", Interval: Duration(30 * time.Minute),
		Rule: &Rule{Body: "main", DropAttr: []AttrFilter{{Tag: "div", Attr: "class", Match: "^ad"}}}}, f}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Export(ctx, st, &buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "feeds.yaml")
	os.WriteFile(path, buf.Bytes(), 0o644)
	read, err := ReadFile(path)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(read) != 2 || read[0].Interval != Duration(time.Hour) || read[0].Rule.Body != "article .story-body" ||
		read[1].Rule.DropAttr[0].Match != "^ad" || read[1].Interval != Duration(30*time.Minute) {
		t.Errorf("read back %+v\n%s", read, buf.String())
	}
	y := newIndex(t)
	added, updated, err := Import(ctx, y, read)
	if err != nil || added != 2 || updated != 0 {
		t.Errorf("import: %d, %d, %v", added, updated, err)
	}
	var again bytes.Buffer
	Export(ctx, y, &again)
	if again.String() != buf.String() {
		t.Errorf("export after import:\n%s\nwant\n%s", again.String(), buf.String())
	}

	if err := RemoveFeed(ctx, st, f.URL); err != nil {
		t.Fatal(err)
	}
	if err := RemoveFeed(ctx, st, f.URL); !errors.Is(err, ErrNoFeed) {
		t.Errorf("removing twice: %v", err)
	}
}

// TestImportRepeatedURL: a URL given twice to Import is added with the
// first settings and updated with the second, not an error about feed 0.
func TestImportRepeatedURL(t *testing.T) {
	x := newIndex(t)
	f := Feed{URL: "http://a.example/rss"}
	added, updated, err := Import(t.Context(), x, []Feed{f, {URL: f.URL, Interval: Duration(time.Hour)}})
	if err != nil || added != 1 || updated != 1 {
		t.Fatalf("import: %d added, %d updated, %v; want 1, 1", added, updated, err)
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil || len(feeds) != 1 || feeds[0].Interval != Duration(time.Hour) {
		t.Errorf("feeds %+v %v; want one, of interval 1h", feeds, err)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		// The YAML decoder's message named Go's types after a line of
		// its own: "yaml: unmarshal errors:\n  line 4: field intervall
		// not found in type watch.Feed".
		"unknown key": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    intervall: 5m\n",
			`:4: feed 1: unknown key "intervall" (want one of url, interval, rule)`},
		"unknown rule key": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n  - url: https://b.example/rss\n    rule:\n      hosts: [b.example]\n",
			`:6: feed 2: rule: unknown key "hosts" (want one of body, drop, drop_attr, strip, strip_regex, article_url)`},
		"unknown drop_attr key": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule:\n      drop_attr:\n        - {tag: div, atr: class, match: ad}\n",
			`:6: feed 1: rule: drop_attr: unknown key "atr" (want one of tag, attr, match)`},
		"unknown top key": {"version: 1\nfeed:\n  - url: https://a.example/rss\n", `:2: unknown key "feed" (want one of version, feeds)`},
		"key twice":       {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    url: https://b.example/rss\n", `:4: feed 1: key "url" given twice`},
		"feeds a mapping": {"version: 1\nfeeds:\n  url: https://a.example/rss\n", `:3: feeds: want a list of feeds`},
		"feed a string":   {"version: 1\nfeeds:\n  - https://a.example/rss\n", `:3: feed 1: want a mapping of url, interval, rule`},
		"interval a list": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: [15m]\n", `:4: feed 1: interval: want a duration (15m, 1h30m, 2d or 1w), not a list`},
		"body a list":     {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule:\n      body: [main]\n", `:5: feed 1: rule: body: want a string, not a list`},
		"drop a mapping":  {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule:\n      drop: {a: b}\n", `:5: feed 1: rule: drop: want a string or a list of strings`},
		"version a word":  {"version: one\nfeeds: []\n", `:1: version: want 1`},
		"a list":          {"- url: https://a.example/rss\n", `:1: want a mapping with version and feeds`},
		"a tab":           {"version: 1\nfeeds:\n\t- url: https://a.example/rss\n", `:3: found character that cannot start any token`},
		"bad interval":    {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: soon\n", `:4: interval "soon" is not a duration`},
		"empty":           {"", `empty: a feeds file starts with a "version: 1" line`},
		"blank":           {"\n# nothing\n", `empty: a feeds file starts with a "version: 1" line`},
		"short":           {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 10s\n", "shorter than 1m0s"},
		"no version":      {"feeds: []\n", `no "version: 1" line`},
		"new version":     {"version: 2\nfeeds: []\n", "version 2: this neardup reads version 1"},
		"second feed":     {"version: 1\nfeeds:\n  - url: https://a.example/rss\n  - url: notaurl\n", `feed 2: feed "notaurl"`},
		"repeated url": {"version: 1\nfeeds:\n  - url: http://a.example/rss\n  - url: http://a.example/rss\n    interval: 1h\n",
			":4: feed 2: http://a.example/rss is feed 1 already (line 3)"},
		// The second document's feeds were left unread, without a word.
		"second document": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n---\nversion: 1\nfeeds:\n  - url: https://b.example/rss\n",
			`:5: a second YAML document, after a "---" line`},
		// A feed merging itself was read again without end: "fatal
		// error: stack overflow".
		"merge of itself": {"version: 1\nfeeds:\n  - &a\n    url: http://127.0.0.1:8765/z.xml\n    <<: *a\n",
			":5: feed 1: <<: merges the mapping it is in, or one merging it: it would repeat without end"},
		"bad selector": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n  - url: https://b.example/rss\n    rule:\n      drop: [.ad]\n      body: 'div[['\n", `:7: feed 2: feed https://b.example/rss: site rule: body: bad CSS selector "div[["`},
	} {
		wantReadError(t, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml"), c.body, c.want)
	}
	// An interval of 0 is the default, as earlier releases' feeds export
	// wrote it (0s) for a feed stored without one: such a file imports.
	path := filepath.Join(dir, "zero.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 0s\n  - url: https://b.example/rss\n    interval: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if feeds, err := ReadFile(path); err != nil || len(feeds) != 2 || feeds[0].Interval != 0 || feeds[1].Interval != 0 {
		t.Errorf("interval 0: %+v, %v; want two feeds of the default interval", feeds, err)
	}
	// A rule's drop, strip and strip_regex take one string, as in a site
	// rules file, whose keys a feed's rule has: a rule copied from one was
	// refused ("cannot unmarshal !!str `.ad` into []string").
	path = filepath.Join(dir, "one-string.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule:\n      drop: .ad\n      strip: Subscribe now\n      strip_regex: '^Ad:'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := &Rule{Drop: []string{".ad"}, Strip: []string{"Subscribe now"}, StripRegex: []string{"^Ad:"}}
	if feeds, err := ReadFile(path); err != nil || len(feeds) != 1 || !cmp.Equal(feeds[0].Rule, want) {
		t.Errorf("one string for a list: %+v, %v; want the rule %+v", feeds, err, want)
	}
	// Anchors, aliases and merge keys, which the YAML decoder reads, pass
	// the file's checks too: a rule given once and named again, a feed's
	// settings merged from another's (both were refused: "rule: want a
	// mapping", "unknown key \"<<\"").
	path = filepath.Join(dir, "aliases.yaml")
	body := "version: 1\nfeeds:\n  - &base\n    url: https://a.example/rss\n    interval: 30m\n    rule: &r {body: article, drop: .ad}\n" +
		"  - url: https://b.example/rss\n    rule: *r\n  - <<: *base\n    url: https://c.example/rss\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	feeds, err := ReadFile(path)
	if err != nil || len(feeds) != 3 || feeds[1].Rule == nil || feeds[1].Rule.Body != "article" || !slices.Equal(feeds[1].Rule.Drop, []string{".ad"}) ||
		feeds[2].URL != "https://c.example/rss" || feeds[2].Rule == nil || time.Duration(feeds[2].Interval) != 30*time.Minute {
		t.Errorf("anchors and aliases: %+v, %v", feeds, err)
	}
	// A "---" line that opens the file or ends it starts no other
	// document.
	for _, body := range []string{"---\nversion: 1\nfeeds:\n  - url: https://a.example/rss\n", "version: 1\nfeeds:\n  - url: https://a.example/rss\n---\n"} {
		path := filepath.Join(dir, "dashes.yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if feeds, err := ReadFile(path); err != nil || len(feeds) != 1 {
			t.Errorf("%q: %v, %v; want its one feed", body, feeds, err)
		}
	}
}

// wantReadError writes body to path and checks that ReadFile refuses it
// with an error naming path and holding want.
func wantReadError(t *testing.T, path, body, want string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Errorf("%s: %v, want an error naming it and %q", filepath.Base(path), err, want)
	}
}

func TestTry(t *testing.T) {
	s := newSite(t)
	st := newStory(3)
	s.serve("/story/1", "text/html", st.page("Daily", s.URL+"/canonical/1"))
	tr, err := Try(t.Context(), s.URL+"/story/1", &Rule{Body: "article", Drop: []string{"h1"}}, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	// The URL the page names is not the one the article is stored under.
	if tr.Canonical != s.URL+"/story/1" || tr.Skip != "" || tr.Article.Text != st.text() || tr.Article.Title != st.title {
		t.Errorf("trial %+v", tr)
	}
	if _, err := Try(t.Context(), s.URL+"/story/1", &Rule{Body: "div[["}, testOptions()); err == nil {
		t.Error("a bad rule: no error")
	}
}

// TestTryFeed pins a trial of a feed's URL, which extracted the feed itself
// as a page: an empty article, skipped as "feed", and no word that the URL
// was the feed's rather than one of its pages'. Now the trial says it is a
// feed, of which format and how many items, and tries the page of its
// newest item with a link; a feed with no link is an error saying so.
func TestTryFeed(t *testing.T) {
	s := newSite(t)
	items := publish(s, "Daily", 40, 3) // the newest first: /story/2
	linkless := item{title: "Breaking", guid: "g9", date: items[0].date.Add(time.Hour)}
	s.serve("/rss", "application/rss+xml", rss2(append([]item{linkless}, items...)...))
	s.serve("/atom", "application/atom+xml", atomFeed(items...))
	s.serve("/json", "application/feed+json", jsonFeed(items...))
	s.serve("/empty", "application/rss+xml", rss2(linkless))
	for path, want := range map[string]FeedTrial{
		"/rss":  {URL: s.URL + "/rss", Format: "RSS", Items: 4, Page: s.URL + "/story/2", Passed: "1 without a link"},
		"/atom": {URL: s.URL + "/atom", Format: "Atom", Items: 3, Page: s.URL + "/story/2"},
		"/json": {URL: s.URL + "/json", Format: "JSON Feed", Items: 3, Page: s.URL + "/story/2"},
	} {
		tr, err := Try(t.Context(), s.URL+path, &Rule{Body: "article", Drop: []string{"h1"}}, testOptions())
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if diff := cmp.Diff(&want, tr.Feed); diff != "" {
			t.Errorf("%s: feed (-want +got):\n%s", path, diff)
		}
		if tr.URL != s.URL+"/story/2" || tr.Skip != "" || tr.Article.Text != newStory(42).text() {
			t.Errorf("%s: tried %s, skipped %q, text %.60q; want the newest story's", path, tr.URL, tr.Skip, tr.Article.Text)
		}
	}
	_, err := Try(t.Context(), s.URL+"/empty", nil, testOptions())
	if want := s.URL + "/empty: a feed (RSS), not an article page, and no item of it links to a page"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a feed without links: %v, want an error holding %q", err, want)
	}
	tr, err := Try(t.Context(), s.URL+"/story/0", nil, testOptions())
	if err != nil || tr.Feed != nil || tr.URL != s.URL+"/story/0" {
		t.Errorf("a page: feed %+v, URL %s, %v", tr.Feed, tr.URL, err)
	}
}

// TestTryFeedTriesWhatTheWatcherExtracts: a trial of a feed's URL tried
// its newest item with a link, though the watcher skips a gallery URL
// without fetching it and a page its rule's article_url does not match;
// an item whose page was a feed too showed as "Skipped: feed" with no
// error; a feed whose URL had a gallery word carried the gallery note of
// a page the watcher skips; and an item page that failed said not where
// it came from. Now the newest item the watcher would extract is tried,
// the others passed over counted; an item whose page is a feed, or fails,
// is passed over too, named with why.
func TestTryFeedTriesWhatTheWatcherExtracts(t *testing.T) {
	s := newSite(t)
	stories := publish(s, "Daily", 40, 2) // the newest first: /story/1
	at := func(i int, path string) item {
		return item{title: path, link: s.URL + path, guid: path, date: stories[0].date.Add(time.Duration(i) * time.Hour)}
	}
	s.serve("/gallery/7", "text/html", newStory(50).page("Daily", ""))
	s.serve("/live/9", "text/html", newStory(51).page("Daily", ""))
	s.serve("/video/rss", "application/rss+xml", rss2(at(3, "/gallery/7"), at(2, "/live/9"), at(1, "/photos/3"), stories[0], stories[1]))
	s.serve("/galleries", "application/rss+xml", rss2(at(2, "/gallery/7"), at(1, "/live/9")))
	s.serve("/feed-item", "application/rss+xml", rss2(at(1, "/rss-page"), stories[0]))
	s.serve("/rss-page", "application/rss+xml", rss2(stories[0]))
	s.serve("/missing", "application/rss+xml", rss2(at(1, "/gone"), stories[0]))
	s.serve("/photos/feed", "application/rss+xml", rss2(item{title: "Breaking", guid: "g9"}))
	rule := &Rule{Body: "article", ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/(story|gallery|photos)/"}

	tr, err := Try(t.Context(), s.URL+"/video/rss", rule, testOptions())
	want := FeedTrial{URL: s.URL + "/video/rss", Format: "RSS", Items: 5, Page: s.URL + "/story/1",
		Passed:     "2 with a gallery URL, 1 not matching article_url",
		PassedOver: []PassedItem{{Link: s.URL + "/live/9", Outcome: "not-article-url", Why: "not matching article_url"}}}
	if diff := cmp.Diff(&want, tr.Feed); err != nil || diff != "" || tr.URL != s.URL+"/story/1" || tr.Skip != "" {
		t.Errorf("a feed whose newest items the watcher skips: tried %s, skipped %q, %v; feed (-want +got):\n%s", tr.URL, tr.Skip, err, diff)
	}
	if tr.Gallery != "" {
		t.Errorf("a feed's URL with a gallery word: gallery note %q; the watcher polls it", tr.Gallery)
	}

	tr, err = Try(t.Context(), s.URL+"/galleries", rule, testOptions())
	if want := s.URL + "/galleries: a feed (RSS), not an article page, and no item of it links to a page the watcher would extract (1 with a gallery URL, 1 not matching article_url)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a feed of no item to try: %v, want an error holding %q", err, want)
	}
	if tr.Feed == nil || tr.Feed.Page != "" || tr.Gallery != "" || tr.URL != "" {
		t.Errorf("a feed of no item to try: feed %+v, gallery %q, tried %q; want no page tried and no gallery note", tr.Feed, tr.Gallery, tr.URL)
	}

	tr, err = Try(t.Context(), s.URL+"/photos/feed", nil, testOptions())
	if want := "no item of it links to a page the watcher would extract (1 without a link)"; err == nil || !strings.Contains(err.Error(), want) || tr.Gallery != "" {
		t.Errorf("a feed of no link at a URL with a gallery word: gallery note %q, %v; want no note and an error holding %q", tr.Gallery, err, want)
	}

	// An item whose page is a feed, or fails, is passed over, as the
	// watcher passes it over (TestTryFeedGoesOnAsTheWatcherDoes).
	tr, err = Try(t.Context(), s.URL+"/feed-item", nil, testOptions())
	want = FeedTrial{URL: s.URL + "/feed-item", Format: "RSS", Items: 2, Page: stories[0].link, Passed: "1 whose page is a feed",
		PassedOver: []PassedItem{{Link: s.URL + "/rss-page", Outcome: "feed", Why: "whose page is a feed"}}}
	if diff := cmp.Diff(&want, tr.Feed); err != nil || diff != "" || tr.URL != stories[0].link {
		t.Errorf("a feed whose item is a feed: tried %s, %v; feed (-want +got):\n%s", tr.URL, err, diff)
	}
	tr, err = Try(t.Context(), s.URL+"/missing", nil, testOptions())
	want = FeedTrial{URL: s.URL + "/missing", Format: "RSS", Items: 2, Page: stories[0].link, Passed: "1 HTTP 404",
		PassedOver: []PassedItem{{Link: s.URL + "/gone", Outcome: "error", Why: "HTTP 404", Detail: "HTTP 404 Not Found from " + s.URL + "/gone"}}}
	if diff := cmp.Diff(&want, tr.Feed); err != nil || diff != "" || tr.URL != stories[0].link {
		t.Errorf("a feed whose item's page fails: tried %s, %v; feed (-want +got):\n%s", tr.URL, err, diff)
	}
}

// TestTryFeedMatchesArticleURLAfterRedirects pins a trial of a feed's URL
// that matched its rule's article_url against an item's link as the feed
// gave it, where the watcher matches the URL the page came from, after
// redirects: a feed proxy's link to an article was passed over as not
// matching, and an article's link moved to a video page was tried and
// shown skipped (not-article-url), though the watcher adds an older item
// and skips that one. Now the trial matches the URL after redirects, and
// it tries the item the watcher adds.
func TestTryFeedMatchesArticleURLAfterRedirects(t *testing.T) {
	s := newSite(t)
	stories := publish(s, "Daily", 60, 2) // the newest first: /story/1, /story/0
	redirect := func(from, to string) {
		s.handle(from, func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, to, http.StatusFound) })
	}
	redirect("/go/1", "/story/1")    // a feed proxy's link to an article
	redirect("/story/9", "/video/9") // an article's link moved to a video page
	s.serve("/video/9", "text/html", newStory(69).page("Daily", ""))
	newer := func(path string) item {
		return item{title: path, link: s.URL + path, guid: path, date: stories[0].date.Add(time.Hour)}
	}
	s.serve("/proxied", "application/rss+xml", rss2(newer("/go/1")))
	s.serve("/moved", "application/rss+xml", rss2(newer("/story/9"), stories[1]))
	rule := &Rule{Body: "article", ArticleURL: "^" + regexp.QuoteMeta(s.URL) + "/story/"}
	for _, c := range []struct {
		name, feed string
		want       FeedTrial
		url        string            // the page tried, after redirects
		outcomes   map[string]string // the watcher's, by item
	}{
		{"link redirects to a matching URL", "/proxied",
			FeedTrial{URL: s.URL + "/proxied", Format: "RSS", Items: 1, Page: s.URL + "/go/1"}, s.URL + "/story/1",
			map[string]string{s.URL + "/go/1": OutcomeAdded}},
		{"link redirects to a URL not matching", "/moved",
			FeedTrial{URL: s.URL + "/moved", Format: "RSS", Items: 2, Page: s.URL + "/story/0", Passed: "1 not matching article_url",
				PassedOver: []PassedItem{{Link: s.URL + "/story/9", URL: s.URL + "/video/9", Outcome: "not-article-url", Why: "not matching article_url"}}}, s.URL + "/story/0",
			map[string]string{s.URL + "/story/9": string(extract.SkipNotArticleURL), s.URL + "/story/0": OutcomeAdded}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Try(t.Context(), s.URL+c.feed, rule, testOptions())
			if diff := cmp.Diff(&c.want, tr.Feed); err != nil || diff != "" || tr.URL != c.url || tr.Skip != "" || tr.Article.Text == "" {
				t.Errorf("trial: tried %s, skipped %q, %v; want %s tried and extracted; feed (-want +got):\n%s", tr.URL, tr.Skip, err, c.url, diff)
			}
			x := newIndex(t)
			addFeed(t, x, Feed{URL: s.URL + c.feed, Interval: Duration(time.Hour), Rule: rule})
			once(t, newWatcher(t, x, testOptions()))
			got := map[string]string{}
			for key, it := range storedItems(t, x, s.URL+c.feed) {
				got[key] = it.Outcome
			}
			if !maps.Equal(got, c.outcomes) {
				t.Errorf("the watcher's outcomes %v, want %v", got, c.outcomes)
			}
		})
	}
}

// TestReadOPML reads subscription lists as feed readers export them:
// folders flattened, each URL once, HTML entities and a declared charset
// understood, every feed with no interval and no rule (Import's defaults
// for a new feed, the stored settings of a known one).
func TestReadOPML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "subscriptions.opml")
	os.WriteFile(path, []byte("\ufeff"+`<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0">
  <head><title>Subscriptions&nbsp;of a reader</title></head>
  <body>
    <outline text="World" title="World">
      <outline type="rss" text="Daily News" title="Daily News" xmlUrl="https://daily.example/rss" htmlUrl="https://daily.example/"/>
      <outline type="rss" text="Wire" xmlUrl=" https://wire.example/atom.xml "/>
    </outline>
    <outline text="Economy">
      <outline type="rss" text="Daily News again" xmlUrl="https://daily.example/rss"/>
      <outline text="Markets &amp; more" type="rss" xmlUrl="https://markets.example/feed?x=1&amp;y=2"/>
    </outline>
    <outline text="A bookmark, not a feed" htmlUrl="https://bookmark.example/"/>
  </body>
</opml>
`), 0o644)
	feeds, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, f := range feeds {
		urls = append(urls, f.URL)
		if f.Interval != 0 || f.Rule != nil {
			t.Errorf("feed %+v: want no interval and no rule", f)
		}
	}
	want := []string{"https://daily.example/rss", "https://wire.example/atom.xml", "https://markets.example/feed?x=1&y=2"}
	if !slices.Equal(urls, want) {
		t.Errorf("feeds %q, want %q", urls, want)
	}

	latin := filepath.Join(dir, "latin1.opml")
	os.WriteFile(latin, []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml><body><outline text=\"Caf\xe9\" xmlUrl=\"https://cafe.example/rss\"/></body></opml>"), 0o644)
	if feeds, err := ReadFile(latin); err != nil || len(feeds) != 1 || feeds[0].URL != "https://cafe.example/rss" {
		t.Errorf("ISO-8859-1 OPML: %+v, %v", feeds, err)
	}

	// Regressions: a file saved as UTF-16 ("Unicode" on Windows) was read
	// as YAML and refused ("cannot unmarshal !!str `<?xml v...` into
	// watch.File"), and an outline's xmlurl written in another case, or a
	// feed's outline without one, was left out without a word.
	opml16 := "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<opml version=\"1.0\"><body><outline text=\"Новости\" xmlurl=\"https://news.example/rss\"/>" +
		"<outline text=\"Wire\" XMLURL=\"https://wire.example/rss\"/></body></opml>\n"
	for name, body := range map[string][]byte{
		"utf16le.opml": append([]byte{0xff, 0xfe}, utf16Bytes(opml16, false)...),
		"utf16be.opml": append([]byte{0xfe, 0xff}, utf16Bytes(opml16, true)...),
		"utf16.yaml":   append([]byte{0xff, 0xfe}, utf16Bytes("version: 1\nfeeds:\n  - url: https://news.example/rss\n  - url: https://wire.example/rss\n", false)...),
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, body, 0o644)
		feeds, err := ReadFile(path)
		var urls []string
		for _, f := range feeds {
			urls = append(urls, f.URL)
		}
		if want := []string{"https://news.example/rss", "https://wire.example/rss"}; err != nil || !slices.Equal(urls, want) {
			t.Errorf("%s: %q, %v; want %q", name, urls, err, want)
		}
	}

	for name, c := range map[string]struct{ body, want string }{
		"feed without xmlUrl": {`<opml><body><outline text="a" xmlUrl="https://a.example/rss"/><outline text="Folder"><outline type="rss" title="Lost" htmlUrl="https://lost.example/"/></outline></body></opml>`,
			`outline "Lost" (feed 2): of type rss but no xmlUrl`},
		"not opml":     {`<rss version="2.0"><channel></channel></rss>`, "not an OPML file: its root element is <rss>, not <opml>"},
		"no feeds":     {`<opml><body><outline text="empty folder"/></body></opml>`, "no feeds: no outline of its body has an xmlUrl"},
		"bad url":      {`<opml><body><outline text="a" xmlUrl="https://a.example/rss"/><outline title="FTP" xmlUrl="ftp://b.example/rss"/></body></opml>`, `outline "FTP" (feed 2): feed "ftp://b.example/rss": want an http or https URL`},
		"broken":       {`<opml><body><outline text="a" xmlUrl="https://a.example/rss"`, "not an OPML file"},
		"unknown code": {`<?xml version="1.0" encoding="x-klingon"?><opml/>`, `encoding "x-klingon"`},
	} {
		wantReadError(t, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".opml"), c.body, c.want)
	}
}

// TestOPMLEntityNotInURL reads an xmlUrl's references as XML defines
// them: one XML does not define, HTML's or no one's, is an error naming
// the file, the line its outline starts on and the reference, whatever
// the file's encoding; an & alone, or written &amp; before a name, is the
// URL's, and a title still reads HTML's entities. Regression: &nbsp; was
// read as a no-break space of the URL and &foo; stored in it as written.
func TestOPMLEntityNotInURL(t *testing.T) {
	dir := t.TempDir()
	file := func(url string) string {
		return "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml><body>\n" +
			"<outline text=\"Caf\xe9&nbsp;du&nbsp;coin\" xmlUrl=\"https://cafe.example/rss\"/>\n" +
			"<outline text=\"Wire\"\n  xmlUrl=\"" + url + "\"/>\n</body></opml>\n"
	}
	for name, ref := range map[string]string{"nbsp": "&nbsp;", "foo": "&foo;", "eacute": "&eacute;"} {
		wantReadError(t, filepath.Join(dir, name+".opml"), file("https://wire.example/feed?a=1"+ref+"b=2"),
			`:4: outline "Wire" (feed 2): its xmlUrl holds `+ref+", an entity XML does not define")
	}
	for url, want := range map[string]string{
		"https://wire.example/feed?a=1&b=2":       "https://wire.example/feed?a=1&b=2",
		"https://wire.example/feed?a=1&amp;b=2":   "https://wire.example/feed?a=1&b=2",
		"https://wire.example/feed?a=1&amp;foo;b": "https://wire.example/feed?a=1&foo;b",
	} {
		path := filepath.Join(dir, "good.opml")
		os.WriteFile(path, []byte(file(url)), 0o644)
		feeds, err := ReadFile(path)
		if err != nil || len(feeds) != 2 || feeds[1].URL != want {
			t.Errorf("xmlUrl %q: %+v, %v; want %q", url, feeds, err, want)
		}
	}
}

// utf16Bytes returns s in UTF-16, big-endian or little-endian, without a
// byte order mark.
func utf16Bytes(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// FuzzFeedsFile reads feeds files of every kind, YAML and OPML, whole or
// damaged: reading ends, and every feed it returns passes Check, once
// given the default interval when it has none.
func FuzzFeedsFile(f *testing.F) {
	f.Add([]byte("version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 1h\n    rule: {body: main, drop: [aside]}\n"))
	f.Add([]byte("version: 1\nfeeds:\n  - url: notaurl\n"))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><opml version="2.0"><body><outline text="F&amp;x">` +
		`<outline type="rss" xmlUrl="https://a.example/rss"/><outline xmlUrl="http://b.example/atom&nbsp;"/></outline></body></opml>`))
	f.Add([]byte(`<opml><body><outline xmlUrl="https://a.example/rss"><outline xmlUrl="https://a.example/rss"/>`))
	f.Add([]byte("version: 1\nfeeds:\n  - &a\n    url: http://127.0.0.1:8765/z.xml\n    <<: *a\n"))
	f.Add([]byte("version: 1\nfeeds:\n  - &a\n    url: http://a.example/rss\n    rule: &r {body: main, <<: [*r, *a]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		feeds, err := parseFeeds("fuzz", data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, fd := range feeds {
			if err := fd.checkGiven(); err != nil {
				t.Fatalf("feed %+v read without error fails its check: %v", fd, err)
			}
			if isXML(data) && seen[fd.URL] {
				t.Fatalf("feed %s read twice from an OPML file", fd.URL)
			}
			seen[fd.URL] = true
		}
	})
}

// TestExportOPML writes the stored feeds as OPML, escaped, and reads them
// back: the same URLs, in order.
func TestExportOPML(t *testing.T) {
	ctx := t.Context()
	ix := newIndex(t)
	want := []string{"https://a.example/rss?x=1&y=<2>", `https://b.example/feed"s`, "http://c.example/atom.xml"}
	var feeds []Feed
	for _, u := range want {
		feeds = append(feeds, Feed{URL: u, Interval: Duration(time.Hour)})
	}
	if _, _, err := Import(ctx, ix, feeds); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ExportOPML(ctx, ix, &buf); err != nil {
		t.Fatal(err)
	}
	read, err := parseFeeds("export.opml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	var got []string
	for _, f := range read {
		got = append(got, f.URL)
	}
	stored, _ := Feeds(ctx, ix)
	var order []string
	for _, s := range stored {
		order = append(order, s.URL)
	}
	if !slices.Equal(got, order) || len(got) != len(want) {
		t.Errorf("read back %q, stored %q\n%s", got, order, buf.String())
	}
}

// TestImportKeepsSettingsNotGiven pins an import that reset the interval
// and site rule of every known feed to the defaults: re-importing an OPML
// list (which gives neither) wiped them. A setting the file gives wins; one
// it leaves out keeps the stored value; a new feed gets the defaults.
func TestImportKeepsSettingsNotGiven(t *testing.T) {
	ctx := t.Context()
	x := newIndex(t)
	rule := &Rule{Body: "article .story-body", Drop: []string{".related"}}
	if _, _, err := Import(ctx, x, []Feed{
		{URL: "https://a.example/rss", Interval: Duration(2 * time.Hour), Rule: rule},
		{URL: "https://b.example/rss", Interval: Duration(90 * time.Minute), Rule: rule},
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opml := filepath.Join(dir, "subscriptions.opml")
	os.WriteFile(opml, []byte(`<opml><body><outline xmlUrl="https://a.example/rss"/><outline xmlUrl="https://c.example/rss"/></body></opml>`), 0o644)
	yml := filepath.Join(dir, "feeds.yaml")
	os.WriteFile(yml, []byte("version: 1\nfeeds:\n  - url: https://b.example/rss\n    interval: 1h\n"), 0o644)
	for _, path := range []string{opml, yml} {
		feeds, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Import(ctx, x, feeds); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := Feeds(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stored {
		got = append(got, fmt.Sprintf("%s %s %+v", s.URL, s.Interval, s.Rule))
	}
	want := []string{
		fmt.Sprintf("https://a.example/rss 2h %+v", rule),
		fmt.Sprintf("https://b.example/rss 1h %+v", rule),
		"https://c.example/rss 15m <nil>",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored feeds (-want +got):\n%s", diff)
	}
}

// TestFeedURLsCanonical pins a feed stored once per way its URL was
// written: add, import, set and remove all compare URLs as FeedURL, and a
// file listing one feed two ways is refused naming both lines.
func TestFeedURLsCanonical(t *testing.T) {
	ctx := t.Context()
	x := newIndex(t)
	if _, err := AddFeed(ctx, x, Feed{URL: "HTTP://A.EXAMPLE:80/feed#top"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://a.example/feed", "http://A.example:80/feed", "http://a.example/feed#x"} {
		if _, err := AddFeed(ctx, x, Feed{URL: u}); !errors.Is(err, neardup.ErrExists) {
			t.Errorf("adding %s again: %v, want ErrExists", u, err)
		}
	}
	if added, updated, err := Import(ctx, x, []Feed{{URL: "http://a.example:80/feed", Interval: Duration(time.Hour)}}); err != nil || added != 0 || updated != 1 {
		t.Errorf("import: %d added, %d updated, %v; want 0, 1", added, updated, err)
	}
	if err := SetFeed(ctx, x, Feed{URL: "http://A.EXAMPLE/feed", Interval: Duration(2 * time.Hour)}); err != nil {
		t.Error(err)
	}
	feeds, err := Feeds(ctx, x)
	if err != nil || len(feeds) != 1 || feeds[0].URL != "http://a.example/feed" || feeds[0].Interval != Duration(2*time.Hour) {
		t.Errorf("feeds %+v %v; want http://a.example/feed every 2h", feeds, err)
	}
	if err := RemoveFeed(ctx, x, "HTTP://a.example/feed#y"); err != nil {
		t.Error(err)
	}
	wantReadError(t, filepath.Join(t.TempDir(), "dupcase.yaml"),
		"version: 1\nfeeds:\n  - url: https://a.example/rss\n  - url: https://A.EXAMPLE:443/rss\n",
		":4: feed 2: https://a.example/rss is feed 1 already (line 3)")
	wantReadError(t, filepath.Join(t.TempDir(), "port.yaml"), "version: 1\nfeeds:\n  - url: https://a.example:99999/rss\n",
		":3: feed 1: feed \"https://a.example:99999/rss\": port 99999 is out of range")
}

// TestUpdateFeedLosesNoUpdate runs UpdateFeeds from several handles of one
// index at once (as several processes would), each adding selectors of
// its own to the feed's rule: the read and the write of each are one
// transaction, so every selector is stored.
func TestUpdateFeedLosesNoUpdate(t *testing.T) {
	const writers, rounds = 4, 10
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			ctx := t.Context()
			if _, err := AddFeed(ctx, newIndexAt(t, dsn), Feed{URL: "https://a.example/rss"}); err != nil {
				t.Fatal(err)
			}
			errs := make([]error, writers)
			var wg sync.WaitGroup
			for w := range writers {
				x := newIndexAt(t, dsn)
				wg.Go(func() {
					for r := range rounds {
						errs[w] = UpdateFeed(ctx, x, "https://a.example/rss", func(f *Feed) error {
							if f.Rule == nil {
								f.Rule = &Rule{}
							}
							f.Rule.Drop = append(f.Rule.Drop, fmt.Sprintf(".w%d-r%d", w, r))
							return nil
						})
						if errs[w] != nil {
							return
						}
					}
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			feeds, err := Feeds(ctx, newIndexAt(t, dsn))
			if err != nil || len(feeds) != 1 || feeds[0].Rule == nil {
				t.Fatalf("feeds %+v %v", feeds, err)
			}
			if n := len(feeds[0].Rule.Drop); n != writers*rounds {
				t.Errorf("%d selectors stored, want %d: %d updates lost", n, writers*rounds, writers*rounds-n)
			}
		})
	}
}

// UpdateFeed of a missing feed is ErrNoFeed, and a change that fails the
// feed's check (an interval too short) or returns an error writes nothing.
func TestUpdateFeedRefuses(t *testing.T) {
	x := newIndex(t)
	ctx := t.Context()
	if _, err := AddFeed(ctx, x, Feed{URL: "https://a.example/rss", Interval: Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := UpdateFeed(ctx, x, "https://none.example/", func(*Feed) error { return nil }); !errors.Is(err, ErrNoFeed) {
		t.Errorf("a missing feed: %v, want ErrNoFeed", err)
	}
	if err := UpdateFeed(ctx, x, "https://a.example/rss", func(f *Feed) error { f.Interval = Duration(time.Second); return nil }); err == nil {
		t.Error("an interval of 1s was stored")
	}
	stop := errors.New("stop")
	if err := UpdateFeed(ctx, x, "https://A.example:443/rss", func(f *Feed) error { f.Interval = Duration(2 * time.Hour); return stop }); !errors.Is(err, stop) {
		t.Errorf("a change that fails: %v, want its error", err)
	}
	feeds, err := Feeds(ctx, x)
	if err != nil || len(feeds) != 1 || feeds[0].Interval != Duration(time.Hour) || feeds[0].URL != "https://a.example/rss" {
		t.Errorf("feeds %+v %v, want the feed as added", feeds, err)
	}
}

// TestImportUnchanged: a stored feed given again with its own settings, or
// with none (an OPML list), is left as stored and not counted as updated;
// one given another interval is. Regression: an OPML list of the stored
// feeds said "3 updated", though nothing changed.
func TestImportUnchanged(t *testing.T) {
	x := newIndex(t)
	u := "https://a.example/rss"
	if added, _, err := Import(t.Context(), x, []Feed{{URL: u, Interval: Duration(time.Hour)}}); err != nil || added != 1 {
		t.Fatalf("%d added, %v", added, err)
	}
	for _, tc := range []struct {
		name    string
		feed    Feed
		updated int
	}{
		{"no settings (OPML)", Feed{URL: u}, 0},
		{"its own interval", Feed{URL: u, Interval: Duration(time.Hour)}, 0},
		{"another interval", Feed{URL: u, Interval: Duration(2 * time.Hour)}, 1},
	} {
		if added, updated, err := Import(t.Context(), x, []Feed{tc.feed}); err != nil || added != 0 || updated != tc.updated {
			t.Errorf("%s: %d added, %d updated, %v; want 0 and %d", tc.name, added, updated, err, tc.updated)
		}
	}
}
