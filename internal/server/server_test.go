package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/internal/watch"
	"github.com/neardup/neardup/method/rarewords"
)

const token = "test-token-0123456789"

// testServer is a server over a new index that stores texts, and an
// HTTP server of it.
type testServer struct {
	*Server
	x   *neardup.Index
	dsn string
	url string
}

func newTestServer(t *testing.T, e string, o Options) *testServer {
	t.Helper()
	dsn := storetest.DSN(t, e)
	x, err := neardup.Open(t.Context(), dsn, neardup.Options{Sync: "normal", StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	if o.Tokens == nil {
		o.Tokens = NewTokens(token)
	}
	s, err := New(x, o)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		s.Close()
		x.Close()
	})
	return &testServer{Server: s, x: x, dsn: dsn, url: hs.URL}
}

// req is a request of a test: method, path, body, headers.
type req struct {
	method, path, body string
	ctype              string // default application/json when there is a body
	token              string // "" none; "ok" the server's
	accept             string
	encoding           string // Content-Encoding, of a body already encoded so
}

// do sends rq and returns the status and body.
func (ts *testServer) do(t testing.TB, rq req) (int, []byte) {
	t.Helper()
	var body io.Reader
	if rq.body != "" {
		body = strings.NewReader(rq.body)
	}
	r, err := http.NewRequest(rq.method, ts.url+rq.path, body)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case rq.ctype != "":
		r.Header.Set("Content-Type", rq.ctype)
	case rq.body != "":
		r.Header.Set("Content-Type", "application/json")
	}
	switch rq.token {
	case "":
	case "ok":
		r.Header.Set("Authorization", "Bearer "+token)
	default:
		r.Header.Set("Authorization", rq.token)
	}
	if rq.accept != "" {
		r.Header.Set("Accept", rq.accept)
	}
	if rq.encoding != "" {
		r.Header.Set("Content-Encoding", rq.encoding)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

func decode[T any](t testing.TB, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	return v
}

// story returns a news text of n sentences made from seed.
func story(seed uint64, n int) []string { return enginetest.NewTextGen(seed).Sentences(n) }

func docJSON(id string, sents []string, extra string) string {
	text, _ := json.Marshal(strings.Join(sents, " "))
	return fmt.Sprintf(`{"id": %q, "title": "Title %s", "source": "wire", "date": "2024-05-0%d", "text": %s%s}`,
		id, id, 1+len(id)%9, text, extra)
}

// testResults is Results as a client reads them.
type testResults struct {
	Results []struct {
		ID      string
		Status  neardup.Status
		Skip    core.SkipReason `json:"skipped"`
		Cluster int64
		Differs []string
		Matches []struct {
			ID       string
			Score    float64
			Label    core.Label
			Method   string
			Evidence json.RawMessage
		}
	}
}

// TestAPI goes through every route with good input, on each store engine.
func TestAPI(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			a := story(1, 12)
			b := append(append([]string(nil), a[:11]...), story(2, 1)...)
			other := story(3, 10)
			other[0] = "Zebras <crossed> the road & nobody minded."

			// One document, then a batch as an array, then JSON Lines.
			code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("a", a, "")})
			if res := decode[testResults](t, data); code != 200 || len(res.Results) != 1 || res.Results[0].Status != neardup.Added || len(res.Results[0].Matches) != 0 {
				t.Fatalf("add a: %d %s", code, data)
			}
			code, data = ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok",
				body: "[" + docJSON("b", b, "") + "," + docJSON("a", a, "") + "]"})
			res := decode[testResults](t, data)
			if code != 200 || len(res.Results) != 2 || res.Results[1].Status != neardup.Exists {
				t.Fatalf("add b: %d %s", code, data)
			}
			m := res.Results[0].Matches
			if len(m) != 1 || m[0].ID != "a" || m[0].Label != core.Duplicate || m[0].Method == "" || m[0].Score < 0.5 || m[0].Evidence == nil {
				t.Errorf("b's matches: %s", data)
			}
			cluster := res.Results[0].Cluster
			code, data = ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", ctype: "application/x-ndjson",
				body: docJSON("c", other, "") + "\n\n" + docJSON("short", []string{"Too short."}, "") + "\n"})
			res = decode[testResults](t, data)
			if code != 200 || len(res.Results) != 2 || res.Results[1].Skip == "" {
				t.Fatalf("add c: %d %s", code, data)
			}

			// A query stores nothing.
			code, data = ts.do(t, req{method: "POST", path: "/v1/query", body: fmt.Sprintf(`{"text": %q}`, strings.Join(a, " "))})
			res = decode[testResults](t, data)
			if code != 200 || res.Results[0].ID != "#1" || res.Results[0].Status != neardup.Checked || len(res.Results[0].Matches) != 2 {
				t.Fatalf("query: %d %s", code, data)
			}

			code, data = ts.do(t, req{method: "GET", path: "/v1/documents/b"})
			doc := decode[browse.Document](t, data)
			if code != 200 || doc.Text == "" || len(doc.Marks) != 1 || doc.Marks[0].Other.ID != "a" || doc.Cluster != cluster {
				t.Errorf("get b: %d %s", code, data)
			}
			code, data = ts.do(t, req{method: "GET", path: "/v1/documents?label=duplicate&limit=1"})
			list := decode[DocumentList](t, data)
			if code != 200 || len(list.Documents) != 1 || list.Documents[0].ID != "b" || list.NextOffset != 1 || list.Documents[0].Best == nil {
				t.Errorf("latest duplicates: %d %s", code, data)
			}
			code, data = ts.do(t, req{method: "GET", path: "/v1/clusters?min_size=2&source=wire"})
			cl := decode[ClusterList](t, data)
			if code != 200 || len(cl.Clusters) != 1 || cl.Clusters[0].ID != cluster || cl.Clusters[0].Size != 2 {
				t.Fatalf("clusters: %d %s", code, data)
			}
			code, data = ts.do(t, req{method: "GET", path: fmt.Sprintf("/v1/clusters/%d", cluster)})
			c := decode[browse.Cluster](t, data)
			if code != 200 || len(c.Members) != 2 || c.Representative == "" || c.Why == "" || len(c.Marks) != 1 {
				t.Errorf("cluster: %d %s", code, data)
			}

			code, data = ts.do(t, req{method: "GET", path: "/v1/diff?a=a&b=b"})
			var d struct {
				A, B struct{ Overlap float64 }
				Ops  []json.RawMessage
			}
			if err := json.Unmarshal(data, &d); err != nil || code != 200 || d.A.Overlap < 0.8 || len(d.Ops) < 2 {
				t.Errorf("diff: %d %.200s", code, data)
			}
			code, data = ts.do(t, req{method: "GET", path: "/v1/diff?a=a&b=c&by=sentence", accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"})
			if code != 200 || !bytes.Contains(data, []byte("<table class=\"nd-diff\">")) || !bytes.Contains(data, []byte("Zebras &lt;crossed&gt;")) {
				t.Errorf("html diff: %d %.300s", code, data)
			}

			code, data = ts.do(t, req{method: "GET", path: "/v1/search?q=zebras+-giraffe"})
			sr := decode[browse.SearchResult](t, data)
			if code != 200 || sr.Total != 1 || sr.Hits[0].ID != "c" || !strings.Contains(sr.Hits[0].SnippetHTML, "<mark>Zebras</mark>") {
				t.Errorf("search: %d %s", code, data)
			}

			code, data = ts.do(t, req{method: "GET", path: "/v1/stats"})
			if st := decode[neardup.IndexStats](t, data); code != 200 || st.Documents != 4 {
				t.Errorf("stats: %d %s", code, data)
			}

			code, data = ts.do(t, req{method: "DELETE", path: "/v1/documents/b", token: "ok"})
			if code != 200 || decode[Removed](t, data).Removed != "b" {
				t.Errorf("delete: %d %s", code, data)
			}
			if code, data = ts.do(t, req{method: "DELETE", path: "/v1/documents/b", token: "ok"}); code != 404 {
				t.Errorf("delete again: %d %s", code, data)
			}
			if code, data = ts.do(t, req{method: "GET", path: fmt.Sprintf("/v1/clusters/%d", cluster)}); code != 404 {
				t.Errorf("a cluster split by removal: %d %s", code, data)
			}
			for _, p := range []string{"/healthz", "/readyz", "/openapi.json"} {
				if code, data = ts.do(t, req{method: "GET", path: p}); code != 200 {
					t.Errorf("%s: %d %s", p, code, data)
				}
			}
			code, data = ts.do(t, req{method: "GET", path: "/"})
			if code != 200 || !bytes.Contains(data, []byte("no web UI")) {
				t.Errorf("no UI: %d %s", code, data)
			}
		})
	}
}

// TestReplace: a document posted again with replace=true replaces the
// stored one.
func TestReplace(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("a", story(1, 8), "")})
	code, data := ts.do(t, req{method: "POST", path: "/v1/documents?replace=true", token: "ok", body: docJSON("a", story(2, 8), "")})
	if res := decode[testResults](t, data); code != 200 || res.Results[0].Status != neardup.Replaced {
		t.Errorf("%d %s", code, data)
	}
}

// TestReplaceValues: ?replace= takes what strconv.ParseBool takes, an
// empty value as false, and its refusal names every value it takes.
// Regression: TRUE, True and t were refused, though the message said only
// "replace is true or false", and 1 and 0 were taken.
func TestReplaceValues(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	const taken = "replace is true or false: 1, t, T, TRUE, true or True; 0, f, F, FALSE, false or False (empty is false)"
	for i, tc := range []struct {
		value string
		want  neardup.Status // "" for a 400
	}{
		{"true", neardup.Replaced}, {"TRUE", neardup.Replaced}, {"True", neardup.Replaced}, {"t", neardup.Replaced},
		{"T", neardup.Replaced}, {"1", neardup.Replaced},
		{"false", neardup.Conflict}, {"FALSE", neardup.Conflict}, {"False", neardup.Conflict}, {"f", neardup.Conflict},
		{"F", neardup.Conflict}, {"0", neardup.Conflict}, {"", neardup.Conflict},
		{"yes", ""}, {"on", ""}, {"tRUE", ""}, {" true", ""},
	} {
		t.Run(tc.value, func(t *testing.T) {
			id := fmt.Sprint("d", i)
			ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON(id, story(1, 8), "")})
			code, data := ts.do(t, req{method: "POST", path: "/v1/documents?replace=" + url.QueryEscape(tc.value), token: "ok", body: docJSON(id, story(2, 8), "")})
			if tc.want == "" {
				var e apiError
				json.Unmarshal(data, &e)
				if code != http.StatusBadRequest || e.Field != "replace" || e.Msg != taken {
					t.Errorf("%d %s, want 400 saying %q", code, data, taken)
				}
				return
			}
			if res := decode[testResults](t, data); code != 200 || res.Results[0].Status != tc.want {
				t.Errorf("%d %s, want %s", code, data, tc.want)
			}
		})
	}
}

// TestDiffWithoutTexts: an index that stores no texts answers 409.
func TestDiffWithoutTexts(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x, err := neardup.Open(t.Context(), dsn, neardup.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	s, err := New(x, Options{Tokens: NewTokens(token)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	ts := &testServer{Server: s, x: x, url: hs.URL}
	ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + docJSON("a", story(1, 8), "") + "," + docJSON("b", story(1, 8), "") + "]"})
	if code, data := ts.do(t, req{method: "GET", path: "/v1/diff?a=a&b=b"}); code != 409 {
		t.Errorf("%d %s", code, data)
	}
	// Documents stored without text are found by their titles.
	code, data := ts.do(t, req{method: "GET", path: "/v1/search?q=%22title+b%22"})
	if sr := decode[browse.SearchResult](t, data); code != 200 || sr.Total != 1 || sr.Hits[0].ID != "b" {
		t.Errorf("search a title: %d %s", code, data)
	}
}

func TestMetrics(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{Watcher: func() watch.Totals {
		return watch.Totals{Polls: map[string]int{"ok": 3}, Items: map[string]int{"duplicate": 2}}
	}})
	a := story(4, 10)
	ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + docJSON("a", a, "") + "," + docJSON("b", a, "") + "]"})
	ts.do(t, req{method: "GET", path: "/v1/documents/nope"})
	code, data := ts.do(t, req{method: "GET", path: "/metrics"})
	if code != 200 {
		t.Fatalf("%d %s", code, data)
	}
	for _, want := range []string{
		`neardup_http_requests_total{code="200",route="POST /v1/documents"} 1`,
		`neardup_http_requests_total{code="404",route="GET /v1/documents/{id...}"} 1`,
		`neardup_http_request_duration_seconds_bucket{route="POST /v1/documents",le="+Inf"} 1`,
		`neardup_documents 2`,
		`neardup_marks{label="duplicate"} 1`,
		`neardup_clusters 1`,
		`neardup_documents_posted_total{status="added"} 2`,
		`neardup_watch_polls_total{status="ok"} 3`,
		`neardup_watch_items_total{outcome="duplicate"} 2`,
		`neardup_watch_up 1`,
	} {
		if !bytes.Contains(data, []byte(want+"\n")) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestMetricsWatcherStopped: a watcher an error stopped shows as down.
func TestMetricsWatcherStopped(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{Watcher: func() watch.Totals {
		return watch.Totals{Polls: map[string]int{"ok": 1}, Stopped: "disk I/O error"}
	}})
	code, data := ts.do(t, req{method: "GET", path: "/metrics"})
	if code != 200 || !bytes.Contains(data, []byte("\nneardup_watch_up 0\n")) {
		t.Errorf("metrics: %d, want neardup_watch_up 0:\n%s", code, data)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A *neardup.Index is what the package is given.
var _ Index = (*neardup.Index)(nil)

// TestPostOfAnotherDocumentUnderAStoredID: a POST of a document whose id is
// stored with other content is answered "conflict", naming the fields that
// differ, and the stored document is left as it is, while the request's
// other documents are stored; the same document again is "exists", and
// with ?replace=true the other one replaces it. Regression (reviewer's
// finding, as neardup index add): it was "exists", like the same document.
func TestPostOfAnotherDocumentUnderAStoredID(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			a, other := story(1, 12), story(2, 12)
			post := func(query, body string) testResults {
				t.Helper()
				code, data := ts.do(t, req{method: "POST", path: "/v1/documents" + query, token: "ok", body: body})
				if code != 200 {
					t.Fatalf("POST: %d %s", code, data)
				}
				return decode[testResults](t, data)
			}
			post("", docJSON("a", a, ""))
			res := post("", "["+docJSON("a", other, "")+","+docJSON("b", other, "")+","+docJSON("a", a, "")+"]")
			var got []string
			for _, r := range res.Results {
				got = append(got, fmt.Sprintf("%s %s %v", r.ID, r.Status, r.Differs))
			}
			if want := []string{"a conflict [text]", "b added []", "a exists []"}; !slices.Equal(got, want) {
				t.Errorf("results (-want +got):\n%s", cmp.Diff(want, got))
			}
			_, data := ts.do(t, req{method: "GET", path: "/v1/documents/a"})
			if doc := decode[browse.Document](t, data); doc.Text != strings.Join(a, " ") {
				t.Errorf("a stored: %.80s, want the first text left as it was", doc.Text)
			}
			if res := post("?replace=true", docJSON("a", other, "")); res.Results[0].Status != neardup.Replaced {
				t.Errorf("with replace=true: %+v, want replaced", res.Results[0])
			}
		})
	}
}

// TestLowerCaseRFC3339: a date, and the since and until of a list, are
// read in RFC 3339 with the lower-case "t" and "z" it allows (section
// 5.6). Regression: "2024-05-01t10:00:00z" was refused as "not a date:
// use RFC 3339".
func TestLowerCaseRFC3339(t *testing.T) {
	ts := newTestServer(t, "sqlite", Options{})
	code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok",
		body: `{"id": "a", "text": "Rates rise.", "date": "2024-05-01t10:00:00z"}`})
	if code != 200 {
		t.Fatalf("add: %d %s", code, data)
	}
	code, data = ts.do(t, req{method: "GET", path: "/v1/documents/a"})
	if d := decode[browse.Document](t, data); code != 200 || !d.Date.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("get a: %d %s, want dated 2024-05-01T10:00:00Z", code, data)
	}
	code, data = ts.do(t, req{method: "GET", path: "/v1/documents?since=2024-05-01t09:00:00z&until=2024-05-01T11:00:00z"})
	if l := decode[DocumentList](t, data); code != 200 || len(l.Documents) != 1 {
		t.Errorf("since and until: %d %s, want a", code, data)
	}
}

// TestPostWithoutText: a document without text, or of white space alone,
// is reported skipped, empty, and not stored, as neardup index add skips
// it; a stored document of its id is left as it is. Regression: it was
// stored and reported skipped too-short.
func TestPostWithoutText(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("a", story(1, 8), "")})
			for _, path := range []string{"/v1/documents", "/v1/documents?replace=true"} {
				code, data := ts.do(t, req{method: "POST", path: path, token: "ok",
					body: `[{"id": "none"}, {"id": "empty", "title": "A title", "text": ""}, {"id": "blank", "text": " \n\t"}, {"id": "a", "text": ""}]`})
				res := decode[testResults](t, data)
				if code != 200 || len(res.Results) != 4 {
					t.Fatalf("%s: %d %s", path, code, data)
				}
				for _, r := range res.Results {
					if r.Status != neardup.Skipped || r.Skip != core.SkipEmpty || r.Cluster != 0 || len(r.Matches) != 0 {
						t.Errorf("%s: %s: %+v, want skipped, empty", path, r.ID, r)
					}
				}
			}
			if code, data := ts.do(t, req{method: "GET", path: "/v1/documents/empty"}); code != 404 {
				t.Errorf("empty is stored: %d %s", code, data)
			}
			code, data := ts.do(t, req{method: "GET", path: "/v1/stats"})
			if st := decode[neardup.IndexStats](t, data); code != 200 || st.Documents != 1 || len(st.Skipped) != 0 {
				t.Errorf("stats: %d %s, want a alone", code, data)
			}
			code, data = ts.do(t, req{method: "GET", path: "/v1/documents/a"})
			if d := decode[browse.Document](t, data); code != 200 || d.Text != strings.Join(story(1, 8), " ") {
				t.Errorf("a is not left as stored: %d %.300s", code, data)
			}
			code, data = ts.do(t, req{method: "POST", path: "/v1/query", body: `{"text": " "}`})
			if res := decode[testResults](t, data); code != 200 || res.Results[0].Status != neardup.Checked || res.Results[0].Skip != core.SkipEmpty {
				t.Errorf("query: %d %s, want checked, empty", code, data)
			}
		})
	}
}

// TestReplaceWithinOneRequest: with replace=true, a document that a later
// one of the same request and id replaces is reported superseded, with no
// cluster or matches, the later one added when its id was not stored
// before the request, else replaced, and every cluster reported exists
// once the request is stored, with the original reported. Regression: the
// first reported a cluster that then did not exist (404), or one it was
// not in, and no original; the later one was reported replaced where its
// id was new.
func TestReplaceWithinOneRequest(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			a := story(1, 10)
			near := append(append([]string(nil), a[:9]...), story(2, 1)...)
			ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("y", near, "")})
			for _, stored := range []bool{false, true} {
				z := fmt.Sprint("z", stored) // a document of its own each time
				code, data := ts.do(t, req{method: "POST", path: "/v1/documents?replace=true", token: "ok",
					body: "[" + docJSON("x", a, "") + "," + docJSON(z, a, "") + "," + docJSON("x", story(9, 10), "") + "]"})
				res := decode[testResults](t, data)
				if code != 200 || len(res.Results) != 3 {
					t.Fatalf("x stored %v: %d %s", stored, code, data)
				}
				if r := res.Results[0]; r.Status != neardup.Superseded || r.Cluster != 0 || len(r.Matches) != 0 {
					t.Errorf("x stored %v: the first x: %+v, want superseded, no cluster or matches", stored, r)
				}
				if r := res.Results[1]; r.Cluster == 0 || r.Status != neardup.Added {
					t.Errorf("x stored %v: %s: %+v, want added, in y's cluster", stored, r.ID, r)
				}
				if r, want := res.Results[2], map[bool]neardup.Status{false: neardup.Added, true: neardup.Replaced}[stored]; r.Status != want {
					t.Errorf("x stored %v: the last x: %+v, want %s", stored, r, want)
				}
				for _, r := range res.Results {
					if r.Cluster == 0 {
						continue
					}
					code, data := ts.do(t, req{method: "GET", path: fmt.Sprintf("/v1/clusters/%d", r.Cluster)})
					if c := decode[browse.Cluster](t, data); code != 200 || c.Original != "y" {
						t.Errorf("x stored %v: %s's cluster %d: %d %s", stored, r.ID, r.Cluster, code, data)
					}
				}
			}
		})
	}
}

// TestPostWithoutSourcesToRarewords: a POST to an index of rarewords after
// which no document it holds would have a source is refused with a 400
// about "source", as the command line's add is, and stores nothing; a
// document with a source is added. Regression: the documents were stored
// and never compared, with a 200.
func TestPostWithoutSourcesToRarewords(t *testing.T) {
	x, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), neardup.Options{Method: rarewords.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(x, Options{Tokens: NewTokens(token)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer func() { hs.Close(); s.Close(); x.Close() }()
	ts := &testServer{Server: s, x: x, url: hs.URL}
	text, _ := json.Marshal(strings.Join(story(1, 40), " "))
	body := fmt.Sprintf(`[{"id": "a", "text": %s}, {"id": "b", "text": %s}]`, text, text)
	code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: body})
	e := decode[struct{ Error, Field string }](t, data)
	if code != 400 || e.Field != "source" || !strings.Contains(e.Error, "--same-source") || x.Len() != 0 {
		t.Errorf("POST without sources: %d %s, %d stored; want a 400 about the source, none stored", code, data, x.Len())
	}
	code, data = ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok",
		body: fmt.Sprintf(`{"id": "a", "source": "wire", "text": %s}`, text)})
	if code != 200 || x.Len() != 1 {
		t.Errorf("POST with a source: %d %s, %d stored; want it added", code, data, x.Len())
	}
}
