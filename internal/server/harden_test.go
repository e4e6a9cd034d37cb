package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/webui"
)

// TestStrictJSON: what the JSON decoder would quietly take is refused,
// naming the problem: a key given twice (the last won), a key matching
// one only when case is ignored ("ID" was read as id), two objects in one
// application/json body (both were added), an id of spaces, or of
// zero-width characters, or "..".
func TestStrictJSON(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	ok := docJSON("x", story(9, 6), "")
	for _, tc := range []struct {
		name, ctype, body, field, want string
	}{
		{"duplicate key", "", `{"id": "a", "text": "t", "id": "b"}`, "id", `key "id" is given twice`},
		{"duplicate key escaped", "", `{"id": "a", "text": "t", "\u0069d": "b"}`, "id", `key "id" is given twice`},
		{"duplicate text", "", `{"id": "a", "text": "t", "title": "x", "text": "u"}`, "text", `key "text" is given twice`},
		{"key in capitals", "", `{"ID": "a", "text": "t"}`, "ID", `key "ID": keys are lower case ("id")`},
		{"key in mixed case", "", `{"id": "a", "Text": "t"}`, "Text", `key "Text": keys are lower case ("text")`},
		{"key with the Kelvin sign", "", "{\"id\": \"a\", \"text\": \"t\", \"\u212aey\": 1, \"source\": \"s\", \"SOURCE\": \"x\"}", "SOURCE", `keys are lower case`},
		{"unknown field", "", `{"id": "a", "text": "t", "body": "b"}`, "body", `unknown field "body"`},
		{"two objects", "application/json", ok + ok, "", "line 1: data after the document"},
		{"two objects on two lines", "application/json", ok + "\n" + ok, "", "line 2: data after the document"},
		{"blank id", "", `{"id": "   ", "text": "t"}`, "id", "id is blank"},
		{"blank id of tabs", "", `{"id": "\t \u00a0", "text": "t"}`, "id", "id is blank"},
		// Regressions: an id of characters that show nothing was stored;
		// so were "." and "..", whose page the web UI could not link to.
		{"id of a zero-width space", "", `{"id": "\u200b", "text": "t"}`, "id", "id is blank"},
		{"id of spaces and zero-width characters", "", `{"id": " \u200b\u2060 \ufeff", "text": "t"}`, "id", "id is blank"},
		{"id dot dot", "", `{"id": "..", "text": "t"}`, "id", `id is "..", which a URL reads as a step in its path`},
		{"id dot", "", `{"id": ".", "text": "t"}`, "id", `id is ".", which a URL reads as a step in its path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", ctype: tc.ctype, body: tc.body})
			var e apiError
			json.Unmarshal(data, &e)
			if code != http.StatusBadRequest || e.Field != tc.field || !strings.Contains(e.Msg, tc.want) {
				t.Errorf("%d %s, want 400 field %q saying %q", code, data, tc.field, tc.want)
			}
		})
	}
	// The same objects one a line are JSON Lines; nested keys are the
	// values' own.
	if code, data := ts.do(t, req{method: "POST", path: "/v1/query", ctype: "application/x-ndjson", body: ok + "\n" + ok}); code != 200 {
		t.Errorf("JSON Lines: %d %s", code, data)
	}
	if code, data := ts.do(t, req{method: "GET", path: "/v1/documents/%20%20"}); code != 400 || !strings.Contains(string(data), "blank") {
		t.Errorf("a blank id in the path: %d %s", code, data)
	}
	if code, data := ts.do(t, req{method: "GET", path: "/v1/stats"}); !strings.Contains(string(data), `"documents":0`) {
		t.Errorf("refused requests stored documents: %d %s", code, data)
	}
}

// TestEachKey reads the top-level keys of an object, whatever its values
// hold.
func TestEachKey(t *testing.T) {
	raw := `{"a": {"b": 1, "c": [1, {"d": "}"}]}, "e\"f": "x\\", "g": [], "\u0068": "\"a\": 1"}`
	var got []string
	if err := eachKey([]byte(raw), func(k string) error { got = append(got, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", `e"f`, "g", "h"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("keys %q, want %q", got, want)
	}
}

// TestOpenAPIAuth: under AuthReads, /openapi.json needs a token as every
// other read does.
func TestOpenAPIAuth(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{AuthReads: true})
	if code, _ := ts.do(t, req{method: "GET", path: "/openapi.json"}); code != http.StatusUnauthorized {
		t.Errorf("without a token: %d, want 401", code)
	}
	if code, _ := ts.do(t, req{method: "GET", path: "/openapi.json", token: "ok"}); code != http.StatusOK {
		t.Errorf("with a token: %d, want 200", code)
	}
	open := newTestServer(t, "sqlite", Options{})
	if code, _ := open.do(t, req{method: "GET", path: "/openapi.json"}); code != http.StatusOK {
		t.Errorf("open reads: %d, want 200", code)
	}
}

// serveOn runs s.Serve on a new listener of addr until the test ends.
func serveOn(t *testing.T, s *Server, addr string) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// TestHostHeader: a server on a loopback address answers the names of
// this machine and of Options.Hosts with its port, and 421 to any other
// (a DNS rebinding of another site's name to 127.0.0.1).
func TestHostHeader(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{Hosts: []string{"neardup.lan", "Box.Local:8080"}})
	addr := serveOn(t, ts.Server, "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct {
		host string
		code int
	}{
		{"127.0.0.1:" + port, 200}, {"localhost:" + port, 200}, {"LOCALHOST:" + port, 200}, {"[::1]:" + port, 200},
		{"neardup.lan:" + port, 200}, {"box.local:" + port, 200}, {"localhost.:" + port, 200},
		{"attacker.example:" + port, 421}, {"attacker.example", 421}, {"localhost", 421}, {"localhost:1", 421},
		{"127.0.0.2:" + port, 421}, {"neardup.lan.attacker.example:" + port, 421},
	} {
		r, _ := http.NewRequest("GET", "http://"+addr+"/healthz", nil)
		r.Host = tc.host
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("Host %q: %d, want %d", tc.host, resp.StatusCode, tc.code)
		}
	}
	// On another loopback address, that address is a name of the server:
	// it answered 421 to the URL it printed.
	other := serveOn(t, newTestServer(t, "sqlite", Options{}).Server, "127.0.0.2:0")
	resp, err := http.Get("http://" + other + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a server on %s answered its own address %d", other, resp.StatusCode)
	}
}

// TestQueryPool: queries wait for a turn, at most QueryQueue of them;
// the next is answered 503 with Retry-After at once, and those waiting
// are answered when a turn comes.
func TestQueryPool(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{QueryWorkers: 1, QueryQueue: 1, QueryWait: time.Minute})
	ok := docJSON("x", story(9, 6), "")
	release, err := ts.pool.acquire(t.Context()) // the one turn, taken
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan int)
	go func() {
		code, _, _ := post(http.DefaultClient, ts.url+"/v1/query", ok)
		waiting <- code
	}()
	for ts.pool.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	r, _ := http.NewRequest("POST", ts.url+"/v1/query", strings.NewReader(ok))
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(data), "busy") {
		t.Errorf("past the queue: %d Retry-After %q %s, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), data)
	}
	release()
	if code := <-waiting; code != 200 {
		t.Errorf("the query that waited: %d, want 200", code)
	}
}

// TestQuerySize: the body of a query, and the web UI's check, are
// bounded by MaxQueryBytes, apart from the body limit of adds.
func TestQuerySize(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{MaxQueryBytes: 64 << 10})
	big := docJSON("big", []string{strings.Repeat("word ", 20000)}, "")
	code, data := ts.do(t, req{method: "POST", path: "/v1/query", body: big})
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "--max-query-bytes") {
		t.Errorf("a large query: %d %s, want 413 naming --max-query-bytes", code, data)
	}
	if code, data := ts.do(t, req{method: "POST", path: "/v1/query", body: big, encoding: "gzip"}); code != http.StatusBadRequest {
		t.Errorf("a large query, said to be gzip: %d %s", code, data)
	}
	if code, data := ts.do(t, req{method: "POST", path: "/v1/query", body: gzipped(t, big), encoding: "gzip"}); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a large query inflated: %d %s, want 413", code, data)
	}
	if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: big}); code != 200 {
		t.Errorf("the same document added: %d %s", code, data)
	}
	s, err := New(ts.x, Options{MaxQueryBytes: 64 << 10, UI: webui.New(ts.x, webui.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	defer s.Close()
	ui := &testServer{Server: s, x: ts.x, url: hs.URL}
	form := url.Values{"text": {strings.Repeat("word ", 20000)}}.Encode()
	code, data = ui.do(t, req{method: "POST", path: "/check", ctype: "application/x-www-form-urlencoded", body: form})
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), fmt.Sprint(64<<10)) {
		t.Errorf("a large check: %d %.300s, want 413", code, data)
	}
	form = url.Values{"text": {strings.Join(story(3, 10), " ")}}.Encode()
	if code, data = ui.do(t, req{method: "POST", path: "/check", ctype: "application/x-www-form-urlencoded", body: form}); code != 200 {
		t.Errorf("a check: %d %.300s", code, data)
	}
}

// TestUIWrongMethod: served beside the API, the web UI answers a method
// none of a path's pages answers 405 with Allow, as the API does.
// Regression: PUT / and POST /clusters were 404.
func TestUIWrongMethod(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	s, err := New(ts.x, Options{UI: webui.New(ts.x, webui.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	defer s.Close()
	for _, tc := range []struct{ method, path, allow string }{
		{"PUT", "/", "GET, HEAD"},
		{"POST", "/clusters", "GET, HEAD"},
		{"PUT", "/check", "GET, HEAD, POST"},
		{"PUT", "/v1/stats", "GET, HEAD"},
	} {
		rq, _ := http.NewRequestWithContext(t.Context(), tc.method, hs.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(rq)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Allow"), tc.allow)
		}
	}
}

// TestHTMLDiffHeaders: the API's HTML diff is a page of documents' text
// sent as the web UI's pages are: no framing by another site (it had a
// Content-Security-Policy without frame-ancestors, and no X-Frame-Options),
// no base or form of another origin, no referrer.
func TestHTMLDiffHeaders(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	body := "[" + docJSON("a", story(1, 6), "") + "," + docJSON("b", story(2, 6), "") + "]"
	if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: body}); code != 200 {
		t.Fatalf("add: %d %s", code, data)
	}
	r, _ := http.NewRequest("GET", ts.url+"/v1/diff?a=a&b=b", nil)
	r.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %s", csp, want)
		}
	}
	for h, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
		"Content-Type": "text/html; charset=utf-8"} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
}

// Regression: a body that starts with a UTF-8 byte-order mark, as
// Windows editors and PowerShell write a file saved as UTF-8, was refused
// "line 1: malformed JSON: invalid character 'ï'", though neardup index add
// reads the same file. The mark is passed over, under either content type;
// a second mark, inside the body, is still refused.
func TestBodyByteOrderMark(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	const bom = "\uFEFF"
	for _, tc := range []struct{ name, path, ctype, body string }{
		{"object", "/v1/documents", "", bom + docJSON("bom-1", story(3, 6), "")},
		{"array", "/v1/documents", "", bom + "[" + docJSON("bom-2", story(4, 6), "") + "]"},
		{"JSON Lines", "/v1/documents", "application/x-ndjson", bom + docJSON("bom-3", story(5, 6), "") + "\r\n" + docJSON("bom-4", story(6, 6), "") + "\r\n"},
		{"query", "/v1/query", "", bom + docJSON("q", story(3, 6), "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, data := ts.do(t, req{method: "POST", path: tc.path, token: "ok", ctype: tc.ctype, body: tc.body})
			if code != http.StatusOK {
				t.Fatalf("%d %s, want 200", code, data)
			}
		})
	}
	if code, data := ts.do(t, req{method: "GET", path: "/v1/stats"}); !strings.Contains(string(data), `"documents":4`) {
		t.Errorf("stats after the adds: %d %s, want 4 documents", code, data)
	}
	code, data := ts.do(t, req{method: "POST", path: "/v1/query", body: bom + bom + docJSON("q", story(3, 6), "")})
	if code != http.StatusBadRequest {
		t.Errorf("two marks: %d %s, want 400", code, data)
	}
}

// TestLongHeaders: a request line and headers within the server's 64 KiB
// are answered by the server, in JSON; past what net/http reads (64 KiB
// and its 4 KiB of slack) net/http answers 431 itself, in plain text, the
// exception docs/serve.md names.
func TestLongHeaders(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{Logger: slog.New(slog.DiscardHandler)})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- ts.Serve(ctx, ln) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	for _, tc := range []struct {
		name  string
		n     int // bytes of the URL's query
		code  int
		ctype string
	}{
		{"within the limit", 40 << 10, http.StatusBadRequest, "application/json; charset=utf-8"},
		{"past the limit", 80 << 10, http.StatusRequestHeaderFieldsTooLarge, "text/plain; charset=utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get("http://" + ln.Addr().String() + "/v1/stats?x=" + strings.Repeat("a", tc.n))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.code || resp.Header.Get("Content-Type") != tc.ctype {
				t.Errorf("%d %s %.200s, want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), data, tc.code, tc.ctype)
			}
		})
	}
}
