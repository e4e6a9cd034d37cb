package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store/storetest"
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

// countingIndex is an index that counts its adds.
type countingIndex struct {
	Index
	adds atomic.Int32
}

func (c *countingIndex) AddSketched(ctx context.Context, docs []core.Document, sks []neardup.Sketch, o neardup.AddOptions) ([]neardup.Match, error) {
	c.adds.Add(1)
	return c.Index.AddSketched(ctx, docs, sks, o)
}

// TestAdderAnswersALockedIndexAtOnce: a batch that fails because another
// process holds the index's writer lock past the wait is answered with
// that error, every request of it, after one wait; it was tried again a
// request at a time, each waiting as long again (a queue of requests
// behind a long rescore held the adder for its length times theirs). A
// batch that fails for one request's documents is still tried apart.
func TestAdderAnswersALockedIndexAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	nx, err := neardup.Open(t.Context(), path, neardup.Options{LockWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer nx.Close()
	x := &countingIndex{Index: nx}
	a := &adder{x: x}
	reqOf := func(id, text string) *addReq {
		d := core.Document{ID: id, Text: text}
		return &addReq{docs: []core.Document{d}, sks: []neardup.Sketch{nx.NewSketcher().Sketch(&d)}, out: make(chan addAnswer, 1)}
	}
	text := func(i int) string {
		return fmt.Sprintf("Story %d: the harbour authority said on Monday that the new quay would open in spring, after three years of work.", i)
	}

	release := storetest.HoldWriteLock(t, path)
	reqs := []*addReq{reqOf("a", text(1)), reqOf("b", text(2)), reqOf("c", text(3))}
	a.commit(reqs, false)
	if n := x.adds.Load(); n != 1 {
		t.Errorf("a locked index: %d adds, want 1", n)
	}
	for _, r := range reqs {
		if ans := <-r.out; !errors.Is(ans.err, neardup.ErrLocked) {
			t.Errorf("request %s: %v, want ErrLocked", r.docs[0].ID, ans.err)
		}
	}
	// A batch of plain and replacing requests, the replacing in two runs
	// (one id given twice): one wait for the whole batch.
	x.adds.Store(0)
	b := &adder{x: x, maxDocs: 500, reqs: make(chan *addReq, 4), done: make(chan struct{})}
	reqs = []*addReq{reqOf("a", text(1)), reqOf("b", text(2)), reqOf("b", text(3))}
	reqs[1].replace, reqs[2].replace = true, true
	for _, r := range reqs {
		b.reqs <- r
	}
	close(b.reqs)
	b.run()
	if n := x.adds.Load(); n != 1 {
		t.Errorf("a locked index, a batch of three runs: %d adds, want 1", n)
	}
	for _, r := range reqs {
		if ans := <-r.out; !errors.Is(ans.err, neardup.ErrLocked) {
			t.Errorf("request %s: %v, want ErrLocked", r.docs[0].ID, ans.err)
		}
	}
	release()

	// A request whose text holds a NUL: the batch fails for its
	// documents, and each request is tried alone.
	x.adds.Store(0)
	reqs = []*addReq{reqOf("d", text(4)), reqOf("e", "\x00"+text(5))}
	a.commit(reqs, false)
	if n := x.adds.Load(); n != 3 {
		t.Errorf("a batch failing for its documents: %d adds, want 3 (the batch, then each request)", n)
	}
	if ans := <-reqs[0].out; ans.err != nil {
		t.Errorf("the request of storable documents: %v", ans.err)
	}
	if ans := <-reqs[1].out; ans.err == nil {
		t.Error("the request of a NUL: stored")
	}
}
