package webui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neardup/neardup/internal/server"
	"github.com/neardup/neardup/internal/watch"
)

// chromium returns the path of a Chromium or Chrome binary. The browser
// tests run with NEARDUP_LONG=1 or NEARDUP_REQUIRE_CHROMIUM=1 (CI sets
// both); they skip without a browser, saying so, unless
// NEARDUP_REQUIRE_CHROMIUM=1, where a missing browser fails them.
func chromium(t *testing.T) string {
	t.Helper()
	if os.Getenv("NEARDUP_LONG") == "" && os.Getenv("NEARDUP_REQUIRE_CHROMIUM") != "1" {
		t.Skip("browser tests are long: NEARDUP_LONG=1 runs them (CI does)")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NEARDUP_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("NEARDUP_REQUIRE_CHROMIUM=1 but no chromium, chromium-browser, google-chrome or headless-shell is on PATH")
	}
	t.Skip("browser tests skipped: no chromium on PATH (apt-get install chromium; NEARDUP_REQUIRE_CHROMIUM=1 makes this a failure)")
	return ""
}

// browser starts a headless Chromium for one test, its profile and its own
// temporary files (TMPDIR: the directory of its singleton socket, which a
// killed browser leaves behind) in the test's temporary directory, and
// returns its context.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	dir := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.Env("TMPDIR="+dir),
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 120*time.Second) // TestBrowser runs a dozen pages on a shared machine
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// do runs browser actions, failing the test with what was being done.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, steps...); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 1500) : ""`))
		t.Fatalf("%s (at %s): %v\npage text:\n%s", what, loc, err, body)
	}
}

// eval evaluates a JavaScript expression to a string.
func eval(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return s
}

// text returns the text of the first element sel matches, once visible.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("reading %s (at %s): %v", sel, loc, err)
	}
	return s
}

// loaded waits until the page has loaded, its script run.
func loaded() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](`document.readyState === "complete"`, chromedp.WithPollingTimeout(10*time.Second))(ctx, t)
		return err
	})
}

// focusOn waits until the element of the id has the focus, and fails the
// test if it does not within seconds.
func focusOn(t *testing.T, ctx context.Context, id, what string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.activeElement && document.activeElement.id === "`+id+`"`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Errorf("%s: the focus is on %q, want #%s", what, eval(t, ctx, `document.activeElement ? document.activeElement.id : ""`), id)
	}
}

// css is a CSS selector.
type css = chromedp.CSS

// In a real Chromium, on the server neardup serve runs, with documents
// added through its API: the latest documents show the duplicate badge, its
// diff opens with each side's overlap, a search finds a story by keyboard,
// an article checked shows its match and is stored, and the feed admin,
// after signing in, tries a site rule on a local page and adds the feed.
func TestBrowser(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	story := strings.Repeat("The river rose through the night and the council opened the shelters before dawn. ", 12)
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rss.xml" {
			w.Header().Set("Content-Type", "application/rss+xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Daily</title><item><title>Floods</title><link>%s/news/floods</link></item></channel></rss>`, site.URL)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Floods | Daily</title></head><body><nav>Home News</nav>
<article><h1>Floods in the valley</h1><div class="story"><p>%s</p><p class="promo">Subscribe today.</p></div></article></body></html>`, story)
	}))
	defer site.Close()

	// The server as neardup serve runs it: the API, with this UI at "/".
	f := newFixture(t, Options{})
	toks := server.NewTokens(testToken)
	// The rule trial fetches the local site: its address is allowed.
	local := watch.Options{AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	s, err := server.New(f.x, server.Options{Tokens: toks, UI: New(f.x, Options{Authorized: toks.Valid, Watch: local})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()

	// Documents added through the API.
	orig, reprint := f.story(14)
	docs, _ := json.Marshal([]map[string]string{
		{"id": "wire-1", "title": "Storm closes the harbour bridge", "source": "wire", "text": orig + " zebracrossing"},
		{"id": "daily/7", "title": "Harbour bridge shut by storm", "source": "daily", "text": reprint + " zebracrossing"},
		{"id": "blog-1", "title": "A diary", "source": "blog", "text": strings.Join(f.gen.Sentences(12), " ")},
	})
	req, _ := http.NewRequest("POST", srv.URL+"/v1/documents", bytes.NewReader(docs))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/documents: %s", resp.Status)
	}
	if d, err := f.x.Document(t.Context(), "wire-1"); err != nil || d.Text == "" {
		t.Fatalf("a document added through the API has no text (%v): the diffs would be empty", err)
	}

	t.Run("duplicate badge and diff", func(t *testing.T) {
		do(t, ctx, "loading the latest documents", chromedp.Navigate(srv.URL+"/"))
		if got := text(t, ctx, "table.docs .badge.dup"); got != "duplicate" {
			t.Errorf("badge %q, want duplicate", got)
		}
		do(t, ctx, "opening the diff", chromedp.Click(css(`table.docs a[href^="/diff"]`)),
			chromedp.WaitVisible(css("table.nd-diff")))
		ratio := text(t, ctx, ".overlap")
		if strings.Count(ratio, "%") != 2 || !strings.Contains(ratio, "words are in the other") {
			t.Errorf("overlap %q: want each side's ratio", ratio)
		}
		if n := eval(t, ctx, `String(document.querySelectorAll("table.nd-diff .nd-b").length)`); n == "0" {
			t.Error("the diff marks nothing as changed")
		}
	})

	t.Run("keyboard search", func(t *testing.T) {
		do(t, ctx, "tabbing to the skip link", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(css("table.docs")), loaded(),
			chromedp.KeyEvent(kb.Tab))
		if focused := eval(t, ctx, `document.activeElement.textContent`); focused != "Skip to content" {
			t.Errorf("the first Tab focuses %q, want the skip link", focused)
		}
		do(t, ctx, "pressing /", chromedp.KeyEvent("/"))
		focusOn(t, ctx, "q", "after /")
		do(t, ctx, "typing the search", chromedp.KeyEvent("zebracrossing\r"), chromedp.WaitVisible(css("ol.results")))
		if got := text(t, ctx, "ol.results li:first-child mark"); got != "zebracrossing" {
			t.Errorf("highlighted %q", got)
		}
		if got := text(t, ctx, "main > p"); !strings.Contains(got, "2 documents match") {
			t.Errorf("search summary %q", got)
		}
	})

	t.Run("sign in, check and store", func(t *testing.T) {
		do(t, ctx, "signing in from the feeds page", chromedp.Navigate(srv.URL+"/feeds"), chromedp.WaitVisible(css("#token")),
			chromedp.SendKeys(css("#token"), testToken), chromedp.Submit(css("#token")), chromedp.WaitVisible(css("form.feedform")))
		do(t, ctx, "checking a pasted article", chromedp.Navigate(srv.URL+"/check"), chromedp.WaitVisible(css("#text")),
			chromedp.SetValue(css("#text"), reprint), chromedp.SetValue(css("#doc-id"), "paste-1"), chromedp.SetValue(css("#title"), "Pasted copy"),
			chromedp.Click(css("form.check button.primary")), chromedp.WaitVisible(css("#results")))
		if got := text(t, ctx, "#results .badge.dup"); got != "duplicate" {
			t.Errorf("check: badge %q", got)
		}
		do(t, ctx, "storing it", chromedp.Click(css("form.store button")), chromedp.WaitVisible(css(".notice")))
		if got := text(t, ctx, "h1"); got != "Pasted copy" {
			t.Errorf("stored document's page: %q", got)
		}
		page := filepath.Join(t.TempDir(), "story.html")
		html := `<html><head><title>Bridge shut - Gazette</title></head><body><nav>Home | News</nav><article><h1>Bridge shut</h1><p>` +
			reprint + `</p></article><footer>About us</footer></body></html>`
		if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		do(t, ctx, "uploading a page", chromedp.Navigate(srv.URL+"/check"), chromedp.WaitVisible(css("#file")),
			chromedp.SetUploadFiles(css("#file"), []string{page}), chromedp.Click(css("form.check button.primary")),
			chromedp.WaitVisible(css("#results")))
		if got := text(t, ctx, "#results"); !strings.Contains(got, "extracted from the HTML of story.html") || !strings.Contains(got, "duplicate") {
			t.Errorf("upload result %q", short(300, got))
		}
	})

	t.Run("feed admin tries a rule and adds the feed", func(t *testing.T) {
		do(t, ctx, "trying the rule", chromedp.Navigate(srv.URL+"/feeds"), chromedp.WaitVisible(css("#url")), loaded(),
			chromedp.SendKeys(css("#url"), site.URL+"/rss.xml"), chromedp.SendKeys(css("#body"), ".story"),
			chromedp.SendKeys(css("#drop"), ".promo"), chromedp.SendKeys(css("#test_url"), site.URL+"/news/floods\r"),
			chromedp.WaitVisible(css("#trial")))
		if got := text(t, ctx, "#trial .trial-title"); !strings.HasPrefix(got, "Floods") {
			t.Errorf("trial title %q", got)
		}
		body := text(t, ctx, "#trial .trial-text")
		if !strings.Contains(body, "The river rose") || strings.Contains(body, "Subscribe") {
			t.Errorf("trial text %q", short(200, body))
		}
		focusOn(t, ctx, "trial-title", "after the trial")
		// Enter in a field submits the form's default: adding the feed,
		// not another trial.
		do(t, ctx, "adding the feed with Enter", chromedp.Focus(css("#interval")), chromedp.KeyEvent("\r"), chromedp.WaitVisible(css(".notice")))
		if got := text(t, ctx, "h1"); got != site.URL+"/rss.xml" {
			t.Errorf("feed page %q", got)
		}
		// A page that is no feed is refused, saying why, with the box that
		// adds it all the same.
		do(t, ctx, "adding a page that is no feed", chromedp.Navigate(srv.URL+"/feeds"), chromedp.WaitVisible(css("#url")), loaded(),
			chromedp.SendKeys(css("#url"), site.URL+"/news/floods"), chromedp.Click(css("form.feedform button.primary")),
			chromedp.WaitVisible(css("#form-error")))
		if got := text(t, ctx, "#form-error"); !strings.Contains(got, "an HTML page, not a feed") {
			t.Errorf("adding a page: %q", got)
		}
	})

	t.Run("narrow screen", func(t *testing.T) {
		do(t, ctx, "a 420 px wide screen", chromedp.EmulateViewport(420, 800))
		defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
		wire, err := f.x.Document(t.Context(), "wire-1")
		if err != nil || wire.Cluster == 0 {
			t.Fatalf("wire-1 is in no cluster (%v)", err)
		}
		cluster := fmt.Sprintf("/clusters/%d", wire.Cluster)
		for _, page := range []struct{ path, table string }{
			{"/", "table.docs"}, {"/clusters", "table.clusters"}, {"/documents/wire-1", "table.matches"}, {"/feeds", "table.feeds"},
			{cluster, "table.members"}, {cluster, "table.pairs"},
		} {
			do(t, ctx, "loading "+page.path, chromedp.Navigate(srv.URL+page.path), chromedp.WaitVisible(css(page.table)), loaded())
			// Every cell lies within the screen, none scrolled out of sight:
			// the page does not scroll sideways.
			out := eval(t, ctx, `(() => {
				const w = document.documentElement.clientWidth, bad = [];
				if (document.documentElement.scrollWidth > w) bad.push("the page is " + document.documentElement.scrollWidth + " px wide");
				document.querySelectorAll("`+page.table+` td").forEach(td => {
					const r = td.getBoundingClientRect();
					if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) bad.push((td.dataset.label || td.cellIndex) + " ends at " + Math.round(r.right));
				});
				return bad.join("; ");
			})()`)
			if out != "" {
				t.Errorf("%s at 420 px: %s", page.path, out)
			}
		}
		// Each cell says which column it is. Regression: the cluster page's
		// tables kept their columns, the diff links behind a sideways scroll.
		for _, page := range []struct{ path, table, label string }{
			{"/", "table.docs", "Mark"}, {"/", "table.docs", "Best match"},
			{cluster, "table.members", "Against the representative"}, {cluster, "table.pairs", "Later"},
		} {
			do(t, ctx, "loading "+page.path, chromedp.Navigate(srv.URL+page.path), chromedp.WaitVisible(css(page.table)))
			got := eval(t, ctx, `(() => { const td = document.querySelector('`+page.table+` td[data-label="`+page.label+`"]');
				return td ? getComputedStyle(td, "::before").content : "no such cell"; })()`)
			if !strings.Contains(got, page.label) {
				t.Errorf("%s: the %s cell of %s is labelled %s", page.path, page.label, page.table, got)
			}
		}
	})

	t.Run("without JavaScript", func(t *testing.T) {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("turning scripts off: %v", err)
		}
		do(t, ctx, "opening a cluster and a pair", chromedp.Navigate(srv.URL+"/clusters"), chromedp.WaitVisible(css("table.clusters")), loaded(),
			chromedp.Click(css(`table.clusters a[href^="/clusters/"]`)), chromedp.WaitVisible(css("form.pair")),
			chromedp.Click(css("form.pair button")), chromedp.WaitVisible(css("table.nd-diff")))
		do(t, ctx, "pressing /", chromedp.KeyEvent("/"))
		if focused := eval(t, ctx, `document.activeElement.id`); focused == "q" {
			t.Fatal("scripts still run: / focused the search box")
		}
		if got := text(t, ctx, ".overlap"); strings.Count(got, "%") != 2 {
			t.Errorf("overlap %q", got)
		}
	})
}
