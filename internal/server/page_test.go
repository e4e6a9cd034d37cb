package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestNext: next_offset is the offset after the page when more follows,
// never one past maxOffset, which would be refused. Regression: offset
// 99990 with limit 20 gave next_offset 100010, a 400 when followed.
func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name          string
		offset, limit int
		more          bool
		want          int
	}{
		{"last page", 0, 20, false, 0},
		{"first page", 0, 20, true, 20},
		{"next at the limit", maxOffset - 20, 20, true, maxOffset},
		{"at the limit", maxOffset, 20, true, 0},
		{"next past the limit", maxOffset - 10, 20, true, 0},
		{"past the limit by one", maxOffset - 199, 200, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := next(neardup.Page{Offset: tc.offset, Limit: tc.limit}, tc.more); got != tc.want {
				t.Errorf("next(%d, %d, %v) = %d, want %d", tc.offset, tc.limit, tc.more, got, tc.want)
			}
		})
	}
}

// endless is an index whose lists and searches have more after every
// page, as one of more than 100,000 documents has.
type endless struct{ *neardup.Index }

func (endless) Latest(context.Context, neardup.DocFilter, neardup.Page) ([]browse.Summary, bool, error) {
	return []browse.Summary{}, true, nil
}

func (endless) Clusters(context.Context, neardup.ClusterFilter, neardup.Page) ([]browse.ClusterSummary, bool, error) {
	return []browse.ClusterSummary{}, true, nil
}

func (endless) Search(_ context.Context, q string, _ neardup.Page) (browse.SearchResult, error) {
	return browse.SearchResult{Query: q, Total: 1 << 30, Ranked: 1 << 30, Hits: []browse.Hit{}}, nil
}

// TestNextOffsetWithinTheLimit: every paged route's next_offset can be
// followed; none is given once the next page would start past offset
// 100,000. Regression: GET /v1/documents?offset=99990&limit=20 gave
// next_offset 100010, and following it a 400.
func TestNextOffsetWithinTheLimit(t *testing.T) {
	x, err := neardup.Open(t.Context(), storetest.DSN(t, "sqlite"), neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(endless{x}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		s.Close()
		x.Close()
	})
	ts := &testServer{Server: s, x: x, url: hs.URL}
	for _, path := range []string{"/v1/documents?", "/v1/clusters?", "/v1/search?q=news&"} {
		for _, tc := range []struct {
			offset, limit, want int
		}{
			{0, 20, 20},
			{99980, 20, 100000},
			{99990, 20, 0},
			{100000, 1, 0},
			{99800, 200, 100000},
			{99801, 200, 0},
		} {
			p := fmt.Sprintf("%soffset=%d&limit=%d", path, tc.offset, tc.limit)
			code, data := ts.do(t, req{method: "GET", path: p})
			got := decode[struct {
				NextOffset *int `json:"next_offset"`
			}](t, data)
			switch {
			case code != 200:
				t.Errorf("%s: %d %s", p, code, data)
			case tc.want == 0 && got.NextOffset != nil:
				t.Errorf("%s: next_offset %d, want none: %s", p, *got.NextOffset, data)
			case tc.want != 0 && (got.NextOffset == nil || *got.NextOffset != tc.want):
				t.Errorf("%s: want next_offset %d: %s", p, tc.want, data)
			case tc.want != 0:
				p = fmt.Sprintf("%soffset=%d&limit=%d", path, *got.NextOffset, tc.limit)
				if code, data := ts.do(t, req{method: "GET", path: p}); code != 200 {
					t.Errorf("following next_offset, %s: %d %s", p, code, data)
				}
			}
		}
	}
}

// TestSearchNextOffset: a search gives next_offset while more ranked hits
// follow the page, on each engine. Regression: it took limit and offset
// but never said whether more followed.
func TestSearchNextOffset(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			ts := newTestServer(t, e, Options{})
			var docs []string
			for i := range 5 {
				docs = append(docs, docJSON(fmt.Sprint("z", i), append(story(uint64(10+i), 8), "Zebras crossed the road."), ""))
			}
			if code, data := ts.do(t, req{method: "POST", path: "/v1/documents", token: "ok", body: "[" + strings.Join(docs, ",") + "]"}); code != 200 {
				t.Fatalf("add: %d %s", code, data)
			}
			for _, tc := range []struct {
				offset, limit, hits, want int
			}{
				{0, 2, 2, 2},
				{2, 2, 2, 4},
				{4, 2, 1, 0},
				{0, 5, 5, 0},
				{3, 2, 2, 0},
				{9, 2, 0, 0},
			} {
				p := fmt.Sprintf("/v1/search?q=zebras&offset=%d&limit=%d", tc.offset, tc.limit)
				code, data := ts.do(t, req{method: "GET", path: p})
				got := decode[struct {
					browse.SearchResult
					NextOffset int `json:"next_offset"`
				}](t, data)
				if code != 200 || got.Ranked != 5 || len(got.Hits) != tc.hits || got.NextOffset != tc.want {
					t.Errorf("%s: %d, %d hits, next_offset %d; want %d hits, next_offset %d: %.200s", p, code, len(got.Hits), got.NextOffset, tc.hits, tc.want, data)
				}
			}
		})
	}
}
