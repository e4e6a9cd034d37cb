package watch

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/index"
)

// A page's <link rel="canonical"> or og:url is what the page says of
// itself, not where the watcher found it: an unrelated story whose page
// names a stored article's URL as its own, dated before it, on another
// site or on the article's own, is compared by the index's method like
// any other article, stored under the address it was fetched from. A copy
// of the article that names it, whose text agrees, still pairs with it.
//
// Regression: the declared URL was the article's URL, and two articles of
// one URL were exact copies without their texts compared, so that the
// unrelated story was marked the stored article's original (score 1) and
// the article's item turned duplicate.
func TestDeclaredCanonicalMakesNoCopy(t *testing.T) {
	dated := func(day int) time.Time { return time.Date(2026, 10, day, 9, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name string
		tag  string // how the hostile page names the victim's URL: %s is it
		ip   string // the hostile site's address
	}{
		{"canonical on another site", `<link rel="canonical" href="%s">`, "127.0.0.2"},
		{"og:url on another site", `<meta property="og:url" content="%s">`, "127.0.0.2"},
		{"canonical on the same site", `<link rel="canonical" href="%s">`, "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newIndex(t)
			v := newSite(t)
			e := v
			if tc.ip != "127.0.0.1" {
				e = newSiteAt(t, tc.ip)
			}
			victim, unrelated := newStory(301), newStory(302)
			victimURL := v.URL + "/a/victim"
			v.serve("/a/victim", "text/html", victim.page("V", ""))
			claim := strings.Replace(tc.tag, "%s", victimURL, 1)
			e.serve("/b/evil", "text/html", strings.Replace(unrelated.page("E", ""), "</head>", claim+"</head>", 1))
			// A copy of the victim's story with a line of its own, naming
			// it: the method pairs them.
			copied := victim
			copied.paras = append(append([]string{}, victim.paras...), "Reporting by our correspondent.")
			e.serve("/c/copy", "text/html", strings.Replace(copied.page("E", ""), "</head>", claim+"</head>", 1))
			v.serve("/victim.xml", "application/rss+xml", rss2(item{title: victim.title, link: victimURL, date: dated(20)}))
			e.serve("/evil.xml", "application/rss+xml", rss2(
				item{title: unrelated.title, link: e.URL + "/b/evil", date: dated(1)},
				item{title: copied.title, link: e.URL + "/c/copy", date: dated(21)}))
			w := newWatcher(t, x, allowOnly("127.0.0.0/30"))
			addFeed(t, x, Feed{URL: v.URL + "/victim.xml", Interval: Duration(time.Hour)})
			once(t, w)
			addFeed(t, x, Feed{URL: e.URL + "/evil.xml", Interval: Duration(time.Hour)})
			once(t, w)

			if got := storedItems(t, x, v.URL+"/victim.xml")[victimURL].Outcome; got != OutcomeAdded {
				t.Errorf("the victim's item: %s, want %s", got, OutcomeAdded)
			}
			evil := storedItems(t, x, e.URL+"/evil.xml")
			if got := evil[e.URL+"/b/evil"].Outcome; got != OutcomeAdded {
				t.Errorf("the unrelated story's item: %s, want %s", got, OutcomeAdded)
			}
			if got := evil[e.URL+"/c/copy"].Outcome; got != OutcomeDuplicate {
				t.Errorf("the copy's item: %s, want %s", got, OutcomeDuplicate)
			}
			d, marks := stored(t, x, e.URL+"/b/evil")
			if len(marks) != 0 {
				t.Errorf("the unrelated story's marks: %+v, want none", marks)
			}
			if want := e.URL + "/b/evil"; d.URL != want || d.Source != tc.ip {
				t.Errorf("the unrelated story stored with URL %q, source %q; want %q, %q", d.URL, d.Source, want, tc.ip)
			}
			if _, marks := stored(t, x, e.URL+"/c/copy"); len(marks) != 1 || marks[0].Label != core.Duplicate ||
				marks[0].Original != victimURL || marks[0].Method == neardup.ExactMethod {
				t.Errorf("the copy's marks: %+v, want one duplicate of the victim, by the method", marks)
			}
		})
	}
}

// Two items whose links redirect to one address are one page fetched
// twice: the second is an exact copy of the first by its URL, though the
// page was edited in between, and whatever canonical URL it names.
func TestRecrawlOfOneAddressIsACopy(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	first := newStory(311)
	edited := first
	edited.paras = append([]string{"Updated: the council met again this morning."}, first.paras[1:]...)
	page := first.page("Daily", s.URL+"/amp/storm")
	s.handle("/2026/10/storm", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		rw.Write([]byte(page))
	})
	for _, from := range []string{"/?p=7", "/news/7"} {
		s.handle(strings.TrimSuffix(from, "?p=7"), func(rw http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" && r.URL.Query().Get("p") != "7" {
				http.NotFound(rw, r)
				return
			}
			http.Redirect(rw, r, s.URL+"/2026/10/storm", http.StatusMovedPermanently)
		})
	}
	s.serve("/one.xml", "application/rss+xml", rss2(item{title: first.title, link: s.URL + "/?p=7", date: time.Date(2026, 10, 3, 9, 0, 0, 0, time.UTC)}))
	s.serve("/two.xml", "application/rss+xml", rss2(item{title: first.title, link: s.URL + "/news/7", date: time.Date(2026, 10, 3, 11, 0, 0, 0, time.UTC)}))
	w := newWatcher(t, x, testOptions())
	addFeed(t, x, Feed{URL: s.URL + "/one.xml", Interval: Duration(time.Hour)})
	once(t, w)
	page = edited.page("Daily", s.URL+"/amp/storm")
	addFeed(t, x, Feed{URL: s.URL + "/two.xml", Interval: Duration(time.Hour)})
	once(t, w)
	if got := storedItems(t, x, s.URL+"/two.xml")[s.URL+"/news/7"].Outcome; got != OutcomeDuplicate {
		t.Errorf("the second fetch's item: %s, want %s", got, OutcomeDuplicate)
	}
	if ev := exactEvidence(t, x, s.URL+"/news/7"); ev != (index.ExactEvidence{By: "url"}) {
		t.Errorf("the second fetch's evidence: %+v, want by url", ev)
	}
	if d, _ := stored(t, x, s.URL+"/news/7"); d.URL != s.URL+"/2026/10/storm" {
		t.Errorf("the second fetch stored under %q, want the address fetched", d.URL)
	}
}
