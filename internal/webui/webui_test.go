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
