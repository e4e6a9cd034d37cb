package webui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// testToken is the write token of the tests' UIs.
const testToken = "s3cret-write-token"

// fixture is a UI over a fresh index on a temporary SQLite file.
type fixture struct {
	t   testing.TB
	x   *neardup.Index
	db  string // the index's SQLite file
	h   http.Handler
	gen *enginetest.TextGen
}

func newFixture(t *testing.T, o Options) *fixture { return newBenchFixtureOf(t, o) }

// newBenchFixture is newFixture for a benchmark.
func newBenchFixture(b *testing.B) *fixture { return newBenchFixtureOf(b, Options{}) }

func newBenchFixtureOf(t testing.TB, o Options) *fixture {
	t.Helper()
	db := filepath.Join(t.TempDir(), "ui.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{Sync: "normal", StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	if o.Authorized == nil {
		o.Authorized = func(tok string) bool { return tok == testToken }
	}
	return &fixture{t: t, x: x, db: db, h: New(x, o), gen: enginetest.NewTextGen(7)}
}

// add stores documents through the engine.
func (f *fixture) add(docs ...core.Document) []neardup.Match {
	f.t.Helper()
	ms, err := f.x.Add(f.t.Context(), docs...)
	if err != nil {
		f.t.Fatal(err)
	}
	return ms
}

// story returns a text of n sentences and a near copy of it, one sentence
// changed.
func (f *fixture) story(n int) (string, string) {
	s := f.gen.Sentences(n)
	orig := strings.Join(s, " ")
	s[2] = f.gen.Sentence()
	return orig, strings.Join(s, " ")
}

// answer is a response, its body read.
type answer struct {
	code int
	hdr  http.Header
	body string
}

// do serves a request built by the caller.
func (f *fixture) do(r *http.Request) answer {
	f.t.Helper()
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return answer{w.Code, w.Result().Header, string(b)}
}

// get serves a GET, with the bearer token when auth.
func (f *fixture) get(path string, auth bool) answer {
	f.t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	if auth {
		r.Header.Set("Authorization", "Bearer "+testToken)
	}
	return f.do(r)
}

// post serves a form POST, with the bearer token when auth.
func (f *fixture) post(path string, form url.Values, auth bool) answer {
	f.t.Helper()
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if auth {
		r.Header.Set("Authorization", "Bearer "+testToken)
	}
	return f.do(r)
}

// want fails unless a has the code and every piece of text.
func (a answer) want(t *testing.T, what string, code int, texts ...string) {
	t.Helper()
	if a.code != code {
		t.Errorf("%s: status %d, want %d; body:\n%s", what, a.code, code, short(2000, a.body))
		return
	}
	for _, s := range texts {
		if !strings.Contains(a.body, s) {
			t.Errorf("%s: the page lacks %q; body:\n%s", what, s, short(3000, a.body))
		}
	}
}

// A *neardup.Index is what the package is given.
var _ Index = (*neardup.Index)(nil)

// TestWrongMethod: a method no page of a path answers is a 405 naming
// those it answers in Allow, as the API answers; a path no page has is a
// 404 whatever the method. Regression: PUT / and POST /clusters were 404.
func TestWrongMethod(t *testing.T) {
	f := newFixture(t, Options{})
	for _, tc := range []struct {
		method, path string
		code         int
		allow        string
	}{
		{"PUT", "/", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"POST", "/clusters", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"DELETE", "/documents/a", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"PUT", "/check", http.StatusMethodNotAllowed, "GET, HEAD, POST"},
		{"PATCH", "/feeds/1", http.StatusMethodNotAllowed, "GET, HEAD, POST"},
		{"PUT", "/signout", http.StatusMethodNotAllowed, "GET, HEAD, POST"},
		{"PUT", "/assets/style.css", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"GET", "/nosuch", http.StatusNotFound, ""},
		{"PUT", "/nosuch", http.StatusNotFound, ""},
		{"POST", "/documents/a/nosuch", http.StatusNotFound, ""},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			a := f.do(httptest.NewRequest(tc.method, tc.path, nil))
			if a.code != tc.code || a.hdr.Get("Allow") != tc.allow {
				t.Errorf("%d, Allow %q; want %d, Allow %q", a.code, a.hdr.Get("Allow"), tc.code, tc.allow)
			}
			if tc.code == http.StatusMethodNotAllowed && !strings.Contains(a.body, "does not answer "+tc.method+" (it answers "+tc.allow+")") {
				t.Errorf("the page does not say which methods the path answers:\n%s", short(2000, a.body))
			}
		})
	}
}
