// Package indextest gives tests an index of a method on a real store (a
// SQLite file of the test, or a schema of the test PostgreSQL server) and
// holds the conformance suite every detection method passes, batch against
// index, on both engines. The engine's tests run the suite for every method
// (internal/engine/conformance_test.go), so that the methods' own tests need
// not link the database drivers.
package indextest

import (
	"maps"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// OpenIndex opens an index of the method in a new SQLite file of the test.
func OpenIndex(t testing.TB, spec engine.Spec, c engine.Config) *index.Index {
	t.Helper()
	return OpenAt(t, storetest.DSN(t, "sqlite"), spec, c)
}

// OpenAt opens the index at dsn, closed when t ends.
func OpenAt(t testing.TB, dsn string, spec engine.Spec, c engine.Config) *index.Index {
	t.Helper()
	x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{spec}, index.OpenOptions{Method: c})
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
func AddAll(t testing.TB, x *index.Index, docs []core.Document, chunk int) map[string]core.Pair {
	t.Helper()
	if chunk <= 0 {
		chunk = len(docs)
	}
	got := map[string]core.Pair{}
	for lo := 0; lo < len(docs); lo += chunk {
		outs, err := x.Add(t.Context(), docs[lo:min(lo+chunk, len(docs))], index.AddOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			maps.Copy(got, enginetest.ByKey(o.Pairs))
		}
	}
	return got
}
