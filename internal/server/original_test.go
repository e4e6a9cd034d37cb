package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/store/storetest"
)

// datedJSON is a document published at hour h of one day.
func datedJSON(id string, sents []string, h int) string {
	text, _ := json.Marshal(strings.Join(sents, " "))
	return fmt.Sprintf(`{"id": %q, "title": "Title %s", "source": "wire", "date": "2024-05-01T%02d:00:00Z", "text": %s}`, id, id, h, text)
}

// TestAPIOriginal: two copies of a story are added before it; the
// answers name the original of each match and of the cluster, and once
// the story, published first, is added, it is the original in the add's
// answer, the cluster, the cluster list and the copies' documents.
func TestAPIOriginal(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			s := story(35, 10)
			edit := func(i int) []string {
				c := append([]string(nil), s...)
				c[i] = story(uint64(40+i), 1)[0]
				return c
			}
			type result struct {
				ID, Original string
				Cluster      int64
				Matches      []struct{ ID, Original, Label string }
			}
			post := func(body string) result {
				t.Helper()
				code, out := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: body})
				var rs struct{ Results []result }
				if err := json.Unmarshal(out, &rs); code != http.StatusOK || err != nil || len(rs.Results) != 1 {
					t.Fatalf("%d %s: %v", code, out, err)
				}
				return rs.Results[0]
			}
			get := func(path string, v any) {
				t.Helper()
				code, out := ts.do(t, req{method: "GET", path: path})
				if err := json.Unmarshal(out, v); code != http.StatusOK || err != nil {
					t.Fatalf("GET %s: %d %s: %v", path, code, out, err)
				}
			}
			post(datedJSON("copy-noon", edit(2), 12))
			r := post(datedJSON("copy-eleven", edit(5), 11))
			if r.Original != "copy-eleven" || len(r.Matches) != 1 || r.Matches[0].Original != "copy-eleven" {
				t.Errorf("a copy published before the one stored: %+v", r)
			}
			r = post(datedJSON("wire", s, 10))
			if r.Original != "wire" || len(r.Matches) != 2 {
				t.Fatalf("the late original: %+v", r)
			}
			for _, m := range r.Matches {
				if m.Label == "duplicate" && m.Original != "wire" {
					t.Errorf("match %s names %q its original", m.ID, m.Original)
				}
			}
			var c struct{ Original, Representative string }
			get(fmt.Sprintf("/v1/clusters/%d", r.Cluster), &c)
			var list struct {
				Clusters []struct{ Original struct{ ID string } }
			}
			get("/v1/clusters", &list)
			var d struct {
				Original struct{ ID string }
				Marks    []struct{ A, B, Original string }
			}
			get("/v1/documents/copy-noon", &d)
			got := []string{c.Original, list.Clusters[0].Original.ID, d.Original.ID}
			if diff := cmp.Diff([]string{"wire", "wire", "wire"}, got); diff != "" {
				t.Errorf("cluster, list and document's original (-want +got)\n%s", diff)
			}
			for _, m := range d.Marks {
				if m.A == "copy-noon" && m.B == "wire" && m.Original != "wire" {
					t.Errorf("mark %+v", m)
				}
			}
			var q struct{ Results []result }
			code, out := ts.do(t, req{method: "POST", path: "/v1/query", body: datedJSON("earlier-still", edit(7), 9)})
			if err := json.Unmarshal(out, &q); code != http.StatusOK || err != nil {
				t.Fatalf("%d %s", code, out)
			}
			if len(q.Results) != 1 || len(q.Results[0].Matches) != 3 {
				t.Fatalf("the query found %s", out)
			}
			for _, m := range q.Results[0].Matches {
				if m.Label == "duplicate" && m.Original != "earlier-still" {
					t.Errorf("a query of a copy published before all: match %s names %q", m.ID, m.Original)
				}
			}
		})
	}
}
