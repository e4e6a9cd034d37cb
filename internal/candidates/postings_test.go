package candidates

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func visit(p *Postings, key uint64, limit int) []int32 {
	var got []int32
	p.Visit(key, limit, func(d int32) { got = append(got, d) })
	return got
}

func TestPostings(t *testing.T) {
	var p Postings
	if got := visit(&p, 5, 0); got != nil {
		t.Fatalf("empty table visited %v", got)
	}
	for d := int32(0); d < 5; d++ {
		p.Add(7, d)
	}
	p.Add(0, 9) // key 0 is legal
	p.Add(0, 10)
	for _, tc := range []struct {
		name  string
		key   uint64
		limit int
		want  []int32
	}{
		{"all newest first", 7, 0, []int32{4, 3, 2, 1, 0}},
		{"limit above count", 7, 10, []int32{4, 3, 2, 1, 0}},
		{"limit equal count", 7, 5, []int32{4, 3, 2, 1, 0}},
		{"capped keeps anchor", 7, 3, []int32{4, 3, 0}},
		{"cap of one is the anchor", 7, 1, []int32{0}},
		{"zero key", 0, 0, []int32{10, 9}},
		{"missing key", 8, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, visit(&p, tc.key, tc.limit)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if p.Count(7) != 5 || p.Count(0) != 2 || p.Count(8) != 0 || p.Keys() != 2 {
		t.Errorf("counts: %d %d %d keys %d", p.Count(7), p.Count(0), p.Count(8), p.Keys())
	}
}

func TestPostingsGrowKeepsEverything(t *testing.T) {
	var p Postings
	const n = 50000
	for i := 1; i <= n; i++ {
		p.Add(uint64(i)*0x9e3779b97f4a7c15, int32(i))
		if i%3 == 0 {
			p.Add(uint64(i)*0x9e3779b97f4a7c15, int32(-i))
		}
	}
	if p.Keys() != n {
		t.Fatalf("keys %d, want %d", p.Keys(), n)
	}
	for i := 1; i <= n; i++ {
		got := visit(&p, uint64(i)*0x9e3779b97f4a7c15, 0)
		want := []int32{int32(i)}
		if i%3 == 0 {
			want = []int32{int32(-i), int32(i)}
		}
		if !cmp.Equal(want, got) {
			t.Fatalf("key %d: got %v want %v", i, got, want)
		}
	}
	total := 0
	p.EachKey(func(_ uint64, c int) { total += c })
	if total != n+n/3 {
		t.Errorf("EachKey total %d", total)
	}
}

func TestPostingsVisitAdd(t *testing.T) {
	var p, q Postings
	for d := int32(0); d < 40; d++ {
		key := uint64(d % 3)
		var got, want []int32
		p.VisitAdd(key, 5, d, func(x int32) { got = append(got, x) })
		q.Visit(key, 5, func(x int32) { want = append(want, x) })
		q.Add(key, d)
		if !cmp.Equal(got, want) {
			t.Fatalf("doc %d: VisitAdd saw %v, Visit then Add %v", d, got, want)
		}
	}
}

func TestPostingsReserve(t *testing.T) {
	var p Postings
	p.Add(3, 1)
	p.Reserve(10000, 20000)
	for i := uint64(1); i <= 10000; i++ {
		p.Add(i*7919, int32(i))
	}
	if got := visit(&p, 3, 0); !cmp.Equal(got, []int32{1}) {
		t.Errorf("key added before Reserve: %v", got)
	}
	if p.Keys() != 10001 || p.Count(7919*5000) != 1 {
		t.Errorf("keys %d", p.Keys())
	}
}

func BenchmarkPostingsAdd(b *testing.B) {
	b.ReportAllocs()
	var p Postings
	i := uint64(0)
	for b.Loop() {
		i++
		p.Add(i*0x9e3779b97f4a7c15, int32(i))
	}
}

func TestPostingsRemove(t *testing.T) {
	var p Postings
	for d := int32(0); d < 5; d++ {
		p.Add(7, d)
		p.Add(0, d)
	}
	p.Add(9, 1)
	p.Remove(7, 0) // the anchor
	p.Remove(7, 3)
	p.Remove(7, 42) // absent: nothing happens
	p.Remove(0, 4)
	p.Remove(9, 1)
	var got []int32
	p.Visit(7, 0, func(d int32) { got = append(got, d) })
	if !slices.Equal(got, []int32{4, 2, 1}) {
		t.Errorf("key 7 holds %v, want [4 2 1]", got)
	}
	got = got[:0]
	p.Visit(7, 2, func(d int32) { got = append(got, d) })
	if !slices.Equal(got, []int32{4, 1}) {
		t.Errorf("capped visit of key 7 gave %v, want the newest and the new anchor [4 1]", got)
	}
	if p.Count(0) != 4 || p.Count(9) != 0 || p.Keys() != 2 {
		t.Errorf("counts %d %d, keys %d", p.Count(0), p.Count(9), p.Keys())
	}
	p.Add(9, 8)
	got = got[:0]
	p.Visit(9, 0, func(d int32) { got = append(got, d) })
	if !slices.Equal(got, []int32{8}) {
		t.Errorf("key 9 re-added holds %v", got)
	}
	for k := uint64(100); k < 3000; k++ { // grow past the emptied slot
		p.Add(k, 1)
	}
	if p.Count(7) != 3 || p.Count(9) != 1 || p.Count(2999) != 1 {
		t.Errorf("after growth: %d %d %d", p.Count(7), p.Count(9), p.Count(2999))
	}
}

// A Postings frozen from its first postings behaves as the same Adds one by
// one: every Visit, capped or not, every Count, after more Adds and after
// Removes of old and new documents.
func TestPostingsFreeze(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var keys []uint32
	var docs []int32
	var one, frozen Postings
	for d := int32(0); d < 3000; d++ {
		for range 1 + r.IntN(3) {
			k := uint32(r.IntN(700)) // key 0 too, and crowded keys
			keys, docs = append(keys, k), append(docs, d)
			one.Add(uint64(k), d)
		}
	}
	frozen.Freeze(keys, docs)
	check := func(when string) {
		t.Helper()
		for k := uint64(0); k < 720; k++ {
			for _, limit := range []int{0, 2, 5} {
				if a, b := visit(&one, k, limit), visit(&frozen, k, limit); !slices.Equal(a, b) {
					t.Fatalf("%s: key %d, limit %d: %v by Adds, %v frozen", when, k, limit, a, b)
				}
			}
			if one.Count(k) != frozen.Count(k) {
				t.Fatalf("%s: key %d: count %d by Adds, %d frozen", when, k, one.Count(k), frozen.Count(k))
			}
		}
		if one.Keys() != frozen.Keys() {
			t.Fatalf("%s: %d keys by Adds, %d frozen", when, one.Keys(), frozen.Keys())
		}
	}
	check("frozen")
	for d := int32(3000); d < 3500; d++ {
		k := uint64(r.IntN(720))
		one.Add(k, d)
		frozen.Add(k, d)
	}
	check("after adds")
	for i := range keys { // remove every seventh old document, from all its keys
		if docs[i]%7 == 3 {
			one.Remove(uint64(keys[i]), docs[i])
			frozen.Remove(uint64(keys[i]), docs[i])
		}
	}
	one.Remove(5, 3100)
	frozen.Remove(5, 3100)
	check("after removes")
}

// TestFreezeInParts checks that freezing postings in parts, on as many
// goroutines, split by documents or any other way, builds the same index
// as freezing them at once.
func TestFreezeInParts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var keys []uint32
	var docs []int32
	for d := int32(0); d < 5000; d++ {
		for range r.IntN(4) {
			keys, docs = append(keys, uint32(r.IntN(900))), append(docs, d)
		}
	}
	var whole Postings
	whole.Freeze(keys, docs)
	for _, parts := range []int{1, 2, 3, 8} {
		for _, split := range []string{"documents", "interleaved"} {
			var p Postings
			p.FreezeEach(len(keys), parts, func(part int, yield func(uint32, int32)) {
				for i, k := range keys {
					in := i%parts == part
					if split == "documents" {
						in = int(docs[i])*parts/5000 == part
					}
					if in {
						yield(k, docs[i])
					}
				}
			})
			if !cmp.Equal(*whole.frozen, *p.frozen, cmp.AllowUnexported(frozen{})) {
				t.Fatalf("%d parts split by %s: %s", parts, split, cmp.Diff(*whole.frozen, *p.frozen, cmp.AllowUnexported(frozen{})))
			}
		}
	}
}

func TestUnmix32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		x := r.Uint32()
		if unmix32(mix32(x)) != x {
			t.Fatalf("unmix32(mix32(%#x)) = %#x", x, unmix32(mix32(x)))
		}
	}
}

func BenchmarkPostingsBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint32, 20_000_000)
	docs := make([]int32, len(keys))
	for i := range keys {
		keys[i], docs[i] = r.Uint32(), int32(i/20)
	}
	b.Run("Add", func(b *testing.B) {
		for b.Loop() {
			var p Postings
			p.Reserve(len(keys), len(keys))
			for i := range keys {
				p.Add(uint64(keys[i]), docs[i])
			}
		}
	})
	b.Run("Freeze", func(b *testing.B) {
		for b.Loop() {
			var p Postings
			p.Freeze(keys, docs)
		}
	})
}
