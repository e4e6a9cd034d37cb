package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/internal/watch"
)

// runChild runs neardup in a process of its own and returns its exit code,
// stdout and stderr.
func runChild(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runChildIn(t, "", args...)
}

// runChildIn is runChild in the working directory dir ("" for the test's).
func runChildIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := child(t, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// feeds test --json prints the article with the lower-case keys of the
// records neardup extract writes, its text included, and a site rule that
// matches nothing is said on stderr and in the JSON.
func TestFeedsTestJSON(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	paras := paragraphs(enginetest.NewTextGen(3))
	s.publish("/news/1", "One", paras)
	code, out, _ := runChild(t, "feeds", "test", "--json", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL+"/news/1")
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	article, _ := got["article"].(map[string]any)
	for _, k := range []string{"title", "text", "author", "date", "lang"} {
		if _, ok := article[k]; !ok {
			t.Errorf("article lacks %q: %v", k, article)
		}
	}
	if text, _ := article["text"].(string); !strings.Contains(text, paras[0]) {
		t.Errorf("article text %q", text)
	}
	if _, ok := article["Text"]; ok {
		t.Errorf("Go field names in %v", article)
	}
	code, out, errOut := runChild(t, "feeds", "test", "--json", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL+"/news/1", "--site-rule", ".story-body")
	if code != 0 || !strings.Contains(out, `"rule_miss": "the site rule: body`) || !strings.Contains(errOut, `the site rule: body ".story-body" matched nothing`) {
		t.Errorf("a rule that matches nothing: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Regression: feeds test printed a page's date of no zone or offset as
// UTC ("Date:         2024-03-05T10:00:00Z"), as if the page said so; it
// prints it without an offset, as its --json and neardup extract write it.
func TestFeedsTestDateOfNoZone(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(3)))
	s.mu.Lock()
	s.pages["/news/1"] = strings.Replace(s.pages["/news/1"], "</title>", `</title><meta property="article:published_time" content="2024-03-05T10:00:00">`, 1)
	s.mu.Unlock()
	args := []string{"feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL + "/news/1"}
	if code, out, errOut := runChild(t, args...); code != 0 || !strings.Contains(out, "\nDate:         2024-03-05T10:00:00\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant the date without an offset", code, out, errOut)
	}
	code, out, _ := runChild(t, append(args, "--json")...)
	var got struct{ Article struct{ Date string } }
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Article.Date != "2024-03-05T10:00:00" {
		t.Errorf("--json: exit %d, %v, date %q, want 2024-03-05T10:00:00:\n%s", code, err, got.Article.Date, out)
	}
}

// TestFeedsTestSaysWhereItStores: the text output names the URL the
// article would be stored under "Stored under:", as the web UI's trial
// does: the page's address made canonical (its tracking parameter left
// out), not the URL it names as its own. Regression: it was labelled
// "Canonical:", which it is not since the watcher stopped taking the URL a
// page names, the page's rel=canonical.
func TestFeedsTestSaysWhereItStores(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(4)))
	s.mu.Lock()
	s.pages["/news/1"] = strings.Replace(s.pages["/news/1"], "</title>", `</title><link rel="canonical" href="https://elsewhere.example/story">`, 1)
	s.mu.Unlock()
	code, out, errOut := runChild(t, "feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL+"/news/1?utm_source=rss")
	want := "URL:          " + s.URL + "/news/1?utm_source=rss\nStored under: " + s.URL + "/news/1\nTitle:        One\n"
	if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "Canonical") {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant:\n%s", code, out, errOut, want)
	}
}

// TestFeedsTestOfAFeed pins feeds test given a feed's URL in place of one
// of its pages: it exited 0 with an empty article ("Skipped: feed"). Now it
// says the URL is a feed and tries the page of the feed's newest item.
func TestFeedsTestOfAFeed(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(5)))
	paras := paragraphs(enginetest.NewTextGen(6))
	s.publish("/news/2", "Two", paras)
	args := []string{"feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL + "/rss.xml"}
	code, out, errOut := runChild(t, args...)
	want := "Feed:         " + s.URL + "/rss.xml: a feed (RSS, 2 items), not an article page; the page of its newest item the watcher would extract is tried\n" +
		"URL:          " + s.URL + "/news/2\n"
	if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, paras[0]) {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant 0, the feed said and the newest story tried:\n%s", code, out, errOut, want)
	}
	code, out, _ = runChild(t, append(args, "--json")...)
	var got struct {
		Feed *struct {
			Format string
			Items  int
		}
		URL     string
		Article struct{ Text string }
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Feed == nil || got.Feed.Format != "RSS" || got.Feed.Items != 2 ||
		got.URL != s.URL+"/news/2" || !strings.Contains(got.Article.Text, paras[0]) {
		t.Errorf("--json: exit %d, %v:\n%s", code, err, out)
	}
	// A rule none of whose pages the feed links to: exit 1, saying why,
	// where the newest story was tried and skipped as not-article-url.
	code, out, errOut = runChild(t, append(args, "--article-url", "/sport/")...)
	if want := "no item of it links to a page the watcher would extract (2 not matching article_url)"; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("--article-url /sport/: exit %d, stdout:\n%s\nstderr: %s\nwant 1 and %q", code, out, errOut, want)
	}
}

// TestFeedsTestOfAFeedPassesOverAFailingItem pins feeds test given a
// feed's URL whose newest item's page answered 404: it exited 1 (the
// newest item of feed ...: HTTP 404 ...) where the watcher records the
// item's error and adds the older article. Now it passes the item over
// as the watcher does, says so on stderr as it goes, and tries the older
// one, naming the item passed over and why.
func TestFeedsTestOfAFeedPassesOverAFailingItem(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	paras := paragraphs(enginetest.NewTextGen(6))
	s.publish("/news/1", "One", paras)
	s.mu.Lock()
	s.published = append(s.published, "/promo/1") // in the feed, newest, and no page
	s.mu.Unlock()
	args := []string{"feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL + "/rss.xml"}
	code, out, errOut := runChild(t, args...)
	want := "Feed:         " + s.URL + "/rss.xml: a feed (RSS, 2 items), not an article page; the page of its newest item the watcher would extract is tried, newer ones passed over (1 HTTP 404)\n" +
		"Passed:       " + s.URL + "/promo/1: HTTP 404 Not Found from " + s.URL + "/promo/1\n" +
		"URL:          " + s.URL + "/news/1\n"
	if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, paras[0]) {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant 0, the older story tried after:\n%s", code, out, errOut, want)
	}
	if want := `msg="trial: item passed over" feed=` + s.URL + `/rss.xml item=` + s.URL + `/promo/1`; !strings.Contains(errOut, want) {
		t.Errorf("stderr:\n%s\nwant a line holding %s", errOut, want)
	}
	code, out, _ = runChild(t, append(args, "--json")...)
	var got struct {
		Feed struct {
			Page       string
			Passed     string
			PassedOver []map[string]string `json:"passed_over"`
		}
		URL string
	}
	wantOver := []map[string]string{{"link": s.URL + "/promo/1", "outcome": "error", "why": "HTTP 404", "detail": "HTTP 404 Not Found from " + s.URL + "/promo/1"}}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Feed.Page != s.URL+"/news/1" || got.Feed.Passed != "1 HTTP 404" ||
		!slices.EqualFunc(got.Feed.PassedOver, wantOver, maps.Equal) || got.URL != s.URL+"/news/1" {
		t.Errorf("--json: exit %d, %v:\n%s", code, err, out)
	}
}

// A bad selector or regexp in a site rule is a usage error, exit 2, that
// names the flag, or the rules file and the rule's line.
func TestSiteRuleErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.yaml")
	os.WriteFile(rules, []byte("version: 1\nrules:\n  - name: port\n    body: 'div['\n"), 0o644)
	db := filepath.Join(dir, "news.db")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"test --site-rule", []string{"feeds", "test", "http://127.0.0.1:1/news/coffee-strategy.html", "--site-rule", "div["}, `neardup: --site-rule: bad CSS selector "div["`},
		{"test --article-url", []string{"feeds", "test", "http://127.0.0.1:1/a.html", "--article-url", "(["}, `neardup: --article-url: bad regexp "(["`},
		{"add --drop", []string{"feeds", "add", "--db", db, "http://127.0.0.1:1/rss", "--drop", "p[["}, `neardup: --drop: bad CSS selector "p[["`},
		{"add --strip-regex", []string{"feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:1/rss", "--strip-regex", "(["}, `neardup: --strip-regex: bad regexp "(["`},
		{"test --strip-regex", []string{"feeds", "test", "http://127.0.0.1:1/a.html", "--strip-regex", "a{2,1}"}, `neardup: --strip-regex: bad regexp "a{2,1}"`},
		{"add --drop-attr", []string{"feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:1/rss", "--drop-attr", "div[class]=(["}, `neardup: --drop-attr: bad regexp "(["`},
		{"test --drop-attr", []string{"feeds", "test", "http://127.0.0.1:1/a.html", "--drop-attr", "[id]=(["}, `neardup: --drop-attr: bad regexp "(["`},
		{"add --drop-attr as CSS", []string{"feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:1/rss", "--drop-attr", "div[class=^ad]"}, `neardup: --drop-attr: "div[class=^ad]": want TAG[ATTR]=REGEXP`},
		{"add --drop-attr without a regexp", []string{"feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:1/rss", "--drop-attr", "div[class]="}, `neardup: --drop-attr: "div[class]=": want TAG[ATTR]=REGEXP`},
		{"test --rules", []string{"feeds", "test", "http://127.0.0.1:1/a.html", "--rules", rules}, rules + `:4: rule "port": body: bad CSS selector "div["`},
		{"watch --rules", []string{"watch", "--db", db, "--once", "--rules", rules}, rules + `:4: rule "port": body: bad CSS selector "div["`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runChild(t, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "coffee-strategy.html:") {
				t.Errorf("exit %d, stderr:\n%s\nwant 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// feeds add fetches the URL first and refuses what is not a feed (an HTML
// page, a 404), saying --no-check adds it all the same.
func TestFeedsAddChecks(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(4)))
	for _, path := range []string{"/news/1", "/missing.xml"} {
		code, _, errOut := runChild(t, "feeds", "add", "--db", db, s.URL+path, "--allow-private", "127.0.0.1")
		if code != 1 || !strings.Contains(errOut, "--no-check adds it all the same") {
			t.Errorf("%s: exit %d\n%s", path, code, errOut)
		}
	}
	if code, _, errOut := runChild(t, "feeds", "add", "--db", db, s.URL+"/news/1", "--allow-private", "127.0.0.1"); !strings.Contains(errOut, "an HTML page, not a feed") {
		t.Errorf("an HTML page: exit %d\n%s", code, errOut)
	}
	runOK(t, "feeds", "add", "--db", db, s.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "feeds", "add", "--db", db, "--no-check", s.URL+"/missing.xml")
	if items := feedURLs(t, db); strings.Join(items, " ") != s.URL+"/rss.xml "+s.URL+"/missing.xml" {
		t.Errorf("feeds stored: %v", items)
	}
}

// feeds add takes --max-bytes and --timeout, as watch does, for its check
// of the feed: a feed larger than the default that watch reads with a
// larger --max-bytes was refused at add ("declares 15466832 bytes"), and
// the flag was unknown.
func TestFeedsAddFetchLimits(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(4)))
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"over --max-bytes", []string{s.URL + "/rss.xml", "--max-bytes", "50"}, "the limit is 50"},
		// The request's clock or the transport's wait for the headers,
		// whichever ends first.
		{"past --timeout", []string{hang.URL + "/rss.xml", "--timeout", "200ms"}, "no answer within 200ms|timeout awaiting response headers"},
		{"--max-bytes 0", []string{s.URL + "/rss.xml", "--max-bytes", "0"}, "--max-bytes must be positive"},
		{"--timeout 0", []string{s.URL + "/rss.xml", "--timeout", "0s"}, "--timeout must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"feeds", "add", "--db", db, "--allow-private", "127.0.0.1"}, tc.args...)
			code, _, errOut := runChild(t, args...)
			if code == 0 || !slices.ContainsFunc(strings.Split(tc.want, "|"), func(w string) bool { return strings.Contains(errOut, w) }) {
				t.Errorf("exit %d, stderr:\n%s\nwant an error holding %q", code, errOut, tc.want)
			}
		})
	}
	runOK(t, "feeds", "add", "--db", db, s.URL+"/rss.xml", "--allow-private", "127.0.0.1", "--max-bytes", "20000000", "--timeout", "30s")
	if items := feedURLs(t, db); strings.Join(items, " ") != s.URL+"/rss.xml" {
		t.Errorf("feeds stored: %v", items)
	}
}

// feedURLs lists the URLs of the feeds of an index, as feeds list --json
// prints them.
func feedURLs(t *testing.T, db string) []string {
	t.Helper()
	code, out, errOut := runChild(t, "feeds", "list", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("feeds list: exit %d\n%s", code, errOut)
	}
	var urls []string
	for line := range strings.Lines(out) {
		var f struct{ URL string }
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatal(err)
		}
		urls = append(urls, f.URL)
	}
	return urls
}

// TestIntervalTakesDays pins a feed's interval read as Go's durations
// alone, where index expire --older-than takes days: feeds add --interval
// 2d, feeds set --interval 1w and a feeds file's "interval: 2d" were
// refused (time: unknown unit "d"). Now they take the forms --older-than
// takes, Go's included, and a bare m is still minutes.
func TestIntervalTakesDays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	file := filepath.Join(dir, "feeds.yaml")
	if err := os.WriteFile(file, []byte("version: 1\nfeeds:\n  - url: https://c.example/rss\n    interval: 1d12h\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"feeds", "add", "--db", db, "--no-check", "https://a.example/rss", "--interval", "2d"},
		{"feeds", "add", "--db", db, "--no-check", "https://b.example/rss", "--interval", "1h30m0s"},
		{"feeds", "set", "--db", db, "https://b.example/rss", "--interval", "1w"},
		{"feeds", "add", "--db", db, "--no-check", "https://d.example/rss", "--interval", "90m"},
		{"feeds", "import", "--db", db, file},
	} {
		if code, _, errOut := runChild(t, args...); code != 0 {
			t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
	}
	code, out, errOut := runChild(t, "feeds", "export", "--db", db)
	want := "version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 48h\n  - url: https://b.example/rss\n    interval: 168h\n" +
		"  - url: https://d.example/rss\n    interval: 1h30m\n  - url: https://c.example/rss\n    interval: 36h\n"
	if code != 0 || out != want {
		t.Errorf("export: exit %d, %s\n%s\nwant\n%s", code, errOut, out, want)
	}
	code, _, errOut = runChild(t, "feeds", "add", "--db", db, "--no-check", "https://e.example/rss", "--interval", "2y")
	if want := `--interval: invalid duration "2y": unknown unit "y"`; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("--interval 2y: exit %d, %s; want 2, %q", code, errOut, want)
	}
}

// TestFeedsSetKeepsWhatIsNotGiven pins feeds set replacing the whole site
// rule with the one key given (--drop alone dropped the body and strip),
// and --interval 0s accepted and ignored: a flag given changes its key
// only, and an interval under 1m, 0 and negative included, exits 2.
func TestFeedsSetKeepsWhatIsNotGiven(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	const feed = "http://a.example/rss"
	runOK(t, "feeds", "add", "--db", db, "--no-check", feed, "--interval", "1h",
		"--site-rule", "article .story-body", "--drop", ".related", "--strip", "Subscribe to our newsletter")
	runOK(t, "feeds", "set", "--db", db, feed, "--drop", ".ads", "--drop", ".promo")
	runOK(t, "feeds", "set", "--db", db, feed, "--article-url", "/news/")
	for _, iv := range []string{"0s", "-5m", "30s"} {
		if code, _, errOut := runChild(t, "feeds", "set", "--db", db, feed, "--interval", iv); code != 2 || !strings.Contains(errOut, "interval") {
			t.Errorf("--interval %s: exit %d, want 2\n%s", iv, code, errOut)
		}
	}
	code, out, errOut := runChild(t, "feeds", "export", "--db", db)
	want := `version: 1
feeds:
  - url: http://a.example/rss
    interval: 1h
    rule:
      body: article .story-body
      drop:
        - .ads
        - .promo
      strip:
        - Subscribe to our newsletter
      article_url: /news/
`
	if code != 0 || out != want {
		t.Errorf("export: exit %d\n%s\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestRuleFlagsEveryKey pins the site rule's keys strip_regex and
// drop_attr, which a feeds file and the web UI's form set, refused by
// feeds add, set and test (unknown flag --strip-regex). Now --strip-regex
// and --drop-attr set them, each value whole (a regexp's commas and
// backslashes kept), and feeds set replaces their lists and keeps the rest.
func TestRuleFlagsEveryKey(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	const feed = "http://a.example/rss"
	runOK(t, "feeds", "add", "--db", db, "--no-check", feed, "--site-rule", "article",
		"--strip-regex", `(?m)^© \d{4,}.*$`, "--drop-attr", "div[class]=^ad, promo", "--drop-attr", "[data-role]=share")
	want := `version: 1
feeds:
  - url: http://a.example/rss
    interval: 15m
    rule:
      body: article
      drop_attr:
        - tag: div
          attr: class
          match: ^ad, promo
        - attr: data-role
          match: share
      strip_regex:
        - (?m)^© \d{4,}.*$
`
	if code, out, errOut := runChild(t, "feeds", "export", "--db", db); code != 0 || out != want {
		t.Errorf("after add, export: exit %d\n%s\n%s\nwant\n%s", code, errOut, out, want)
	}
	runOK(t, "feeds", "set", "--db", db, feed, "--strip-regex", "Read more", "--strip-regex", `^\s+`)
	runOK(t, "feeds", "set", "--db", db, feed, "--drop-attr", "aside[id]=related")
	want = `version: 1
feeds:
  - url: http://a.example/rss
    interval: 15m
    rule:
      body: article
      drop_attr:
        - tag: aside
          attr: id
          match: related
      strip_regex:
        - Read more
        - ^\s+
`
	if code, out, errOut := runChild(t, "feeds", "export", "--db", db); code != 0 || out != want {
		t.Errorf("after set, export: exit %d\n%s\n%s\nwant\n%s", code, errOut, out, want)
	}
	code, _, errOut := runChild(t, "feeds", "set", "--db", db, feed, "--no-rule", "--strip-regex", "x")
	if code != 2 || !strings.Contains(errOut, "--no-rule with a rule's flags") {
		t.Errorf("--no-rule --strip-regex: exit %d, want 2\n%s", code, errOut)
	}
}

// TestRuleFlagValuesWhole pins --drop and --strip cut at commas: --strip
// 'Subscribe, and more' stored two texts, "Subscribe" and " and more",
// and stripped the word "Subscribe" wherever it stood. Now a value is taken
// whole, as --strip-regex and --drop-attr take theirs.
func TestRuleFlagValuesWhole(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "http://a.example/rss", "--drop", "aside, .promo",
		"--strip", "Subscribe, and more", "--strip", "Read on")
	want := `version: 1
feeds:
  - url: http://a.example/rss
    interval: 15m
    rule:
      drop:
        - aside, .promo
      strip:
        - Subscribe, and more
        - Read on
`
	if code, out, errOut := runChild(t, "feeds", "export", "--db", db); code != 0 || out != want {
		t.Errorf("export: exit %d\n%s\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestFeedsTestRuleFlags pins feeds test applying --strip-regex and
// --drop-attr to the page tried: they were unknown flags.
func TestFeedsTestRuleFlags(t *testing.T) {
	t.Parallel()
	s := newNewsSite(t, "The A Times")
	paras := paragraphs(enginetest.NewTextGen(7))
	s.publish("/news/1", "One", paras)
	const promo, phone = "Sponsored: our partners bring you the finest garden furniture at half price this week.", "Call 555-1234, 24/7."
	s.mu.Lock()
	s.pages["/news/1"] = strings.Replace(s.pages["/news/1"], "</article>",
		`<p>`+phone+`</p><div class="ad-slot"><p>`+promo+`</p></div></article>`, 1)
	s.mu.Unlock()
	args := []string{"feeds", "test", "--json", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL + "/news/1"}
	for _, tc := range []struct {
		name  string
		flags []string
		gone  string
	}{
		{"none", nil, ""},
		{"strip-regex", []string{"--strip-regex", `Call \d{3}-\d{4}, 24/7\.`}, phone},
		{"drop-attr", []string{"--drop-attr", "div[class]=^ad-"}, promo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runChild(t, append(args, tc.flags...)...)
			var got struct{ Article struct{ Text string } }
			if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
				t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errOut)
			}
			text := got.Article.Text
			for _, kept := range []string{paras[1], phone, promo} {
				if kept != tc.gone && !strings.Contains(text, kept) {
					t.Errorf("text %q lacks %q", text, kept)
				}
			}
			if tc.gone != "" && strings.Contains(text, tc.gone) {
				t.Errorf("text %q: want %q left out", text, tc.gone)
			}
		})
	}
}

// TestFeedURLForms pins feed URLs stored as written: a feed given in
// another case, with its default port or a fragment was a second feed, an
// out-of-range port or a raw space was stored, and set or remove of another
// spelling was "no such feed". Now they are one feed, and a bad URL exits 2.
func TestFeedURLForms(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "http://EXAMPLE.com:80/feed#frag")
	for _, u := range []string{"http://example.com/feed", "HTTP://example.COM/feed"} {
		if code, _, errOut := runChild(t, "feeds", "add", "--db", db, "--no-check", u); code != 1 || !strings.Contains(errOut, "already stored") {
			t.Errorf("add %s: exit %d, want 1\n%s", u, code, errOut)
		}
	}
	for _, u := range []string{"http://example.com:99999/feed", "http://example.com/ feed"} {
		for _, args := range [][]string{{"add", "--no-check"}, {"set", "--interval", "1h"}} {
			code, _, errOut := runChild(t, append(append([]string{"feeds"}, args...), "--db", db, u)...)
			if code != 2 || !strings.Contains(errOut, u) {
				t.Errorf("%s %s: exit %d, want 2\n%s", args[0], u, code, errOut)
			}
		}
	}
	runOK(t, "feeds", "set", "--db", db, "http://example.com:80/feed", "--interval", "1h")
	if urls := feedURLs(t, db); strings.Join(urls, " ") != "http://example.com/feed" {
		t.Errorf("feeds stored: %v", urls)
	}
	runOK(t, "feeds", "remove", "--db", db, "HTTP://EXAMPLE.COM/feed")
	if urls := feedURLs(t, db); len(urls) != 0 {
		t.Errorf("feeds left: %v", urls)
	}
}

// TestFeedsRemoveUnknown pins feeds remove A X B stopping at the unknown
// X, A removed and B kept: every feed stored is removed, and the unknown
// URLs are named, exit 1.
func TestFeedsRemoveUnknown(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://example.com/rss.xml")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://example.org/atom.xml")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://example.net/kept.xml")
	code, _, errOut := runChild(t, "feeds", "remove", "--db", db, "https://example.com/rss.xml", "https://nope.example/",
		"https://example.org/atom.xml", "https://gone.example/feed")
	want := "neardup: 2 of 4 feeds removed; watch: no such feed: https://nope.example/ https://gone.example/feed\n"
	if code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errOut, want)
	}
	if urls := feedURLs(t, db); strings.Join(urls, " ") != "https://example.net/kept.xml" {
		t.Errorf("feeds left: %v", urls)
	}
}

// TestFeedsExitCodes pins exit codes that disagreed: feeds test of a URL
// that is not http exited 1 where feeds add exits 2, and feeds import
// exited 2 for a bad selector in the file but 1 for a short interval in the
// same file. A mistake in the command line exits 2; a bad file's content,
// whatever it is, 1.
func TestFeedsExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	file := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://kept.example/rss")
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"test ftp", []string{"feeds", "test", "ftp://127.0.0.1/x"}, 2},
		{"test nonsense", []string{"feeds", "test", "nonsense"}, 2},
		{"add ftp", []string{"feeds", "add", "--db", db, "--no-check", "ftp://127.0.0.1/x"}, 2},
		// Regression: feeds remove looked such URLs up, and said "no such
		// feed", exit 1 (the index holds a feed: see below).
		{"remove ftp", []string{"feeds", "remove", "--db", db, "ftp://x/y"}, 2},
		{"remove a space in the host", []string{"feeds", "remove", "--db", db, "http://x y/"}, 2},
		{"remove a bracket left open", []string{"feeds", "remove", "--db", db, "http://[::1/feed"}, 2},
		{"import bad selector", []string{"feeds", "import", "--db", db, file("selector.yaml",
			"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule: {body: 'div[['}\n")}, 1},
		{"import bad regexp", []string{"feeds", "import", "--db", db, file("regexp.yaml",
			"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule: {strip_regex: ['(']}\n")}, 1},
		{"import short interval", []string{"feeds", "import", "--db", db, file("short.yaml",
			"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 10s\n")}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, errOut := runChild(t, tc.args...); code != tc.want {
				t.Errorf("exit %d, want %d\n%s", code, tc.want, errOut)
			}
		})
	}
}

// TestMissingInputExitCode: an input given that is not there is a mistake
// in the command line in every command that reads inputs, exit 2, as for
// feeds import and --rules, naming it as given. dedup, index add, index
// query, extract, diff and eval exited 1 ("stat nope.jsonl: no such file
// or directory", "open nope.jsonl: …").
func TestMissingInputExitCode(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.jsonl": `{"id":"a","text":"The council approved the new budget on Monday."}` + "\n"})
	for _, args := range [][]string{
		{"dedup", "a.jsonl", "nope.jsonl", "-o", "out"},
		{"index", "add", "--db", "x.db", "a.jsonl", "nope.jsonl"},
		{"index", "query", "--db", "x.db", "nope.jsonl"},
		{"extract", "nope.jsonl"},
		{"feeds", "import", "--db", "x.db", "nope.jsonl"},
		{"diff", "a.jsonl", "nope.jsonl"},
		{"diff", "--corpus", "nope.jsonl", "a", "b"},
		{"eval", "--truth", "a.jsonl", "--pred", "nope.jsonl"},
	} {
		want := "neardup: nope.jsonl: no such file or directory\n"
		if args[0] == "eval" {
			want = "neardup: --pred nope.jsonl: no such file or directory\n"
		}
		if code, _, errOut := runChildIn(t, dir, args...); code != 2 || errOut != want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", strings.Join(args, " "), code, errOut, want)
		}
	}
}

// TestFeedsImportNamesTheFile: feeds import names its file as given, with
// the line and the key at fault, and a file that is not there is a mistake
// in the command line. It named the file by its absolute path, an unknown
// key by Go's type after a line of its own ("yaml: unmarshal errors:\n
// line 4: field intervall not found in type watch.Feed").
func TestFeedsImportNamesTheFile(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"bad.yaml": "version: 1\nfeeds:\n  - url: https://a.example/rss\n    intervall: 15m\n",
	})
	for file, want := range map[string]struct {
		code int
		msg  string
	}{
		"bad.yaml":  {1, "neardup: bad.yaml:4: feed 1: unknown key \"intervall\" (want one of url, interval, rule)\n"},
		"nope.yaml": {2, "neardup: nope.yaml: no such file or directory\n"},
	} {
		code, _, errOut := runChildIn(t, dir, "feeds", "import", "--db", "news.db", file)
		if code != want.code || errOut != want.msg {
			t.Errorf("feeds import %s: exit %d, stderr %q; want exit %d, %q", file, code, errOut, want.code, want.msg)
		}
	}
}

// TestFeedsRemoveTwice: one feed named twice, however written, is removed
// once, and the command succeeds. Regression: the second name found no
// feed, and the command failed naming it.
func TestFeedsRemoveTwice(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://example.com/rss.xml")
	if code, _, errOut := runChild(t, "feeds", "remove", "--db", db, "https://example.com/rss.xml", "HTTPS://EXAMPLE.COM/rss.xml#x"); code != 0 {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if urls := feedURLs(t, db); len(urls) != 0 {
		t.Errorf("feeds left: %v", urls)
	}
}

// TestFeedsSetLosesNoUpdate pins a feeds set that read the feed's settings
// in one transaction and wrote them back in another, so that a feeds
// import or another feeds set committed between the two was undone. Three
// writers change three settings of one feed at once, round after round:
// after each round every change is stored.
func TestFeedsSetLosesNoUpdate(t *testing.T) {
	t.Parallel()
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			db := storetest.DSN(t, engine)
			const feed = "http://a.example/rss"
			runOK(t, "feeds", "add", "--db", db, "--no-check", feed, "--interval", "1h")
			dir := t.TempDir()
			for r := range 20 {
				interval := fmt.Sprintf("%dm", 61+r) // 1h1m, 1h2m, …
				imported := filepath.Join(dir, fmt.Sprintf("feeds%d.yaml", r))
				yaml := fmt.Sprintf("version: 1\nfeeds:\n  - url: %s\n    interval: %s\n", feed, interval)
				if err := os.WriteFile(imported, []byte(yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				writers := [][]string{
					{"feeds", "set", "--db", db, feed, "--site-rule", fmt.Sprintf("article.r%d", r)},
					{"feeds", "set", "--db", db, feed, "--strip", fmt.Sprintf("Round %d", r)},
					{"feeds", "import", "--db", db, imported},
				}
				codes := make([]int, len(writers))
				var wg sync.WaitGroup
				for i, args := range writers {
					wg.Go(func() { codes[i] = run(t.Context(), append([]string{"-q"}, args...)) })
				}
				wg.Wait()
				for i, code := range codes {
					if code != 0 {
						t.Fatalf("round %d: neardup %s: exit code %d", r, strings.Join(writers[i], " "), code)
					}
				}
				var got []watch.Stored
				_, out, _ := runChild(t, "feeds", "list", "--db", db, "--json")
				for line := range strings.Lines(out) {
					var s watch.Stored
					if err := json.Unmarshal([]byte(line), &s); err != nil {
						t.Fatalf("feeds list --json: %v\n%s", err, out)
					}
					got = append(got, s)
				}
				if len(got) != 1 {
					t.Fatalf("round %d: %d feeds stored, want 1", r, len(got))
				}
				if f := got[0].Feed; f.Rule == nil || time.Duration(f.Interval) != time.Duration(61+r)*time.Minute ||
					f.Rule.Body != fmt.Sprintf("article.r%d", r) || !slices.Equal(f.Rule.Strip, []string{fmt.Sprintf("Round %d", r)}) {
					t.Fatalf("round %d: stored interval %s, rule %+v; want interval %s, body article.r%d and strip \"Round %d\"",
						r, f.Interval, f.Rule, interval, r, r)
				}
			}
		})
	}
}

// TestFeedCommandsHidePassword pins the feeds commands' messages of a URL
// that does not parse, which quoted it whole with its password
// (`feed "https://reader:s3cret@daily.example:bad/rss": parse
// "https://reader:s3cret@…": invalid port ":bad" after host`), and the
// private URLs feeds test and feeds list --json printed as given: no
// output shows the password.
func TestFeedCommandsHidePassword(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	s := newNewsSite(t, "The A Times")
	s.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(3)))
	private := strings.Replace(s.URL, "http://", "http://reader:s3cret@", 1)
	runOK(t, "feeds", "add", "--db", db, "--no-check", private+"/feed")
	yaml, opml := filepath.Join(dir, "feeds.yaml"), filepath.Join(dir, "feeds.opml")
	var runs [][]string
	for _, u := range []string{"https://reader:s3cret@daily.example:bad/rss", "https://reader:s3cret@daily.example/%zz",
		"https://reader:s3/cret@daily.example/rss", "reader:s3cret@daily.example/rss"} {
		runs = append(runs,
			[]string{"feeds", "add", "--db", db, "--no-check", u},
			[]string{"feeds", "set", "--db", db, u, "--interval", "1h"},
			[]string{"feeds", "remove", "--db", db, u},
			[]string{"feeds", "test", u},
			[]string{"feeds", "import", "--db", db, yaml},
			[]string{"feeds", "import", "--db", db, opml})
	}
	runs = append(runs,
		[]string{"feeds", "set", "--db", db, "http://reader:s3cret@nowhere.example/rss", "--interval", "1h"},
		[]string{"feeds", "list", "--db", db},
		[]string{"feeds", "list", "--db", db, "--json"},
		[]string{"feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", private + "/news/1"},
		[]string{"feeds", "test", "--json", "--host-delay", "0", "--allow-private", "127.0.0.1", private + "/news/1"})
	for _, args := range runs {
		if args[1] == "add" {
			u := args[len(args)-1]
			if err := errors.Join(
				os.WriteFile(yaml, fmt.Appendf(nil, "version: 1\nfeeds:\n  - url: %q\n", u), 0o644),
				os.WriteFile(opml, fmt.Appendf(nil, "<opml version=\"2.0\"><body><outline text=\"x\" xmlUrl=\"%s\"/></body></opml>\n", html.EscapeString(u)), 0o644),
			); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errOut := runChild(t, args...)
		if strings.Contains(out+errOut, "s3") {
			t.Errorf("neardup %s: exit %d, the password shows:\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// The commands that read or maintain an index refuse a file that feeds
// add made for its feeds alone (exit 1) and write nothing to it, so that
// the first add chooses its method and texts. Regression: index stats on
// such a file gave it minhash without texts: watch --method was then
// refused, and the watcher's articles were stored without their texts.
func TestReadingAFileOfFeedsChoosesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	if code := run(t.Context(), []string{"feeds", "add", "-q", "--db", db, "--no-check", "https://example.com/feed"}); code != 0 {
		t.Fatalf("feeds add: exit %d", code)
	}
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	for _, args := range [][]string{
		{"index", "stats"}, {"index", "verify"}, {"index", "rescore"}, {"index", "export", "-o", filepath.Join(dir, "out")},
		{"index", "remove", "x"}, {"index", "expire", "--older-than", "30d"}, {"index", "query", example},
	} {
		args = append(args, "-q", "--db", db)
		if code := run(t.Context(), args); code != 1 {
			t.Errorf("neardup %s on a file of feeds alone: exit %d, want 1", strings.Join(args, " "), code)
		}
	}
	if code := run(t.Context(), []string{"index", "add", "-q", "--db", db, "--method", "sentences", "--only-matches", example}); code != 0 {
		t.Fatalf("index add --method sentences: exit %d", code)
	}
	x, err := neardup.Open(t.Context(), db, neardup.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if m := x.Meta(); m.Method != "sentences" || !m.StoreText {
		t.Errorf("the index has method %q, texts %v; want the first add's sentences, texts stored", m.Method, m.StoreText)
	}
}

// TestFeedsExportUnreadableFeed pins feeds export of an index one of whose
// feeds' stored settings do not decode (its row edited by hand): it failed
// whole, writing nothing. It writes every other feed, to the file or to
// stdout, names the feed left out on stderr and exits 1; feeds import of
// the file into another index reads it, and an import into the same index
// that does not name the feed goes on.
func TestFeedsExportUnreadableFeed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	for _, u := range []string{"https://a.example/rss", "https://b.example/rss"} {
		runOK(t, "feeds", "add", "--db", db, "--no-check", u)
	}
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.ExecContext(t.Context(), `UPDATE feeds SET config = '{"interval": "soon"}' WHERE url = 'https://b.example/rss'`); err != nil {
		t.Fatal(err)
	}
	const leftOut = "1 of 2 feeds left out of the export (the others are written):\n" +
		`  feed https://b.example/rss (id 2): its settings (feeds.config) do not decode: "interval": invalid duration "soon"`
	file := filepath.Join(dir, "feeds.yaml")
	code, out, errOut := runChild(t, "feeds", "export", "--db", db)
	code2, _, errOut2 := runChild(t, "feeds", "export", "--db", db, "-o", file)
	for _, r := range []struct {
		code   int
		stderr string
	}{{code, errOut}, {code2, errOut2}} {
		if r.code != 1 || !strings.Contains(r.stderr, leftOut) {
			t.Errorf("exit code %d, stderr %q; want 1 and %q", r.code, r.stderr, leftOut)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const want = "version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 15m\n"
	if out != want || string(data) != want {
		t.Errorf("exported to stdout:\n%s\nto the file:\n%s\nwant:\n%s", out, data, want)
	}
	runOK(t, "feeds", "import", "--db", filepath.Join(dir, "other.db"), file)
	more := filepath.Join(dir, "more.yaml")
	if err := os.WriteFile(more, []byte("version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 1h\n  - url: https://c.example/rss\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, "feeds", "import", "--db", db, more)
}

// TestFeedsRemoveAnOlderURL: a feed an older neardup stored under a URL
// that add now refuses (a space in its path) is removed by that URL, as
// given; feeds remove refuses such a URL only when no feed is stored
// under it.
func TestFeedsRemoveAnOlderURL(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://a.example/rss")
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	const old = "http://b.example:99999/rss"
	if _, err := sdb.ExecContext(t.Context(), `UPDATE feeds SET url = ? WHERE url = 'https://a.example/rss'`, old); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runChild(t, "feeds", "remove", "--db", db, "http://c.example:99999/rss"); code != 2 {
		t.Errorf("a URL of no feed: exit %d, want 2\n%s", code, errOut)
	}
	if code, _, errOut := runChild(t, "feeds", "remove", "--db", db, old); code != 0 {
		t.Errorf("the older feed's URL: exit %d, want 0\n%s", code, errOut)
	}
	if urls := feedURLs(t, db); len(urls) != 0 {
		t.Errorf("feeds left: %v", urls)
	}
}

// TestShellWord: the --db that feeds add tells to run watch with is one
// word of a shell command as printed: a PostgreSQL URL's "&" and "?" are
// quoted, so that pasting the line keeps its search_path. Regression: it
// was printed bare, and the shell cut the URL at "&".
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"news.db":   "news.db",
		"data/n.db": "data/n.db",
		"postgres://u@h:5432/db?sslmode=disable&search_path=wt": "'postgres://u@h:5432/db?sslmode=disable&search_path=wt'",
		"my news.db": "'my news.db'",
		"it's.db":    `'it'\''s.db'`,
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestListFeedsCountsExistsAsSkipped: the items whose article another
// feed had stored (exists) are counted under SKIPPED, as the web UI counts
// them; they were counted in no column, and a feed whose six items another
// feed had stored read 0 0 0 0.
func TestListFeedsCountsExistsAsSkipped(t *testing.T) {
	var b strings.Builder
	now := time.Now()
	feeds := []watch.Stored{{Feed: watch.Feed{URL: "https://b.example/feed.xml", Interval: watch.Duration(time.Hour)},
		Items: map[string]int{watch.OutcomeExists: 6, watch.OutcomeAdded: 1, watch.OutcomeGallery: 2}}}
	if err := listFeeds(&b, feeds, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("table:\n%s", b.String())
	}
	f := strings.Fields(lines[1])
	// FEED EVERY LAST-POLL(never) STATUS(-) ADDED DUPLICATES SKIPPED ERRORS ...
	if added, dups, skipped := f[4], f[5], f[6]; added != "1" || dups != "0" || skipped != "8" {
		t.Errorf("added %s, duplicates %s, skipped %s; want 1, 0, 8\n%s", added, dups, skipped, b.String())
	}
}

// TestFeedsListJSONOfAFeedNeverPolled: a feed never polled has no
// last_poll and no next_poll in feeds list --json, as a document without a
// date has no date in the API, where it printed the zero time
// 0001-01-01T00:00:00Z and the Unix epoch (the table says "never" and
// "now").
func TestFeedsListJSONOfAFeedNeverPolled(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:9/rss.xml")
	code, out, errOut := runChild(t, "feeds", "list", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("feeds list: exit %d\n%s", code, errOut)
	}
	var f map[string]any
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	state, _ := f["state"].(map[string]any)
	if _, ok := f["next_poll"]; ok || state == nil {
		t.Errorf("next_poll of a feed never polled: %v, want none\n%s", f["next_poll"], out)
	}
	if _, ok := state["last_poll"]; ok {
		t.Errorf("last_poll of a feed never polled: %v, want none\n%s", state["last_poll"], out)
	}
	if strings.Contains(out, "0001-01-01") || strings.Contains(out, "1970-01-01") {
		t.Errorf("feeds list --json prints a date that stands for none:\n%s", out)
	}
}

// TestFeedsTestOfABrokenFeed pins feeds test given a feed cut short: it
// said "Skipped: feed" and exited 0, with no reason, where watch and
// feeds add say what is wrong with the feed. Now it exits 1 with the
// feed's error, as watch.md says a trial does when no item gives a page.
func TestFeedsTestOfABrokenFeed(t *testing.T) {
	t.Parallel()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Daily</title><item><title>One</title><link>/news/1</li`)
	}))
	defer s.Close()
	code, out, errOut := runChild(t, "feeds", "test", "--host-delay", "0", "--allow-private", "127.0.0.1", s.URL+"/trunc.xml")
	if code != 1 || !strings.Contains(errOut, s.URL+"/trunc.xml: watch: not a feed: not well-formed XML") || !strings.Contains(errOut, "unexpected EOF") || out != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant 1 and the feed's error", code, out, errOut)
	}
}

// TestFeedsListUnreadableInterval pins feeds list of a feed whose stored
// settings do not decode: its interval showed 0s, in the table and in
// --json, while the watcher tries it again as a failing feed, with a
// backoff from the default interval, 15m. Both show the default in force,
// marked unreadable; a feed stored with none ({}) shows the default
// unmarked.
func TestFeedsListUnreadableInterval(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	for _, u := range []string{"https://a.example/rss", "https://b.example/rss", "https://c.example/rss"} {
		runOK(t, "feeds", "add", "--db", db, "--no-check", "--interval", "1h", u)
	}
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	for u, config := range map[string]string{"https://b.example/rss": `{"interval": "soon"}`, "https://c.example/rss": `{}`} {
		if _, err := sdb.ExecContext(t.Context(), `UPDATE feeds SET config = ? WHERE url = ?`, config, u); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runChild(t, "feeds", "list", "--db", db)
	if code != 0 {
		t.Fatalf("feeds list: exit %d, %s", code, errOut)
	}
	for u, want := range map[string]string{"https://a.example/rss": "1h ", "https://b.example/rss": "15m (default: unreadable) ", "https://c.example/rss": "15m "} {
		i := strings.Index(out, u)
		if i < 0 || !strings.HasPrefix(strings.TrimLeft(out[i+len(u):], " "), want) {
			t.Errorf("feeds list: the row of %s shows no interval %q:\n%s", u, want, out)
		}
	}
	code, out, errOut = runChild(t, "feeds", "list", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("feeds list --json: exit %d, %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, want := range []struct {
		interval   string
		unreadable bool
	}{{"1h", false}, {"15m", true}, {"15m", false}} {
		var got struct {
			Interval   string `json:"interval"`
			Unreadable bool   `json:"interval_unreadable"`
		}
		if i >= len(lines) || json.Unmarshal([]byte(lines[i]), &got) != nil || got.Interval != want.interval || got.Unreadable != want.unreadable {
			t.Errorf("feeds list --json: feed %d reads %+v, want %+v:\n%s", i+1, got, want, out)
		}
	}
}

// TestFeedsAddSaysWhenAWatchTakesItUp pins feeds add's message, which told
// to run watch but not that a watch already running reads the feed at its
// next read of the feeds, up to a minute later, then said it took it up
// within a minute, where it polls it only when a worker is free (and the
// feed's host holds fewer than half of them).
func TestFeedsAddSaysWhenAWatchTakesItUp(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	code, _, errOut := runChild(t, "feeds", "add", "--db", db, "--no-check", "https://a.example/rss")
	want := "added https://a.example/rss, polled every 15m; run neardup watch --db " + shellWord(db) + " (a watch running reads it within a minute and polls it when a worker is free)\n"
	if code != 0 || errOut != want {
		t.Errorf("exit %d, stderr %q; want 0 and %q", code, errOut, want)
	}
}
