package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/indextest"
	"github.com/neardup/neardup/method/minhash"
)

// runBatch runs a minhash batch with grouping g.
func runBatch(t *testing.T, g engine.Grouping, docs []core.Document) *engine.Result {
	t.Helper()
	b, err := minhash.Spec.NewBatchWith(minhash.Defaults(), g)
	if err != nil {
		t.Fatal(err)
	}
	sk := b.NewSketcher()
	for i := range docs {
		if err := b.Add(&docs[i], sk.Sketch(&docs[i])); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return b.Result()
}

func TestWindow(t *testing.T) {
	text := strings.Join(enginetest.NewTextGen(5).Sentences(12), " ")
	day := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	docs := []core.Document{
		{ID: "a", Text: text, Date: day},
		{ID: "b", Text: text, Date: day.Add(36 * time.Hour)},
		{ID: "c", Text: text, Date: day.Add(5 * 24 * time.Hour)},
		{ID: "undated", Text: text},
	}
	for _, tc := range []struct {
		window time.Duration
		want   string
	}{
		{0, "a~b a~c b~c a~undated b~undated c~undated"},
		{3 * 24 * time.Hour, "a~b a~undated b~undated c~undated"}, // b and c are 84 h apart
		{24 * time.Hour, "a~undated b~undated c~undated"},
	} {
		res := runBatch(t, engine.Grouping{Window: tc.window}, docs)
		var got []string
		for _, p := range res.Pairs {
			got = append(got, p.A+"~"+p.B)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("window %v: pairs %v, want %s", tc.window, got, tc.want)
		}
	}
}

func TestLinkingInClusters(t *testing.T) {
	text := strings.Join(enginetest.NewTextGen(6).Sentences(12), " ")
	docs := []core.Document{{ID: "a", Text: text}, {ID: "b", Text: text}}
	res := runBatch(t, engine.Grouping{Link: cluster.Majority}, docs)
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters %+v, want one", res.Clusters)
	}
	c := res.Clusters[0]
	if c.Linking != "majority" || strings.Join(c.Joined, "; ") != "first member; duplicate of 1 of 1 members, best a (1)" {
		t.Errorf("linking %q, joined %q", c.Linking, c.Joined)
	}
}

func TestWindowIncremental(t *testing.T) {
	text := strings.Join(enginetest.NewTextGen(5).Sentences(12), " ")
	day := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	docs := []core.Document{
		{ID: "a", Text: text, Date: day},
		{ID: "b", Text: text, Date: day.Add(36 * time.Hour)},
		{ID: "c", Text: text, Date: day.Add(5 * 24 * time.Hour)},
		{ID: "undated", Text: text},
	}
	window := 3 * 24 * time.Hour
	x := indextest.OpenIndex(t, minhash.Spec, minhash.Defaults())
	x.SetWindow(window)
	got := enginetest.Summary(indextest.AddAll(t, x, docs, 2))
	res := runBatch(t, engine.Grouping{Window: window}, docs)
	want := map[string]core.Pair{}
	for _, p := range res.Pairs {
		want[p.A+"~"+p.B] = p
	}
	if got != enginetest.Summary(want) {
		t.Errorf("incremental with a window:\n%s\nbatch:\n%s", got, enginetest.Summary(want))
	}
}
