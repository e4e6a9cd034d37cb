package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestHostileInput sends what a careless or hostile client sends: each
// gets its 4xx with a JSON error naming the field, never a 500.
func TestHostileInput(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{MaxBodyBytes: 64 << 10, MaxBatch: 5})
	ok := docJSON("x", story(9, 6), "")
	huge := strings.Repeat("i", MaxIDBytes+1)
	for _, tc := range []struct {
		name  string
		rq    req
		code  int
		field string
	}{
		{"no token", req{method: "POST", path: "/v1/documents", body: ok}, 401, "Authorization"},
		{"wrong token", req{method: "POST", path: "/v1/documents", body: ok, token: "Bearer not-the-token-at-all"}, 401, "Authorization"},
		{"basic auth", req{method: "POST", path: "/v1/documents", body: ok, token: "Basic " + token}, 401, "Authorization"},
		{"delete without token", req{method: "DELETE", path: "/v1/documents/x"}, 401, "Authorization"},
		{"oversized body", req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("big", []string{strings.Repeat("word ", 20000)}, "")}, 413, ""},
		{"too many documents", req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + strings.Repeat(ok+",", 5) + ok + "]"}, 413, ""},
		{"too many lines", req{method: "POST", path: "/v1/query", ctype: "application/x-ndjson", body: strings.Repeat(ok+"\n", 6)}, 413, ""},
		{"malformed JSON", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "unterminated`}, 400, ""},
		{"malformed second line", req{method: "POST", path: "/v1/query", ctype: "application/x-ndjson", body: ok + "\n{nope}\n"}, 400, ""},
		{"not an object", req{method: "POST", path: "/v1/documents", token: "ok", body: `"just a string"`}, 400, ""},
		{"array of numbers", req{method: "POST", path: "/v1/documents", token: "ok", body: `[1, 2]`}, 400, ""},
		{"array then more", req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + ok + "]" + ok}, 400, ""},
		{"empty body", req{method: "POST", path: "/v1/documents", token: "ok", body: " ", ctype: "application/json"}, 400, ""},
		{"empty array", req{method: "POST", path: "/v1/documents", token: "ok", body: "[]"}, 400, ""},
		{"wrong content type", req{method: "POST", path: "/v1/documents", token: "ok", body: ok, ctype: "application/x-www-form-urlencoded"}, 415, "Content-Type"},
		{"text/plain", req{method: "POST", path: "/v1/query", body: ok, ctype: "text/plain"}, 415, "Content-Type"},
		{"unknown field", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "body": "x"}`}, 400, "body"},
		{"wrong type", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": 12, "text": "t"}`}, 400, "id"},
		{"missing id", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"text": "t"}`}, 400, "id"},
		{"huge id", req{method: "POST", path: "/v1/documents", token: "ok", body: fmt.Sprintf(`{"id": %q, "text": "t"}`, huge)}, 400, "id"},
		{"control character in id", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a\u0000b", "text": "t"}`}, 400, "id"},
		{"text not UTF-8", req{method: "POST", path: "/v1/documents", token: "ok", body: "{\"id\": \"a\", \"title\": \"t\", \"text\": \"caf\xe9 au lait\"}"}, 400, "text"},
		{"id not UTF-8", req{method: "POST", path: "/v1/query", body: "{\"id\": \"\xff\xfe\", \"text\": \"t\"}"}, 400, "id"},
		{"lone surrogate in the id", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "sur\ud800", "text": "t"}`}, 400, "id"},
		{"lone low surrogate in the id", req{method: "POST", path: "/v1/query", body: `{"id": "\udc00\ud83d", "text": "t"}`}, 400, "id"},
		{"lone surrogate in the url", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "url": "https://x/\ud800"}`}, 400, "url"},
		{"lone surrogate in the source", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "source": "wire\udfff"}`}, 400, "source"},
		{"key not UTF-8", req{method: "POST", path: "/v1/documents", token: "ok", body: "{\"id\": \"a\", \"te\xffxt\": \"t\"}"}, 400, ""},
		{"unknown encoding", req{method: "POST", path: "/v1/documents", token: "ok", body: ok, encoding: "br"}, 415, "Content-Encoding"},
		{"not gzip", req{method: "POST", path: "/v1/documents", token: "ok", body: ok, encoding: "gzip"}, 400, "Content-Encoding"},
		{"gzip cut short", req{method: "POST", path: "/v1/documents", token: "ok", body: gzipped(t, ok)[:len(gzipped(t, ok))-12], encoding: "gzip"}, 400, "Content-Encoding"},
		{"gzip inflating past the limit", req{method: "POST", path: "/v1/documents", token: "ok", body: gzipped(t, strings.Repeat(" ", 1<<20)+ok), encoding: "gzip"}, 413, ""},
		{"NUL in the text", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "a\u0000b"}`}, 400, "text"},
		{"NUL in the url", req{method: "POST", path: "/v1/query", body: `{"text": "t", "url": "http://x/\u0000"}`}, 400, "url"},
		{"javascript url", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "url": "javascript:alert(1)"}`}, 400, "url"},
		{"bad date", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "yesterday"}`}, 400, "date"},
		{"zero date", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "0001-01-01"}`}, 400, "date"},
		{"zero date with an offset", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "0001-01-01T01:00:00+01:00"}`}, 400, "date"},
		{"the Unix epoch, held as no date", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "1970-01-01T00:00:00Z"}`}, 400, "date"},
		{"year 1 with an offset", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "0001-01-01T00:00:00+01:00"}`}, 400, "date"},
		{"year 10000 in UTC", req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "a", "text": "t", "date": "9999-12-31T23:00:00-05:00"}`}, 400, "date"},
		{"long title", req{method: "POST", path: "/v1/documents", token: "ok", body: fmt.Sprintf(`{"id": "a", "title": %q}`, strings.Repeat("t", 5000))}, 400, "title"},
		{"unknown parameter", req{method: "POST", path: "/v1/documents?force=1", token: "ok", body: ok}, 400, "force"},
		{"bad replace", req{method: "POST", path: "/v1/documents?replace=maybe", token: "ok", body: ok}, 400, "replace"},
		{"huge id in the path", req{method: "GET", path: "/v1/documents/" + huge}, 400, "id"},
		{"missing document", req{method: "GET", path: "/v1/documents/nope"}, 404, ""},
		{"dot segments", req{method: "GET", path: "/v1/documents/..%2F..%2Fetc%2Fpasswd"}, 404, ""},
		{"dot segments as sent", req{method: "GET", path: "/v1/documents/../etc/passwd"}, 400, ""},
		{"dot segment", req{method: "GET", path: "/v1/./stats"}, 400, ""},
		{"empty segment", req{method: "DELETE", path: "/v1//documents/x", token: "ok"}, 400, ""},
		{"the API's root", req{method: "GET", path: "/v1"}, 404, ""},
		{"NUL in the path", req{method: "GET", path: "/v1/documents/a%00b"}, 400, "id"},
		{"parameter on a document", req{method: "GET", path: "/v1/documents/x?text=1"}, 400, "text"},
		{"limit too large", req{method: "GET", path: "/v1/documents?limit=100000"}, 400, "limit"},
		{"negative offset", req{method: "GET", path: "/v1/documents?offset=-1"}, 400, "offset"},
		{"repeated parameter", req{method: "GET", path: "/v1/documents?limit=1&limit=2"}, 400, "limit"},
		{"bad label", req{method: "GET", path: "/v1/documents?label=maybe"}, 400, "label"},
		{"bad since", req{method: "GET", path: "/v1/documents?since=tomorrow"}, 400, "since"},
		{"until before since", req{method: "GET", path: "/v1/clusters?since=2024-05-02&until=2024-05-01"}, 400, "until"},
		{"min size 1", req{method: "GET", path: "/v1/clusters?min_size=1"}, 400, "min_size"},
		{"cluster id not a number", req{method: "GET", path: "/v1/clusters/abc"}, 400, "id"},
		{"cluster id too big", req{method: "GET", path: "/v1/clusters/99999999999999999999999"}, 400, "id"},
		{"missing cluster", req{method: "GET", path: "/v1/clusters/12345"}, 404, ""},
		{"no query", req{method: "GET", path: "/v1/search"}, 400, "q"},
		{"query of exclusions", req{method: "GET", path: "/v1/search?q=-a+-b"}, 400, "q"},
		{"query too long", req{method: "GET", path: "/v1/search?q=" + strings.Repeat("a+", 600)}, 400, "q"},
		{"query of a lone quote", req{method: "GET", path: "/v1/search?q=%22"}, 400, "q"},
		{"query of marks only", req{method: "GET", path: "/v1/search?q=*+-+%3A"}, 400, "q"},
		{"query not UTF-8", req{method: "GET", path: "/v1/search?q=%ff%fe"}, 400, "q"},
		{"a NUL in the query", req{method: "GET", path: "/v1/search?q=a%00b"}, 400, "q"},
		{"a NUL in a source filter", req{method: "GET", path: "/v1/documents?source=%00"}, 400, "source"},
		{"a control character in a cluster filter", req{method: "GET", path: "/v1/clusters?source=a%01"}, 400, "source"},
		{"malformed query string", req{method: "GET", path: "/v1/search?q=%zz"}, 400, ""},
		{"diff without b", req{method: "GET", path: "/v1/diff?a=x"}, 400, "b"},
		{"diff of a missing document", req{method: "GET", path: "/v1/diff?a=x&b=nope"}, 404, ""},
		{"diff by letter", req{method: "GET", path: "/v1/diff?a=x&b=x&by=letter"}, 400, "by"},
		{"wrong method", req{method: "PUT", path: "/v1/documents/x", token: "ok", body: ok}, 405, ""},
		{"wrong method on search", req{method: "POST", path: "/v1/search?q=a", body: ok}, 405, ""},
		{"unknown route", req{method: "GET", path: "/v1/nothing"}, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, data := ts.do(t, tc.rq)
			var e apiError
			if err := json.Unmarshal(data, &e); err != nil || e.Msg == "" {
				t.Errorf("not a JSON error: %d %.300s", code, data)
			}
			if code != tc.code || e.Field != tc.field {
				t.Errorf("%d field %q, want %d field %q: %.300s", code, e.Field, tc.code, tc.field, data)
			}
			if strings.Contains(string(data), "goroutine") || strings.Contains(string(data), ".go:") {
				t.Errorf("a stack trace: %s", data)
			}
		})
	}
	// The document x was never stored by the refused requests.
	if code, data := ts.do(t, req{method: "GET", path: "/v1/stats"}); !strings.Contains(string(data), `"documents":0`) {
		t.Errorf("refused requests stored documents: %d %s", code, data)
	}
}

// TestErrorLines: an error in a body of several lines names the line the
// bad document starts on, in JSON Lines and in an array alike; malformed
// JSON, the line of the byte refused (TestErrorLines/lines,_a_line_break_in_a_string).
func TestErrorLines(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	ok := docJSON("x", story(9, 6), "")
	for _, tc := range []struct {
		name, ctype, body, want string
	}{
		{"lines, a blank between", "application/x-ndjson", ok + "\n\n" + `{"id": "y", "text": 5}` + "\n", "document 2 (line 3): text must be a JSON string"},
		{"lines, the last cut short", "application/x-ndjson", ok + "\n" + ok + "\n" + `{"id": "z", "te`, "line 3: malformed JSON: the body ends inside the value that starts there"},
		{"lines, a syntax error", "application/x-ndjson", ok + "\n" + `{"id" "z"}`, "line 2: malformed JSON: invalid character"},
		{"array over lines", "application/json", "[\n" + ok + ",\n\n" + `{"id": "y", "text": 5}` + "\n]", "document 2 (line 4): text must be a JSON string"},
		{"array cut short", "application/json", "[\n" + ok + ",\n" + `{"id": "y",`, "line 3: malformed JSON: the body ends inside the value that starts there"},
		// A line break inside a string is refused at the byte that ends
		// the line: the line the record is on, not the next one.
		{"lines, a line break in a string", "application/x-ndjson", ok + "\n" + ok + "\n" + `{"id": "z", "text": "third` + "\n" + `"}` + "\n",
			`line 3: malformed JSON: invalid character '\n' in string literal`},
		{"one line, a line break in a string", "application/x-ndjson", `{"id": "z", "text": "third` + "\n" + `"}` + "\n",
			`line 1: malformed JSON: invalid character '\n' in string literal`},
		{"array, a line break in a string", "application/json", "[\n" + ok + ",\n" + `{"id": "z", "text": "third` + "\n" + `"}` + "\n]",
			`line 3: malformed JSON: invalid character '\n' in string literal`},
		// The white space and commas between an array's elements count:
		// a syntax error after many short lines is on its own line.
		{"array of short lines, a syntax error", "application/json", "[\n" + strings.Repeat(`{"id": "a"},`+"\n", 20) + `{"id" "z"}` + "\n]",
			"line 22: malformed JSON: invalid character"},
		{"array, a missing comma", "application/json", "[\n" + `{"id": "a"}` + "\n\n" + `{"id": "b"}]`, "line 4: malformed JSON:"},
		{"array then more", "application/json", "[" + ok + "]\n\n" + ok, "line 3: an array must be the whole body"},
		{"array after a document", "application/json", ok + "\n[" + ok + "]", "line 2: an array must be the whole body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, data := ts.do(t, req{method: "POST", path: "/v1/query", ctype: tc.ctype, body: tc.body})
			var e apiError
			if err := json.Unmarshal(data, &e); err != nil || code != http.StatusBadRequest || !strings.HasPrefix(e.Msg, tc.want) {
				t.Errorf("%d %s, want 400 %q", code, data, tc.want)
			}
		})
	}
}

// gzipped returns s gzip-compressed.
func gzipped(t testing.TB, s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSlowBody: a client that sends its body more slowly than the
// server's ReadTimeout gets a 408 that says so, not a 400 quoting the
// socket's error.
func TestSlowBody(t *testing.T) {
	x, err := neardup.Open(t.Context(), storetest.DSN(t, "sqlite"), neardup.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	s, err := New(x, Options{Tokens: NewTokens(token)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.Config.ReadTimeout = 300 * time.Millisecond
	hs.Start()
	defer hs.Close()
	// Half of a body sent, the rest never; a gzip body of less than its
	// header.
	for _, tc := range []struct{ encoding, sent string }{{"", `{"id": "a", `}, {"gzip", "\x1f\x8b"}} {
		conn, err := net.Dial("tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		head := "POST /v1/query HTTP/1.1\r\nHost: " + hs.Listener.Addr().String() + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
		if tc.encoding != "" {
			head += "Content-Encoding: " + tc.encoding + "\r\n"
		}
		fmt.Fprint(conn, head+"\r\n"+tc.sent)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(data), "--read-timeout") || strings.Contains(string(data), "tcp") {
			t.Errorf("%q body: %d %s, want 408 naming --read-timeout", tc.encoding, resp.StatusCode, data)
		}
	}
}

// A body sent gzip-compressed is read as the same body sent as it is.
func TestGzipBody(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: gzipped(t, docJSON("g", story(3, 6), "")), encoding: "gzip"})
	if code/100 != 2 || !strings.Contains(string(data), `"status":"added"`) {
		t.Fatalf("%d %s", code, data)
	}
	if code, _ := ts.do(t, req{method: "GET", path: "/v1/documents/g"}); code != http.StatusOK {
		t.Errorf("the document sent gzip-compressed: %d", code)
	}
}

// TestPathTricks: paths that climb out of the API never reach a handler as
// such: one under /v1/ is a JSON 400 (not the mux's HTML redirect), others
// are cleaned by the mux.
func TestPathTricks(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, p := range []string{"/v1/../../etc/passwd", "/v1/documents/../../../etc/passwd", "//v1//documents"} {
		r, _ := http.NewRequest("GET", ts.url+p, nil)
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); strings.Contains(loc, "..") {
			t.Errorf("%s: redirected to %s", p, loc)
		}
		var e apiError
		switch {
		case strings.HasPrefix(p, "/v1/"):
			if resp.StatusCode != http.StatusBadRequest || json.Unmarshal(data, &e) != nil || e.Msg == "" {
				t.Errorf("%s: %d %.200s, want a JSON 400", p, resp.StatusCode, data)
			}
		case resp.StatusCode/100 != 3 && resp.StatusCode != http.StatusNotFound:
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
}

// TestNoTokens: a server started without tokens takes no writes, and
// with AuthReads needs a token to read.
func TestNoTokens(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{Tokens: NewTokens()})
	if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("a", story(1, 5), "")}); code != 403 {
		t.Errorf("write without tokens: %d %s", code, data)
	}
	ts = newTestServer(t, "sqlite", Options{AuthReads: true})
	for _, p := range []string{"/v1/documents", "/v1/search?q=a", "/metrics", "/v1/stats"} {
		if code, data := ts.do(t, req{method: "GET", path: p}); code != 401 {
			t.Errorf("%s without a token: %d %s", p, code, data)
		}
		if code, data := ts.do(t, req{method: "GET", path: p, token: "ok"}); code != 200 {
			t.Errorf("%s with a token: %d %s", p, code, data)
		}
	}
	if code, _ := ts.do(t, req{method: "GET", path: "/healthz"}); code != 200 {
		t.Errorf("healthz needs no token: %d", code)
	}
}

func TestLoadTokens(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		ok            bool
	}{
		{"good", "# writers\n" + token + "\n\n  second-token-abcdefgh  \n", true},
		{"short", "short\n", false},
		{"empty", "# nothing\n\n", false},
		{"spaces", "a token with spaces in it\n", false},
		// Regression: the byte-order mark of a file saved by some editors
		// stayed in the first token, which no client could then send.
		{"byte-order mark", "\uFEFF" + token + "\r\nsecond-token-abcdefgh\r\n", true},
		// Regression: a file saved as UTF-16 ("Unicode" in Windows
		// editors) loaded tokens of its mark's bytes and NULs, which no
		// client could send; with CRLF it blamed a line 2 too short.
		{"UTF-16LE", utf16Of16(false, token+"\r\nsecond-token-abcdefgh"), true},
		{"UTF-16BE", utf16Of16(true, token+"\nsecond-token-abcdefgh\n"), true},
		{"control character", "abcdefgh\x01ijklmnopq\n", false},
		{"not ASCII", "jeton-sécurisé-abcdefgh\n", false},
	} {
		path := dir + "/" + tc.name
		writeFile(t, path, tc.content)
		toks, err := LoadTokens(path)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
		if tc.ok {
			r, _ := http.NewRequest("GET", "/", nil)
			r.Header.Set("Authorization", "Bearer second-token-abcdefgh")
			if toks.Len() != 2 || !toks.Authorized(r) {
				t.Errorf("%s: %d tokens, second not accepted", tc.name, toks.Len())
			}
			if !toks.Valid(token) {
				t.Errorf("%s: the first token not accepted", tc.name)
			}
		}
	}
	if _, err := LoadTokens(dir + "/missing"); err == nil {
		t.Error("a missing file loaded")
	}
}

// BenchmarkSplit cuts a body of 1,000 documents of 10 KB on one line each
// (the most --max-batch allows by default, in 10 MB): the line each starts
// on is counted once, not from the body's start for each.
func BenchmarkSplit(b *testing.B) {
	var body strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&body, "{\"id\": \"d%d\", \"text\": %q}\n", i, strings.Repeat("word\\n ", 1700))
	}
	s := &Server{o: Options{MaxBatch: 1000}}
	b.SetBytes(int64(body.Len()))
	for b.Loop() {
		if docs, err := s.split([]byte(body.String()), true); err != nil || len(docs) != 1000 {
			b.Fatal(len(docs), err)
		}
	}
}

// TestStatus maps the errors that are not the client's: a database that
// cannot be reached is a 503 (try again), any other failure a 500, and
// neither names internals.
func TestStatus(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{fmt.Errorf("failed to connect to `user=x`: dial error: %w", refused), http.StatusServiceUnavailable},
		{fmt.Errorf("reading: %w", driver.ErrBadConn), http.StatusServiceUnavailable},
		{fmt.Errorf("reading: %w", pgconn.ErrConnClosed), http.StatusServiceUnavailable},
		{fmt.Errorf("writing: %w", neardup.ErrLocked), http.StatusServiceUnavailable},
		{errors.New("something else"), http.StatusInternalServerError},
	} {
		ae := status(tc.err)
		if ae.Status != tc.want || strings.Contains(ae.Msg, "dial") || strings.Contains(ae.Msg, "user=") {
			t.Errorf("%v: %d %q, want %d naming nothing internal", tc.err, ae.Status, ae.Msg, tc.want)
		}
	}
}

// TestEveryRouteRefusesUnknownParameters: every route of the API, health
// probes, metrics and this document included, refuses a parameter it does
// not take, naming it. Regression: /healthz, /readyz, /metrics and
// /openapi.json took any and answered 200.
func TestEveryRouteRefusesUnknownParameters(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, r := range ts.api() {
		for m := range r.methods {
			path := strings.NewReplacer("{id...}", "x", "{id}", "1").Replace(r.path)
			for _, query := range []string{"?bogus=1", "?bogus", "?bogus=1&bogus=2"} {
				t.Run(m+" "+path+query, func(t *testing.T) {
					code, data := ts.do(t, req{method: m, path: path + query, token: "ok"})
					var e apiError
					json.Unmarshal(data, &e)
					if code != http.StatusBadRequest || e.Field != "bogus" || !strings.Contains(e.Msg, `unknown parameter "bogus"`) {
						t.Errorf("%d %.300s, want 400 naming bogus", code, data)
					}
				})
			}
		}
	}
}

// TestLoneSurrogateIDs: two ids that differ by an escaped lone surrogate
// are refused, not stored as one id; a surrogate pair is a character, and
// a title or text keeps U+FFFD for a lone one, as neardup index add
// does. Regression: "sur\ud800" was stored as "sur\ufffd", and
// "sur\udbff", another client's id, was then a conflict.
func TestLoneSurrogateIDs(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	for _, id := range []string{`sur\ud800`, `sur\udbff`} {
		code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: `{"id": "` + id + `", "text": "Rates rise."}`})
		var e apiError
		json.Unmarshal(data, &e)
		if code != http.StatusBadRequest || e.Field != "id" || !strings.Contains(e.Msg, "lone surrogate") {
			t.Errorf("%s: %d %s, want 400 naming the id", id, code, data)
		}
	}
	code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok",
		body: `{"id": "smile\ud83d\ude00", "title": "cut \ud83d", "text": "Rates rise \ud83d"}`})
	if res := decode[testResults](t, data); code != 200 || len(res.Results) != 1 || res.Results[0].ID != "smile\U0001F600" || res.Results[0].Status != neardup.Added {
		t.Errorf("a surrogate pair in the id, a lone one in the title and text: %d %s", code, data)
	}
	code, data = ts.do(t, req{method: "GET", path: "/v1/documents/smile%F0%9F%98%80"})
	if d := decode[browse.Document](t, data); code != 200 || d.Title != "cut \uFFFD" || d.Text != "Rates rise \uFFFD" {
		t.Errorf("get: %d %s", code, data)
	}
}

// utf16Of16 encodes ASCII s in UTF-16 with its byte-order mark, big-endian
// or little-endian.
func utf16Of16(big bool, s string) string {
	b := []byte{0xff, 0xfe}
	if big {
		b = []byte{0xfe, 0xff}
	}
	for _, c := range []byte(s) {
		if big {
			b = append(b, 0, c)
		} else {
			b = append(b, c, 0)
		}
	}
	return string(b)
}
