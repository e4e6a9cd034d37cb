package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
)

// TestApart: replacing requests are stored together unless one gives an
// id an earlier one gives, so that a document is superseded only by a later
// one of its own request.
func TestApart(t *testing.T) {
	reqOf := func(ids string) *addReq {
		r := &addReq{replace: true}
		for _, id := range strings.Fields(ids) {
			r.docs = append(r.docs, core.Document{ID: id})
		}
		return r
	}
	for _, tc := range []struct {
		name string
		reqs []string // each request's ids
		want [][]int  // the runs, by request
	}{
		{"none", nil, nil},
		{"one", []string{"a b"}, [][]int{{0}}},
		{"an id twice in one request", []string{"a a", "b"}, [][]int{{0, 1}}},
		{"apart", []string{"a", "b", "c d"}, [][]int{{0, 1, 2}}},
		{"an id of an earlier request", []string{"a b", "c", "b"}, [][]int{{0, 1}, {2}}},
		{"the next run starts anew", []string{"a", "a", "b", "a"}, [][]int{{0}, {1, 2}, {3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reqs []*addReq
			for _, ids := range tc.reqs {
				reqs = append(reqs, reqOf(ids))
			}
			var got [][]int
			for _, run := range apart(reqs) {
				var is []int
				for _, r := range run {
					is = append(is, slices.Index(reqs, r))
				}
				got = append(got, is)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
