package dedup

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCopiesFn: of a set of copies given in any order, the bucket limit's
// lowest ordinals go into their buckets with their keys, and every other is
// counted, and paired with the lowest alone when it searches.
func TestCopiesFn(t *testing.T) {
	const n, limit = 200, 3
	r := rand.New(rand.NewPCG(1, 2))
	ords := r.Perm(n)
	var in []keyed
	for _, o := range ords {
		in = append(in, keyed{Member: member{Ord: int64(100 + o), Searches: o != n-1}, Keys: []uint32{uint32(o), uint32(o + 1000)}})
	}
	next := 0
	docs := func(k *keyed) bool {
		if next == len(in) {
			return false
		}
		*k = in[next]
		next++
		return true
	}
	bucketed := map[int64][]uint32{}
	var paired [][2]int64
	counted := 0
	fn := &copiesFn{Limit: limit}
	fn.ProcessElement("", docs, func(key int64, m member) { bucketed[m.Ord] = append(bucketed[m.Ord], uint32(key)) },
		func(later, earlier int64) { paired = append(paired, [2]int64{later, earlier}) },
		func(name string, c int64) {
			if name == countCopies {
				counted += int(c)
			}
		})
	for o := range int64(limit) {
		if keys := bucketed[100+o]; !slices.Equal(keys, []uint32{uint32(o), uint32(o + 1000)}) {
			t.Errorf("ordinal %d in buckets %v, want its two keys", 100+o, keys)
		}
	}
	if len(bucketed) != limit {
		t.Errorf("%d documents in buckets, want %d", len(bucketed), limit)
	}
	// the last does not search: counted, not paired
	if len(paired) != n-limit-1 || counted != n-limit {
		t.Fatalf("%d pairs, %d counted, want %d and %d", len(paired), counted, n-limit-1, n-limit)
	}
	for _, p := range paired {
		if p[1] != 100 || p[0] < 100+limit || p[0] == 100+n-1 {
			t.Errorf("pair %v, want (a later copy, 100)", p)
		}
	}
}
