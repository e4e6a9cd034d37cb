package lsh

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/similarity"
)

// doc is a sketch of the test: a sample and band keys.
type doc struct {
	set  []uint32
	keys []uint32
}

type evidence struct{ similarity.SetScores }

func (evidence) Method() string { return "test" }

type docs []*doc

func (d docs) Sketch(ord int32) (*doc, error) { return d[ord], nil }

func newTable() *Table[doc, evidence] {
	return New(Banding[doc, evidence]{
		Keys:     func(dst []uint32, s *doc) []uint32 { return append(dst, s.keys...) },
		Sample:   func(s *doc) ([]uint32, uint32) { return s.set, ^uint32(0) },
		Evidence: func(_ int32, _, _ *doc, sets similarity.SetScores) evidence { return evidence{sets} },
		Bounds:   Bounds{Threshold: 0.5, Containment: 2},
	})
}

// randomDocs returns n documents drawn from a few stories: documents of a
// story share a band key and most of a sample, and a few share a key by
// chance with documents of other stories.
func randomDocs(n int) docs {
	r := rand.New(rand.NewPCG(1, 2))
	var out docs
	for i := range n {
		story := uint32(r.IntN(8))
		var set []uint32
		for w := range 40 {
			if r.IntN(10) < 8 {
				set = append(set, story<<16|uint32(w))
			} else {
				set = append(set, 1<<31|uint32(i)<<8|uint32(w))
			}
		}
		slices.Sort(set)
		out = append(out, &doc{set: set, keys: []uint32{story, uint32(r.IntN(3)) + 100}})
	}
	return out
}

type pair struct {
	a, b  int32
	score float64
}

// TestTableFindsWhatBruteForceDoes: matching each document against those
// indexed before it emits exactly the pairs that share a band key and
// reach the bounds, in increasing order of the earlier document, and
// counts the others sharing a key as settled; a removed document is no
// candidate.
func TestTableFindsWhatBruteForceDoes(t *testing.T) {
	ds := randomDocs(200)
	var want []pair
	settled := 0
	for b := range ds {
		for a := range b {
			if !slices.ContainsFunc(ds[a].keys, func(k uint32) bool { return slices.Contains(ds[b].keys, k) }) {
				continue
			}
			sc := similarity.Scores(ds[a].set, ds[b].set)
			if sc.Jaccard >= 0.5 {
				want = append(want, pair{int32(a), int32(b), sc.Jaccard})
			} else {
				settled++
			}
		}
	}
	x := newTable()
	var got []pair
	for b := range ds {
		err := x.Match(int32(b), ds[b], ds, func(a int32, score float64, _ evidence) { got = append(got, pair{a, int32(b), score}) })
		if err != nil {
			t.Fatal(err)
		}
		x.Index(int32(b), ds[b])
	}
	if !slices.Equal(got, want) {
		t.Errorf("found %d pairs, brute force %d: not the same", len(got), len(want))
	}
	if x.Settled() != settled {
		t.Errorf("settled %d, want %d", x.Settled(), settled)
	}
	if len(want) < 100 || settled < 100 {
		t.Errorf("%d pairs and %d settled: too few to test", len(want), settled)
	}
	x.Remove(0, ds[0])
	for _, c := range x.Candidates(nil, ds[0]) {
		if c == 0 {
			t.Error("a removed document is a candidate")
		}
	}
}
