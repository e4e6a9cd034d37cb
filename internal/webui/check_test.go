package webui

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/server/httperr"
)

// A pasted near copy of a stored article shows the duplicate and a diff
// against it without being stored; the store button stores it, with a
// write token only, and its page then lists the match.
func TestCheckThenStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Source: "wire", Text: orig},
		core.Document{ID: "other", Title: "Unrelated", Source: "blog", Text: strings.Join(f.gen.Sentences(14), " ")})

	form := url.Values{"title": {"Storm shuts bridge"}, "source": {"daily"}, "date": {"2026-11-20"}, "text": {copyText}, "id": {"daily-7"}}
	a := f.post("/check", form, false)
	a.want(t, "check", http.StatusOK, "1 match among", `class="badge dup"`, "Storm closes the bridge", "/documents/wire-1",
		`class="nd-diff"`, "Sign in with a write token",
		"A passage moved is red where the stored document has it and green where this article does") // the legend
	if n := f.docs(); n != 2 {
		t.Fatalf("a check stored something: %d documents", n)
	}
	a = f.post("/check", form, true)
	a.want(t, "check with a token", http.StatusOK, `action="/store"`, "Store it as <bdi>daily-7</bdi>")

	f.post("/store", form, false).want(t, "store without a token", http.StatusUnauthorized)
	a = f.post("/store", form, true)
	if a.code != http.StatusSeeOther || a.hdr.Get("Location") != "/documents/daily-7?stored=1" {
		t.Fatalf("store: %d to %q\n%s", a.code, a.hdr.Get("Location"), a.body)
	}
	doc := f.get("/documents/daily-7?stored=1", false)
	doc.want(t, "stored document", http.StatusOK, "Stored.", "Storm shuts bridge", ">1 match<", `class="badge dup"`,
		"/diff?a=wire-1&amp;b=daily-7", "2026-11-20")
	f.post("/store", form, true).want(t, "the same id again", http.StatusConflict, "stored already")
	f.post("/check", form, false).want(t, "check a stored id", http.StatusOK, "is stored already")

	d := f.get("/diff?a=wire-1&b=daily-7", false)
	d.want(t, "diff", http.StatusOK, `class="nd-diff"`, "Storm closes the bridge", "Storm shuts bridge", "words are in the other",
		`class="badge dup"`, `class="nd-a"`, `class="nd-b"`)
	f.get("/diff?a=wire-1&b=daily-7&by=sentence", false).want(t, "diff by sentence", http.StatusOK, "<strong>sentence</strong>")
	f.get("/diff?a=wire-1&b=other", false).want(t, "diff of an unmarked pair", http.StatusOK, "has not marked this pair")

	// Removal: a write, confirmed.
	f.post("/documents/daily-7/remove", url.Values{"confirm": {"1"}}, false).want(t, "remove without a token", http.StatusUnauthorized)
	f.get("/documents/daily-7", true).want(t, "document page with a token", http.StatusOK, "Remove the document")
	f.post("/documents/daily-7/remove", url.Values{}, true).want(t, "remove unconfirmed", http.StatusBadRequest, "tick the box")
	if a := f.post("/documents/daily-7/remove", url.Values{"confirm": {"1"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("remove: %d\n%s", a.code, a.body)
	}
	f.get("/?removed=daily-7", false).want(t, "after the removal", http.StatusOK, "<bdi>daily-7</bdi> is removed")
	f.get("/documents/daily-7", false).want(t, "removed document", http.StatusNotFound)
	f.get("/documents/wire-1", false).want(t, "its match", http.StatusOK, "No matches")
	f.post("/documents/daily-7/remove", url.Values{"confirm": {"1"}}, true).want(t, "remove again", http.StatusNotFound)
}

// Checking a stored article again, placed before its copy stored since,
// lists the copy as its match, with a diff against it. Regression: such a
// pair names the article A, and the page took A for the match, listing
// the article itself.
func TestCheckStoredArticleListsItsCopy(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	w := core.Document{ID: "wire-1", Title: "Storm closes the bridge", Source: "wire", Text: orig}
	f.add(w)
	f.add(core.Document{ID: "daily-7", Title: "Storm shuts bridge", Source: "daily", Text: copyText})

	a := f.post("/check", url.Values{"id": {w.ID}, "title": {w.Title}, "source": {w.Source}, "text": {w.Text}}, false)
	a.want(t, "check of the stored wire-1", http.StatusOK, "is stored already", "1 match among", "/documents/daily-7",
		"Storm shuts bridge", `class="nd-diff"`)
	if n := strings.Count(a.body, `href="/documents/wire-1"`); n != 1 { // the "stored already" link alone
		t.Errorf("the page links wire-1 %d times, want once (not as its own match):\n%s", n, a.body)
	}
}

// An uploaded HTML page is extracted before it is checked, decoded by the
// charset it declares; text that is not UTF-8, or empty, is refused on the
// form.
func TestCheckUpload(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Text: orig})
	page := `<html><head><title>Storm shuts the bridge - Daily</title></head><body><nav>Home | News | Sport | Weather</nav>` +
		`<article><h1>Storm shuts the bridge</h1><p>` + copyText + `</p></article><footer>About us</footer></body></html>`
	a := f.upload(map[string]string{"format": "auto"}, "story.html", page)
	a.want(t, "upload", http.StatusOK, "extracted from the HTML of <bdi>story.html</bdi>", `class="badge dup"`, "Storm shuts the bridge")
	if strings.Contains(a.body, "About us") {
		t.Errorf("the footer was kept")
	}
	f.upload(map[string]string{}, "x.txt", "\xff\xfe bad").want(t, "not UTF-8", http.StatusBadRequest, "not UTF-8")
	// A page in another charset is decoded by the one it declares, as
	// extract and watch decode it. Regression: refused as not UTF-8.
	ru := "Сильный шторм закрыл мост через реку на всю ночь, сообщили власти города. Движение восстановят утром."
	cp1251 := `<html><head><meta charset="windows-1251"><title>Шторм</title></head><body><article><h1>Шторм закрыл мост</h1><p>` +
		ru + `</p></article></body></html>`
	f.upload(map[string]string{"format": "auto"}, "ru.html", toCP1251(cp1251)).want(t, "a page in windows-1251", http.StatusOK,
		"extracted from the HTML of <bdi>ru.html</bdi>", "Движение восстановят утром")
	f.upload(map[string]string{"format": "pdf"}, "x.txt", "text").want(t, "bad format", http.StatusBadRequest, "not auto, text or html")
	f.post("/check", url.Values{"text": {"  "}}, false).want(t, "empty", http.StatusBadRequest, "paste an article")
	f.post("/check", url.Values{"text": {"x"}, "date": {"yesterday"}}, false).want(t, "bad date", http.StatusBadRequest, "not a date")
	f.post("/check", url.Values{"text": {"x"}, "date": {"0001-01-01"}}, false).want(t, "zero date", http.StatusBadRequest, "stands for no date")
	f.post("/check", url.Values{"text": {"x"}, "date": {"1970-01-01"}}, false).want(t, "the Unix epoch", http.StatusBadRequest, "stands for no date")
	f.post("/check", url.Values{"text": {"x"}, "date": {"9999-12-31T23:00:00-05:00"}}, false).want(t, "year 10000 in UTC", http.StatusBadRequest, "after the year 9999")
	f.post("/check", url.Values{"text": {"x"}, "id": {strings.Repeat("i", 2000)}}, false).want(t, "long id", http.StatusBadRequest, "longer than")
	f.post("/check", url.Values{"text": {"x"}, "id": {"a\x01b"}}, false).want(t, "control character", http.StatusBadRequest, "holds a control character")
	f.post("/check", url.Values{"text": {"x"}, "id": {".."}}, false).want(t, "id ..", http.StatusBadRequest, "a step in its path")
	f.post("/check", url.Values{"text": {"x"}, "id": {"\u200b"}}, false).want(t, "id of a zero-width space", http.StatusBadRequest, "the document id is blank")
	f.post("/check", url.Values{"text": {"x"}, "title": {"a\x00b"}}, false).want(t, "NUL in the title", http.StatusBadRequest, "the title holds a NUL character")
	f.post("/check", url.Values{"text": {"x"}, "source": {"\xff"}}, false).want(t, "source not UTF-8", http.StatusBadRequest, "the source is not UTF-8")
	f.post("/check", url.Values{"text": {"a\x00b"}}, false).want(t, "NUL in the text", http.StatusBadRequest, "the text holds a NUL character")
	f.post("/check", url.Values{"text": {"x"}, "url": {"javascript:alert(1)"}}, false).want(t, "javascript URL", http.StatusBadRequest, "the url names another scheme than http or https")
	f.post("/check", url.Values{"text": {"<html><body><nav><a href=/>Home</a></nav></body></html>"}, "format": {"html"}}, false).
		want(t, "HTML without an article", http.StatusUnprocessableEntity, "no article in the HTML")
}

// TestStoreFieldLimits: the store form refuses a title, URL or source
// longer than the API takes (core.Document.OverlongField), storing
// nothing; one at the limit is stored.
func TestStoreFieldLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	text, _ := f.story(14)
	for _, c := range []struct{ field, v, want string }{
		{"title", strings.Repeat("t", core.MaxTitleBytes+1), "the title is longer than 4096 bytes"},
		{"url", "http://x.example/" + strings.Repeat("u", core.MaxURLBytes), "the url is longer than 4096 bytes"},
		{"source", strings.Repeat("s", core.MaxSourceBytes+1), "the source is longer than 256 bytes"},
	} {
		form := url.Values{"id": {"long-" + c.field}, "text": {text}, c.field: {c.v}}
		f.post("/store", form, true).want(t, "a long "+c.field, http.StatusBadRequest, c.want)
	}
	if n := f.docs(); n != 0 {
		t.Errorf("%d documents stored, want none", n)
	}
	form := url.Values{"id": {"at-limit"}, "text": {text}, "source": {strings.Repeat("s", core.MaxSourceBytes)},
		"title": {strings.Repeat("t", core.MaxTitleBytes)}}
	if a := f.post("/store", form, true); a.code != http.StatusSeeOther {
		t.Errorf("store at the limits: %d\n%s", a.code, a.body)
	}
}

// Regression: a check refused for its title, URL or source (a title of
// 4,096 letters fits the field's maxlength and is 8,192 bytes in Cyrillic)
// named the field in its message but did not mark it, as it marks the id,
// date and text: a screen reader did not say which field was wrong.
func TestCheckMarksTheFieldRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	text, _ := f.story(14)
	for _, c := range []struct{ field, input, v string }{
		{"title", "title", strings.Repeat("ж", 2100)},
		{"url", "doc-url", "javascript:alert(1)"},
		{"source", "source", strings.Repeat("ж", 200)},
	} {
		a := f.post("/check", url.Values{"text": {text}, c.field: {c.v}}, false)
		a.want(t, c.field, http.StatusBadRequest, `id="form-error"`)
		marked := regexp.MustCompile(`<input id="` + c.input + `"[^>]* aria-invalid="true" aria-describedby="form-error">`)
		if !marked.MatchString(a.body) {
			t.Errorf("a refused %s: its field #%s is not marked invalid", c.field, c.input)
		}
		if n := strings.Count(a.body, `aria-invalid="true"`); n != 1 {
			t.Errorf("a refused %s: %d fields marked invalid, want 1", c.field, n)
		}
	}
}

// Forms larger than Options.MaxBytes are refused with 413.
func TestCheckTooLarge(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{MaxBytes: 1 << 10})
	f.post("/check", url.Values{"text": {strings.Repeat("word ", 1000)}}, false).want(t, "large form", http.StatusRequestEntityTooLarge)
	f.upload(map[string]string{}, "big.txt", strings.Repeat("word ", 1000)).want(t, "large upload", http.StatusRequestEntityTooLarge)
}

// upload posts the check form as multipart with a file.
func (f *fixture) upload(fields map[string]string, name, content string) answer {
	f.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(content))
	mw.Close()
	r := httptest.NewRequest("POST", "/check", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	return f.do(r)
}

// docs counts the stored documents.
func (f *fixture) docs() int {
	f.t.Helper()
	s, err := f.x.Stats(f.t.Context())
	if err != nil {
		f.t.Fatal(err)
	}
	return s.Documents
}

// A site rule whose body selector matches nothing on a checked page is
// said on the result, the page extracted without it.
func TestCheckRuleMiss(t *testing.T) {
	t.Parallel()
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: daily\n    body: '.story-body'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Options{Rules: rs})
	_, copyText := f.story(14)
	page := `<html><head><title>Storm shuts the bridge</title></head><body><article><p>` + copyText + `</p></article></body></html>`
	f.upload(map[string]string{"format": "auto"}, "story.html", page).want(t, "upload", http.StatusOK, "extracted from the HTML of <bdi>story.html</bdi>",
		`class="warn rule-miss">rule &#34;daily&#34; (rules.yaml:3): body &#34;.story-body&#34; matched nothing on the page`)
}

// Regression: an HTML page dated with a time of day (10:00 UTC) was
// checked at that time, but the store form carried the day alone, so the
// article was stored dated midnight: ten hours earlier than the check
// showed, early enough to pass for the original of a copy published that
// morning. The store form now carries the time; a day typed in the form
// is still stored as that day.
func TestStoreKeepsThePagesTimeOfDay(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	_, copyText := f.story(14)
	page := `<html><head><title>Storm shuts the bridge</title>` +
		`<meta property="article:published_time" content="2026-11-20T10:00:00Z"></head>` +
		`<body><article><h1>Storm shuts the bridge</h1><p>` + copyText + `</p></article></body></html>`
	a := f.post("/check", url.Values{"id": {"daily-7"}, "text": {page}}, true)
	a.want(t, "check", http.StatusOK, `action="/store"`)
	store := regexp.MustCompile(`(?s)<form class="store" action="/store" method="post">(.*?)</form>`).FindStringSubmatch(a.body)
	if store == nil {
		t.Fatalf("no store form:\n%s", a.body)
	}
	form := url.Values{}
	for _, m := range regexp.MustCompile(`name="([a-z]+)" value="([^"]*)"`).FindAllStringSubmatch(store[1], -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	if a := f.post("/store", form, true); a.code != http.StatusSeeOther {
		t.Fatalf("store: %d\n%s", a.code, a.body)
	}
	d, err := f.x.Document(t.Context(), "daily-7")
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC); !d.Date.Equal(want) {
		t.Errorf("stored dated %v, want %v (the page's date)", d.Date, want)
	}

	other, _ := f.story(14)
	if a := f.post("/store", url.Values{"id": {"typed"}, "date": {"2026-11-21"}, "text": {other}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("store with a day: %d\n%s", a.code, a.body)
	}
	if d, err := f.x.Document(t.Context(), "typed"); err != nil || !d.Date.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a typed day: stored %v, %v", d.Date, err)
	}
}

// Regression: a check, with a write token, of an article whose id is
// stored said so and still offered "Store it as" that id, a button that
// could only be refused (409: a stored id is never replaced). It now
// asks for another id instead.
func TestCheckOfAStoredIDOffersNoStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Text: orig})
	a := f.post("/check", url.Values{"id": {"wire-1"}, "text": {copyText}}, true)
	a.want(t, "check of a stored id", http.StatusOK, "is stored already", "give it another id below")
	if strings.Contains(a.body, `action="/store"`) {
		t.Errorf("the page offers to store the article under the stored id wire-1")
	}
	f.post("/check", url.Values{"id": {"daily-7"}, "text": {copyText}}, true).
		want(t, "check of a new id", http.StatusOK, `action="/store"`, "Store it as <bdi>daily-7</bdi>")
}

// A check of an article whose id is stored with other content
// (neardup.Conflict) says in what it differs, and diffs it against that
// stored document; one of the stored article itself (Exists) says it is
// stored, asking for no other id. A store of the former says so too.
// Regression: both said "A document of the id … is stored already", each
// asking for another id, and the conflict's differences went unsaid.
func TestCheckOfAnotherDocumentUnderAStoredID(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Text: orig})
	a := f.post("/check", url.Values{"id": {"wire-1"}, "title": {"Storm shuts bridge"}, "text": {copyText}}, true)
	a.want(t, "check of another document under a stored id", http.StatusOK,
		"is stored already, with another title and text: to store this article, give it another id below",
		"Against the stored document of its id, <bdi>wire-1</bdi>", `class="nd-a"`)
	if strings.Contains(a.body, "This article is stored already") {
		t.Errorf("a conflict is said to be the stored article itself")
	}
	f.post("/store", url.Values{"id": {"wire-1"}, "title": {"Storm shuts bridge"}, "text": {copyText}}, true).
		want(t, "store of another document under a stored id", http.StatusConflict, "is stored already, with another title and text: give another id")

	a = f.post("/check", url.Values{"id": {"wire-1"}, "title": {"Storm closes the bridge"}, "text": {orig}}, true)
	a.want(t, "check of the stored article", http.StatusOK, "This article is stored already, as")
	for _, not := range []string{"give it another id", "with another", "Against the stored document of its id"} {
		if strings.Contains(a.body, not) {
			t.Errorf("the check of the stored article itself says %q", not)
		}
	}
}

// Regression: a page checked as HTML came back with its extracted text in
// the form and "Read it as: HTML" still chosen, so checking the form again
// (with another id or title, say) read the plain text as a page and
// refused it, "no article in the HTML (not-html)". The form now reads
// the extracted text as text.
func TestCheckAgainAfterExtraction(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Text: orig})
	page := `<html><head><title>Storm shuts the bridge</title></head><body><article><h1>Storm shuts the bridge</h1><p>` +
		copyText + `</p></article></body></html>`
	a := f.post("/check", url.Values{"text": {page}, "format": {"html"}}, false)
	a.want(t, "check as HTML", http.StatusOK, "extracted from the HTML", `class="badge dup"`)
	check := regexp.MustCompile(`(?s)<form class="card check".*?</form>`).FindString(a.body)
	form := url.Values{}
	for _, m := range regexp.MustCompile(`<input id="[a-z-]+" name="([a-z]+)"[^>]* value="([^"]*)"`).FindAllStringSubmatch(check, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	if m := regexp.MustCompile(`(?s)<textarea id="text" name="text"[^>]*>(.*?)</textarea>`).FindStringSubmatch(check); m != nil {
		form.Set("text", html.UnescapeString(m[1]))
	}
	if m := regexp.MustCompile(`name="format" value="([a-z]+)" checked`).FindStringSubmatch(check); m != nil {
		form.Set("format", m[1])
	}
	if !strings.Contains(form.Get("text"), "bridge") || form.Get("format") == "" {
		t.Fatalf("the form came back without its text or format: %v", form)
	}
	form.Set("id", "daily-7")
	f.post("/check", form, false).want(t, "the same form checked again", http.StatusOK, `class="badge dup"`, "daily-7")
}

// Regression: the page a refused form showed at its action's address (a
// store refused 409, a removal not confirmed) was "404 no such page" once
// reloaded from the address bar or a bookmark, as the form was not sent
// again: a GET. Such an address now goes back to the page the form was
// sent from, as /feeds/try does (TestTryRuleReopened); signed out, a write
// page's address asks for the token first.
func TestFormAddressReopened(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	text, _ := f.story(14)
	f.add(core.Document{ID: "a/b c", Text: text})
	if a := f.post("/feeds", url.Values{"url": {"https://news.example/rss.xml"}, "no_check": {"1"}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("add a feed: %d\n%s", a.code, a.body)
	}
	f.post("/store", url.Values{"id": {"a/b c"}, "text": {text}}, true).want(t, "a store refused", http.StatusConflict)
	for _, tc := range []struct{ path, want string }{
		{"/store", "/check"},
		{"/documents/a%2Fb%20c/remove", "/documents/a%2Fb%20c"},
		{"/feeds/1/remove", "/feeds/1"},
		{"/signout", "/"},
	} {
		a := f.get(tc.path, true)
		if a.code != http.StatusSeeOther || a.hdr.Get("Location") != tc.want {
			t.Errorf("GET %s: %d to %q, want 303 to %s\n%s", tc.path, a.code, a.hdr.Get("Location"), tc.want, short(500, a.body))
		}
	}
	f.get("/store", false).want(t, "signed out", http.StatusUnauthorized, `name="token"`)
	if n := f.docs(); n != 1 {
		t.Errorf("%d documents, want the 1 stored: a GET changed the index", n)
	}
	f.get("/feeds/1", true).want(t, "the feed is still there", http.StatusOK)
}

// A document the method did not compare says why in words on its page and
// in the latest list, beside the reason's name; the pages showed the name
// alone ("too-short", "no-units"), which only the docs explained.
func TestSkipReasonInWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	f.add(core.Document{ID: "brief", Title: "Bridge shut", Source: "wire", Text: "Bridge shut."})
	f.get("/documents/brief", false).want(t, "document page", http.StatusOK, "too-short: shorter than the method compares")
	f.get("/", false).want(t, "latest", http.StatusOK, "not compared: too-short: shorter than the method compares")
}

// Every reason a document or page is skipped for has words.
func TestSkipWordsCoverEveryReason(t *testing.T) {
	for _, r := range []core.SkipReason{core.SkipMalformed, core.SkipInvalidUTF8, core.SkipBinary, core.SkipEmpty,
		core.SkipTooLarge, core.SkipTooShort, core.SkipGallery, core.SkipNoUnits, core.SkipExactCopy, core.SkipRefused,
		extract.SkipNotHTML, extract.SkipNoArticle, extract.SkipNotArticleURL, extract.SkipFeed, extract.SkipSitemap} {
		if got := skipWhy(r); !strings.HasPrefix(got, string(r)+": ") || len(got) < len(r)+6 {
			t.Errorf("skipWhy(%q) = %q, want the reason in words after its name", r, got)
		}
	}
}

// Regression: the store form refused a date and time in RFC 3339 with
// the lower-case "t" and "z" RFC 3339 allows ("not a date").
func TestStoreTakesLowerCaseRFC3339(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	text, _ := f.story(14)
	if a := f.post("/store", url.Values{"id": {"lower"}, "date": {"2026-11-20t10:00:00z"}, "text": {text}}, true); a.code != http.StatusSeeOther {
		t.Fatalf("store: %d\n%s", a.code, a.body)
	}
	if d, err := f.x.Document(t.Context(), "lower"); err != nil || !d.Date.Equal(time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("stored dated %v, %v; want 2026-11-20 10:00 UTC", d.Date, err)
	}
}

// toCP1251 encodes s, of ASCII and the Cyrillic letters А–я, in
// windows-1251.
func toCP1251(s string) string {
	var b []byte
	for _, r := range s {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		case r >= 'А' && r <= 'я':
			b = append(b, byte(r-'А'+0xC0))
		default:
			panic(fmt.Sprintf("toCP1251: %q", r))
		}
	}
	return string(b)
}

// endingIndex is an Index that ends a request's context once it has read
// the document id (the last the check page reads before its diff).
type endingIndex struct {
	Index
	id  string
	end context.CancelFunc
}

func (e *endingIndex) Document(ctx context.Context, id string) (browse.Document, error) {
	d, err := e.Index.Document(ctx, id)
	if id == e.id {
		e.end()
	}
	return d, err
}

// TestCheckDiffStopsWithItsRequest: the check page's diff against the
// best match stops when the request's context ends (its client went, or
// the server's write timeout passed): it compared the texts, up to 100,000
// words each, for no one.
func TestCheckDiffStopsWithItsRequest(t *testing.T) {
	f := newFixture(t, Options{})
	orig, copyText := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the bridge", Source: "wire", Text: orig})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	h := New(&endingIndex{Index: f.x, id: "wire-1", end: cancel}, Options{})
	r := httptest.NewRequestWithContext(ctx, "POST", "/check", strings.NewReader(url.Values{"text": {copyText}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != httperr.StatusClientClosed || strings.Contains(w.Body.String(), `class="nd-diff"`) {
		t.Errorf("a check whose request ended before its diff: %d, diff shown %v; want %d and no diff", w.Code,
			strings.Contains(w.Body.String(), `class="nd-diff"`), httperr.StatusClientClosed)
	}
}
