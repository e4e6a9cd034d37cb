package index_test

import (
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
)

// TestPanicRollsBackTheInMemoryIndex: an add whose caller's function
// (AddOptions.Then, Slug) panics, the panic recovered by the caller (as
// net/http recovers a handler's), stores nothing and leaves nothing of its
// documents in the in-memory index: the same documents added again are
// added, no copies of themselves, and the index verifies clean.
// Regression: the documents rolled back stayed in memory, counted by Len,
// and the next add of the same text was marked a duplicate of itself (a
// mark "out of the order of adds", a cluster of one).
func TestPanicRollsBackTheInMemoryIndex(t *testing.T) {
	tests := []struct {
		name string
		o    index.AddOptions
	}{
		{"Then", index.AddOptions{Then: func(store.FeedWriter, []index.Match) error { panic("bug in the feed code") }}},
		{"Slug", index.AddOptions{Exact: true, Slug: func(u string) string {
			if u == "https://site.example/b" {
				panic("bug in the slug code")
			}
			return ""
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachEngine(t, 31, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
				add(t, x, enginetest.Doc("old", g.Sentences(8)))
				docs := []core.Document{enginetest.Doc("a", g.Sentences(8)), enginetest.Doc("b", g.Sentences(8))}
				docs[0].URL, docs[1].URL = "https://site.example/a", "https://site.example/b"
				func() {
					defer func() {
						if recover() == nil {
							t.Fatal("the add did not panic")
						}
					}()
					x.Add(t.Context(), docs, tt.o)
				}()
				if n := x.Len(); n != 1 {
					t.Errorf("Len after the add rolled back = %d, want 1", n)
				}
				for _, m := range add(t, x, docs...) {
					if m.Status != index.Added || len(m.Pairs) != 0 {
						t.Errorf("added again: %+v; want added with no matches", m)
					}
				}
				if n := x.Len(); n != 3 {
					t.Errorf("Len = %d, want 3", n)
				}
				f, err := x.Verify(t.Context(), nil)
				if err != nil || f.Total != 0 {
					t.Errorf("verify: %v %v", f.List, err)
				}
			})
		})
	}
}
