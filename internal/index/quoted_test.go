package index_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/sentences"
)

// TestReplacedPairQuotesAsDedup: a sentences pair of a new version (Replace),
// placed where the version it replaced stood, before a document stored
// since, quotes the sentences they share from that later-placed document,
// in its order, as dedup of the two in place order quotes them; the add's
// report, a query of the new version as stored, the export and the
// document's page show that pair alike.
// Regression: the new version, stored last, was quoted, in its own order.
func TestReplacedPairQuotesAsDedup(t *testing.T) {
	g, story, reordered := eightSentences()
	w := enginetest.Doc("W", story)
	c := enginetest.Doc("C", reordered(7, 6, 5, 4, 3, 2, 1, 0))
	w2 := enginetest.Doc("W", append(reordered(2, 0, 4, 1, 6, 3, 7, 5), g.Sentence()))
	o := sentences.Defaults()

	batch := enginetest.Batch(t, sentences.Spec, o, []core.Document{w2, c}) // in place order: W2 where W stood
	want, ok := batch["W~C"]
	if !ok {
		t.Fatalf("dedup of W2 and C pairs them not as W~C: %v", batch)
	}
	quoted := want.Evidence.(sentences.Evidence).Sentences
	if len(quoted) < 2 || inOrderIn(w2.Text, quoted) {
		t.Fatalf("dedup quotes %q: the test needs W2 to hold them in another order", quoted)
	}
	wantEv := evidenceOf(t, want)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Method: o, StoreText: true})
			add(t, x, w, c)
			ms, err := x.Add(t.Context(), []core.Document{w2}, index.AddOptions{Replace: true})
			if err != nil || ms[0].Status != index.Replaced || len(ms[0].Pairs) != 1 {
				t.Fatalf("replacing W: %+v, %v", ms, err)
			}
			got := map[string]string{"the add's report": evidenceOf(t, ms[0].Pairs[0])}
			qs, err := x.Query(t.Context(), []core.Document{w2})
			if err != nil || qs[0].Status != index.Exists || len(qs[0].Pairs) != 1 {
				t.Fatalf("query of W as stored: %+v, %v", qs, err)
			}
			got["a query of W as stored"] = evidenceOf(t, qs[0].Pairs[0])
			var ex exportedPairs
			if _, err := x.Export(t.Context(), &ex); err != nil || len(ex) != 1 {
				t.Fatalf("export: %+v, %v", ex, err)
			}
			got["the export"] = evidenceOf(t, ex[0])
			d, err := x.Document(t.Context(), "C")
			if err != nil || len(d.Marks) != 1 {
				t.Fatalf("C's page: %+v, %v", d.Marks, err)
			}
			m := d.Marks[0]
			got["C's page"] = m.A + " " + m.B + " " + string(m.Evidence)
			for what, ev := range got {
				if diff := cmp.Diff(wantEv, ev); diff != "" {
					t.Errorf("%s quotes otherwise than dedup (-dedup +index):\n%s", what, diff)
				}
			}
		})
	}
}

// TestHeirJudgedAgainQuotesAsDedup: when a removal makes an exact copy
// the heir of its head's pairs, the pair it takes with a new version
// placed before it, judged again, quotes the sentences they share from the
// later-placed copy, in its order, as dedup of the two in place order.
// Regression: the new version, stored last, was quoted, in its own order.
func TestHeirJudgedAgainQuotesAsDedup(t *testing.T) {
	g, story, reordered := eightSentences()
	w := enginetest.Doc("W", story)
	h := enginetest.Doc("H", reordered(7, 6, 5, 4, 3, 2, 1, 0))
	hc := enginetest.Doc("Hc", reordered(7, 6, 5, 4, 3, 2, 1, 0))
	hc.Source = "H"
	w2 := enginetest.Doc("W", append(reordered(2, 0, 4, 1, 6, 3, 7, 5), g.Sentence()))
	o := sentences.Defaults()
	want, ok := enginetest.Batch(t, sentences.Spec, o, []core.Document{w2, hc})["W~Hc"] // in place order
	if !ok {
		t.Fatal("dedup of W2 and Hc pairs them not as W~Hc")
	}
	if quoted := want.Evidence.(sentences.Evidence).Sentences; len(quoted) < 2 || inOrderIn(w2.Text, quoted) {
		t.Fatalf("dedup quotes %q: the test needs W2 to hold them in another order", quoted)
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Method: o, StoreText: true})
			if _, err := x.Add(t.Context(), []core.Document{w, h, hc}, index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := x.Add(t.Context(), []core.Document{w2}, index.AddOptions{Replace: true, Exact: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := x.Remove(t.Context(), []string{"H"}); err != nil {
				t.Fatal(err)
			}
			var ex exportedPairs
			if _, err := x.Export(t.Context(), &ex); err != nil || len(ex) != 1 {
				t.Fatalf("export after H removed: %+v, %v", ex, err)
			}
			if diff := cmp.Diff(evidenceOf(t, want), evidenceOf(t, ex[0])); diff != "" {
				t.Errorf("after H removed, the export quotes otherwise than dedup (-dedup +index):\n%s", diff)
			}
		})
	}
}

// inOrderIn reports whether text holds the sentences of quoted in that
// order.
func inOrderIn(text string, quoted []string) bool {
	at := make([]int, len(quoted))
	for i, q := range quoted {
		at[i] = strings.Index(text, q)
	}
	return slices.IsSorted(at)
}

// evidenceOf returns pair p as "a b evidence".
func evidenceOf(t *testing.T, p core.Pair) string {
	t.Helper()
	ev, err := json.Marshal(p.Evidence)
	if err != nil {
		t.Fatal(err)
	}
	return p.A + " " + p.B + " " + string(ev)
}

// exportedPairs is an index.Exporter that keeps the pairs.
type exportedPairs []core.Pair

func (e *exportedPairs) Pair(p *core.Pair) error     { *e = append(*e, *p); return nil }
func (e *exportedPairs) Cluster(*core.Cluster) error { return nil }
func (e *exportedPairs) Kept(*store.Doc) error       { return nil }
func (e *exportedPairs) Rejected(*store.Doc) error   { return nil }

// eightSentences returns a story of eight sentences, the generator that
// made it (for a sentence more), and a function that returns its
// sentences in the order given.
func eightSentences() (*enginetest.TextGen, []string, func(order ...int) []string) {
	g := enginetest.NewTextGen(71)
	story := g.Sentences(8)
	return g, story, func(order ...int) []string {
		out := make([]string, len(order))
		for i, k := range order {
			out[i] = story[k]
		}
		return out
	}
}
