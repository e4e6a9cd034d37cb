package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/server/httperr"
	"github.com/neardup/neardup/internal/webui"
)

// TestDiffPool: diffs, of the API and of the web UI, take their turn among
// the query workers as queries do: past the queue they are answered 503
// with Retry-After at once, and one waiting is answered when a turn comes.
// Eight diffs of long texts at once could otherwise take gigabytes.
func TestDiffPool(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{QueryWorkers: 1, QueryQueue: 1, QueryWait: time.Minute})
	for _, id := range []string{"a", "b"} {
		if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON(id, story(3, 8), "")}); code != 200 {
			t.Fatalf("adding %s: %d %s", id, code, data)
		}
	}
	s, err := New(ts.x, Options{QueryWorkers: 1, QueryQueue: 1, QueryWait: time.Minute, UI: webui.New(ts.x, webui.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	defer s.Close()
	release, err := s.pool.acquire(t.Context()) // the one turn, taken
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan int)
	go func() {
		resp, err := http.Get(hs.URL + "/v1/diff?a=a&b=b")
		if err != nil {
			waiting <- 0
			return
		}
		resp.Body.Close()
		waiting <- resp.StatusCode
	}()
	for s.pool.waiting.Load() == 0 {
		select {
		case code := <-waiting:
			t.Fatalf("a diff did not wait for the turn taken: %d", code)
		case <-time.After(time.Millisecond):
		}
	}
	for _, path := range []string{"/v1/diff?a=a&b=b", "/diff?a=a&b=b"} {
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(data), "busy") {
			t.Errorf("%s past the queue: %d Retry-After %q %.200s, want 503 with Retry-After", path, resp.StatusCode, resp.Header.Get("Retry-After"), data)
		}
	}
	release()
	if code := <-waiting; code != 200 {
		t.Errorf("the diff that waited: %d, want 200", code)
	}
}

// goneIndex is an Index whose reads of document b wait until the request
// that reads it has ended (its client went away), and then give the
// document all the same.
type goneIndex struct {
	Index
	reading chan struct{} // closed when b is read
}

func (g *goneIndex) Document(ctx context.Context, id string) (browse.Document, error) {
	d, err := g.Index.Document(context.WithoutCancel(ctx), id)
	if id == "b" {
		close(g.reading)
		<-ctx.Done()
	}
	return d, err
}

// TestDiffStopsWhenItsClientGoes: a diff whose client went away before
// the comparison is not made: the request ends with 499, where the
// comparison of two long texts would have gone on for seconds for no one.
func TestDiffStopsWhenItsClientGoes(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, id := range []string{"a", "b"} {
		if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON(id, story(5, 8), "")}); code != 200 {
			t.Fatalf("adding %s: %d %s", id, code, data)
		}
	}
	g := &goneIndex{Index: ts.x, reading: make(chan struct{})}
	s, err := New(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	answered := make(chan int, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		s.Handler().ServeHTTP(rec, r)
		answered <- rec.code
	}))
	defer hs.Close()
	ctx, cancel := context.WithCancel(t.Context())
	r, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/v1/diff?a=a&b=b", nil)
	go func() {
		<-g.reading
		cancel()
	}()
	if resp, err := http.DefaultClient.Do(r); err == nil {
		resp.Body.Close()
		t.Fatalf("the request was answered %d, though its client went away", resp.StatusCode)
	}
	if code := <-answered; code != httperr.StatusClientClosed {
		t.Errorf("the diff of a client gone ended %d, want %d: the comparison went on", code, httperr.StatusClientClosed)
	}
}

// statusRecorder records the status a handler answers.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// TestDiffOfLongTexts: the API's diff compares the first
// diff.MaxServedWords words of each text and says which it cut, and, of
// the other text, that its words were sought in those alone ("other_cut",
// "with the other's first 100000 words"), as the web UI's diff does.
func TestDiffOfLongTexts(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	long := strings.Repeat("alpha beta gamma delta eps ", 30000) // 150,000 words
	for _, d := range []struct{ id, text string }{{"long", long}, {"short", "alpha beta gamma"}} {
		body, _ := json.Marshal(map[string]string{"id": d.id, "text": d.text})
		if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: string(body)}); code != 200 {
			t.Fatalf("adding %s: %d %.200s", d.id, code, data)
		}
	}
	code, data := ts.do(t, req{method: "GET", path: "/v1/diff?a=long&b=short"})
	var got struct {
		A, B struct {
			Words    int
			Cut      bool
			OtherCut bool `json:"other_cut"`
		}
	}
	if err := json.Unmarshal(data, &got); code != 200 || err != nil {
		t.Fatalf("diff: %d %v %.200s", code, err, data)
	}
	if !got.A.Cut || got.A.Words != 100000 || got.B.Cut || got.B.Words != 3 || got.A.OtherCut || !got.B.OtherCut {
		t.Errorf("a %+v, b %+v; want a cut to its first 100000 words, b whole, b saying a was cut", got.A, got.B)
	}
	code, data = ts.do(t, req{method: "GET", path: "/v1/diff?a=long&b=short", accept: "text/html"})
	if code != 200 || !strings.Contains(string(data), "the first 100000 words (the rest not compared)") ||
		!strings.Contains(string(data), "3 words, 100.0% shared with the other's first 100000 words") {
		t.Errorf("HTML diff: %d, does not say the text was cut, on both sides", code)
	}
	s, err := New(ts.x, Options{UI: webui.New(ts.x, webui.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/diff?a=long&b=short")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "of its 3 words are in the other's first 100000 words") {
		t.Errorf("the UI's diff does not say the short text's words were sought in the long one's first words:\n%.3000s", page)
	}
}

// TestUIHeavyPagesAuthBeforeTurn: under --auth-reads, the web UI's pages
// that take a turn of the pool (GET /diff, POST /check) refuse a client
// without a token before it takes a place: it took the queue's one place,
// and was answered "busy" as JSON, while a signed-in user's diff waited.
// The pool's refusal of a UI page is the UI's HTML error page.
func TestUIHeavyPagesAuthBeforeTurn(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, id := range []string{"a", "b"} {
		if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON(id, story(3, 8), "")}); code != 200 {
			t.Fatalf("adding %s: %d %s", id, code, data)
		}
	}
	tokens := NewTokens(token)
	ui := webui.New(ts.x, webui.Options{AuthReads: true, Authorized: tokens.Valid})
	s, err := New(ts.x, Options{QueryWorkers: 1, QueryQueue: 1, QueryWait: time.Minute, AuthReads: true, Tokens: tokens, UI: ui})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	defer s.Close()
	release, err := s.pool.acquire(t.Context()) // the one turn, taken
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, path, tok string) (*http.Response, string) {
		r, _ := http.NewRequest(method, hs.URL+path, strings.NewReader("text=The+bank+raised+rates"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if tok != "" {
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(data)
	}
	for _, c := range []struct{ method, path string }{{"GET", "/diff?a=a&b=b"}, {"POST", "/check"}} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			waiting := make(chan int)
			go func() { // a signed-in user's request, in the queue's one place
				resp, _ := send(c.method, c.path, token)
				waiting <- resp.StatusCode
			}()
			for s.pool.waiting.Load() == 0 {
				select {
				case code := <-waiting:
					t.Fatalf("a request did not wait for the turn taken: %d", code)
				case <-time.After(time.Millisecond):
				}
			}
			for _, tok := range []string{"", "not-a-token-of-this-server"} {
				resp, data := send(c.method, c.path, tok)
				if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || strings.Contains(data, "busy") {
					t.Errorf("token %q: %d %s %.300s; want the UI's 401 page, not the pool's answer", tok, resp.StatusCode, resp.Header.Get("Content-Type"), data)
				}
			}
			resp, data := send(c.method, c.path, token) // the queue full: the UI's page says so
			if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
				!strings.Contains(data, "busy") || resp.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("past the queue: %d %s Retry-After %q %.300s; want the UI's HTML 503 page with Retry-After", resp.StatusCode,
					resp.Header.Get("Content-Type"), resp.Header.Get("Retry-After"), data)
			}
			release()
			if code := <-waiting; code != 200 {
				t.Errorf("the signed-in request that waited: %d, want 200", code)
			}
			if release, err = s.pool.acquire(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
	release()
}

// TestDiffPastWriteTimeout: a diff stopped at the write timeout, of the API
// or of the web UI, is answered with that reason and logged as a warning;
// it was answered "the index is busy or shutting down" and logged as an
// error, "request failed". (The timeout is a nanosecond: its deadline has
// passed when the diff starts, whatever the machine's speed.)
func TestDiffPastWriteTimeout(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, id := range []string{"a", "b"} {
		if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON(id, story(3, 8), "")}); code != 200 {
			t.Fatalf("adding %s: %d %s", id, code, data)
		}
	}
	var logs lockedBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New(ts.x, Options{WriteTimeout: time.Nanosecond, Logger: log, UI: webui.New(ts.x, webui.Options{Logger: log})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	defer s.Close()
	for _, c := range []struct{ path, ctype string }{{"/v1/diff?a=a&b=b", "application/json"}, {"/diff?a=a&b=b", "text/html"}} {
		resp, err := http.Get(hs.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) || !strings.Contains(string(data), "longer than the server&#39;s --write-timeout") &&
			!strings.Contains(string(data), "longer than the server's --write-timeout") {
			t.Errorf("%s: %d %s %.300s; want 503 saying it took longer than --write-timeout", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), data)
		}
	}
	if got := logs.String(); strings.Contains(got, "level=ERROR") || strings.Count(got, "level=WARN") != 2 || !strings.Contains(got, "write-timeout") {
		t.Errorf("logged:\n%s\nwant two warnings naming the write timeout, no error", got)
	}
}
