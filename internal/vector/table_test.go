package vector

import (
	"math/rand/v2"
	"testing"
)

// TestTermIDsSameAsMap runs random puts, gets and removes on a termIDs and
// a map side by side. The hashes come from a small set, so runs of
// neighbouring slots form, wrap around the table's end and are cut by
// removals; some share their top bits (the slot) and differ below.
func TestTermIDsSameAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var keys []uint64
	for range 3000 {
		k := rng.Uint64()
		keys = append(keys, k, k^uint64(rng.IntN(1<<20))) // same slot, another hash
	}
	keys = append(keys, 0, 1<<63, ^uint64(0)) // the first and last slots
	var tab termIDs
	ref := map[uint64]uint32{}
	for step := range 200000 {
		k := keys[rng.IntN(len(keys))]
		switch rng.IntN(3) {
		case 0:
			if _, ok := ref[k]; !ok {
				id := uint32(step)
				ref[k] = id
				tab.put(k, id)
			}
		case 1:
			delete(ref, k)
			tab.remove(k)
		}
		got, ok := tab.get(k)
		want, wantOK := ref[k]
		if ok != wantOK || got != want || tab.len() != len(ref) {
			t.Fatalf("step %d, key %#x: got %d %v (%d held), want %d %v (%d)", step, k, got, ok, tab.len(), want, wantOK, len(ref))
		}
	}
	for k, want := range ref {
		if got, ok := tab.get(k); !ok || got != want {
			t.Fatalf("key %#x: got %d %v, want %d", k, got, ok, want)
		}
	}
}
