package webui

import (
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Every write page answers 401 without a token and with a wrong one,
// and changes nothing.
func TestWritePagesNeedToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	cases := []struct {
		method, path string
	}{
		{"GET", "/feeds"},
		{"GET", "/feeds/1"},
		{"POST", "/feeds"},
		{"POST", "/feeds/try"},
		{"GET", "/feeds/try"},
		{"POST", "/feeds/1"},
		{"POST", "/feeds/1/remove"},
		{"POST", "/store"},
		{"POST", "/documents/x/remove"},
	}
	form := url.Values{"url": {"https://example.com/rss"}, "no_check": {"1"}, "interval": {"15m"}, "text": {"a text"}, "id": {"x"}}
	for _, c := range cases {
		for _, tok := range []string{"", "wrong-token"} {
			r := httptest.NewRequest(c.method, c.path, strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tok != "" {
				r.Header.Set("Authorization", "Bearer "+tok)
			}
			a := f.do(r)
			a.want(t, c.method+" "+c.path+" token "+tok, http.StatusUnauthorized, "write token", `name="token"`)
			if a.hdr.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s: no WWW-Authenticate header", c.method, c.path)
			}
		}
	}
	if n, _ := f.x.Stats(t.Context()); n.Documents != 0 {
		t.Errorf("%d documents stored by refused requests", n.Documents)
	}
	f.get("/feeds", true).want(t, "feeds with the token", http.StatusOK, "Add a feed")
}

// The sign-in form keeps the token in an HttpOnly, SameSite=Strict cookie;
// forms posted with the cookie need their CSRF field; a cross-site post is
// refused whatever it carries.
func TestSignInCookieAndCSRF(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	f.post("/signin", url.Values{"token": {"nope"}, "next": {"/feeds"}}, false).
		want(t, "wrong token", http.StatusUnauthorized, "not a write token")

	a := f.post("/signin", url.Values{"token": {testToken}, "next": {"/feeds"}}, false)
	if a.code != http.StatusSeeOther || a.hdr.Get("Location") != "/feeds" {
		t.Fatalf("sign in: %d to %q, want 303 to /feeds", a.code, a.hdr.Get("Location"))
	}
	cookies := (&http.Response{Header: a.hdr}).Cookies()
	if len(cookies) != 1 {
		t.Fatalf("sign in set %d cookies, want 1", len(cookies))
	}
	c := cookies[0]
	if c.Name != cookieName || c.Value != testToken || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Fatalf("cookie %+v: want %s=token, HttpOnly, SameSite=Strict, Path=/", c, cookieName)
	}
	withCookie := func(method, path string, form url.Values) *http.Request {
		r := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.AddCookie(c)
		return r
	}
	page := f.do(withCookie("GET", "/feeds", nil))
	page.want(t, "feeds with the cookie", http.StatusOK, "Sign out", `name="csrf"`)
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page.body)
	if csrf == nil {
		t.Fatal("no CSRF field on the feeds page")
	}
	feed := url.Values{"url": {"https://example.com/rss.xml"}, "no_check": {"1"}, "interval": {"20m"}}
	f.do(withCookie("POST", "/feeds", feed)).want(t, "add without csrf", http.StatusForbidden, "expired")
	wrong := "0" + csrf[1][1:] // another token: its first digit changed
	if csrf[1][0] == '0' {
		wrong = "1" + csrf[1][1:]
	}
	feed.Set("csrf", wrong)
	f.do(withCookie("POST", "/feeds", feed)).want(t, "add with a wrong csrf", http.StatusForbidden)

	cross := withCookie("POST", "/feeds", url.Values{"url": {"https://example.com/rss.xml"}, "no_check": {"1"}, "csrf": {csrf[1]}})
	cross.Header.Set("Sec-Fetch-Site", "cross-site")
	f.do(cross).want(t, "cross-site post", http.StatusForbidden, "another site")
	cross = withCookie("POST", "/feeds", url.Values{"url": {"https://example.com/rss.xml"}, "no_check": {"1"}, "csrf": {csrf[1]}})
	cross.Header.Set("Origin", "https://evil.example")
	f.do(cross).want(t, "post from another origin", http.StatusForbidden)
	f.get("/feeds", true).want(t, "feeds after refused adds", http.StatusOK, "No feeds yet")

	feed.Set("csrf", csrf[1])
	if a := f.do(withCookie("POST", "/feeds", feed)); a.code != http.StatusSeeOther {
		t.Fatalf("add with the csrf field: %d, want 303\n%s", a.code, a.body)
	}
	f.get("/feeds", true).want(t, "feeds after the add", http.StatusOK, "https://example.com/rss.xml", "20m")

	out := f.do(withCookie("POST", "/signout", nil))
	if out.code != http.StatusSeeOther || !strings.Contains(out.hdr.Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("sign out: %d, Set-Cookie %q; want 303 and the cookie expired", out.code, out.hdr.Get("Set-Cookie"))
	}
}

// A redirect after sign-in never leaves the site.
func TestSignInNextStaysLocal(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	for next, want := range map[string]string{
		"/clusters?x=1":       "/clusters?x=1",
		"https://evil.com/":   "/",
		"//evil.com/":         "/",
		"/\\evil.com":         "/",
		"/ok\r\nSet-Cookie:x": "/",
		"":                    "/",
		// A browser drops tabs and line breaks and reads a backslash as
		// a slash: each of these would land on evil.com.
		"/\t/evil.com/path":   "/",
		"/\n/evil.com":        "/",
		"/\r\n/evil.com":      "/",
		"\t//evil.com":        "/",
		"/\\/evil.com":        "/",
		"/%09/evil.com":       "/%09/evil.com",
		"/.//evil.com":        "/evil.com",
		"/a/..//evil.com":     "/evil.com",
		"/x/../../evil.com":   "/evil.com",
		"/\u0085/evil.com":    "/",
		"/\x7f/evil.com":      "/",
		"https:/evil.com":     "/",
		"/feeds#frag":         "/feeds",
		"/documents/a%2Fb":    "/documents/a%2Fb",
		"/search?q=a+b&x=%2F": "/search?q=a+b&x=%2F",
	} {
		a := f.post("/signin", url.Values{"token": {testToken}, "next": {next}}, false)
		if got := a.hdr.Get("Location"); a.code != http.StatusSeeOther || got != want {
			t.Errorf("next %q: %d to %q, want 303 to %q", next, a.code, got, want)
		}
	}
}

// Regression: the header's "Sign in" link named the page by its decoded
// path alone, so that signing in from a search, a filtered list or a later
// page came back to it without its query, and from a document whose id
// holds a slash to a page that does not exist.
func TestSignInLinkComesBack(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	for _, c := range []struct{ page, next string }{
		{"/search?q=zebracrossing&page=1", "/search?q=zebracrossing&page=1"},
		{"/?source=blog&label=", "/?source=blog&label="},
		{"/documents/daily%2F7", "/documents/daily%2F7"},
		{"/clusters", "/clusters"},
	} {
		t.Run(c.page, func(t *testing.T) {
			a := f.get(c.page, false)
			m := regexp.MustCompile(`<a href="/signin\?next=([^"]*)">Sign in</a>`).FindStringSubmatch(a.body)
			if m == nil {
				t.Fatalf("%s has no sign-in link", c.page)
			}
			link, err := url.ParseQuery("next=" + html.UnescapeString(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			// The sign-in page sends there.
			got := f.post("/signin", url.Values{"token": {testToken}, "next": {link.Get("next")}}, false).hdr.Get("Location")
			if got != c.next {
				t.Errorf("signing in from %s comes back to %q, want %q", c.page, got, c.next)
			}
		})
	}
}

// Under AuthReads every page needs the token; the sign-in page does not.
func TestAuthReads(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{AuthReads: true})
	for _, p := range []string{"/check", "/documents/x", "/diff?a=x&b=y"} {
		f.get(p, false).want(t, p+" without a token", http.StatusUnauthorized, `name="token"`)
	}
	f.get("/check", true).want(t, "/check with the token", http.StatusOK, "Check an article")
	f.get("/signin", false).want(t, "sign-in page", http.StatusOK, `name="token"`)
	a := f.post("/signin", url.Values{"token": {testToken}, "next": {"/check"}}, false)
	cookies := (&http.Response{Header: a.hdr}).Cookies()
	if a.code != http.StatusSeeOther || len(cookies) != 1 {
		t.Fatalf("sign in: %d, %d cookies", a.code, len(cookies))
	}
	r := httptest.NewRequest("GET", "/check", nil)
	r.AddCookie(cookies[0])
	f.do(r).want(t, "/check with the cookie", http.StatusOK, "Check an article", "Sign out")
}

// Without Options.Authorized no token is valid.
func TestNoTokensNoWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	h := New(f.x, Options{})
	r := httptest.NewRequest("GET", "/feeds", nil)
	r.Header.Set("Authorization", "Bearer "+testToken)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("feeds with no tokens configured: %d, want 401", w.Code)
	}
}

// Every answer carries the security headers; the assets are served, and
// nothing else under /assets/.
func TestHeadersAndAssets(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	a := f.get("/check", false)
	if csp := a.hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	if a.hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}
	f.get("/assets/style.css", false).want(t, "stylesheet", http.StatusOK, "table.nd-diff", ".badge.dup")
	f.get("/assets/ui.js", false).want(t, "script", http.StatusOK, "addEventListener")
	f.get("/assets/icon.svg", false).want(t, "icon", http.StatusOK, "<svg")
	f.get("/favicon.ico", false).want(t, "favicon", http.StatusOK, "<svg")
	for _, p := range []string{"/assets/", "/assets/../webui.go", "/assets/style.css/x", "/assets/nope.js"} {
		if a := f.get(p, false); a.code != http.StatusNotFound && a.code != http.StatusTemporaryRedirect {
			t.Errorf("%s: %d, want 404 (or a redirect to the cleaned path)", p, a.code)
		}
	}
}
