package webui

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server"
)

// displayServer serves the UI as neardup serve does, over documents whose
// titles hold a right-to-left override and 500-letter words, and returns
// its URL and the id of their cluster.
func displayServer(t *testing.T) (string, int64) {
	t.Helper()
	f := newFixture(t, Options{})
	orig, reprint := f.story(14)
	long := strings.Repeat("W", 500)
	f.add(core.Document{ID: "web-dca2ac2288a91f55", Title: "Checked \u202eRLO title", Source: "wire \u202eagency", Text: orig + " zebracrossing"},
		core.Document{ID: "long-1", Title: "Long " + long, Source: "daily", Text: reprint + " " + strings.Repeat("X", 3000) + " zebracrossing"})
	s, err := server.New(f.x, server.Options{UI: New(f.x, Options{})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); s.Close() })
	d, err := f.x.Document(t.Context(), "long-1")
	if err != nil || d.Cluster == 0 {
		t.Fatalf("the two documents form no cluster (%v)", err)
	}
	return srv.URL, d.Cluster
}

// In a real Chromium, the pages read right whatever the documents hold: no
// request fails, text from documents cannot turn the text around it, and
// long words wrap instead of widening the page.
func TestBrowserDisplay(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	base, cluster := displayServer(t)
	pages := []string{"/", "/clusters", fmt.Sprintf("/clusters/%d", cluster), "/documents/long-1",
		"/diff?a=web-dca2ac2288a91f55&b=long-1", "/search?q=zebracrossing", "/check", "/signin"}

	// Regression: every page asked for /favicon.ico, a 404 logged as a
	// console error.
	t.Run("no failed request", func(t *testing.T) {
		var mu sync.Mutex
		var bad []string
		if err := chromedp.Listen(ctx, func(ev any) {
			mu.Lock()
			defer mu.Unlock()
			switch e := ev.(type) {
			case *network.EventResponseReceived:
				if e.Response.Status >= 400 {
					bad = append(bad, fmt.Sprintf("%s: %d", e.Response.URL, e.Response.Status))
				}
			case *log.EventEntryAdded:
				if e.Entry.Level == log.EntryLevelError {
					bad = append(bad, fmt.Sprintf("console error: %s (%s)", e.Entry.Text, e.Entry.URL))
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
			t.Fatalf("enabling the log: %v", err)
		}
		for _, p := range pages {
			do(t, ctx, "loading "+p, chromedp.Navigate(base+p), loaded(), chromedp.Sleep(200*time.Millisecond))
		}
		mu.Lock()
		defer mu.Unlock()
		if len(bad) > 0 {
			t.Errorf("failed requests or console errors:\n%s", strings.Join(bad, "\n"))
		}
	})

	// Regression: a title's unclosed RIGHT-TO-LEFT OVERRIDE reversed the
	// text after it: "cluster 4" read "4 retsulc", an id read backwards, the
	// badges were drawn inside the title, and the tab's title read
	// "eltit OLR".
	t.Run("text from documents is isolated", func(t *testing.T) {
		// readsLTR tells whether the text of the first element sel matches
		// is drawn left to right.
		readsLTR := func(sel string) string {
			return eval(t, ctx, `(() => {
				const el = document.querySelector(`+"`"+sel+"`"+`);
				if (!el) return "no element";
				const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
				let n; while ((n = w.nextNode()) && n.data.trim().length < 2) {}
				if (!n) return "no text";
				const at = i => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect(); };
				// Its first two letters: the first left of the second.
				const s = n.data, i = s.search(/\S/), ltr = at(i).left < at(i + 1).left;
				return ltr ? "ltr" : "reversed: " + s;
			})()`)
		}
		cases := []struct{ name, path, sel string }{
			{"cluster link after a search hit", "/search?q=zebracrossing", `ol.results a[href="/documents/web-dca2ac2288a91f55"] ~ a.sub-inline`},
			{"id under a title", "/", `table.docs td[data-label="Document"] a[href="/documents/web-dca2ac2288a91f55"] + .sub`},
			{"id under a cluster member's title", fmt.Sprintf("/clusters/%d", cluster), `table.members a[href="/documents/web-dca2ac2288a91f55"] ~ .sub`},
		}
		do(t, ctx, "a 420 px wide screen", chromedp.EmulateViewport(420, 800))
		defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
		for _, c := range cases {
			do(t, ctx, "loading "+c.path, chromedp.Navigate(base+c.path), loaded())
			if got := readsLTR(c.sel); got != "ltr" {
				t.Errorf("%s (%s): %s", c.name, c.path, got)
			}
		}
		do(t, ctx, "loading the cluster", chromedp.Navigate(base+fmt.Sprintf("/clusters/%d", cluster)), loaded())
		// The badge follows the title it belongs to: it starts right of
		// the title's last line.
		got := eval(t, ctx, `(() => {
			const a = document.querySelector('table.members a[href="/documents/web-dca2ac2288a91f55"]');
			const b = a.parentElement.querySelector(".badge");
			const rs = a.getClientRects(), last = rs[rs.length - 1];
			return b.getBoundingClientRect().left >= last.right - 1 ? "after" : "inside the title: " + a.parentElement.innerText;
		})()`)
		if got != "after" {
			t.Errorf("the cluster page's badge: %s", got)
		}
		do(t, ctx, "loading the document", chromedp.Navigate(base+"/documents/web-dca2ac2288a91f55"), loaded())
		if title := eval(t, ctx, `document.title`); title != "\u2068Checked \u202eRLO title\u2069 · neardup" {
			t.Errorf("page title %q: want the document's title isolated", title)
		}
	})

	// Regression: a 500-letter title made the diff and search pages
	// thousands of pixels wide; so did a long word a page repeats from its
	// request, in a search's summary, the notice of a removal and an error
	// (an id that is a long URL).
	long := strings.Repeat("W", 500)
	echoes := []string{"/search?q=" + long, "/?removed=" + long, "/documents/" + long, "/diff?a=long-1&b=" + long}
	t.Run("long words wrap", func(t *testing.T) {
		defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
		for _, width := range []int64{1280, 420} {
			do(t, ctx, fmt.Sprintf("a %d px wide screen", width), chromedp.EmulateViewport(width, 800))
			for _, p := range append(pages[:len(pages):len(pages)], echoes...) {
				do(t, ctx, "loading "+p, chromedp.Navigate(base+p), loaded())
				if got := eval(t, ctx, `(() => { const e = document.documentElement;
					if (e.scrollWidth <= e.clientWidth) return "";
					const wide = [...document.querySelectorAll("main *")].filter(el => el.getBoundingClientRect().right > e.clientWidth + 1).map(el => el.tagName + "." + el.className);
					return "the page is " + e.scrollWidth + " px wide: " + wide.slice(0, 5).join(", "); })()`); got != "" {
					t.Errorf("%s at %d px: %s", short(60, p), width, got)
				}
			}
		}
	})
}
