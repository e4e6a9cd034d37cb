package enginetest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// Batch runs a batch of the method over docs and returns its pairs by
// "a~b".
func Batch(t testing.TB, spec engine.Spec, c engine.Config, docs []core.Document) map[string]core.Pair {
	t.Helper()
	b, err := spec.NewBatch(c, "")
	if err != nil {
		t.Fatal(err)
	}
	Feed(t, b, docs)
	for i := range docs { // the second reading of a batch run
		if b.NeedsText(i) {
			b.Explain(i, &docs[i])
		}
	}
	return ByKey(b.Result().Pairs)
}

// Feed adds docs to b, each sketched by b's own sketcher, and finishes it.
func Feed(t testing.TB, b engine.Batch, docs []core.Document) {
	t.Helper()
	sk := b.NewSketcher()
	for i := range docs {
		if err := b.Add(&docs[i], sk.Sketch(&docs[i])); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
}

// ByKey returns pairs by "a~b".
func ByKey(pairs []core.Pair) map[string]core.Pair {
	got := map[string]core.Pair{}
	for _, p := range pairs {
		got[p.A+"~"+p.B] = p
	}
	return got
}

// Summary renders pairs with their evidence, in key order.
func Summary(pairs map[string]core.Pair) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(pairs)) {
		p := pairs[k]
		ev, _ := json.Marshal(p.Evidence)
		fmt.Fprintf(&b, "%s %s %.4f %s\n", k, p.Label, p.Score, ev)
	}
	return b.String()
}

// Decisions keeps only the labels of pairs.
func Decisions(pairs map[string]core.Pair) map[string]core.Pair {
	out := map[string]core.Pair{}
	for k, p := range pairs {
		out[k] = core.Pair{A: p.A, B: p.B, Label: p.Label}
	}
	return out
}
