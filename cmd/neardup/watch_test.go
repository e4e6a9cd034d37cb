package main

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/internal/watch"
)

// newsSite is a local news site: pages of stories and a feed listing the
// stories published so far, the newest first.
type newsSite struct {
	*httptest.Server
	name string
	mu   sync.Mutex
	// pages by path; published lists paths, oldest first.
	pages     map[string]string
	published []string
	hits      map[string]int
	delay     time.Duration
}

func newNewsSite(t *testing.T, name string) *newsSite {
	s := &newsSite{name: name, pages: map[string]string{}, hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *newsSite) serve(rw http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	page, ok := s.pages[r.URL.Path]
	var feed bytes.Buffer
	if r.URL.Path == "/rss.xml" {
		ok = true
		feed.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>` + s.name + `</title>`)
		for i := len(s.published) - 1; i >= 0; i-- {
			fmt.Fprintf(&feed, "<item><title>Story %d</title><link>%s%s</link><guid>%s-%d</guid></item>", i, s.URL, s.published[i], s.name, i)
		}
		feed.WriteString("</channel></rss>")
		page = feed.String()
	}
	delay := s.delay
	s.mu.Unlock()
	if !ok {
		http.NotFound(rw, r)
		return
	}
	time.Sleep(delay)
	io.WriteString(rw, page)
}

// publish puts a story on the site and in its feed.
func (s *newsSite) publish(path, title string, paras []string) {
	var b strings.Builder
	fmt.Fprintf(&b, `<html lang="en"><head><title>%s</title></head><body><nav><a href="/">%s</a></nav><article><h1>%s</h1>`, html.EscapeString(title), s.name, html.EscapeString(title))
	for _, p := range paras {
		fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(p))
	}
	b.WriteString(`</article><footer>All rights reserved.</footer></body></html>`)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = b.String()
	s.published = append(s.published, path)
}

func (s *newsSite) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// paragraphs returns a story of four paragraphs of three sentences.
func paragraphs(g *enginetest.TextGen) []string {
	var out []string
	for range 4 {
		out = append(out, strings.Join(g.Sentences(3), " "))
	}
	return out
}

// feedItems returns the outcomes of the stored items of every feed, by
// item.
func feedItems(t *testing.T, db string) map[string]string {
	t.Helper()
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[string]string{}
	err = st.View(t.Context(), func(r store.Reader) error {
		feeds, err := r.Feeds()
		for _, f := range feeds {
			items, err := r.RecentItems(f.ID, 1<<20)
			if err != nil {
				return err
			}
			for _, it := range items {
				out[it.Item] = it.Outcome
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWatchOnceTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	a, b := newNewsSite(t, "The A Times"), newNewsSite(t, "B Herald")
	g := enginetest.NewTextGen(5)
	stories := make([][]string, 6)
	for i := range stories {
		stories[i] = paragraphs(g)
	}
	a.publish("/news/1", "One", stories[0])
	a.publish("/news/2", "Two", stories[1])
	b.publish("/world/3", "Three", stories[2])
	b.publish("/gallery/4", "Pictures", stories[3])

	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--site-rule", "article", "--interval", "15m", "--allow-private", "127.0.0.1")
	runOK(t, "feeds", "add", "--db", db, b.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	ids, _ := storedIndex(t, db)
	if len(ids) != 3 || !ids[a.URL+"/news/1"] || !ids[b.URL+"/world/3"] {
		t.Fatalf("after the first pass: %v", ids)
	}
	if got := feedItems(t, db)[b.URL+"/gallery/4"]; got != "gallery" {
		t.Errorf("the gallery item: %q", got)
	}

	// The sites publish: B reprints A's second story under its own title
	// with a sentence of its own; A publishes a new story.
	b.publish("/world/5", "Two, reprinted", append([]string{"Our correspondent adds a line of the paper's own."}, stories[1]...))
	a.publish("/news/6", "Six", stories[5])
	runOK(t, "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	ids, marks := storedIndex(t, db)
	if len(ids) != 5 {
		t.Errorf("after the second pass: %d documents, want 5: %v", len(ids), ids)
	}
	if marks[a.URL+"/news/2~"+b.URL+"/world/5"] != "duplicate" || len(marks) != 1 {
		t.Errorf("marks %v", marks)
	}
	items := feedItems(t, db)
	if items[b.URL+"/world/5"] != "duplicate" || items[a.URL+"/news/6"] != "added" || items[a.URL+"/news/1"] != "added" {
		t.Errorf("items %v", items)
	}
	for _, p := range []string{"/news/1", "/news/2"} {
		if n := a.hit(p); n != 1 {
			t.Errorf("%s was fetched %d times", p, n)
		}
	}
	verifyClean(t, db)

	// The feeds' file round trip, and the list.
	export := filepath.Join(dir, "feeds.yaml")
	runOK(t, "feeds", "export", "--db", db, "-o", export)
	other := filepath.Join(dir, "other.db")
	runOK(t, "feeds", "import", "--db", other, export)
	runOK(t, "feeds", "export", "--db", other, "-o", export+".2")
	one, _ := os.ReadFile(export)
	two, _ := os.ReadFile(export + ".2")
	if !bytes.Equal(one, two) || !bytes.Contains(one, []byte("body: article")) {
		t.Errorf("export, import, export:\n%s\n%s", one, two)
	}
	// A feed reader's subscription list (OPML), a feed in two folders.
	opml := filepath.Join(dir, "subscriptions.opml")
	os.WriteFile(opml, []byte(`<?xml version="1.0"?><opml version="2.0"><body><outline text="News">`+
		`<outline type="rss" text="A" xmlUrl="`+a.URL+`/rss.xml"/><outline type="rss" text="C" xmlUrl="https://c.example/feed"/>`+
		`</outline><outline text="Again"><outline type="rss" text="A" xmlUrl="`+a.URL+`/rss.xml"/></outline></body></opml>`), 0o644)
	fromReader := filepath.Join(dir, "reader.db")
	runOK(t, "feeds", "import", "--db", fromReader, opml)
	runOK(t, "feeds", "export", "--db", fromReader, "-o", export+".3")
	three, _ := os.ReadFile(export + ".3")
	if bytes.Count(three, []byte("url: ")) != 2 || !bytes.Contains(three, []byte("url: "+a.URL+"/rss.xml")) ||
		!bytes.Contains(three, []byte("url: https://c.example/feed")) || !bytes.Contains(three, []byte("interval: 15m")) {
		t.Errorf("the feeds of an OPML file, exported:\n%s", three)
	}
	// Exported as OPML (by -o's extension, and by --format), and read back.
	runOK(t, "feeds", "export", "--db", fromReader, "-o", filepath.Join(dir, "out.opml"))
	runOK(t, "feeds", "export", "--db", fromReader, "--format", "opml", "-o", filepath.Join(dir, "out.xml"))
	byExt, _ := os.ReadFile(filepath.Join(dir, "out.opml"))
	byFlag, _ := os.ReadFile(filepath.Join(dir, "out.xml"))
	if !bytes.Equal(byExt, byFlag) || !bytes.HasPrefix(byExt, []byte("<?xml")) || !bytes.Contains(byExt, []byte(`xmlUrl="https://c.example/feed"`)) {
		t.Errorf("OPML export:\n%s\n%s", byExt, byFlag)
	}
	again := filepath.Join(dir, "again.db")
	runOK(t, "feeds", "import", "--db", again, filepath.Join(dir, "out.opml"))
	runOK(t, "feeds", "export", "--db", again, "-o", export+".4")
	if four, _ := os.ReadFile(export + ".4"); !bytes.Equal(four, three) {
		t.Errorf("OPML exported and imported:\n%s\nwant\n%s", four, three)
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"list", []string{"feeds", "list", "--db", db}, 0},
		{"list as JSON", []string{"feeds", "list", "--db", db, "--json"}, 0},
		{"set", []string{"feeds", "set", "--db", db, b.URL + "/rss.xml", "--interval", "1h", "--site-rule", "main"}, 0},
		{"set a missing feed", []string{"feeds", "set", "--db", db, "http://none.example/rss", "--interval", "1h"}, 1},
		{"add twice", []string{"feeds", "add", "--db", db, a.URL + "/rss.xml", "--allow-private", "127.0.0.1"}, 1},
		{"add a bad URL", []string{"feeds", "add", "--db", db, "ftp://x/rss"}, 2},
		{"add a bad selector", []string{"feeds", "add", "--db", db, "http://c.example/rss", "--site-rule", "div[["}, 2},
		{"add a short interval", []string{"feeds", "add", "--db", db, "http://c.example/rss", "--interval", "5s"}, 2},
		{"watch without feeds", []string{"watch", "--db", filepath.Join(dir, "empty.db"), "--once"}, 1},
		{"watch with bad workers", []string{"watch", "--db", db, "--once", "--workers", "0"}, 2},
		{"watch with another method", []string{"watch", "--db", db, "--once", "--method", "sentences"}, 1},
		{"test a rule", []string{"feeds", "test", a.URL + "/news/6", "--site-rule", "article", "--allow-private", "127.0.0.1"}, 0},
		{"test a page on this machine", []string{"feeds", "test", a.URL + "/news/6"}, 1},
		{"test with a bad range", []string{"feeds", "test", a.URL + "/news/6", "--allow-private", "intranet"}, 2},
		{"watch with a bad range", []string{"watch", "--db", db, "--once", "--allow-private", "10.0.0.0/33"}, 2},
		{"test a missing page", []string{"feeds", "test", a.URL + "/nothing", "--allow-private", "127.0.0.1"}, 1},
		{"remove", []string{"feeds", "remove", "--db", db, b.URL + "/rss.xml"}, 0},
		{"remove twice", []string{"feeds", "remove", "--db", db, b.URL + "/rss.xml"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(t.Context(), append([]string{"-q"}, tc.args...)); got != tc.want {
				t.Errorf("exit code %d, want %d", got, tc.want)
			}
		})
	}
	if ids2, _ := storedIndex(t, db); len(ids2) != 5 {
		t.Errorf("removing a feed changed the documents: %d", len(ids2))
	}
}

// A pass of watch --once in which a feed fails exits 1, for cron to tell,
// and stores what the other feeds gave.
func TestWatchOnceFailedFeed(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	a := newNewsSite(t, "The A Times")
	a.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(7)))
	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "feeds", "add", "--db", db, "--no-check", a.URL+"/missing.xml")
	if got := run(t.Context(), []string{"-q", "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1"}); got != 1 {
		t.Errorf("exit code %d, want 1", got)
	}
	if ids, _ := storedIndex(t, db); len(ids) != 1 || !ids[a.URL+"/news/1"] {
		t.Errorf("the working feed's article: %v", ids)
	}
	if err := failedFeeds([]watch.Result{{Status: "ok"}, {Feed: "http://a.example/rss", Status: "error", Err: errors.New("HTTP 404")}}); err == nil ||
		err.Error() != "1 of 2 feeds failed (the articles of the others are stored):\n  http://a.example/rss: HTTP 404" {
		t.Errorf("the error: %v", err)
	}
	// A feed whose state or articles the index did not store: its error
	// names it once.
	locked := errors.New("feed http://a.example/rss: storing its state: store: news.db: another process is writing to the index")
	if err := failedFeeds([]watch.Result{{Feed: "http://a.example/rss", Status: "error", Err: locked}}); err == nil ||
		err.Error() != "1 of 1 feeds failed:\n  "+locked.Error() {
		t.Errorf("the error of a feed not stored: %v", err)
	}
}

// TestWatchSummaryKeysApart: the summary line of watch --once counts the
// polls by status and the items by outcome under keys of their own
// (polls.error, items.error), as each key is given once. Regression: it
// read "error=1 ok=1 added=1 error=1", the feeds failed and the items
// failed under one key, of which a log parser keeps one.
func TestWatchSummaryKeysApart(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	a := newNewsSite(t, "The A Times")
	a.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(7)))
	a.mu.Lock()
	a.published = append(a.published, "/news/gone") // an item whose page is a 404
	a.mu.Unlock()
	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "feeds", "add", "--db", db, "--no-check", a.URL+"/missing.xml")
	code, _, errOut := runChild(t, "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	var summary string
	for _, line := range strings.Split(errOut, "\n") {
		if strings.Contains(line, `msg="watch done"`) {
			summary = line
		}
	}
	if summary == "" {
		t.Fatalf("no summary line in\n%s", errOut)
	}
	got := map[string]string{}
	for _, kv := range logfmtPair.FindAllStringSubmatch(summary, -1) {
		if _, ok := got[kv[1]]; ok {
			t.Errorf("the key %s is given twice: %s", kv[1], summary)
		}
		got[kv[1]] = kv[2]
	}
	for k, v := range map[string]string{"polls.ok": "1", "polls.error": "1", "items.added": "1", "items.error": "1"} {
		if got[k] != v {
			t.Errorf("%s=%q, want %s: %s", k, got[k], v, summary)
		}
	}
}

// logfmtPair is a key=value pair of a slog text line, the value quoted or
// not.
var logfmtPair = regexp.MustCompile(`(?:^| )([^ =]+)=("(?:[^"\\]|\\.)*"|[^ ]*)`)

// TestWatchUnreadableFeed: a feed whose stored settings do not decode (its
// row edited by hand) is that feed's failure: watch --once polls the
// others and names it among the feeds failed, and feeds list shows it
// failing. Both ended with that error alone (exit 1), polling nothing and
// listing no feed.
func TestWatchUnreadableFeed(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	a := newNewsSite(t, "The A Times")
	a.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(7)))
	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "feeds", "add", "--db", db, "--no-check", a.URL+"/other.xml")
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.ExecContext(t.Context(), `UPDATE feeds SET config = '{"interval": "soon"}' WHERE url = ?`, a.URL+"/other.xml"); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runChild(t, "-q", "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	want := "1 of 2 feeds failed (the articles of the others are stored):\n  feed " + a.URL + `/other.xml (id 2): its settings (feeds.config) do not decode: "interval": invalid duration "soon"`
	if code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("exit code %d, want 1; stderr lacks %q:\n%s", code, want, errOut)
	}
	if ids, _ := storedIndex(t, db); len(ids) != 1 || !ids[a.URL+"/news/1"] {
		t.Errorf("the working feed's article: %v", ids)
	}
	if a.hit("/other.xml") != 0 {
		t.Errorf("the feed whose settings do not decode was fetched")
	}
	code, out, errOut := runChild(t, "feeds", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "error: feed "+a.URL+"/other.xml (id 2)") {
		t.Errorf("feeds list: exit code %d\n%s%s", code, out, errOut)
	}
}

// TestWatchOnceNamesRedirectedFeeds: the closing lines of watch --once
// name a failed feed by its own URL when it redirected elsewhere (to a 404,
// or round a loop), not by the last hop alone.
func TestWatchOnceNamesRedirectedFeeds(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	mux := http.NewServeMux()
	mux.HandleFunc("/redir", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/nosuch.xml", http.StatusFound) })
	mux.HandleFunc("/loop", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/loop", http.StatusFound) })
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	for _, p := range []string{"/redir", "/loop"} {
		runOK(t, "feeds", "add", "--db", db, "--no-check", s.URL+p)
	}
	code, _, errOut := runChild(t, "-q", "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	for _, want := range []string{"\n  " + s.URL + "/redir: HTTP 404", "\n  " + s.URL + "/loop: "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("no %q in\n%s", want, errOut)
		}
	}
}

// A watcher killed at any moment of a pass keeps every article it stored
// and, restarted, neither stores one twice nor fetches a stored one again.
func TestWatchSurvivesKill(t *testing.T) {
	t.Parallel()
	perSite, kills := 20, 1
	if long() {
		perSite, kills = 200, 8
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	g := enginetest.NewTextGen(8)
	var sites []*newsSite
	for i := range 3 {
		s := newNewsSite(t, fmt.Sprintf("Site %d", i))
		s.delay = 15 * time.Millisecond
		for j := range perSite {
			// Titles of words of their own: titles alike would make the
			// stories, whose texts share words, one story (similar).
			title := strings.Join(enginetest.Words(2*(perSite*i+j), 2), " ")
			s.publish(fmt.Sprintf("/story/%d", j), title, paragraphs(g))
		}
		runOK(t, "feeds", "add", "--db", db, s.URL+"/rss.xml", "--allow-private", "127.0.0.1")
		sites = append(sites, s)
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	for k := range kills {
		cmd := child(t, "-q", "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill at a random moment after the pass stored a chunk more.
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		had := len(feedItems(t, db))
	wait:
		for len(feedItems(t, db)) == had {
			select {
			case <-exited:
				break wait
			case <-time.After(10 * time.Millisecond):
			}
		}
		time.Sleep(time.Duration(r.IntN(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		verifyClean(t, db)
		ids, _ := storedIndex(t, db)
		t.Logf("kill %d: %d articles stored", k, len(ids))
	}
	// Pages stored before the last run must not be fetched again.
	before := feedItems(t, db)
	hits := map[string]int{}
	for _, s := range sites {
		for j := range perSite {
			p := fmt.Sprintf("/story/%d", j)
			hits[s.URL+p] = s.hit(p)
		}
	}
	runOK(t, "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1")
	verifyClean(t, db)
	ids, marks := storedIndex(t, db)
	items := feedItems(t, db)
	if len(ids) != 3*perSite || len(items) != 3*perSite || len(marks) != 0 {
		t.Errorf("%d articles, %d items, %d marks; want %d, %d and none", len(ids), len(items), len(marks), 3*perSite, 3*perSite)
	}
	for item, outcome := range items {
		if outcome != "added" {
			t.Errorf("%s: %s", item, outcome)
		}
	}
	for _, s := range sites {
		for j := range perSite {
			p := fmt.Sprintf("/story/%d", j)
			if _, stored := before[s.URL+p]; stored && s.hit(p) != hits[s.URL+p] {
				t.Errorf("%s%s was stored before the last run and fetched again", s.URL, p)
			}
		}
	}
}

// feeds add, watch and feeds test refuse a feed on this machine unless
// --allow-private names its address: the site is never asked.
func TestWatchRefusesLoopback(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	a := newNewsSite(t, "The Local Times")
	a.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(9)))
	if got := run(t.Context(), []string{"-q", "feeds", "add", "--db", db, a.URL + "/rss.xml"}); got != 1 {
		t.Errorf("feeds add: exit code %d, want 1 (the feed refused)", got)
	}
	a.mu.Lock()
	hits := len(a.hits)
	a.mu.Unlock()
	if hits != 0 {
		t.Fatalf("feeds add asked the site for %d paths, want none", hits)
	}
	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--no-check")
	if got := run(t.Context(), []string{"-q", "watch", "--db", db, "--once", "--host-delay", "0"}); got != 1 {
		t.Errorf("watch: exit code %d, want 1 (the feed refused)", got)
	}
	if got := run(t.Context(), []string{"-q", "feeds", "test", a.URL + "/news/1"}); got != 1 {
		t.Errorf("feeds test: exit code %d, want 1", got)
	}
	a.mu.Lock()
	hits = len(a.hits)
	a.mu.Unlock()
	if hits != 0 {
		t.Errorf("the site was asked for %d paths, want none", hits)
	}
	runOK(t, "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.0/8")
	if ids, _ := storedIndex(t, db); !ids[a.URL+"/news/1"] {
		t.Errorf("allowed, the article is not stored: %v", ids)
	}
}

// TestWatchOncePausedFeed: a run from cron that finds its feed's host
// paused (a Retry-After an earlier run met, kept in the index) asks nothing
// of it and exits 0, saying until when: the host asked to be left alone,
// and nothing failed. Every such run exited 1 for the feed, for a day's
// Retry-After a mail an hour.
func TestWatchOncePausedFeed(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		rw.Header().Set("Retry-After", "3600")
		http.Error(rw, "slow down", http.StatusTooManyRequests)
	}))
	t.Cleanup(srv.Close)
	runOK(t, "feeds", "add", "--db", db, "--no-check", srv.URL+"/rss.xml")
	args := []string{"watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1"}
	if code, _, errOut := runChild(t, args...); code != 1 {
		t.Errorf("the run that met the 429: exit code %d, want 1\n%s", code, errOut)
	}
	code, _, errOut := runChild(t, args...)
	if code != 0 || !strings.Contains(errOut, "feed paused") || !strings.Contains(errOut, "asked to retry in") {
		t.Errorf("the run in the pause: exit code %d, want 0 and the pause logged\n%s", code, errOut)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the paused host was asked %d times, want once", n)
	}
}

// TestFetchFlagsTakeSpans pins --host-delay and --timeout read as Go's
// durations alone, where every other span of the command line is read by
// span: --host-delay 2d and --timeout 2min were refused (time: unknown
// unit). Now they take the forms of feeds add --interval, the Go forms
// they took before included ("500ms", "1m" for a minute, "0" for no
// delay), and keep their defaults and refusals; extract's --timeout too.
func TestFetchFlagsTakeSpans(t *testing.T) {
	for _, tc := range []struct {
		name           string
		args           []string
		delay, timeout time.Duration // the options', -1: no delay
		err            string
	}{
		{"defaults", nil, watch.DefaultHostDelay, watch.DefaultTimeout, ""},
		{"milliseconds", []string{"--host-delay", "500ms", "--timeout", "1500ms"}, 500 * time.Millisecond, 1500 * time.Millisecond, ""},
		{"go durations", []string{"--host-delay", "1m", "--timeout", "1h30m"}, time.Minute, 90 * time.Minute, ""},
		{"min", []string{"--host-delay", "2s", "--timeout", "90min"}, 2 * time.Second, 90 * time.Minute, ""},
		{"days", []string{"--host-delay", "1.5s", "--timeout", "2d"}, 1500 * time.Millisecond, 48 * time.Hour, ""},
		{"no delay", []string{"--host-delay", "0"}, -1, watch.DefaultTimeout, ""},
		{"no delay in seconds", []string{"--host-delay", "0s"}, -1, watch.DefaultTimeout, ""},
		{"negative delay", []string{"--host-delay", "-1s"}, 0, 0, "--host-delay must be 0 or more, not -1s"},
		{"zero timeout", []string{"--timeout", "0s"}, 0, 0, "--timeout must be positive, not 0s"},
		{"negative timeout", []string{"--timeout", "-2min"}, 0, 0, "--timeout must be positive, not -2m0s"},
		{"delay no span", []string{"--host-delay", "soon"}, 0, 0, `--host-delay: invalid duration "soon": want a duration such as`},
		{"timeout unknown unit", []string{"--timeout", "2y"}, 0, 0, `--timeout: invalid duration "2y": unknown unit "y"`},
		{"timeout no unit", []string{"--timeout", "30"}, 0, 0, `--timeout: invalid duration "30": a number without its unit`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c cli
			args := append([]string{"feeds", "test", "https://example.com/a"}, tc.args...)
			k, err := newParser(&c, onlyCommand(args))
			if err != nil {
				t.Fatal(err)
			}
			var o watch.Options
			if _, err = k.Parse(args); err == nil {
				o, err = c.Feeds.Test.options(&globals{ctx: t.Context(), quiet: true})
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("%v, want an error holding %q", err, tc.err)
				}
				return
			}
			if err != nil || o.HostDelay != tc.delay || o.Timeout != tc.timeout {
				t.Errorf("host delay %v, timeout %v, %v; want %v, %v", o.HostDelay, o.Timeout, err, tc.delay, tc.timeout)
			}
		})
	}
	// extract's --timeout, a page's, is read so too: one flag name, one type.
	for in, want := range map[string]time.Duration{"": extract.DefaultTimeout, "500ms": 500 * time.Millisecond, "1m": time.Minute, "2min": 2 * time.Minute} {
		var c cli
		args := []string{"extract", "a.html"}
		if in != "" {
			args = append(args, "--timeout", in)
		}
		k, err := newParser(&c, onlyCommand(args))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Parse(args); err != nil || time.Duration(c.Extract.Timeout) != want {
			t.Errorf("extract --timeout %q: %v, %v; want %v", in, time.Duration(c.Extract.Timeout), err, want)
		}
	}
	// serve's timeouts, a connection's, are read so too.
	var c cli
	args := []string{"serve", "--read-timeout", "10s", "--write-timeout", "2min", "--idle-timeout", "1h30m"}
	k, err := newParser(&c, onlyCommand(args))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Parse(args); err != nil || time.Duration(c.Serve.ReadTimeout) != 10*time.Second ||
		time.Duration(c.Serve.WriteTimeout) != 2*time.Minute || time.Duration(c.Serve.IdleTimeout) != 90*time.Minute {
		t.Errorf("serve %q: %v, %v, %v, %v", args[1:], c.Serve.ReadTimeout, c.Serve.WriteTimeout, c.Serve.IdleTimeout, err)
	}
}

// TestWatchMaxItems: watch --max-items N takes the newest N items of a
// feed, the first it lists, leaving the others out with a warning, not a
// failure (exit 0); serve's --watch-max-items is the same bound; neither
// takes less than 1. A feed's items had no bound: one of 232,570 made one
// poll fetch and store every one.
func TestWatchMaxItems(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	a := newNewsSite(t, "The A Times")
	g := enginetest.NewTextGen(11)
	for i := range 5 {
		a.publish(fmt.Sprint("/news/", i), fmt.Sprint("Story ", i), paragraphs(g))
	}
	runOK(t, "feeds", "add", "--db", db, a.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	code, _, stderr := runChild(t, "-q", "watch", "--db", db, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1", "--max-items", "2")
	if code != 0 {
		t.Errorf("exit code %d, want 0: %s", code, stderr)
	}
	if ids, _ := storedIndex(t, db); len(ids) != 2 || !ids[a.URL+"/news/4"] || !ids[a.URL+"/news/3"] {
		t.Errorf("stored %v, want the newest 2, /news/4 and /news/3", ids)
	}
	if !strings.Contains(stderr, "level=WARN") || !strings.Contains(stderr, "cut=3") {
		t.Errorf("stderr %s, want a warning that 3 items were left out", stderr)
	}
	for _, args := range [][]string{
		{"watch", "--db", db, "--once", "--max-items", "0"},
		{"serve", "--db", db, "--watch", "--watch-max-items", "0"},
	} {
		if got := run(t.Context(), append([]string{"-q"}, args...)); got != 2 {
			t.Errorf("%s: exit code %d, want 2", strings.Join(args, " "), got)
		}
	}
}

// An open that writes (a new index's schema, an older one's upgrade) while
// another process holds the writer lock past the wait is waited out: watch
// logs it and tries again, as it waits out the lock for its writes, rather
// than exit 1 at its start (a watcher a service manager starts beside an
// import).
func TestWatchWaitsOutTheLockAtItsStart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "news.db") // a new file, whose schema the open writes
	defer func(w time.Duration) { openRetryWait = w }(openRetryWait)
	openRetryWait = 10 * time.Millisecond
	release := storetest.HoldWriteLock(t, db)
	var log lockedLog
	logger := slog.New(slog.NewTextHandler(&log, nil))
	f := &dbFlags{DB: db, Sync: "normal"}
	done := make(chan error, 1)
	go func() {
		x, err := waitingOut(t.Context(), logger, func() (*apiIndex, error) {
			return f.openAPI(t.Context(), neardup.Options{StoreTextIfNew: true, LockWait: 20 * time.Millisecond})
		})
		if err == nil {
			err = x.Close()
		}
		done <- err
	}()
	const wanted = "another process is writing to the index; trying again"
	for strings.Count(log.String(), wanted) < 2 {
		select {
		case err := <-done:
			t.Fatalf("the open ended while the lock was held: %v\n%s", err, log.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	release()
	if err := <-done; err != nil {
		t.Errorf("the open once the lock was released: %v", err)
	}
	if !strings.Contains(log.String(), "in=20ms") {
		t.Errorf("the waits did not double:\n%s", log.String())
	}
}

// lockedLog is a log a test reads while it is written.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A database out of reach at watch's start (a PostgreSQL server starting
// with the machine) is waited out as it is while watch runs; watch exited
// 1 at once.
func TestWatchWaitsOutAnUnreachableDatabaseAtItsStart(t *testing.T) {
	defer func(w time.Duration) { openRetryWait = w }(openRetryWait)
	openRetryWait = time.Millisecond
	db := filepath.Join(t.TempDir(), "news.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "http://127.0.0.1:1/feed.xml")
	var log lockedLog
	tries := 0
	x, err := waitingOut(t.Context(), slog.New(slog.NewTextHandler(&log, nil)), func() (*apiIndex, error) {
		tries++
		dsn := "postgres://neardup@127.0.0.1:1/postgres?connect_timeout=2" // nothing listens there
		if tries == 3 {
			dsn = db // the server is up
		}
		f := &dbFlags{DB: dsn, Sync: "normal"}
		return f.openAPI(t.Context(), neardup.Options{StoreTextIfNew: true})
	})
	if err != nil || tries != 3 {
		t.Fatalf("the open: %v after %d tries\n%s", err, tries, log.String())
	}
	x.Close()
	if n := strings.Count(log.String(), "the index's database cannot be reached; trying again"); n != 2 {
		t.Errorf("%d waits logged, want 2:\n%s", n, log.String())
	}
}
