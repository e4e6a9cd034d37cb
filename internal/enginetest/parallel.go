package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// Crowded returns Copies of 300 documents and 60 copies of one story, half
// of them with one sentence changed, shuffled: a corpus whose candidate
// buckets fill past a bucket limit.
func Crowded() []core.Document {
	g := NewTextGen(5)
	docs := Copies(g, 300, 8)
	story := g.Sentences(10)
	for i := range 60 {
		s := slices.Clone(story)
		if i%2 == 1 {
			s[i%len(s)] = g.Sentence()
		}
		docs = append(docs, Doc(fmt.Sprint("s", i), s))
	}
	rand.New(rand.NewPCG(2, 2)).Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	return docs
}

// Sketches is a Source over sketches held in memory.
type Sketches[S any] []*S

// Sketch returns the sketch of document ord.
func (s Sketches[S]) Sketch(ord int32) (*S, error) { return s[ord], nil }

// ParallelIsSerial checks the promise of a method's engine.Parallel stage: parallel's
// matchers over the index IndexAll builds, matching the documents in a
// random order, find exactly what serial finds matching and indexing one
// document after another (the same candidates with the same scores, in the
// same order). The two methods are built alike; ss and ps are two
// sketchings of the same documents, as matching may drop parts of a
// sketch. Every document is added to both first, as a Batch adds them. It
// returns how many candidates were found, for the caller to check that
// the test found enough.
func ParallelIsSerial[S any, E core.Evidence](t testing.TB, serial, parallel engine.Method[S, E], ss, ps []*S, seed uint64) int {
	t.Helper()
	type found struct {
		a, b  int32
		score float64
	}
	pm := parallel.Parallel
	if pm == nil {
		t.Fatal("the method has no Parallel stage")
	}
	for ord := range ss {
		serial.Add(int32(ord), ss[ord])
		parallel.Add(int32(ord), ps[ord])
	}
	var want []found
	for ord, s := range ss {
		if s == nil {
			continue
		}
		if err := serial.Match(int32(ord), s, Sketches[S](ss), func(c int32, score float64, _ E) {
			want = append(want, found{c, int32(ord), score})
		}); err != nil {
			t.Fatal(err)
		}
		serial.Index(int32(ord), s)
	}
	if err := pm.IndexAll(context.Background(), ps, nil); err != nil {
		t.Fatal(err)
	}
	got := make([][]found, len(ps))
	mt := pm.NewMatcher()
	for _, ord := range rand.New(rand.NewPCG(1, seed)).Perm(len(ps)) {
		if ps[ord] == nil {
			continue
		}
		if err := mt.Match(int32(ord), ps[ord], Sketches[S](ps), func(c int32, score float64, _ E) {
			got[ord] = append(got[ord], found{c, int32(ord), score})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if flat := slices.Concat(got...); !slices.Equal(want, flat) {
		t.Errorf("serial matching found %d candidates, parallel %d, not the same", len(want), len(flat))
	}
	return len(want)
}
