package enginetest

import (
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// Indexer is what AddRemove drives of a method: its sketching and
// matching stages.
type Indexer[S any, E core.Evidence] interface {
	engine.Sketching[S]
	engine.Matching[S, E]
}

// AddRemove feeds m keep, then gone, then later, as a Live index does: each
// document is sketched, added, matched against the documents indexed before
// it (its Source the sketches made, as a Live index's cache holds those it
// indexed) and indexed; every other one of gone is only matched, as a query is,
// and each of gone is then removed with the index part of its sketch as an
// index reads it back. After each of later is indexed, each is called with
// its place i in later, its ordinal, the ids of every ordinal so far and
// the pairs it matched (A the other's ordinal, B its own), in the order
// Match emitted them. It is the set-up of the tests that removing documents
// leaves a method's statistics as if they were never added.
func AddRemove[S any, E core.Evidence](t testing.TB, m Indexer[S, E], keep, gone, later []core.Document, each func(i int, ord int32, ids []string, fs []engine.Found[E])) {
	t.Helper()
	sk := m.NewSketcher()
	var ids []string
	var fs []engine.Found[E]
	var src Sketches[S]
	step := func(d *core.Document, index bool) (int32, *S) {
		ord := int32(len(ids))
		ids = append(ids, d.ID)
		s, _ := sk.Sketch(d)
		src = append(src, s)
		enc := m.AppendIndex(nil, s)
		m.Add(ord, s)
		fs = fs[:0]
		m.Match(ord, s, src, func(other int32, score float64, ev E) {
			fs = append(fs, engine.Found[E]{A: other, B: ord, Score: score, Ev: ev})
		})
		if index {
			m.Index(ord, s)
		}
		decoded, err := m.DecodeIndex(enc)
		if err != nil {
			t.Fatal(err)
		}
		return ord, decoded
	}
	for i := range keep {
		step(&keep[i], true)
	}
	for i := range gone {
		ord, s := step(&gone[i], i%2 == 0)
		m.Remove(ord, s)
	}
	for i := range later {
		ord, _ := step(&later[i], true)
		each(i, ord, ids, fs)
	}
}
