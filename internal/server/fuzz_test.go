package server

import (
	"encoding/json"
	"errors"
	"github.com/neardup/neardup"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadDocs decodes request bodies as POST /v1/documents and
// /v1/query do: never a panic, and either documents that can be stored,
// each with a valid id, or a client error naming what is wrong.
func FuzzReadDocs(f *testing.F) {
	for _, seed := range []string{
		`{"id": "a", "text": "t"}`, `[{"id": "a", "text": "t"}, {"id": "b", "title": "x", "date": "2024-05-01"}]`,
		"{\"id\": \"a\"}\n{\"id\": \"b\"}\n", `{"id": "a", "id": "b"}`, `{"ID": "a"}`, `{"\u0069d": "a", "text": "\"}"}`,
		`{"id": "a", "x": {"id": [1, "}"]}}`, `{"id": "  "}`, `[{"id": "a"}]{}`, `{"id": "a"`, "\xff",
	} {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	s := &Server{o: Options{MaxBatch: 10}.withDefaults()}
	f.Fuzz(func(t *testing.T, body string, lines bool) {
		ctype := "application/json"
		if lines {
			ctype = "application/x-ndjson"
		}
		for _, needID := range []bool{true, false} {
			r := httptest.NewRequest("POST", "/v1/query", strings.NewReader(body))
			r.Header.Set("Content-Type", ctype)
			docs, err := s.readDocs(r, needID, bodyLimit{1 << 20, "--max-query-bytes"})
			var ae *apiError
			switch {
			case err != nil && (!errors.As(err, &ae) || ae.Status < 400 || ae.Status > 499 || ae.Msg == ""):
				t.Fatalf("%q: %v, want a client error", body, err)
			case err != nil:
				continue
			case len(docs) == 0 || len(docs) > 10:
				t.Fatalf("%q: %d documents", body, len(docs))
			}
			for _, d := range docs {
				if field, why := d.UnstorableField(); field != "" {
					t.Fatalf("%q: document %q taken though its %s %s", body, d.ID, field, why)
				}
				if strings.TrimSpace(d.ID) == "" || !utf8.ValidString(d.ID) {
					t.Fatalf("%q: id %q taken", body, d.ID)
				}
				// What was taken names each key once, in lower case.
				if err := checkKeys(d.Raw); err != nil {
					t.Fatalf("%q: taken, though %v", body, err)
				}
				if !json.Valid(d.Raw) {
					t.Fatalf("%q: raw %q not JSON", body, d.Raw)
				}
			}
		}
	})
}

// FuzzQueryString reads query strings as the read routes do: never a
// panic, and a refusal is a 400 naming a parameter or the query string.
func FuzzQueryString(f *testing.F) {
	for _, seed := range []string{"", "limit=10&offset=20", "source=bbc&since=2024-05-01&until=2024-05-02&label=duplicate",
		"limit=1&limit=2", "q=%zz", "min_size=3", "label=%ff", "since=2024-05-01T12:00:00Z", "offset=-1", "x=1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r := &http.Request{URL: &url.URL{Path: "/v1/clusters", RawQuery: raw}}
		q, err := params(r, "source", "since", "until", "label", "min_size", "limit", "offset")
		if err == nil {
			if _, err = docFilter(q); err == nil {
				var pg neardup.Page
				if pg, err = page(q); err == nil && (pg.Limit < 1 || pg.Limit > neardup.MaxPage || pg.Offset < 0 || pg.Offset > maxOffset) {
					t.Fatalf("%q: page %+v", raw, pg)
				}
			}
		}
		var ae *apiError
		if err != nil && (!errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Msg == "") {
			t.Fatalf("%q: %v, want a 400", raw, err)
		}
	})
}
