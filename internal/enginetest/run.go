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
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// Batch runs a batch of the method over docs and returns its pairs by
// "a~b".
func Batch(t testing.TB, spec engine.Spec, c engine.Config, docs []core.Document) map[string]core.Pair {
	t.Helper()
	b, err := spec.NewBatch(c, "")
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
	for i := range docs { // the second reading of a batch run
		if b.NeedsText(i) {
			b.Explain(i, &docs[i])
		}
	}
	return byKey(b.Result().Pairs)
}

func byKey(pairs []core.Pair) map[string]core.Pair {
	got := map[string]core.Pair{}
	for _, p := range pairs {
		got[p.A+"~"+p.B] = p
	}
	return got
}

// OpenIndex opens an index of the method in a new SQLite file of the test.
func OpenIndex(t testing.TB, spec engine.Spec, c engine.Config) *engine.Index {
	t.Helper()
	return OpenAt(t, storetest.DSN(t, "sqlite"), spec, c)
}

// OpenAt opens the index at dsn, closed when t ends.
func OpenAt(t testing.TB, dsn string, spec engine.Spec, c engine.Config) *engine.Index {
	t.Helper()
	x, err := engine.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{spec}, engine.OpenOptions{Method: c})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// Incremental adds docs to a new index of the store engine in chunks of the
// given size (0: all at once) and returns the pairs reported.
func Incremental(t testing.TB, storeEngine string, spec engine.Spec, c engine.Config, docs []core.Document, chunk int) map[string]core.Pair {
	t.Helper()
	return AddAll(t, OpenAt(t, storetest.DSN(t, storeEngine), spec, c), docs, chunk)
}

// AddAll adds docs to x in chunks of the given size (0: all at once) and
// returns the pairs reported.
func AddAll(t testing.TB, x *engine.Index, docs []core.Document, chunk int) map[string]core.Pair {
	t.Helper()
	if chunk <= 0 {
		chunk = len(docs)
	}
	got := map[string]core.Pair{}
	for lo := 0; lo < len(docs); lo += chunk {
		outs, err := x.Add(t.Context(), docs[lo:min(lo+chunk, len(docs))], engine.AddOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			maps.Copy(got, byKey(o.Pairs))
		}
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
