package vector

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/codec"
)

func TestCount(t *testing.T) {
	got := Count([]uint64{7, 3, 7, 9, 3, 7})
	want := Counts{Hashes: []uint64{3, 7, 9}, TFs: []uint32{2, 3, 1}}
	if diff := cmp.Diff(want, got); diff != "" || got.Total() != 6 {
		t.Errorf("(-want +got)\n%s total %d", diff, got.Total())
	}
}

func TestReadCounts(t *testing.T) {
	c := Counts{Hashes: []uint64{3, 1 << 60}, TFs: []uint32{1, math.MaxUint32}}
	for _, tc := range []struct {
		name string
		data []byte
		want error // nil: decodes to c
	}{
		{"round trip", AppendCounts(nil, &c), nil},
		{"count of 0", append(codec.AppendUint64s(nil, c.Hashes), 1, 0), codec.ErrCorrupt},
		{"count past 32 bits", codec.AppendUvarint(codec.AppendUvarint(codec.AppendUint64s(nil, c.Hashes), 1), 1<<32), codec.ErrCorrupt},
		{"hashes out of order", append(codec.AppendUint64s(nil, []uint64{5, 5}), 1, 1), codec.ErrCorrupt},
		{"truncated", AppendCounts(nil, &c)[:17], codec.ErrCorrupt},
		{"count larger than the input", []byte{200, 1}, codec.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := codec.NewReader(tc.data)
			got, err := ReadCounts(r)
			if err == nil {
				err = r.Done()
			}
			switch {
			case tc.want == nil && (err != nil || !cmp.Equal(c, got)):
				t.Errorf("got %+v, %v; want %+v", got, err, c)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestFieldRemove: a document removed, whether pending, vectorised or
// indexed, leaves the statistics, the join and the term ids as they were.
// (Ordinals are never reused; the test reuses 1, which Remove allows.)
func TestFieldRemove(t *testing.T) {
	a := Count([]uint64{1, 2, 2, 3})
	b := Count([]uint64{2, 3, 4})
	c := Count([]uint64{4, 5, 6})
	for _, w := range []Weighting{TFIDF, PMI} {
		f := NewField(w, 0.1)
		f.Add(0, &a)
		f.Index(0)
		want := [][]int32{slices.Clone(f.df), {int32(f.docs), int32(f.tokens), int32(f.ids.len())}}
		for _, stop := range []string{"pending", "vectorised", "indexed"} {
			f.Add(1, &b)
			if stop != "pending" {
				f.Candidates(1, func(int32, float64) {})
			}
			if stop == "indexed" {
				f.Index(1)
			}
			f.Remove(1, &b)
			f.Remove(1, &b) // a second removal is ignored
			got := [][]int32{f.df[:len(want[0])], {int32(f.docs), int32(f.tokens), int32(f.ids.len())}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("weighting %d, removed %s: (-before +after)\n%s", w, stop, diff)
			}
		}
		if len(f.free) != 1 {
			t.Errorf("weighting %d: free term ids %v, want the one of the removed term", w, f.free)
		}
		f.Add(2, &c)
		var found []int32
		f.Candidates(2, func(other int32, _ float64) { found = append(found, other) })
		if len(found) != 0 || len(f.Vector(1).Terms) != 0 {
			t.Errorf("weighting %d: a removed document found: %v", w, found)
		}
	}
}

// TestFieldUncount: a document checked in place of an indexed one, whose
// counts Uncount took off, is weighed as in a field without that one; once
// Recount put them back and the check is removed, the statistics, the term
// ids and the indexed document's vector are as they were, the ids of the
// terms it alone holds (7) included, which the check's own term (8) must
// not take.
func TestFieldUncount(t *testing.T) {
	a := Count([]uint64{1, 2, 2, 3})
	b := Count([]uint64{2, 3, 4, 7})
	c := Count([]uint64{2, 3, 4, 8})
	for _, w := range []Weighting{TFIDF, PMI, TFIDFLog2} {
		without := NewField(w, 0.1)
		without.Add(0, &a)
		without.Index(0)
		without.Add(2, &c)
		without.Candidates(2, func(int32, float64) {})

		f := NewField(w, 0.1)
		f.Add(0, &a)
		f.Index(0)
		f.Add(1, &b)
		f.Index(1)
		state := func() []any {
			ids := map[uint64]uint32{}
			for _, h := range []uint64{1, 2, 3, 4, 7} {
				ids[h], _ = f.ids.get(h)
			}
			// the check's term (8) leaves a free id past them
			return []any{slices.Clone(f.df[:5]), slices.Clone(f.cf[:5]), f.docs, f.added, f.tokens, ids, f.Vector(1)}
		}
		before := state()
		f.Add(2, &c)
		f.Uncount(1, &b)
		var found []int32
		f.Candidates(2, func(other int32, _ float64) { found = append(found, other) })
		if diff := cmp.Diff(weights(without, 2, c.Hashes), weights(f, 2, c.Hashes)); diff != "" {
			t.Errorf("weighting %d: the check's vector (-without the indexed one +in its place)\n%s", w, diff)
		}
		if !slices.Contains(found, 1) {
			t.Errorf("weighting %d: the indexed document is no candidate: %v", w, found)
		}
		f.Recount(1, &b)
		f.Remove(2, &c)
		if diff := cmp.Diff(before, state()); diff != "" {
			t.Errorf("weighting %d: (-before +after)\n%s", w, diff)
		}
	}
}

// weights returns the weights in document ord's vector of the terms
// hashes, by hash (term ids differ from field to field).
func weights(f *Field, ord int32, hashes []uint64) map[uint64]float32 {
	v := f.Vector(ord)
	out := map[uint64]float32{}
	for _, h := range hashes {
		if id, ok := f.ids.get(h); ok {
			if i, ok := slices.BinarySearch(v.Terms, f.joinTerm(id)); ok {
				out[h] = v.Weights[i]
			}
		}
	}
	return out
}

// TestSealOnEveryCoreIsSerial: a batch's documents vectorised at Seal in
// runs on several goroutines get the vectors one goroutine gives them.
func TestSealOnEveryCoreIsSerial(t *testing.T) {
	const docs = 3*minVectoriseRun + 17
	rng := rand.New(rand.NewPCG(9, 9))
	counts := make([]Counts, docs)
	for i := range counts {
		hs := make([]uint64, 1+rng.IntN(40))
		for j := range hs {
			hs[j] = uint64(rng.IntN(2000)) // a small vocabulary: terms shared, some in every run
		}
		counts[i] = Count(hs)
	}
	for _, w := range []Weighting{TFIDF, PMI} {
		sealed := func(procs int) *Field {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			f := NewField(w, 0.5)
			for i := range counts {
				c := Counts{Hashes: slices.Clone(counts[i].Hashes), TFs: slices.Clone(counts[i].TFs)}
				f.Add(int32(i), &c)
			}
			f.Seal(t.Context())
			return f
		}
		serial, parallel := sealed(1), sealed(3)
		for i := range docs {
			if a, b := serial.Vector(int32(i)), parallel.Vector(int32(i)); !slices.Equal(a.Terms, b.Terms) || !slices.Equal(a.Weights, b.Weights) || len(a.Terms) == 0 {
				t.Fatalf("weighting %d, document %d: %v on one core, %v on three", w, i, a, b)
			}
		}
	}
}

// TestSealStopsWhenCancelled: Seal and IndexAll of a batch's documents
// stop at a cancelled context, returning its error, rather than weighing
// and indexing every document first (seconds at a million).
func TestSealStopsWhenCancelled(t *testing.T) {
	const docs = 3*minVectoriseRun + 17
	add := func() *Field {
		f := NewField(TFIDF, 0.5)
		for i := range docs {
			c := Count([]uint64{uint64(i % 50), uint64(i % 7), 99})
			f.Add(int32(i), &c)
		}
		return f
	}
	for _, procs := range []int{1, 3} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			f := add()
			if err := f.Seal(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("%d cores: Seal: %v, want context.Canceled", procs, err)
			}
			weighed := 0
			for i := range docs {
				if len(f.Vector(int32(i)).Terms) > 0 {
					weighed++
				}
			}
			if weighed != 0 {
				t.Errorf("%d cores: %d of %d documents weighed after a cancelled Seal", procs, weighed, docs)
			}
			f = add()
			if err := f.Seal(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := f.IndexAll(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("%d cores: IndexAll: %v, want context.Canceled", procs, err)
			}
		}()
	}
}

// TestRankByDF: the counting sort ranks terms as sorting them by
// decreasing document frequency, ties by increasing id, does.
func TestRankByDF(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 17, 1000, 50000} {
		df := make([]int32, n)
		for i := range df {
			df[i] = int32(rng.IntN(1 + n/10)) // many ties, some zeros
		}
		byDF := make([]uint32, n)
		for i := range byDF {
			byDF[i] = uint32(i)
		}
		slices.SortFunc(byDF, func(a, b uint32) int {
			if df[a] != df[b] {
				return int(df[b] - df[a])
			}
			return int(a) - int(b)
		})
		want := make([]uint32, n)
		for rank, id := range byDF {
			want[id] = uint32(rank)
		}
		if got := rankByDF(df); !slices.Equal(got, want) {
			t.Fatalf("%d terms: ranks differ from the sort's", n)
		}
	}
}

// TestCosinesAsSealed: documents added one at a time, each weighed as it
// arrives, score by Cosines what a field of the same documents sealed
// once they were all added scores them by Cosine, to the bit, under every
// weighting; their own vectors score otherwise (the test would not see a
// Cosines that read them).
func TestCosinesAsSealed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	var cs []Counts
	for range 40 {
		hs := make([]uint64, 30+r.IntN(40))
		for i := range hs {
			hs[i] = uint64(1 + r.IntN(20)*r.IntN(20)) // a few terms in most documents, many in few
		}
		cs = append(cs, Count(hs))
	}
	cs = append(cs, Counts{}) // a document without terms
	for _, w := range []Weighting{TFIDF, PMI, TFIDFLog2} {
		sealed, live := NewField(w, 0.1), NewField(w, 0.1)
		ptrs := make([]*Counts, len(cs))
		for i := range cs {
			ptrs[i] = &cs[i]
			sealed.Add(int32(i), ptrs[i])
			live.Add(int32(i), &Counts{Hashes: slices.Clone(cs[i].Hashes), TFs: slices.Clone(cs[i].TFs)})
			live.Index(int32(i))
		}
		if err := sealed.Seal(t.Context()); err != nil {
			t.Fatal(err)
		}
		cos := live.Cosines(append(ptrs, nil))
		moved := 0
		for i := range cs {
			for j := range cs {
				if got, want := cos(i, j), sealed.Cosine(int32(i), int32(j)); got != want {
					t.Fatalf("weighting %d: documents %d and %d: Cosines %v, sealed %v", w, i, j, got, want)
				}
				if live.Cosine(int32(i), int32(j)) != sealed.Cosine(int32(i), int32(j)) {
					moved++
				}
			}
			if got := cos(i, len(cs)); got != 0 {
				t.Errorf("weighting %d: document %d against none: %v", w, i, got)
			}
		}
		if moved == 0 {
			t.Errorf("weighting %d: the documents weighed as they arrived score as sealed", w)
		}
	}
}
