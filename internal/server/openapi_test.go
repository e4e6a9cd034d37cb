package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI 3: %v", err)
	}
	return doc
}

// TestOpenAPIRoutes: /openapi.json describes exactly the routes served,
// method for method.
func TestOpenAPIRoutes(t *testing.T) {
	doc := loadOpenAPI(t)
	s := newTestServer(t, "sqlite", Options{})
	var served, described []string
	for _, r := range s.api() {
		for m := range r.methods {
			served = append(served, m+" "+strings.ReplaceAll(r.path, "{id...}", "{id}"))
		}
	}
	for path, item := range doc.Paths.Map() {
		for m := range item.Operations() {
			described = append(described, m+" "+path)
		}
	}
	slices.Sort(served)
	slices.Sort(described)
	if !slices.Equal(served, described) {
		t.Errorf("served %v\ndescribed %v", served, described)
	}
}

// TestOpenAPIResponses: what the routes answer fits the schemas the
// document gives them, errors included.
func TestOpenAPIResponses(t *testing.T) {
	doc := loadOpenAPI(t)
	ts := newTestServer(t, "sqlite", Options{})
	a := story(7, 10)
	ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + docJSON("a", a, "") + "," + docJSON("b", a, "") + "]"})
	for _, tc := range []struct {
		rq   req
		path string
		code int
	}{
		{req{method: "POST", path: "/v1/documents", token: "ok", body: docJSON("c", story(8, 9), "")}, "/v1/documents", 200},
		{req{method: "POST", path: "/v1/documents", body: docJSON("c", a, "")}, "/v1/documents", 401},
		{req{method: "POST", path: "/v1/query", body: docJSON("q", a, "")}, "/v1/query", 200},
		{req{method: "GET", path: "/v1/documents"}, "/v1/documents", 200},
		{req{method: "GET", path: "/v1/documents/b"}, "/v1/documents/{id}", 200},
		{req{method: "GET", path: "/v1/documents/zzz"}, "/v1/documents/{id}", 404},
		{req{method: "GET", path: "/v1/clusters"}, "/v1/clusters", 200},
		{req{method: "GET", path: "/v1/clusters/1"}, "/v1/clusters/{id}", 200},
		{req{method: "GET", path: "/v1/diff?a=a&b=b"}, "/v1/diff", 200},
		{req{method: "GET", path: "/v1/search?q=" + strings.Fields(a[0])[0]}, "/v1/search", 200},
		{req{method: "GET", path: "/v1/search?q="}, "/v1/search", 400},
		{req{method: "GET", path: "/v1/stats"}, "/v1/stats", 200},
		{req{method: "GET", path: "/healthz"}, "/healthz", 200},
		{req{method: "GET", path: "/readyz"}, "/readyz", 200},
		{req{method: "GET", path: "/healthz?verbose=1"}, "/healthz", 400},
		{req{method: "GET", path: "/readyz?verbose=1"}, "/readyz", 400},
		{req{method: "GET", path: "/metrics?format=json"}, "/metrics", 400},
		{req{method: "GET", path: "/openapi.json?v=2"}, "/openapi.json", 400},
		{req{method: "DELETE", path: "/v1/documents/c", token: "ok"}, "/v1/documents/{id}", 200},
	} {
		name := fmt.Sprintf("%s %s %d", tc.rq.method, tc.rq.path, tc.code)
		code, data := ts.do(t, tc.rq)
		if code != tc.code {
			t.Errorf("%s: got %d %s", name, code, data)
			continue
		}
		op := doc.Paths.Find(tc.path).GetOperation(tc.rq.method)
		resp := op.Responses.Status(code)
		if resp == nil {
			t.Errorf("%s: no response %d described", name, code)
			continue
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		schema := resp.Value.Content.Get("application/json").Schema.Value
		if err := schema.VisitJSON(v); err != nil {
			t.Errorf("%s: the answer does not fit its schema: %v\n%.300s", name, err, data)
		}
	}
}

// TestOpenAPISaysWhichRoutesNeedAToken: every route that answers 401
// without a token under AuthReads describes that 401, and none of them
// says it needs no token (an empty security list). /openapi.json said so,
// and /metrics described no 401, though both need a token then.
func TestOpenAPISaysWhichRoutesNeedAToken(t *testing.T) {
	doc := loadOpenAPI(t)
	ts := newTestServer(t, "sqlite", Options{AuthReads: true})
	for _, r := range ts.api() {
		path := strings.ReplaceAll(r.path, "{id...}", "{id}")
		for m := range r.methods {
			if m != "GET" {
				continue
			}
			code, _ := ts.do(t, req{method: m, path: strings.ReplaceAll(path, "{id}", "1")})
			if code != http.StatusUnauthorized {
				continue
			}
			op := doc.Paths.Find(path).GetOperation(m)
			if op.Responses.Status(http.StatusUnauthorized) == nil {
				t.Errorf("%s %s answers 401 without a token, and describes no 401", m, path)
			}
			if op.Security != nil && len(*op.Security) == 0 {
				t.Errorf("%s %s needs a token under --auth-reads, and its security list is empty", m, path)
			}
		}
	}
}
