package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestScores(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []uint32
		want SetScores
	}{
		{"identical", []uint32{1, 2, 3}, []uint32{1, 2, 3}, SetScores{1, 1, 1}},
		{"disjoint", []uint32{1, 2}, []uint32{3, 4}, SetScores{}},
		{"contained", []uint32{2, 3}, []uint32{1, 2, 3, 4}, SetScores{0.5, 1, 0.5}},
		{"half", []uint32{1, 2, 3}, []uint32{2, 3, 4}, SetScores{0.5, 2.0 / 3, 2.0 / 3}},
		{"empty", nil, []uint32{1}, SetScores{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Scores(tc.a, tc.b)
			if !near(got.Jaccard, tc.want.Jaccard) || !near(got.ContainmentAB, tc.want.ContainmentAB) || !near(got.ContainmentBA, tc.want.ContainmentBA) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWeightedJaccard(t *testing.T) {
	ones := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	a, b := []uint64{1, 2, 3, 5}, []uint64{2, 3, 4}
	if got, want := WeightedJaccard(a, ones(4), b, ones(3)), Scores(a, b).Jaccard; !near(got, want) {
		t.Errorf("unit weights: %v, want Jaccard %v", got, want)
	}
	// A heavy shared member dominates light private ones.
	got := WeightedJaccard([]uint64{1, 2}, []float64{10, 1}, []uint64{1, 3}, []float64{10, 1})
	if !near(got, 10.0/12) {
		t.Errorf("weighted: %v", got)
	}
	if WeightedJaccard[uint64](nil, nil, nil, nil) != 0 {
		t.Error("empty sets should score 0")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScoresBelow(t *testing.T) {
	const max = math.MaxUint32
	a := []uint32{1, 5, 9, 20, 40}
	b := []uint32{5, 9, 30}
	if got, want := ScoresBelow(a, max, b, max), Scores(a, b); got != want {
		t.Errorf("complete samples: %+v, want Scores %+v", got, want)
	}
	// b kept values up to 9 only: both are compared over [0, 9].
	got := ScoresBelow(a, max, b[:2], 9)
	if want := Scores([]uint32{1, 5, 9}, []uint32{5, 9}); got != want {
		t.Errorf("cut at 9: %+v, want %+v", got, want)
	}
}

// Consistent samples estimate the scores of the whole sets.
func TestScoresBelowEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var a, b []uint32
	for range 4000 { // 2000 shared, 1000 private to each: J = 0.5
		v := rng.Uint32()
		switch r := rng.IntN(4); {
		case r < 2:
			a, b = append(a, v), append(b, v)
		case r == 2:
			a = append(a, v)
		default:
			b = append(b, v)
		}
	}
	slices.Sort(a)
	slices.Sort(b)
	full := Scores(a, b)
	sa, sb := a[:400], b[:300]
	got := ScoresBelow(sa, sa[len(sa)-1], sb, sb[len(sb)-1])
	if math.Abs(got.Jaccard-full.Jaccard) > 0.06 || math.Abs(got.ContainmentAB-full.ContainmentAB) > 0.08 {
		t.Errorf("sampled %+v, whole sets %+v", got, full)
	}
}

func TestOverlapAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	set := func() []uint32 {
		s := make([]uint32, r.IntN(60))
		for i := range s {
			s[i] = uint32(r.IntN(100))
		}
		slices.Sort(s)
		return slices.Compact(s)
	}
	for range 2000 {
		a, b := set(), set()
		want := 0 // by search, not by merge
		for _, x := range a {
			if _, ok := slices.BinarySearch(b, x); ok {
				want++
			}
		}
		if got := Overlap(a, b); got != want {
			t.Fatalf("%v and %v: Overlap %d, want %d", a, b, got, want)
		}
		for need := 0; need <= min(len(a), len(b))+1; need++ {
			n, ok := OverlapAtLeast(a, b, need)
			if ok != (want >= need) || ok && n != want {
				t.Fatalf("%v and %v, need %d: %d, %v; the overlap is %d", a, b, need, n, ok, want)
			}
		}
	}
}

// BenchmarkOverlapAtLeast merges samples of 400 fingerprints sharing a
// fifth, a different pair each time, as verification meets them (the same
// pair again and again would let the processor learn the branches).
func BenchmarkOverlapAtLeast(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	type pair struct{ a, b []uint32 }
	pairs := make([]pair, 256)
	for i := range pairs {
		var x, y []uint32
		for range 400 {
			v := r.Uint32()
			x = append(x, v)
			if r.Float64() < 0.2 {
				y = append(y, v)
			} else {
				y = append(y, r.Uint32())
			}
		}
		slices.Sort(x)
		slices.Sort(y)
		pairs[i] = pair{slices.Compact(x), slices.Compact(y)}
	}
	b.Run("Overlap", func(b *testing.B) {
		i := 0
		for b.Loop() {
			p := pairs[i%len(pairs)]
			Overlap(p.a, p.b)
			i++
		}
	})
	for _, need := range []int{0, 180} {
		b.Run(fmt.Sprintf("need=%d", need), func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := pairs[i%len(pairs)]
				OverlapAtLeast(p.a, p.b, need)
				i++
			}
		})
	}
}

// FloorShared takes the lower of the two labels' Jaccard bounds, the
// duplicate one alone when no pair is labelled similar.
func TestFloorShared(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		threshold, similar, containment float64
		want                            int
	}{
		{"similar lower", 0.8, 0.5, 2, MinShared(100, 100, 0.5, 2)},
		{"no similar", 0.8, 0, 2, MinShared(100, 100, 0.8, 2)},
		{"similar higher", 0.5, 0.8, 2, MinShared(100, 100, 0.5, 2)},
		{"containment", 0.8, 0, 0.3, MinShared(100, 100, 0.8, 0.3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FloorShared(100, 100, tc.threshold, tc.similar, tc.containment); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// upToBySearch is upTo as a binary search over the whole sample, the
// reference for its guided search.
func upToBySearch(s []uint32, t uint32) int {
	i, _ := slices.BinarySearch(s, t)
	for i < len(s) && s[i] <= t {
		i++
	}
	return i
}

// upTo finds the values at most t in samples spread evenly, bunched at
// either end, of one value or of none, for every t at and around them.
func TestUpTo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	even := func(n int, top uint32) []uint32 {
		var s []uint32
		for range n {
			s = append(s, r.Uint32N(top))
		}
		slices.Sort(s)
		return slices.Compact(s)
	}
	low := append(even(200, 1000), 1<<31, 1<<32-1)
	high := append([]uint32{0, 1}, even(200, 1000)...)
	for i := range high[2:] {
		high[2+i] += 1<<32 - 1001
	}
	for _, tc := range []struct {
		name string
		s    []uint32
	}{
		{"empty", nil},
		{"one", []uint32{7}},
		{"even", even(300, 1<<32-1)},
		{"even below a cut", even(1000, 1<<20)},
		{"bunched low", low},
		{"bunched high", high},
		{"two", []uint32{0, 1<<32 - 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := []uint32{0, 1, 1<<32 - 1, 1<<32 - 2, 1 << 31}
			for _, v := range tc.s {
				ts = append(ts, v, v-1, v+1)
			}
			for range 200 {
				ts = append(ts, r.Uint32())
			}
			for _, x := range ts {
				if got, want := upTo(tc.s, x), upToBySearch(tc.s, x); got != want {
					t.Fatalf("upTo(t=%d) = %d, want %d", x, got, want)
				}
			}
		})
	}
}

func FuzzUpTo(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 250}, uint32(100))
	f.Fuzz(func(t *testing.T, b []byte, x uint32) {
		var s []uint32
		for i := 0; i+4 <= len(b); i += 4 {
			s = append(s, uint32(b[i])|uint32(b[i+1])<<8|uint32(b[i+2])<<16|uint32(b[i+3])<<24)
		}
		slices.Sort(s)
		s = slices.Compact(s)
		if got, want := upTo(s, x), upToBySearch(s, x); got != want {
			t.Fatalf("upTo(%v, %d) = %d, want %d", s, x, got, want)
		}
	})
}
