package webui

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server"
)

// In a real Chromium: a copy of a story is stored before the story, which
// was published first. The copy's page says it is a copy of the story and
// links to it, the story's page says it is the original, its match is
// marked as the copy, and the cluster's page and the list of clusters name
// the story as the original.
func TestBrowserOriginal(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	f := newFixture(t, Options{})
	s, err := server.New(f.x, server.Options{Tokens: server.NewTokens(testToken), UI: New(f.x, Options{})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() { hs.Close(); s.Close() })
	srv := hs.URL
	orig, reprint := f.story(14)
	at := func(h int) time.Time { return time.Date(2024, 3, 1, h, 0, 0, 0, time.UTC) }
	f.add(core.Document{ID: "daily/7", Title: "Harbour bridge shut by storm", Source: "daily", Text: reprint, Date: at(12)})
	m := f.add(core.Document{ID: "wire-1", Title: "Storm closes the harbour bridge", Source: "wire", Text: orig, Date: at(10)})[0]
	if m.Original != "wire-1" || m.Cluster == 0 {
		t.Fatalf("the late original: %+v", m)
	}

	do(t, ctx, "opening the copy", chromedp.Navigate(srv+"/documents/daily%2F7"), chromedp.WaitVisible(css("dd.role")))
	if got := text(t, ctx, "dd.role"); got != "copy of Storm closes the harbour bridge, published first" {
		t.Errorf("the copy's role %q", got)
	}
	if got := text(t, ctx, "table.matches .badge.orig"); got != "original" {
		t.Errorf("the copy's match badge %q, want original", got)
	}
	do(t, ctx, "following the link to its original", chromedp.Click(css("dd.role a")), chromedp.WaitVisible(css("dd.role")))
	if got := text(t, ctx, "h1"); got != "Storm closes the harbour bridge" {
		t.Errorf("the role's link leads to %q", got)
	}
	if got := text(t, ctx, "dd.role"); !strings.HasPrefix(got, "original") {
		t.Errorf("the original's role %q", got)
	}
	if got := text(t, ctx, "table.matches .badge.copy"); got != "copy" {
		t.Errorf("the original's match badge %q, want copy", got)
	}
	do(t, ctx, "opening the cluster", chromedp.Click(css(`dd a[href^="/clusters/"]`)), chromedp.WaitVisible(css("p.original")))
	if got := text(t, ctx, "p.original"); !strings.HasPrefix(got, "Original: Storm closes the harbour bridge original") ||
		!strings.Contains(got, "published first, 2024-03-01 10:00 UTC") {
		t.Errorf("the cluster's original %q", got)
	}
	rows := eval(t, ctx, `Array.from(document.querySelectorAll("table.members tbody tr")).map(r => r.querySelector("a").textContent + ": " + r.querySelector(".badge").textContent).join("; ")`)
	if want := "Harbour bridge shut by storm: copy; Storm closes the harbour bridge: original"; rows != want {
		t.Errorf("members %q, want %q", rows, want)
	}
	do(t, ctx, "listing the clusters", chromedp.Navigate(srv+"/clusters"), chromedp.WaitVisible(css("table.clusters")))
	if got := text(t, ctx, `table.clusters td[data-label="Original"]`); got != "Storm closes the harbour bridge" {
		t.Errorf("the list's original %q", got)
	}
}
