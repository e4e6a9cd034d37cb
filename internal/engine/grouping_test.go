package engine_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/indextest"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// runBatch runs a minhash batch with grouping g.
func runBatch(t *testing.T, g engine.Grouping, docs []core.Document) *engine.Result {
	t.Helper()
	b, err := minhash.Spec.NewBatchWith(minhash.Defaults(), g)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Feed(t, b, docs)
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

// windowDocs are one text dated three ways and undated.
func windowDocs() []core.Document {
	text := strings.Join(enginetest.NewTextGen(5).Sentences(12), " ")
	day := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	return []core.Document{
		{ID: "a", Text: text, Date: day},
		{ID: "b", Text: text, Date: day.Add(36 * time.Hour)},
		{ID: "c", Text: text, Date: day.Add(5 * 24 * time.Hour)},
		{ID: "undated", Text: text},
	}
}

func TestWindowLimitsCandidates(t *testing.T) {
	docs := windowDocs()
	verified := func(window time.Duration) int {
		b, err := minhash.Spec.NewBatchWith(minhash.Defaults(), engine.Grouping{Window: window})
		if err != nil {
			t.Fatal(err)
		}
		enginetest.Feed(t, b, docs)
		return b.Stats().Candidates
	}
	// Every pair of the four is a candidate; a~c and b~c lie outside three
	// days and are ruled out before verification.
	if all, within := verified(0), verified(3*24*time.Hour); all != 6 || within != 4 {
		t.Errorf("candidates verified: %d without a window, %d with 3 days; want 6 and 4", all, within)
	}
}

func TestWindowReadsStoredDates(t *testing.T) {
	docs := windowDocs()
	dsn := storetest.DSN(t, "sqlite")
	x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{minhash.Spec}, index.OpenOptions{Method: minhash.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	indextest.AddAll(t, x, docs[:2], 0)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopened, the index knows a and b from the store only: their dates
	// are read from it, so c (5 days after a, 84 hours after b) pairs with
	// neither under a window of 3 days.
	y := indextest.OpenAt(t, dsn, minhash.Spec, minhash.Defaults())
	y.SetWindow(3 * 24 * time.Hour)
	got := indextest.AddAll(t, y, docs[2:], 1)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, " ") != "a~undated b~undated c~undated" {
		t.Errorf("pairs %v, want a~undated b~undated c~undated", keys)
	}
}

// EachResult reuses one cluster's memory for the next; Result keeps copies,
// so every cluster it returns is the one EachResult passed, untouched by
// the clusters after it.
func TestResultKeepsEveryCluster(t *testing.T) {
	var docs []core.Document
	for s := range 4 {
		text := strings.Join(enginetest.NewTextGen(uint64(20+s)).Sentences(12), " ")
		for c := range s + 2 {
			docs = append(docs, core.Document{ID: string(rune('a'+s)) + string(rune('0'+c)), Text: text})
		}
	}
	b, err := minhash.Spec.NewBatchWith(minhash.Defaults(), engine.Grouping{})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Feed(t, b, docs)
	var seen []string
	err = b.EachResult(func(*core.Pair) error { return nil }, func(c *core.Cluster) error {
		seen = append(seen, c.Representative+" "+strings.Join(c.Members, ",")+" "+strings.Join(c.Joined, "; "))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, c := range b.Result().Clusters {
		kept = append(kept, c.Representative+" "+strings.Join(c.Members, ",")+" "+strings.Join(c.Joined, "; "))
	}
	if len(seen) != 4 || !slices.Equal(kept, seen) {
		t.Errorf("Result's clusters\n%q\nEachResult's\n%q", kept, seen)
	}
	if len(seen) > 0 && !strings.HasPrefix(seen[3], "d0 d0,d1,d2,d3,d4 first member; duplicate of d0 (1)") {
		t.Errorf("last cluster %q", seen[3])
	}
}
