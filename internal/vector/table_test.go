package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTermIDsSameAsMap runs random puts, gets and removes on a termIDs and
// a map side by side. The hashes come from a small set, so runs of
// neighbouring slots form, wrap around the table's end and are cut by
// removals; some share their slot (home) and differ.
func TestTermIDsSameAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var keys []uint64
	for range 3000 {
		k := rng.Uint64()
		keys = append(keys, k, ((k*mix)^uint64(rng.IntN(1<<20)))*mixInverse()) // same slot, another hash
	}
	keys = append(keys, 0, (1<<63)*mixInverse(), ^uint64(0)*mixInverse()) // the first and last slots
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

// mixInverse returns the multiplicative inverse of mix modulo 2^64, so that
// a test can choose a hash by its slot.
func mixInverse() uint64 {
	x := uint64(mix) // correct to 3 bits: mix*mix ≡ 1 mod 8 for any odd mix
	for range 5 {
		x *= 2 - mix*x // Newton's step doubles the correct bits
	}
	return x
}

// TestTermIDsSortedRuns puts the smallest of many hashes, in increasing
// order, as a document's terms come (Counts): they spread over the table.
// With slots chosen by the hashes' own top bits, the smallest hundredth of
// all hashes fell in the table's first slots, one run that every later
// term walked to its end.
func TestTermIDsSortedRuns(t *testing.T) {
	if mix*mixInverse() != 1 {
		t.Fatalf("mixInverse: %#x is not the inverse of %#x", mixInverse(), uint64(mix))
	}
	rng := rand.New(rand.NewPCG(5, 5))
	hs := make([]uint64, 100000)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	slices.Sort(hs)
	var tab termIDs
	for i, h := range hs[:700] {
		tab.put(h, uint32(i))
	}
	longest, run := 0, 0
	for _, s := range tab.slots {
		if s.id1 == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	// 700 terms in 1,024 slots: linear probing's longest run is some
	// dozens of slots; crowded at the start, it is all 700.
	if longest > 100 {
		t.Errorf("longest run of full slots: %d among %d slots holding %d terms, want under 100", longest, len(tab.slots), tab.len())
	}
	for i, h := range hs[:700] {
		if id, ok := tab.get(h); !ok || id != uint32(i) {
			t.Fatalf("hash %d: got %d %v", i, id, ok)
		}
	}
}

// BenchmarkFieldAddLongDocument adds one document of 400,000 distinct
// terms to an empty field: its terms come in increasing hash order
// (Counts), the order that once crowded the table's first slots.
func BenchmarkFieldAddLongDocument(b *testing.B) {
	rng := rand.New(rand.NewPCG(6, 6))
	hs := make([]uint64, 400000)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	c := Count(hs)
	for b.Loop() {
		f := NewField(TFIDF, 0)
		f.Add(0, &c)
	}
}
