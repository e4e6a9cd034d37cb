package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store/storetest"
)

// publish serves n stories of a site from seed on under /story/i and
// returns the feed items of them, the newest first.
func publish(s *site, name string, seed uint64, n int) []item {
	var items []item
	for i := range n {
		st := newStory(seed + uint64(i))
		path := fmt.Sprintf("/story/%d", i)
		s.serve(path, "text/html; charset=utf-8", st.page(name, ""))
		items = append([]item{{title: st.title, link: s.URL + path, guid: fmt.Sprintf("g%d", i),
			date: time.Date(2026, 11, 1, 8, i, 0, 0, time.UTC)}}, items...)
	}
	return items
}

func TestFeedFormats(t *testing.T) {
	x := newIndex(t)
	formats := []struct {
		name, contentType string
		render            func(...item) string
	}{
		{"rss 0.91", "application/rss+xml", rss091},
		{"rss 1.0", "application/rdf+xml", rss1},
		{"rss 2.0", "application/rss+xml", rss2},
		{"atom", "application/atom+xml", atomFeed},
		{"json feed", "application/feed+json", jsonFeed},
	}
	for i, f := range formats {
		s := newSite(t)
		s.serve("/feed", f.contentType, f.render(publish(s, f.name, uint64(100*i), 3)...))
		addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	}
	w := newWatcher(t, x, testOptions())
	for i, r := range once(t, w) {
		if r.Status != "ok" || r.Items != 3 || r.New != 3 || r.Outcomes[OutcomeAdded] != 3 {
			t.Errorf("%s: %+v", formats[i].name, r)
		}
	}
	if n := x.Len(); n != 15 {
		t.Errorf("%d documents stored, want 15", n)
	}
	// A second pass finds nothing new.
	for i, r := range once(t, w) {
		if r.Status != "ok" || r.New != 0 {
			t.Errorf("%s, second pass: %+v", formats[i].name, r)
		}
	}
}

func TestStoredArticle(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	st := newStory(1)
	s.serve("/story/1", "text/html", st.page("Daily", s.URL+"/news/story-1?utm_source=rss"))
	s.serve("/feed", "application/rss+xml", rss2(item{title: "Feed title", link: s.URL + "/story/1?utm_medium=rss#top",
		date: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, newWatcher(t, x, testOptions()))
	d, err := x.Document(t.Context(), s.URL+"/story/1")
	if err != nil {
		t.Fatal(err)
	}
	// Its URL is the address fetched, canonical; not the one the page names.
	want := browse.Doc{ID: s.URL + "/story/1", URL: s.URL + "/story/1", Title: st.title, Source: "127.0.0.1",
		Date: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}
	if d.ID != want.ID || d.URL != want.URL || d.Title != want.Title || d.Source != want.Source || !d.Date.Equal(want.Date) {
		t.Errorf("stored %+v\nwant %+v", d, want)
	}
	items := storedItems(t, x, s.URL+"/feed")
	if it := items[s.URL+"/story/1"]; it.Outcome != OutcomeAdded || it.Lang != "en" || it.Doc != d.ID {
		t.Errorf("item %+v", it)
	}
}

func TestConditionalGet(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	body := rss2(publish(s, "Daily", 1, 2)...)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` || r.Header.Get("If-Modified-Since") == "Sun, 01 Nov 2026 08:00:00 GMT" {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		rw.Header().Set("ETag", `"v1"`)
		rw.Header().Set("Last-Modified", "Sun, 01 Nov 2026 08:00:00 GMT")
		fmt.Fprint(rw, body)
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	if r := once(t, w)[0]; r.Status != "ok" || r.New != 2 {
		t.Fatalf("first poll %+v", r)
	}
	if r := once(t, w)[0]; r.Status != "not modified" || r.New != 0 {
		t.Errorf("second poll %+v", r)
	}
	if n := s.hit("/story/0"); n != 1 {
		t.Errorf("the page was fetched %d times", n)
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil || len(feeds) != 1 || feeds[0].State.Status != "not modified" || feeds[0].State.Polls != 2 ||
		feeds[0].State.ETag != `"v1"` || feeds[0].Items[OutcomeAdded] != 2 {
		t.Errorf("feeds %+v %v", feeds, err)
	}
}

// A 304 to a request that sent no ETag or Last-Modified is an error
// naming the 304, the same to a poll and to a check of the feed (feeds
// add): the poll recorded "not modified" on every pass and never an
// error, and the check said "not a feed: failed to detect feed type". A
// redirect's target answering so is the same.
func TestUnaskedNotModified(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusNotModified) })
	s.handle("/moved", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/feed", http.StatusFound) })
	const want = "HTTP 304 Not Modified from "
	for _, path := range []string{"/feed", "/moved"} {
		if _, err := CheckFeed(t.Context(), s.URL+path, testOptions()); err == nil || !strings.Contains(err.Error(), want+s.URL+"/feed") ||
			!strings.Contains(err.Error(), "sent no ETag or Last-Modified") || errors.Is(err, ErrNotFeed) {
			t.Errorf("CheckFeed(%s): %v, want an error naming the 304", path, err)
		}
	}
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	for pass := range 2 {
		if r := once(t, w)[0]; r.Status != "error" || r.Err == nil || !strings.Contains(r.Err.Error(), want+s.URL+"/feed") {
			t.Errorf("pass %d: %+v (%v), want an error naming the 304", pass, r, r.Err)
		}
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil || len(feeds) != 1 || !strings.Contains(feeds[0].State.Status, want) || feeds[0].State.Failures != 2 {
		t.Errorf("feeds %+v %v, want the 304 as the status, 2 failures", feeds, err)
	}
}

// TestRetryUnderNotModified pins a page that failed with a 5xx being
// tried again on the next pass though the feed, unchanged, would answer
// 304; the page that was stored is not fetched again.
func TestRetryUnderNotModified(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 2)
	body := rss2(items...)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		rw.Header().Set("ETag", `"v1"`)
		fmt.Fprint(rw, body)
	})
	page := newStory(2).page("Daily", "")
	var mu sync.Mutex
	broken := true
	s.handle("/story/1", func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if broken {
			http.Error(rw, "oops", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(rw, page)
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	if r := once(t, w)[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 || r.Outcomes[OutcomeError] != 1 {
		t.Fatalf("first poll %+v", r)
	}
	mu.Lock()
	broken = false
	mu.Unlock()
	if r := once(t, w)[0]; r.Status != "ok" || r.New != 1 || r.Outcomes[OutcomeAdded] != 1 {
		t.Errorf("second poll %+v", r)
	}
	if r := once(t, w)[0]; r.Status != "not modified" || r.New != 0 {
		t.Errorf("third poll %+v", r)
	}
	if a, b := s.hit("/story/0"), s.hit("/story/1"); a != 1 || b != 2 {
		t.Errorf("the pages were fetched %d and %d times, want 1 and 2", a, b)
	}
	if it := storedItems(t, x, s.URL+"/feed")[s.URL+"/story/1"]; it.Outcome != OutcomeAdded {
		t.Errorf("the retried item %+v", it)
	}
}

func TestBrowserUserAgent(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 1)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "Mozilla/") {
			http.Error(rw, "bots go away", http.StatusForbidden)
			return
		}
		fmt.Fprint(rw, rss2(items...))
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	if r := once(t, w)[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 {
		t.Fatalf("first poll %+v", r)
	}
	feeds, _ := Feeds(t.Context(), x)
	if !feeds[0].State.BrowserUA {
		t.Errorf("the feed's state does not record the browser User-Agent: %+v", feeds[0].State)
	}
	s.mu.Lock()
	if got := s.agents; len(got) != 3 || got[0] != DefaultUserAgent || got[1] != DefaultBrowserUserAgent || got[2] != DefaultBrowserUserAgent {
		t.Errorf("User-Agents %q", got)
	}
	s.agents = nil
	s.mu.Unlock()
	once(t, w)
	if got := s.agents; len(got) != 1 || got[0] != DefaultBrowserUserAgent {
		t.Errorf("second poll: User-Agents %q, want the browser one at once", got)
	}
}

func TestGUIDChurnAndReordering(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 4)
	pass := 0
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		churned := make([]item, len(items))
		for i, it := range items {
			it.guid = fmt.Sprintf("urn:%d:%d", pass, i)        // new GUIDs every poll
			it.link += fmt.Sprintf("?utm_source=feed%d", pass) // and new tracking parameters
			churned[(i+pass)%len(items)] = it                  // in another order
		}
		pass++
		fmt.Fprint(rw, rss2(churned...))
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	if r := once(t, w)[0]; r.New != 4 || r.Outcomes[OutcomeAdded] != 4 {
		t.Fatalf("first poll %+v", r)
	}
	for range 2 {
		if r := once(t, w)[0]; r.Status != "ok" || r.New != 0 {
			t.Errorf("a later poll found new items: %+v", r)
		}
	}
	if s.hit("/story/2") != 1 || x.Len() != 4 {
		t.Errorf("a page was fetched %d times, %d documents stored", s.hit("/story/2"), x.Len())
	}
}

func TestOldestFirst(t *testing.T) {
	d := func(h int) time.Time { return time.Date(2026, 11, 1, h, 0, 0, 0, time.UTC) }
	s := newSite(t)
	x := newIndex(t)
	// The same story published twice: the feed lists the later copy
	// first; the earlier one must be stored as the original.
	st := newStory(5)
	s.serve("/story/0", "text/html", st.page("Daily", ""))
	s.serve("/story/1", "text/html", st.page("Daily", ""))
	s.serve("/feed", "application/rss+xml", rss2(item{title: "b", link: s.URL + "/story/1", date: d(9)}, item{title: "a", link: s.URL + "/story/0", date: d(8)}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	once(t, newWatcher(t, x, testOptions()))
	items := storedItems(t, x, s.URL+"/feed")
	if items[s.URL+"/story/0"].Outcome != OutcomeAdded || items[s.URL+"/story/1"].Outcome != OutcomeDuplicate {
		t.Errorf("items %+v", items)
	}
}

// TestLongLinkID: the article of an item whose link is longer than an id
// may be is stored under a hash of the link, an id the HTTP API can name,
// and another feed's item of that link finds it stored.
func TestLongLinkID(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			s := newSite(t)
			path := "/story/" + strings.Repeat("long-", 130)
			s.serve(path, "text/html; charset=utf-8", newStory(1).page("Daily", ""))
			link := s.URL + path
			it := item{title: "Long", link: link, guid: "g", date: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}
			s.serve("/feed", "application/rss+xml", rss2(it))
			s.serve("/other", "application/rss+xml", rss2(it))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			addFeed(t, x, Feed{URL: s.URL + "/other", Interval: Duration(time.Hour)})
			o := testOptions()
			o.Workers = 1 // the other feed after the first
			res := once(t, newWatcher(t, x, o))
			if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 {
				t.Fatalf("%+v (%v)", r, r.Err)
			}
			if r := res[1]; r.Status != "ok" || r.Outcomes[OutcomeExists] != 1 {
				t.Errorf("the other feed: %+v (%v)", r, r.Err)
			}
			id := storedItems(t, x, s.URL+"/feed")[link].Doc
			if want := articleID(link); id != want || !strings.HasPrefix(id, "link-") || core.BadID(id) != "" {
				t.Fatalf("the item's document %q, want %q", id, want)
			}
			if d, err := x.Document(t.Context(), id); err != nil || d.URL != link {
				t.Errorf("the stored document %+v, %v", d.Doc, err)
			}
			if other := storedItems(t, x, s.URL+"/other")[link].Doc; other != id {
				t.Errorf("the other feed's item names %q, want %q", other, id)
			}
		})
	}
}

// TestNULInGUID: an item keyed by a GUID that holds a NUL character (a JSON
// Feed may send one) is stored on both engines, and the feed's pass is ok;
// so is an item without a link whose title, stored as its detail, holds one.
func TestNULInGUID(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			s := newSite(t)
			s.serve("/feed", "application/feed+json",
				`{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"g\u0000one"},{"id":"g2","title":"no\u0000link"}]}`)
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			r := once(t, newWatcher(t, x, testOptions()))[0]
			if r.Status != "ok" || r.Outcomes[OutcomeNoLink] != 2 {
				t.Fatalf("%+v (%v)", r, r.Err)
			}
			if it, ok := storedItems(t, x, s.URL+"/feed")["g\uFFFDone"]; !ok || it.Outcome != OutcomeNoLink {
				t.Errorf("the item: %+v", storedItems(t, x, s.URL+"/feed"))
			}
		})
	}
}

// TestNULInItemTitle: an item whose title holds a NUL character (a JSON
// Feed's \u0000), the title of its article when the page has none, is
// stored on both engines with U+FFFD for it, as a GUID's is, and so are
// the feed's other items. The index refused the article, and the chunk's
// transaction failed: the feed's pass, and the run (Once's error; Run
// stopped), stored none of them.
func TestNULInItemTitle(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			s := newSite(t)
			const untitled = `<!DOCTYPE html><html><body><article><p>%s</p></article></body></html>`
			s.serve("/one", "text/html; charset=utf-8", fmt.Sprintf(untitled, newStory(1).text()))
			s.serve("/two", "text/html; charset=utf-8", fmt.Sprintf(untitled, newStory(2).text()))
			s.serve("/feed", "application/feed+json", fmt.Sprintf(`{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[`+
				`{"id":"1","url":%q,"title":"Storm\u0000 warning"},{"id":"2","url":%q,"title":"Calm"}]}`, s.URL+"/one", s.URL+"/two"))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			r := once(t, newWatcher(t, x, testOptions()))[0]
			if r.Status != "ok" || r.Outcomes[OutcomeAdded] != 2 {
				t.Fatalf("%+v (%v), want both items added", r, r.Err)
			}
			if d, _ := stored(t, x, s.URL+"/one"); d.Title != "Storm\uFFFD warning" {
				t.Errorf("the stored title %q", d.Title)
			}
		})
	}
}

func TestTwoFeedsOneStory(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) { twoFeedsOneStory(t, newIndexAt(t, storetest.DSN(t, engine))) })
	}
}

func twoFeedsOneStory(t *testing.T, x *neardup.Index) {
	a, b := newSite(t), newSite(t)
	st := newStory(42)
	// Site B reprints the story under its own headline and boilerplate,
	// with a sentence of its own: a near-duplicate, not an exact copy.
	reprint := st
	reprint.title = "Reprinted: " + st.title
	reprint.paras = append([]string{"Our correspondent adds that the details are still emerging tonight."}, st.paras...)
	a.serve("/story/0", "text/html", st.page("The A Times", ""))
	b.serve("/story/0", "text/html", reprint.page("B Herald", ""))
	// Site C copies site A's page whole and names it as its canonical URL.
	c := newSite(t)
	c.serve("/story/0", "text/html", st.page("The A Times", a.URL+"/story/0"))
	for _, s := range []*site{a, b, c} {
		s.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: s.URL + "/story/0"}))
	}
	w := newWatcher(t, x, testOptions())
	for _, s := range []*site{a, b, c} { // one after the other: a pass polls feeds at once
		addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
		once(t, w)
	}
	if it := storedItems(t, x, a.URL+"/feed")[a.URL+"/story/0"]; it.Outcome != OutcomeAdded {
		t.Errorf("the original: %+v", it)
	}
	if it := storedItems(t, x, b.URL+"/feed")[b.URL+"/story/0"]; it.Outcome != OutcomeDuplicate {
		t.Errorf("the reprint: %+v", it)
	}
	if it := storedItems(t, x, c.URL+"/feed")[c.URL+"/story/0"]; it.Outcome != OutcomeDuplicate {
		t.Errorf("the copy: %+v", it)
	}
	if _, marks := stored(t, x, c.URL+"/story/0"); len(marks) != 1 || marks[0].Method != neardup.ExactMethod {
		t.Errorf("the copy's marks: %+v", marks)
	}
}

func TestSkips(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	short := story{title: "Short", paras: []string{"A few words only, far fewer than an article has."}}
	s.serve("/story/short", "text/html", short.page("Daily", ""))
	s.serve("/photos/story/2", "text/html", newStory(2).page("Daily", ""))
	s.serve("/video/3", "text/html", newStory(3).page("Daily", ""))
	s.serve("/story/image", "image/png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	s.serve("/story/huge", "text/html", "<html><body><p>"+strings.Repeat("all work and no play ", 60000)+"</p></body></html>")
	s.serve("/story/4", "text/html", newStory(4).page("Daily", ""))
	links := []string{"/story/short", "/photos/story/2", "/video/3", "/story/image", "/story/huge", "/story/4"}
	var items []item
	for _, l := range links {
		items = append(items, item{title: l, link: s.URL + l})
	}
	items = append(items, item{title: "no link", guid: "urn:nolink"})
	s.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.MaxBytes = 1 << 20
	r := once(t, newWatcher(t, x, o))[0]
	want := map[string]int{"too-short": 1, OutcomeGallery: 2, "not-html": 1, "too-large": 1, OutcomeAdded: 1, OutcomeNoLink: 1}
	if fmt.Sprint(r.Outcomes) != fmt.Sprint(want) {
		t.Errorf("outcomes %v, want %v", r.Outcomes, want)
	}
	if s.hit("/photos/story/2")+s.hit("/video/3") != 0 {
		t.Error("a gallery page was fetched")
	}
	stored := storedItems(t, x, s.URL+"/feed")
	if it := stored[s.URL+"/story/short"]; it.Outcome != "too-short" || it.Doc != "" {
		t.Errorf("the short page's item: %+v", it)
	}
	if it := stored[s.URL+"/story/huge"]; !strings.Contains(it.Detail, "size limit") {
		t.Errorf("the huge page's item: %+v", it)
	}
	if x.Len() != 1 {
		t.Errorf("%d documents stored, want 1", x.Len())
	}
}

func TestSiteRule(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	st := newStory(7)
	page := strings.Replace(st.page("Daily", ""), "</h1>", "</h1>"+
		`<div class="promo"><p>Read our other stories about the council budget and the minister's plans for the railway and the airport this season.</p></div><div class="story-body"><p class="byline">By Staff Reporter</p>`, 1)
	page = strings.Replace(page, "</article>", "</div></article>", 1)
	s.serve("/story/0", "text/html", page)
	s.serve("/feed", "application/rss+xml", rss2(item{title: st.title, link: s.URL + "/story/0"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour),
		Rule: &Rule{Body: ".story-body", Drop: []string{".byline"}}})
	once(t, newWatcher(t, x, testOptions()))
	if d, _ := stored(t, x, s.URL+"/story/0"); d.Text != st.text() {
		t.Errorf("the site rule's text:\n%q\nwant\n%q", d.Text, st.text())
	}
}

func TestWrongCharset(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	st := newStory(9)
	st.paras[0] = "Le café de la gare a rouvert ses portes après des travaux. " + st.paras[0]
	latin1 := strings.NewReplacer("é", "\xe9", "è", "\xe8").Replace(st.page("Daily", ""))
	latin1 = strings.Replace(latin1, `<meta charset="utf-8">`, "", 1)
	s.serve("/story/0", "text/html; charset=utf-8", latin1) // the header lies
	// The feed is ISO-8859-1, as its XML declaration says.
	s.serve("/feed", "application/rss+xml", strings.Replace(rss2(item{title: "Caf\xe9", link: s.URL + "/story/0"}), "UTF-8", "ISO-8859-1", 1))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	if r := once(t, newWatcher(t, x, testOptions()))[0]; r.Outcomes[OutcomeAdded] != 1 {
		t.Fatalf("poll %+v", r)
	}
	if d, _ := stored(t, x, s.URL+"/story/0"); !strings.Contains(d.Text, "Le café de la gare a rouvert ses portes après des travaux.") {
		t.Errorf("text %q", d.Text)
	}
}

func TestFailingFeedsAndPages(t *testing.T) {
	x := newIndex(t)
	good, bad := newSite(t), newSite(t)
	items := publish(good, "Daily", 1, 2)
	good.serve("/feed", "application/rss+xml", rss2(items...))
	bad.serve("/malformed", "application/rss+xml", "<rss><channel><item><title>oops</titl")
	bad.serve("/html", "text/html", "<html><body><p>Not a feed at all.</p></body></html>")
	bad.handle("/loop", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/loop", http.StatusFound) })
	bad.handle("/broken", func(rw http.ResponseWriter, r *http.Request) { http.Error(rw, "oops", http.StatusInternalServerError) })
	for _, p := range []string{"/malformed", "/html", "/loop", "/broken"} {
		addFeed(t, x, Feed{URL: bad.URL + p, Interval: Duration(time.Hour)})
	}
	addFeed(t, x, Feed{URL: good.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	start := time.Now()
	res := once(t, w)
	for _, r := range res[:4] {
		if r.Status != "error" || r.Err == nil {
			t.Errorf("%s: %+v", r.Feed, r)
		}
	}
	if !strings.Contains(res[2].Err.Error(), "redirects") || !strings.Contains(res[3].Err.Error(), "500") {
		t.Errorf("errors %v; %v", res[2].Err, res[3].Err)
	}
	if r := res[4]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 2 {
		t.Errorf("the good feed: %+v", r)
	}
	feeds, _ := Feeds(t.Context(), x)
	if f := feeds[3]; f.State.Failures != 1 || !f.NextPoll.After(start.Add(45*time.Minute)) || !strings.Contains(f.State.Status, "500") {
		t.Errorf("the failing feed's state: %+v", f)
	}
	once(t, w)
	feeds, _ = Feeds(t.Context(), x)
	if f := feeds[3]; f.State.Failures != 2 || !f.NextPoll.After(start.Add(90*time.Minute)) {
		t.Errorf("after two failures: %+v", f)
	}
	if tot := w.Totals(); tot.Polls["error"] != 8 || tot.Polls["ok"] != 2 || tot.Items[OutcomeAdded] != 2 {
		t.Errorf("totals %+v", tot)
	}
}

func TestHangingPage(t *testing.T) {
	t.Parallel() // waits on timers
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 2)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s.handle("/story/0", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, "<html><body><p>The start of a page that never ends")
		rw.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	s.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Timeout = 300 * time.Millisecond
	w := newWatcher(t, x, o)
	for pass := 1; pass <= maxTries+1; pass++ {
		r := once(t, w)[0]
		it := storedItems(t, x, s.URL+"/feed")[s.URL+"/story/0"]
		wantNew := 1
		switch {
		case pass == 1:
			wantNew = 2
		case pass > maxTries:
			wantNew = 0
		}
		if r.New != wantNew || it.Outcome != OutcomeError || it.Tries != min(pass, maxTries) {
			t.Errorf("pass %d: %+v; item %+v", pass, r, it)
		}
	}
	if n := s.hit("/story/0"); n != maxTries {
		t.Errorf("the hanging page was asked %d times, want %d", n, maxTries)
	}
	if x.Len() != 1 {
		t.Errorf("%d documents", x.Len())
	}
}

func TestRetryAfter(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "7200")
		http.Error(rw, "slow down", http.StatusTooManyRequests)
	})
	s.serve("/other", "application/rss+xml", rss2())
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Minute)})
	o := testOptions()
	o.Workers = 1
	w := newWatcher(t, x, o)
	start := time.Now()
	if r := once(t, w)[0]; r.Status != "error" {
		t.Fatalf("poll %+v", r)
	}
	feeds, _ := Feeds(t.Context(), x)
	if next := feeds[0].NextPoll; next.Before(start.Add(2*time.Hour - time.Second)) {
		t.Errorf("next poll %s, want after Retry-After's two hours", next.Sub(start))
	}
	// The host is left alone meanwhile, other feeds of it included.
	addFeed(t, x, Feed{URL: s.URL + "/other", Interval: Duration(time.Minute)})
	res := once(t, w)
	if res[1].Status != StatusPaused || s.hit("/other") != 0 || s.hit("/feed") != 1 {
		t.Errorf("the host was asked again: %+v, %d, %d", res[1], s.hit("/other"), s.hit("/feed"))
	}
}

// TestRetryAfterKeptAcrossRuns: a host's Retry-After, a page's or a
// feed's, is kept in the index, so that a later run (watch --once from
// cron: a new process, its host gate empty) leaves the host alone until
// then. The items of its pages are paused: not fetched, not stored, no try
// counted, and fetched by the first pass after the pause. The pause was
// kept in memory alone: every run asked the host again at once, and each
// 429 counted a try of the item, which three runs gave up.
func TestRetryAfterKeptAcrossRuns(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "news.db")
	x := newIndexAt(t, dsn)
	feeds, pages, slow := newSite(t), newSite(t), newSite(t)
	items := publish(pages, "Daily", 1, 3)
	first := pages.routes["/story/0"]
	var paused atomic.Bool
	paused.Store(true)
	pause := func(rw http.ResponseWriter, r *http.Request, h http.HandlerFunc) {
		if paused.Load() {
			rw.Header().Set("Retry-After", "3600")
			http.Error(rw, "slow down", http.StatusTooManyRequests)
			return
		}
		h(rw, r)
	}
	pages.handle("/story/0", func(rw http.ResponseWriter, r *http.Request) { pause(rw, r, first) })
	feeds.serve("/feed", "application/rss+xml", rss2(items...))
	slowFeed := rss2(publish(slow, "Slow", 10, 1)...)
	slow.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		pause(rw, r, func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, slowFeed) })
	})
	addFeed(t, x, Feed{URL: feeds.URL + "/feed", Interval: Duration(time.Hour)})
	addFeed(t, x, Feed{URL: slow.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Workers = 1

	res := once(t, newWatcher(t, x, o))
	if r := res[0]; r.New != 3 || r.Outcomes[OutcomeError] != 1 || r.Outcomes[OutcomePaused] != 2 {
		t.Errorf("first run: %+v, want the first page's 429 and the two others paused", r)
	}
	if res[1].Status != "error" {
		t.Errorf("first run, the feed answering 429: %+v", res[1])
	}
	// A new run: the pauses are read from the index.
	res = once(t, newWatcher(t, x, o))
	if r := res[0]; r.New != 3 || r.Outcomes[OutcomePaused] != 3 || len(r.Outcomes) != 1 {
		t.Errorf("second run: %+v, want every item paused", r)
	}
	if r := res[1]; r.Status != StatusPaused || !errors.Is(r.Err, ErrRetryLater) {
		t.Errorf("second run, the paused feed: %+v (%v)", r, r.Err)
	}
	if n, m := pages.hitsAll(), slow.hitsAll(); n != 1 || m != 1 {
		t.Errorf("the paused hosts were asked again by a later run: %d requests of pages, %d of the feed, want 1 each", n, m)
	}
	if it := storedItems(t, x, feeds.URL+"/feed"); len(it) != 1 || it[pages.URL+"/story/0"].Tries != 1 {
		t.Errorf("stored items %+v, want the first page's failure alone, one try", it)
	}
	feedsState, _ := Feeds(t.Context(), x)
	if st := feedsState[0].State; st.Retries != 3 {
		t.Errorf("the feed's state %+v, want 3 items to retry (no 304 holds them back)", st)
	}

	// The pauses over, a run fetches the pages and the feed.
	storetest.Exec(t, dsn, `UPDATE host_pauses SET not_before = 1`)
	paused.Store(false)
	res = once(t, newWatcher(t, x, o))
	if r := res[0]; r.New != 3 || r.Outcomes[OutcomeAdded] != 3 {
		t.Errorf("the run after the pause: %+v, want the three pages added", r)
	}
	if r := res[1]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 {
		t.Errorf("the run after the pause, the feed that was paused: %+v (%v)", r, r.Err)
	}
}

// TestRetryAfterOfARedirectPausesItsHost: a 429's Retry-After from the
// host a link redirects to (a short link's target) pauses that host, in
// this run and in the index, and not the host of the link: the short
// link's other pages are fetched. It paused the link's host, which had
// asked for nothing, and left the host that had asked for a pause alone.
func TestRetryAfterOfARedirectPausesItsHost(t *testing.T) {
	x := newIndex(t)
	feeds, short, target := newSite(t), newSite(t), newSite(t)
	short.handle("/s", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, target.URL+"/page", http.StatusFound)
	})
	short.serve("/story", "text/html; charset=utf-8", newStory(1).page("Short", ""))
	target.handle("/page", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "3600")
		http.Error(rw, "slow down", http.StatusTooManyRequests)
	})
	feeds.serve("/feed", "application/rss+xml", rss2(
		item{title: "Story", link: short.URL + "/story", guid: "2", date: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)},
		item{title: "Short link", link: short.URL + "/s", guid: "1", date: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)}))
	addFeed(t, x, Feed{URL: feeds.URL + "/feed", Interval: Duration(time.Hour)})
	r := once(t, newWatcher(t, x, testOptions()))[0]
	if r.Outcomes[OutcomeError] != 1 || r.Outcomes[OutcomeAdded] != 1 {
		t.Errorf("%+v (%v), want the redirect's 429 and the short link's host's page added", r, r.Err)
	}
	var pauses map[string]int64
	err := x.ViewFeeds(t.Context(), func(r neardup.FeedReader) error {
		var err error
		pauses, err = r.HostPauses(time.Now().Unix())
		return err
	})
	if host := strings.TrimPrefix(target.URL, "http://"); err != nil || len(pauses) != 1 || pauses[host] == 0 {
		t.Errorf("the paused hosts %v (%v), want %s's alone", pauses, err, host)
	}
}

// TestPausedFeedCountsNoFailure: a run (watch --once from cron) that
// finds the feed's host paused, by a Retry-After an earlier run met, asks
// nothing of it, counts no failure and puts the feed's next poll at the
// pause's end. Each such run counted one, and the feed's backoff doubled
// with each: hours past the pause.
func TestPausedFeedCountsNoFailure(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "3600")
		http.Error(rw, "slow down", http.StatusTooManyRequests)
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	for run := 1; run <= 3; run++ {
		r := once(t, newWatcher(t, x, testOptions()))[0]
		// The 429 is the first run's failure; the later runs are paused.
		if want := map[bool]string{true: "error", false: StatusPaused}[run == 1]; r.Status != want || !errors.Is(r.Err, ErrRetryLater) {
			t.Fatalf("run %d: %s (%v), want %s by the host's pause", run, r.Status, r.Err, want)
		}
		var until int64
		err := x.ViewFeeds(t.Context(), func(r neardup.FeedReader) error {
			pauses, err := r.HostPauses(time.Now().Unix())
			until = pauses[strings.TrimPrefix(s.URL, "http://")]
			return err
		})
		feeds, ferr := Feeds(t.Context(), x)
		if err = errors.Join(err, ferr); err != nil {
			t.Fatal(err)
		}
		// The first run's 429 is a failure, its backoff at least the pause.
		if f := feeds[0]; f.State.Failures != 1 || f.NextPoll.Unix() < until || run > 1 && f.NextPoll.Unix() != until {
			t.Errorf("run %d: %d failures, the next poll %s, want 1 and the pause's end %s",
				run, f.State.Failures, f.NextPoll, time.Unix(until, 0).UTC())
		}
	}
	if n := s.hit("/feed"); n != 1 {
		t.Errorf("the paused host was asked %d times, want once", n)
	}
}

func TestBackoff(t *testing.T) {
	w := &Watcher{o: Options{MaxBackoff: 6 * time.Hour}}
	f := &Feed{Interval: Duration(15 * time.Minute)}
	for _, c := range []struct {
		failures int
		want     time.Duration
	}{{1, 15 * time.Minute}, {2, 30 * time.Minute}, {3, time.Hour}, {6, 6 * time.Hour}, {60, 6 * time.Hour}} {
		for range 20 {
			got := w.backoff(f, c.failures, fmt.Errorf("x"))
			if got < c.want*8/10 || got > c.want*12/10 {
				t.Errorf("%d failures: %s, want %s ± 20 %%", c.failures, got, c.want)
			}
		}
	}
	got := w.backoff(f, 1, &retryLater{wait: 3 * time.Hour})
	if got != 3*time.Hour {
		t.Errorf("Retry-After: %s", got)
	}
}

func TestRun(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.serve("/feed", "application/rss+xml", rss2(publish(s, "Daily", 1, 2)...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	waitForDocs(x, 2)
	cancel()
	if err := <-done; err != nil || x.Len() != 2 {
		t.Errorf("Run: %v, %d documents", err, x.Len())
	}
	if s.hit("/feed") != 1 {
		t.Errorf("the feed was polled %d times within its interval", s.hit("/feed"))
	}
}

// waitForDocs waits, ten seconds at most, until x holds n documents: a
// watcher running in the background has stored them.
func waitForDocs(x *neardup.Index, n int) {
	deadline := time.Now().Add(10 * time.Second)
	for x.Len() < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		m    neardup.Match
		want string
	}{
		{neardup.Match{Status: neardup.Added}, OutcomeAdded},
		{neardup.Match{Status: neardup.Exists}, OutcomeExists},
		{neardup.Match{Status: neardup.Added, Skip: core.SkipTooShort}, "too-short"},
		{neardup.Match{ID: "b", Status: neardup.Added, Skip: core.SkipExactCopy, Pairs: []core.Pair{{A: "a", B: "b", Label: core.Duplicate, Original: "a"}}}, OutcomeDuplicate},
		// published before the stored copy: its original
		{neardup.Match{ID: "b", Status: neardup.Added, Skip: core.SkipExactCopy, Pairs: []core.Pair{{A: "a", B: "b", Label: core.Duplicate, Original: "b"}}}, OutcomeAdded},
		{neardup.Match{ID: "b", Status: neardup.Added, Pairs: []core.Pair{{A: "a", B: "b", Label: core.Duplicate, Original: "b"}, {Label: core.Similar}}}, OutcomeSimilar},
		{neardup.Match{Status: neardup.Added, Pairs: []core.Pair{{Label: core.Similar}, {Label: core.Duplicate}}}, OutcomeDuplicate},
		{neardup.Match{Status: neardup.Added, Pairs: []core.Pair{{Label: core.Similar}}}, OutcomeSimilar},
	} {
		if got := outcome(&c.m); got != c.want {
			t.Errorf("%+v: %s, want %s", c.m, got, c.want)
		}
	}
}

// TestRunOutlivesDatabase cuts the watcher off its PostgreSQL server (the
// connections go through a proxy the test closes) and brings the server
// back: Run waits, tries again, and then stores the feed's stories.
func TestRunOutlivesDatabase(t *testing.T) {
	base, err := url.Parse(storetest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startProxy(t, base.Host)
	dsn := *base
	dsn.Host = p.addr
	x := newIndexAt(t, dsn.String())
	s := newSite(t)
	s.serve("/feed", "application/rss+xml", rss2(publish(s, "Daily", 1, 2)...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	defer func(w time.Duration) { unreachableWait = w }(unreachableWait)
	unreachableWait = 20 * time.Millisecond

	p.stop() // the server is gone before the first pass
	w := newWatcher(t, x, testOptions())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Run ended while the database was away: %v", err)
	default:
	}
	p.start() // and back
	waitForDocs(x, 2)
	cancel()
	if err := <-done; err != nil || x.Len() != 2 {
		t.Errorf("Run: %v, %d documents, want 2", err, x.Len())
	}
}

// TestRunWaitsOutAnotherWriter: another process writing to the index
// for longer than a write waits for its lock (a rescore, an import) makes
// Run log it, wait, twice as long each time as for a database out of
// reach, and try again, and then store the feed's stories; the watcher
// stopped on it. Reads pass under the lock: the wait doubled only while
// reads failed, so each try fetched the feed and its pages again at the
// first wait.
func TestRunWaitsOutAnotherWriter(t *testing.T) {
	path, x, _ := lockWaitingIndex(t)
	defer func(w time.Duration) { unreachableWait = w }(unreachableWait)
	unreachableWait = 10 * time.Millisecond

	release := storetest.HoldWriteLock(t, path)
	log := &lockedBuffer{}
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(log, nil))
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	const wanted = "another process is writing to the index; trying again"
	for strings.Count(log.String(), wanted) < 3 {
		select {
		case err := <-done:
			t.Fatalf("Run ended while another process wrote: %v\n%s", err, log.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	release()
	waitForDocs(x, 2)
	cancel()
	if err := <-done; err != nil || x.Len() != 2 {
		t.Errorf("Run: %v, %d documents, want 2", err, x.Len())
	}
	var waits []string
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, wanted) {
			_, after, _ := strings.Cut(line, " in=")
			in, _, _ := strings.Cut(after, " ")
			waits = append(waits, in)
		}
	}
	if len(waits) < 3 || waits[0] != "10ms" || waits[1] != "20ms" || waits[2] != "40ms" {
		t.Errorf("the waits logged: %v, want 10ms, 20ms, 40ms, …", waits)
	}
}

// TestOnceLockedIndexIsTheFeedsFailure: a pass of Once whose articles, or
// state, could not be stored because another process held the index's
// writer lock past the wait is that feed's failure, in its result, the
// totals and the log, naming the feed. Its poll was logged and counted as
// it stood before the write ("feed polled" status=ok, or not modified), a
// feed whose articles were not stored was logged nowhere, and the error
// named no feed when the feed's state was the write that failed.
func TestOnceLockedIndexIsTheFeedsFailure(t *testing.T) {
	for _, kind := range []string{"articles", "state"} {
		t.Run(kind, func(t *testing.T) {
			path, x, s := lockWaitingIndex(t)
			feed := s.URL + "/feed"
			if kind == "state" {
				once(t, newWatcher(t, x, testOptions())) // its articles stored: the next pass writes its state alone
			}
			storetest.HoldWriteLock(t, path)
			log := &lockedBuffer{}
			o := testOptions()
			o.Logger = slog.New(slog.NewTextHandler(log, nil))
			w := newWatcher(t, x, o)
			res, err := w.Once(t.Context())
			if !errors.Is(err, neardup.ErrLocked) {
				t.Errorf("Once: %v, want ErrLocked", err)
			}
			if len(res) != 1 || res[0].Status != "error" || res[0].Err == nil || !strings.HasPrefix(res[0].Err.Error(), "feed "+feed+": ") {
				t.Fatalf("the result: %+v, want the feed's failure naming it", res)
			}
			if p := w.Totals().Polls; p["error"] != 1 || len(p) != 1 {
				t.Errorf("the polls counted: %v, want one error", p)
			}
			if l := log.String(); !strings.Contains(l, `msg="feed failed"`) || strings.Contains(l, `msg="feed polled"`) {
				t.Errorf("the log:\n%s", l)
			}
		})
	}
}

// lockWaitingIndex is a new SQLite index whose writes wait 20 ms for
// another process's lock, holding a feed of two stories on a site of its
// own (at /feed), and its path.
func lockWaitingIndex(t *testing.T) (string, *neardup.Index, *site) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "news.db")
	x, err := neardup.Open(t.Context(), path, neardup.Options{StoreText: true, LockWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	s := newSite(t)
	s.serve("/feed", "application/rss+xml", rss2(publish(s, "Daily", 1, 2)...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	return path, x, s
}

// lockedBuffer is a log that a test reads while it is written.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// proxy passes TCP connections on to target; stop closes them all and
// refuses new ones until start.
type proxy struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func startProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, addr: ln.Addr().String(), target: target}
	p.serve(ln)
	t.Cleanup(p.stop)
	return p
}

func (p *proxy) start() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.serve(ln)
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, d)
			p.mu.Unlock()
			go func() { io.Copy(d, c); d.Close() }()
			go func() { io.Copy(c, d); c.Close() }()
		}
	}()
}

func (p *proxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A feed that is not well-formed is the feed's failure, with back-off and
// the reason in its state, not a poll that went well with what the parser
// guessed (it was status=ok items=1).
func TestMalformedFeed(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 1)
	good := rss2(items...)
	for name, body := range map[string]string{
		"/data-after":  good + "<garbage",
		"/second-root": good + `<rss version="2.0"><channel></channel></rss>`,
		"/unclosed":    strings.Replace(good, "</title>", "", 1),
		"/bare-amp":    strings.Replace(good, "<title>", "<title>a & b", 1),
		"/json-after":  jsonFeed(items...) + `{"version":"x"}`,
	} {
		s.serve(name, "application/rss+xml", body)
		addFeed(t, x, Feed{URL: s.URL + name, Interval: Duration(time.Hour)})
	}
	s.serve("/entities", "application/rss+xml", strings.Replace(good, "<title>", "<title>a&nbsp;b ", 1))
	addFeed(t, x, Feed{URL: s.URL + "/entities", Interval: Duration(time.Hour)})
	start := time.Now()
	for _, r := range once(t, newWatcher(t, x, testOptions())) {
		switch {
		case strings.HasSuffix(r.Feed, "/entities"):
			if r.Status != "ok" || r.Items != 1 {
				t.Errorf("%s: %+v (%v), want ok with HTML entities", r.Feed, r, r.Err)
			}
		case r.Status != "error" || !errors.Is(r.Err, ErrNotFeed) || r.New != 0:
			t.Errorf("%s: %+v (%v), want a failure: not a feed", r.Feed, r, r.Err)
		}
	}
	feeds, _ := Feeds(t.Context(), x)
	for _, f := range feeds {
		if strings.HasSuffix(f.URL, "/entities") {
			continue
		}
		if f.State.Failures != 1 || !f.NextPoll.After(start.Add(45*time.Minute)) || !strings.Contains(f.State.Status, "not a feed") {
			t.Errorf("%s: state %+v, next poll %s", f.URL, f.State, f.NextPoll)
		}
	}
}

// TestJSONFeedBadItems: regression, a JSON Feed with a null item or a null
// author panicked gofeed, ending watch and serve --watch, and one item of
// a member of the wrong type failed the feed, its good items lost. The good
// items are stored; an item of the wrong type is an error, unfetched and
// not tried again, and an item that is no object, which has no key, is
// counted unnamed.
func TestJSONFeedBadItems(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 3)
	body := fmt.Sprintf(`{"version":"https://jsonfeed.org/version/1.1","title":"F","authors":[null],"hubs":[null],"items":[
		{"id":"a","url":%q,"authors":[null]}, null, "x",
		{"id":"b","url":%q,"title":5},
		{"id":"c","url":%q,"date_published":1700000000}]}`, items[0].link, items[1].link, items[2].link)
	s.serve("/feed", "application/feed+json", body)
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	rs := once(t, w)
	// The items of a member of the wrong type are read without it: their
	// links decoded, and their pages are what is stored.
	want := map[string]int{OutcomeAdded: 3}
	if r := rs[0]; r.Status != "ok" || r.Items != 5 || r.Unnamed != 2 || !maps.Equal(r.Outcomes, want) {
		t.Fatalf("%+v (%v), want ok, 5 items, 2 unnamed, outcomes %v", r, r.Err, want)
	}
	got := storedItems(t, x, s.URL+"/feed")
	for _, it := range items {
		if st := got[it.link]; st.Outcome != OutcomeAdded || st.Doc == "" {
			t.Errorf("%s: %+v, want added", it.link, st)
		}
	}
	if r := once(t, w)[0]; r.Status != "ok" || r.New != 0 {
		t.Errorf("second pass: %+v (%v), want nothing new", r, r.Err)
	}
}

// TestAdminDuringPoll pins a pass that wrote back the whole feed record it
// read when it started, undoing a `feeds set` made while it ran, and that
// stored the items of a feed removed while it ran. The feed's fetch blocks
// until the change is made through the same API `neardup feeds` uses.
func TestAdminDuringPoll(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(ctx context.Context, x *neardup.Index, feedURL string) error
		check  func(t *testing.T, x *neardup.Index, feedURL string)
	}{
		{
			name: "set kept",
			change: func(ctx context.Context, x *neardup.Index, feedURL string) error {
				return SetFeed(ctx, x, Feed{URL: feedURL, Interval: Duration(2 * time.Hour), Rule: &Rule{Body: "article"}})
			},
			check: func(t *testing.T, x *neardup.Index, feedURL string) {
				feeds, err := Feeds(t.Context(), x)
				if err != nil || len(feeds) != 1 {
					t.Fatalf("feeds %+v %v", feeds, err)
				}
				f := feeds[0]
				if f.Interval != Duration(2*time.Hour) || f.Rule == nil || f.Rule.Body != "article" {
					t.Errorf("settings after the pass: interval %s, rule %+v; want 2h, body article", f.Interval, f.Rule)
				}
				if f.State.Polls != 1 || f.State.Status != "ok" || f.Items[OutcomeAdded] != 2 {
					t.Errorf("state after the pass: %+v, items %v", f.State, f.Items)
				}
			},
		},
		{
			name: "remove leaves no items",
			change: func(ctx context.Context, x *neardup.Index, feedURL string) error {
				return RemoveFeed(ctx, x, feedURL)
			},
			check: func(t *testing.T, x *neardup.Index, feedURL string) {
				err := x.ViewFeeds(t.Context(), func(r neardup.FeedReader) error {
					feeds, err := r.Feeds()
					if err != nil {
						return err
					}
					counts, err := r.ItemCounts()
					if len(feeds) != 0 || len(counts) != 0 {
						t.Errorf("after the pass: feeds %+v, items %v", feeds, counts)
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newIndex(t)
			s := newSite(t)
			body := rss2(publish(s, "Daily", 1, 2)...)
			fetched, release := make(chan struct{}), make(chan struct{})
			s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
				close(fetched)
				<-release
				fmt.Fprint(rw, body)
			})
			feedURL := s.URL + "/feed"
			addFeed(t, x, Feed{URL: feedURL, Interval: Duration(15 * time.Minute)})
			w := newWatcher(t, x, testOptions())
			done := make(chan error, 1)
			go func() {
				_, err := w.Once(t.Context())
				done <- err
			}()
			<-fetched
			err := tc.change(t.Context(), x, feedURL)
			close(release)
			if err := errors.Join(err, <-done); err != nil {
				t.Fatal(err)
			}
			tc.check(t, x, feedURL)
		})
	}
}

// A feed whose pass takes long (here a page that hangs) holds one worker:
// a feed added meanwhile is polled and its stories stored while the page
// still hangs. Run polled feeds in rounds and read the feeds again only
// once every feed of a round was done, so one feed of 10,000 new pages on
// a host asking a second between requests held every other feed back for
// three hours.
func TestRunSlowFeedHoldsNoOther(t *testing.T) {
	defer func(d time.Duration) { rescanWait = d }(rescanWait)
	rescanWait = 20 * time.Millisecond
	x := newIndex(t)
	slow, fast := newSite(t), newSite(t)
	release := make(chan struct{})
	page := newStory(9).page("Slow", "")
	slow.handle("/hang", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		rw.Header().Set("Content-Type", "text/html")
		io.WriteString(rw, page)
	})
	slow.serve("/feed", "application/rss+xml", rss2(item{title: "Slow", link: slow.URL + "/hang"}))
	fast.serve("/feed", "application/rss+xml", rss2(publish(fast, "Daily", 1, 2)...))
	addFeed(t, x, Feed{URL: slow.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Timeout = time.Minute
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	slow.waitHit("/hang", 10*time.Second)
	addFeed(t, x, Feed{URL: fast.URL + "/feed", Interval: Duration(time.Hour)})
	waitForDocs(x, 2)
	stored := x.Len()
	close(release)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if stored != 2 {
		t.Errorf("%d documents stored while a page of another feed hung, want the other feed's 2", stored)
	}
	if n := fast.hit("/feed"); n > 1 {
		t.Errorf("the feed was polled %d times within its interval", n)
	}
}

// TestRunStarvesNoFeed: two feeds whose polls take longer than their
// interval keep the single worker busy, and a third, later in the order
// the feeds are stored, is due all along: it is polled, the longest due
// first (it was never polled when the feeds due were taken in stored
// order).
func TestRunStarvesNoFeed(t *testing.T) {
	defer func(d time.Duration) { rescanWait = d }(rescanWait)
	rescanWait = 200 * time.Millisecond
	x := newIndex(t)
	var urls []string
	var sites []*site
	for i, hang := range []time.Duration{600 * time.Millisecond, 600 * time.Millisecond, 0} {
		s := newSite(t)
		body := rss2(item{title: "T", link: s.URL + "/x"})
		s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
			time.Sleep(hang)
			rw.Header().Set("Content-Type", "application/rss+xml")
			rw.Write([]byte(body))
		})
		s.serve("/x", "text/html", newStory(uint64(i+1)).page("T", ""))
		u := s.URL + "/feed"
		addFeed(t, x, Feed{URL: u, Interval: Duration(time.Hour)})
		urls, sites = append(urls, u), append(sites, s)
	}
	setIntervalPastCheck(t, x, time.Second, urls...)
	o := testOptions()
	o.Workers = 1
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Second)
	defer cancel()
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	a, b, c := sites[0].hit("/feed"), sites[1].hit("/feed"), sites[2].hit("/feed")
	t.Logf("polls in 4 s: A %d, B %d, C %d", a, b, c)
	if c == 0 {
		t.Errorf("feed C, due from the start, was never polled in 4 s (A %d, B %d polls)", a, b)
	}
}

// unreadableFeeds is an index whose feed tables cannot be read once
// broken is set: an error that ends Run.
type unreadableFeeds struct {
	*neardup.Index
	broken atomic.Bool
}

var errFeedsBroken = errors.New("feeds: the table cannot be read")

func (x *unreadableFeeds) ViewFeeds(ctx context.Context, fn func(r neardup.FeedReader) error) error {
	if x.broken.Load() {
		return errFeedsBroken
	}
	return x.Index.ViewFeeds(ctx, fn)
}

// TestRunErrorStopsPolls: an error reading the feeds makes Run return it,
// at once: a poll under way (a page that hangs until the timeout) is
// stopped, where Run waited for it to time out.
func TestRunErrorStopsPolls(t *testing.T) {
	defer func(d time.Duration) { rescanWait = d }(rescanWait)
	rescanWait = 20 * time.Millisecond
	x := &unreadableFeeds{Index: newIndex(t)}
	slow := newSite(t)
	slow.handle("/hang", func(rw http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	slow.serve("/feed", "application/rss+xml", rss2(item{title: "Slow", link: slow.URL + "/hang"}))
	addFeed(t, x.Index, Feed{URL: slow.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Timeout = 6 * time.Second
	w, err := New(x, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	slow.waitHit("/hang", 5*time.Second)
	x.broken.Store(true)
	start := time.Now()
	err = <-done
	took := time.Since(start)
	t.Logf("Run returned %v after %s", err, took.Round(time.Millisecond))
	if !errors.Is(err, errFeedsBroken) {
		t.Errorf("Run returned %v, want %v", err, errFeedsBroken)
	}
	if took > 2*time.Second {
		t.Errorf("Run took %s to return its error: it waited for the hanging poll it did not stop", took.Round(time.Millisecond))
	}
	if got := w.Totals().Stopped; err == nil || got != err.Error() {
		t.Errorf("Totals().Stopped = %q, want the error that ended Run (%v)", got, err)
	}
}

// TestBusyHostHoldsHalfTheWorkers: three feeds of one host whose pages
// hang take at most half the workers (a host answers one request at a
// time, so more would only wait there), and a feed of another host is
// polled meanwhile, by Run and by Once; they took every worker, and it
// waited.
func TestBusyHostHoldsHalfTheWorkers(t *testing.T) {
	for _, once := range []bool{false, true} {
		x := newIndex(t)
		busy, other := newSite(t), newSite(t)
		release := make(chan struct{})
		for i := range 3 {
			hang := fmt.Sprintf("/hang%d", i)
			busy.handle(hang, func(rw http.ResponseWriter, r *http.Request) {
				select {
				case <-release:
				case <-r.Context().Done():
				}
				http.NotFound(rw, r)
			})
			feed := fmt.Sprintf("/feed%d", i)
			busy.serve(feed, "application/rss+xml", rss2(item{title: "Slow", link: busy.URL + hang}))
			addFeed(t, x, Feed{URL: busy.URL + feed, Interval: Duration(time.Hour)})
		}
		other.serve("/feed", "application/rss+xml", rss2(publish(other, "Daily", 1, 2)...))
		addFeed(t, x, Feed{URL: other.URL + "/feed", Interval: Duration(time.Hour)})
		o := testOptions()
		o.Workers, o.Timeout = 2, time.Minute
		w := newWatcher(t, x, o)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			if once {
				_, err := w.Once(ctx)
				done <- err
				return
			}
			done <- w.Run(ctx)
		}()
		waitForDocs(x, 2)
		// The busy host's feed polled and its page hanging: the count of
		// its feeds polled was read before its request arrived at times.
		hanging := func() int { return busy.hit("/hang0") + busy.hit("/hang1") + busy.hit("/hang2") }
		for deadline := time.Now().Add(10 * time.Second); hanging() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		stored, feeds := x.Len(), busy.hit("/feed0")+busy.hit("/feed1")+busy.hit("/feed2")
		close(release)
		if once {
			<-done
		} else {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		}
		cancel()
		if stored != 2 || feeds != 1 {
			t.Errorf("once %v: %d documents stored and %d feeds of the busy host polled while its pages hung, want the other host's 2 and 1",
				once, stored, feeds)
		}
	}
}

// TestWorkersByPagesHost: the feeds share workers by the host their pages
// are fetched from, as their last poll found it, not by their feed's URL.
// With two workers (one a host): two feeds of an aggregator, whose pages
// are on two other hosts, are polled at once, and were one after the
// other; two feeds of two hosts linking to pages on a third take one
// worker, a feed of a fourth host polled meanwhile, where they took both
// workers, waiting in turn for the third host, and it waited. Requests to
// the pages' host are one at a time whatever the feeds (the host gate).
func TestWorkersByPagesHost(t *testing.T) {
	for _, c := range []struct {
		name       string
		aggregator bool
	}{{"aggregator", true}, {"one site behind feeds of two hosts", false}} {
		t.Run(c.name, func(t *testing.T) {
			x := newIndex(t)
			agg, other := newSite(t), newSite(t)
			feedSites, pageSites := []*site{agg, agg}, []*site{newSite(t), newSite(t)}
			if !c.aggregator {
				feedSites, pageSites = []*site{newSite(t), newSite(t)}, []*site{pageSites[0], pageSites[0]}
			}
			release := make(chan struct{})
			var active, most atomic.Int32 // requests to the pages' hosts
			var mu sync.Mutex
			hang := false // the second pass: each feed lists a page that hangs first
			for i := range 2 {
				pages, p := pageSites[i], fmt.Sprintf("/p%d", i)
				body := newStory(uint64(20+i)).page("Site", "")
				serve := func(rw http.ResponseWriter, r *http.Request) {
					n := active.Add(1)
					defer active.Add(-1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					if strings.HasSuffix(r.URL.Path, "/hang") {
						select {
						case <-release:
						case <-r.Context().Done():
						}
					}
					io.WriteString(rw, body)
				}
				pages.handle(p, serve)
				pages.handle(p+"/hang", serve)
				path := fmt.Sprintf("/feed%d", i)
				feedSites[i].handle(path, func(rw http.ResponseWriter, r *http.Request) {
					items := []item{{title: "First", link: pages.URL + p}}
					mu.Lock()
					if hang {
						items = append([]item{{title: "Hangs", link: pages.URL + p + "/hang"}}, items...)
					}
					mu.Unlock()
					io.WriteString(rw, rss2(items...))
				})
				addFeed(t, x, Feed{URL: feedSites[i].URL + path, Interval: Duration(time.Hour)})
			}
			otherItems := publish(other, "Other", 30, 2) // story/1, story/0
			other.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
				mu.Lock()
				items := otherItems[1:]
				if hang {
					items = otherItems
				}
				mu.Unlock()
				io.WriteString(rw, rss2(items...))
			})
			addFeed(t, x, Feed{URL: other.URL + "/feed", Interval: Duration(time.Hour)})
			o := testOptions()
			o.Workers, o.Timeout = 2, time.Minute
			w := newWatcher(t, x, o)
			once(t, w) // finds where each feed's pages are

			mu.Lock()
			hang = true
			mu.Unlock()
			done := make(chan error, 1)
			go func() {
				_, err := w.Once(t.Context())
				done <- err
			}()
			// What the second pass must reach while the pages hang.
			reached := func() bool {
				if c.aggregator {
					return pageSites[0].hit("/p0/hang") > 0 && pageSites[1].hit("/p1/hang") > 0
				}
				return other.hit("/story/1") > 0
			}
			for deadline := time.Now().Add(3 * time.Second); !reached() && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			polled := reached()
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			switch {
			case !polled && c.aggregator:
				t.Errorf("the aggregator's second feed was not polled while the first's page, on another host, hung")
			case !polled:
				t.Errorf("the feed of another host was not polled while the two feeds linking to one site waited for it")
			}
			if m := most.Load(); m != 1 && !c.aggregator {
				t.Errorf("%d requests at once to the pages' host, want 1", m)
			}
		})
	}
}

// TestSlotHost: the host a feed's polls count against, from the links of
// its last poll.
func TestSlotHost(t *testing.T) {
	es := func(links ...string) []entry {
		var out []entry
		for _, l := range links {
			out = append(out, entry{fetch: l})
		}
		return out
	}
	for _, c := range []struct {
		name    string
		entries []entry
		was     string
		want    string // slotHost of the feed https://feeds.example/f, id 7
	}{
		{"one host", es("https://a.example/1", "https://a.example/2"), "", "a.example"},
		{"most on one host", es("https://a.example/1", "https://a.example:8080/3", "https://a.example:8080/4"), "", "a.example:8080"},
		{"half on one host", es("https://a.example/1", "https://b.example/2"), "", "feed 7"},
		{"a password is no part of the host", es("https://u:secret@a.example/1"), "", "a.example"},
		{"no links: as before", es("", ""), "b.example", "b.example"},
		{"never a link", nil, "", "feeds.example"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := State{PageHost: pagesHost(c.entries, c.was)}
			f := neardup.Feed{ID: 7, URL: "https://feeds.example/f", State: marshalJSON(st)}
			if got := slotHost(&f); got != c.want {
				t.Errorf("slotHost %q (PageHost %q), want %q", got, st.PageHost, c.want)
			}
		})
	}
	if got := slotHost(&neardup.Feed{ID: 7, URL: "https://feeds.example/f", State: []byte("{not json")}); got != "feeds.example" {
		t.Errorf("a state that does not decode: %q, want the feed's host", got)
	}
}

// TestRunPollsAgainWhenAPassOutlastsItsInterval: a feed whose pass takes
// longer than its interval is polled again as its pass ends, not when the
// feeds are next read (up to a minute later).
func TestRunPollsAgainWhenAPassOutlastsItsInterval(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	page := newStory(3).page("Slow", "")
	s.handle("/slow", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(1500 * time.Millisecond)
		rw.Header().Set("Content-Type", "text/html")
		io.WriteString(rw, page)
	})
	s.serve("/feed", "application/rss+xml", rss2(item{title: "Slow", link: s.URL + "/slow"}))
	u := s.URL + "/feed"
	addFeed(t, x, Feed{URL: u, Interval: Duration(time.Hour)})
	setIntervalPastCheck(t, x, time.Second, u)
	w := newWatcher(t, x, testOptions())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	// Well under the minute after which the feeds are read again anyway.
	start := time.Now()
	for s.hit("/feed") < 2 && time.Since(start) < 20*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(start)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := s.hit("/feed"); n < 2 {
		t.Errorf("the feed was polled %d times in %s, with an interval of 1 s and a pass of 1.5 s", n, took.Round(time.Second))
	}
}

// TestStoppedPassKeepsWhatItFetched: a pass stopped while it fetches a
// page stores the pages it fetched before it (they were fetched again on
// the next start).
func TestStoppedPassKeepsWhatItFetched(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 2)
	s.handle("/hang", func(rw http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	// Oldest first: the two stories, then the page that hangs.
	s.serve("/feed", "application/rss+xml", rss2(append([]item{{title: "Hangs", link: s.URL + "/hang"}}, items...)...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.Timeout = time.Minute
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := w.Once(ctx); done <- err }()
	s.waitHit("/hang", 10*time.Second)
	cancel()
	<-done
	if n := x.Len(); n != 2 {
		t.Errorf("%d documents stored by a pass stopped at its third page, want the 2 it fetched", n)
	}
	rows := storedItems(t, x, s.URL+"/feed")
	if _, ok := rows[s.URL+"/hang"]; ok || len(rows) != 2 {
		t.Errorf("items stored: %v, want the two fetched, not the page stopped", slices.Collect(maps.Keys(rows)))
	}
}

// TestStoppedPassIsLoggedAndRecorded: a pass stopped after it stored
// items logs its feed "feed stopped" with them, counts them and the poll
// (stopped) in the watcher's totals, and records the poll in the feed's
// state, its last poll, status and items, without the feed's validators:
// the next pass reads the feed whole (a 304 to the ETag of the stopped
// pass would hold back the item it left), and takes that item alone. A
// feed stopped before it stored an item is logged stopped, and its state
// left as it was. Regression: a stopped pass logged nothing of its feed,
// counted nothing (watch done took=… alone) and left the feed's last poll
// "never", its items stored.
func TestStoppedPassIsLoggedAndRecorded(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 2)
	hang := func(rw http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	s.handle("/hang", hang)
	s2 := newSite(t) // another host: the first one's hanging page holds it
	s2.handle("/hang-only", hang)
	var asked atomic.Value // the If-None-Match of the last request of /feed
	asked.Store("")
	feed := rss2(append([]item{{title: "Hangs", link: s.URL + "/hang"}}, items...)...)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		asked.Store(r.Header.Get("If-None-Match"))
		rw.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		rw.Header().Set("Content-Type", "application/rss+xml")
		io.WriteString(rw, feed)
	})
	s2.serve("/other", "application/rss+xml", rss2(item{title: "Hangs too", link: s2.URL + "/hang-only"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	addFeed(t, x, Feed{URL: s2.URL + "/other", Interval: Duration(time.Hour)})
	var log strings.Builder
	o := testOptions()
	o.Timeout = time.Minute
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	type pass struct {
		res []Result
		err error
	}
	done := make(chan pass, 1)
	go func() { res, err := w.Once(ctx); done <- pass{res, err} }()
	s.waitHit("/hang", 10*time.Second)
	s2.waitHit("/hang-only", 10*time.Second)
	cancel()
	p := <-done
	if p.err != nil || len(p.res) != 2 {
		t.Fatalf("pass: %+v, %v", p.res, p.err)
	}
	if r := p.res[0]; r.Status != "stopped" || r.New != 3 || !maps.Equal(r.Outcomes, map[string]int{OutcomeAdded: 2}) {
		t.Errorf("the feed's result %+v, want stopped, 3 new, 2 added", r)
	}
	if r := p.res[1]; r.Status != "stopped" || len(r.Outcomes) != 0 {
		t.Errorf("the other feed's result %+v, want stopped, nothing stored", r)
	}
	if tot := w.Totals(); tot.Polls["stopped"] != 2 || !maps.Equal(tot.Items, map[string]int{OutcomeAdded: 2}) {
		t.Errorf("totals %+v, want 2 polls stopped, 2 items added", tot)
	}
	lines := strings.Split(log.String(), "\n")
	for _, want := range []string{"feed=" + s.URL + "/feed status=stopped items=3 new=3", "feed=" + s2.URL + "/other status=stopped"} {
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `msg="feed stopped"`) && strings.Contains(l, want) }); i < 0 {
			t.Errorf("no line \"feed stopped\" %s in the log:\n%s", want, log.String())
		} else if strings.HasSuffix(want, "new=3") && !strings.HasSuffix(lines[i], "added=2") {
			t.Errorf("the feed's line counts no item added: %s", lines[i])
		}
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil || len(feeds) != 2 {
		t.Fatalf("feeds: %+v, %v", feeds, err)
	}
	st := feeds[0].State
	if st.LastPoll.IsZero() || st.Status != "stopped" || st.Polls != 1 || st.LastNew != 3 || !maps.Equal(st.Last, map[string]int{OutcomeAdded: 2}) ||
		st.ETag != "" || st.Failures != 0 {
		t.Errorf("the feed's state %+v, want its stopped poll, 2 added, no ETag", st)
	}
	if st := feeds[1].State; !st.LastPoll.IsZero() || st.Status != "" || st.Polls != 0 {
		t.Errorf("the other feed's state %+v, want it left as it was", st)
	}

	s.serve("/hang", "text/html; charset=utf-8", newStory(9).page("Daily", ""))
	s2.serve("/hang-only", "text/html; charset=utf-8", newStory(10).page("Weekly", ""))
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Status != "ok" || r.New != 1 || !maps.Equal(r.Outcomes, map[string]int{OutcomeAdded: 1}) || asked.Load() != "" {
		t.Errorf("the next pass: %+v (asked with If-None-Match %q), want the page left alone added", r, asked.Load())
	}
	if n := x.Len(); n != 4 {
		t.Errorf("%d documents stored, want 4", n)
	}
}

// setIntervalPastCheck stores interval as the feeds' own, past the check
// that refuses one under MinInterval, so that a test runs several polls of
// a feed in seconds.
func setIntervalPastCheck(t *testing.T, x *neardup.Index, interval time.Duration, urls ...string) {
	t.Helper()
	err := x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		for _, u := range urls {
			f, err := find(w, u)
			if err != nil {
				return err
			}
			f.Config = marshalJSON(Feed{URL: u, Interval: Duration(interval)})
			if err := w.SaveFeed(f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRemovedWhilePolledIsLoggedAndCounted pins a pass that said nothing of
// a feed removed while it was polled: no line for the feed, no poll
// counted, the pages it fetched thrown away without a word. The feed's
// fetch blocks until the feed is removed.
func TestRemovedWhilePolledIsLoggedAndCounted(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	body := rss2(publish(s, "Daily", 1, 2)...)
	fetched, release := make(chan struct{}), make(chan struct{})
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		close(fetched)
		<-release
		fmt.Fprint(rw, body)
	})
	feedURL := s.URL + "/feed"
	addFeed(t, x, Feed{URL: feedURL, Interval: Duration(15 * time.Minute)})
	var log strings.Builder
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	w := newWatcher(t, x, o)
	type pass struct {
		res []Result
		err error
	}
	done := make(chan pass, 1)
	go func() { res, err := w.Once(t.Context()); done <- pass{res, err} }()
	<-fetched
	err := RemoveFeed(t.Context(), x, feedURL)
	close(release)
	p := <-done
	if err := errors.Join(err, p.err); err != nil || len(p.res) != 1 {
		t.Fatalf("pass: %+v, %v", p.res, err)
	}
	if r := p.res[0]; r.Status != StatusRemoved || r.Discarded != 2 || r.Err != nil {
		t.Errorf("the feed's result %+v (%v), want removed, 2 discarded", r, r.Err)
	}
	if tot := w.Totals(); tot.Polls[StatusRemoved] != 1 || len(tot.Polls) != 1 {
		t.Errorf("totals %+v, want 1 poll removed", tot)
	}
	want := "feed=" + feedURL + " status=removed items=2 new=2"
	if !strings.Contains(log.String(), `msg="feed removed while polled" `+want) || !strings.Contains(log.String(), "discarded=2") {
		t.Errorf("no line \"feed removed while polled\" %s discarded=2 in the log:\n%s", want, log.String())
	}
}
