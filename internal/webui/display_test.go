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
}
