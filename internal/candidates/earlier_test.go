package candidates

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// serialEarlier is what a batch matching one document after another
// finds: each document visits its keys' buckets among the documents
// before it, then adds its keys; the candidates sorted, each once.
func serialEarlier(keys [][]uint32, limit int, searches func(int32) bool) [][]int32 {
	var p Postings
	want := make([][]int32, len(keys))
	for d, ks := range keys {
		if searches(int32(d)) {
			var got []int32
			for _, k := range ks {
				p.Visit(uint64(k), limit, func(c int32) { got = append(got, c) })
			}
			slices.Sort(got)
			want[d] = slices.Compact(got)
		}
		for _, k := range ks {
			p.Add(uint64(k), int32(d))
		}
	}
	return want
}

// TestEarlierIsSerial pins that Earlier gives every document the
// candidates it would visit matching one document after another, capped
// or not, however the postings are split into parts: documents without
// keys, with a key twice, in crowded buckets, and not searching.
func TestEarlierIsSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const docs = 30000 // above partRecords postings: grouped in parts
	keys := make([][]uint32, docs)
	n := 0
	for d := range keys {
		for range r.IntN(5) { // some documents have no key
			k := uint32(r.IntN(2000))
			if r.IntN(50) == 0 {
				k = uint32(r.IntN(3)) // crowded buckets
			}
			keys[d] = append(keys[d], k)
		}
		if len(keys[d]) > 0 && r.IntN(20) == 0 {
			keys[d] = append(keys[d], keys[d][0]) // a key twice
		}
		n += len(keys[d])
	}
	searches := func(d int32) bool { return d%11 != 3 }
	for _, limit := range []int{0, 1, 2, 5, 32} {
		want := serialEarlier(keys, limit, searches)
		for _, parts := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("limit %d, %d parts", limit, parts), func(t *testing.T) {
				e, err := NewEarlier(t.Context(), n, docs, parts, limit, searches, func(part int, yield func(uint32, int32)) {
					for d := part * docs / parts; d < (part+1)*docs/parts; d++ {
						for _, k := range keys[d] {
							yield(k, int32(d))
						}
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				total := 0
				for d := range keys {
					got := e.Append(nil, int32(d))
					if !slices.Equal(want[d], got) {
						t.Fatalf("document %d (-want +got)\n%s", d, cmp.Diff(want[d], got))
					}
					total += len(got)
				}
				if e.Len() != total {
					t.Errorf("Len %d, the documents' candidates %d", e.Len(), total)
				}
			})
		}
	}
}

// TestEarlierEmpty checks a batch without postings, and documents past
// those given.
func TestEarlierEmpty(t *testing.T) {
	e, err := NewEarlier(t.Context(), 0, 3, 2, 32, func(int32) bool { return true }, func(int, func(uint32, int32)) {})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Append(nil, 2); got != nil {
		t.Errorf("candidates %v of a batch without postings", got)
	}
	if got := e.Append(nil, 5000); got != nil {
		t.Errorf("candidates %v of a document past the batch", got)
	}
}

// TestEarlierCancelled: NewEarlier stops at a context cancelled while its
// postings are yielded, whether each stops short or not, returning the
// context's error rather than candidates (or the panic of a count that
// does not add up).
func TestEarlierCancelled(t *testing.T) {
	const docs = 5000
	for _, stopShort := range []bool{false, true} {
		ctx, cancel := context.WithCancel(t.Context())
		yielded := 0
		e, err := NewEarlier(ctx, 2*docs, docs, 1, 32, func(int32) bool { return true }, func(_ int, yield func(uint32, int32)) {
			for d := range docs {
				if d == docs/2 {
					cancel()
				}
				if stopShort && ctx.Err() != nil {
					return
				}
				yield(uint32(d%100), int32(d))
				yield(uint32(d%37)+1000, int32(d))
				yielded++
			}
		})
		if !errors.Is(err, context.Canceled) || e != nil {
			t.Errorf("stopping short %v: %v, %v; want no candidates and context.Canceled", stopShort, e, err)
		}
		if want := docs; !stopShort && yielded != want || stopShort && yielded != docs/2 {
			t.Errorf("stopping short %v: %d documents yielded", stopShort, yielded)
		}
	}
}

func BenchmarkEarlier(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const docs = 100_000
	keys := make([]uint32, 26*docs)
	for i := range keys {
		keys[i] = r.Uint32() >> 10 // about 4 documents a key
	}
	all := func(int32) bool { return true }
	for b.Loop() {
		NewEarlier(b.Context(), len(keys), docs, 2, 32, all, func(part int, yield func(uint32, int32)) {
			for i := part * len(keys) / 2; i < (part+1)*len(keys)/2; i++ {
				yield(keys[i], int32(i/26))
			}
		})
	}
}
