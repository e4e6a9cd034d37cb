package sketch

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// setPair returns two sets of hashes with the given sizes of shared and
// private parts.
func setPair(shared, onlyA, onlyB int) (a, b []uint64) {
	next := uint64(1)
	take := func() uint64 { next++; return mix64(next) }
	for range shared {
		v := take()
		a, b = append(a, v), append(b, v)
	}
	for range onlyA {
		a = append(a, take())
	}
	for range onlyB {
		b = append(b, take())
	}
	return a, b
}

func agreement(x, y []uint32) float64 {
	same := 0
	for i := range x {
		if x[i] == y[i] {
			same++
		}
	}
	return float64(same) / float64(len(x))
}

func TestSignatureEstimatesJaccard(t *testing.T) {
	m := NewMinHash(512, 7)
	for _, tc := range []struct {
		name                 string
		shared, onlyA, onlyB int
	}{
		{"identical", 300, 0, 0},
		{"disjoint", 0, 300, 300},
		{"half", 200, 100, 100},
		{"small sets densified", 20, 10, 10},
		{"one shared of three", 1, 1, 1},
		{"contained", 100, 0, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := setPair(tc.shared, tc.onlyA, tc.onlyB)
			want := float64(tc.shared) / float64(tc.shared+tc.onlyA+tc.onlyB)
			got := agreement(m.Signature(a, nil), m.Signature(b, nil))
			// Standard error of the estimate is sqrt(J(1-J)/k) <= 0.022 at k=512.
			if math.Abs(got-want) > 0.1 {
				t.Errorf("estimate %.3f, exact Jaccard %.3f", got, want)
			}
		})
	}
}

func TestSignatureDeterministicAndOrderFree(t *testing.T) {
	a, _ := setPair(50, 0, 0)
	m := NewMinHash(64, 1)
	x := m.Signature(a, nil)
	rev := make([]uint64, len(a))
	for i, v := range a {
		rev[len(a)-1-i] = v
	}
	y := NewMinHash(64, 1).Signature(append(rev, a...), nil)
	if agreement(x, y) != 1 {
		t.Fatal("signature depends on element order or repetition")
	}
	if agreement(x, NewMinHash(64, 2).Signature(a, nil)) > 0.2 {
		t.Fatal("seed does not change the signature")
	}
}

func TestSignatureNoEmptyBinsLeft(t *testing.T) {
	m := NewMinHash(128, 3)
	for _, v := range m.Signature([]uint64{42}, nil) {
		if v == empty {
			t.Fatal("empty bin after densification")
		}
	}
	for _, v := range m.Signature(nil, nil) {
		if v != empty {
			t.Fatal("empty set should give an all-empty signature")
		}
	}
}

func TestChooseBands(t *testing.T) {
	for _, tc := range []struct {
		threshold float64
		k         int
	}{{0.5, 128}, {0.7, 128}, {0.9, 128}, {0.3, 256}} {
		bd := ChooseBands(tc.threshold, tc.k, tc.k, 1, 0.5, 0.5)
		if bd.B*bd.R > tc.k {
			t.Errorf("%v: %v uses more than %d values", tc.threshold, bd, tc.k)
		}
		// The S-curve's steep part sits near the threshold.
		if p := bd.Probability(tc.threshold + 0.15); p < 0.8 {
			t.Errorf("t=%.1f %v: P(t+0.15)=%.2f, want >= 0.8", tc.threshold, bd, p)
		}
		if p := bd.Probability(tc.threshold - 0.2); p > 0.5 {
			t.Errorf("t=%.1f %v: P(t-0.2)=%.2f, want <= 0.5", tc.threshold, bd, p)
		}
	}
	// Weighing false negatives more never lowers recall at the threshold.
	even, fnHeavy := ChooseBands(0.6, 128, 128, 1, 0.5, 0.5), ChooseBands(0.6, 128, 128, 1, 0.1, 0.9)
	if fnHeavy.Probability(0.6) < even.Probability(0.6) {
		t.Errorf("FN-weighted %v less sensitive than %v", fnHeavy, even)
	}
	if capped := ChooseBands(0.3, 128, 20, 1, 0.2, 0.8); capped.B > 20 {
		t.Errorf("band cap ignored: %v", capped)
	}
	if floor := ChooseBands(0.3, 128, 20, 3, 0.2, 0.8); floor.R < 3 || floor.B > 20 {
		t.Errorf("row floor 3 ignored: %v", floor)
	}
}

// TestKnownBands holds the answers ChooseBands knows beforehand to the
// search's.
func TestKnownBands(t *testing.T) {
	for q, want := range knownBands {
		if got := chooseBands(q.threshold, q.k, q.maxBands, q.rows, q.wFP, q.wFN); got != want {
			t.Errorf("%+v: the search chooses %v, knownBands says %v", q, got, want)
		}
	}
}

// TestSimpsonSameAsPlain holds chooseBands' integrals, which look s^r up,
// to the plain rule over Probability, to the bit, and its choice to the
// plain search's.
func TestSimpsonSameAsPlain(t *testing.T) {
	plainIntegrate := func(f func(float64) float64, a, b float64) float64 {
		const n = 200
		h := (b - a) / n
		sum := f(a) + f(b)
		for i := 1; i < n; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			sum += w * f(a+float64(i)*h)
		}
		return sum * h / 3
	}
	plainChoose := func(threshold float64, k, maxBands, minRows int, wFP, wFN float64) Bands {
		minRows = max(1, min(minRows, k))
		best, bestErr := Bands{B: 1, R: k}, math.Inf(1)
		for b := 1; b <= min(k/minRows, maxBands); b++ {
			for r := minRows; b*r <= k; r++ {
				bd := Bands{B: b, R: r}
				fp := plainIntegrate(bd.Probability, 0, threshold)
				fn := plainIntegrate(func(s float64) float64 { return 1 - bd.Probability(s) }, threshold, 1)
				if e := wFP*fp + wFN*fn; e < bestErr {
					best, bestErr = bd, e
				}
			}
		}
		return best
	}
	for _, threshold := range []float64{0.05, 0.3, 0.45, 0.8} {
		below, above := newSimpson(0, threshold), newSimpson(threshold, 1)
		for _, bd := range []Bands{{1, 1}, {3, 7}, {20, 6}, {42, 3}, {1, 128}, {128, 1}} {
			nb := float64(bd.B)
			got := below.integrate(bd.R, func(sr float64) float64 { return 1 - math.Pow(1-sr, nb) })
			if want := plainIntegrate(bd.Probability, 0, threshold); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("t=%v %v below: %v, want %v", threshold, bd, got, want)
			}
			got = above.integrate(bd.R, func(sr float64) float64 { return 1 - (1 - math.Pow(1-sr, nb)) })
			if want := plainIntegrate(func(s float64) float64 { return 1 - bd.Probability(s) }, threshold, 1); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("t=%v %v above: %v, want %v", threshold, bd, got, want)
			}
		}
		for _, k := range []int{16, 128} {
			for _, w := range [][2]float64{{0.5, 0.5}, {0.2, 0.8}} {
				for _, maxBands := range []int{20, 40} {
					for _, minRows := range []int{1, 3} {
						got, want := chooseBands(threshold, k, maxBands, minRows, w[0], w[1]), plainChoose(threshold, k, maxBands, minRows, w[0], w[1])
						if got != want {
							t.Errorf("t=%v k=%d bands ≤ %d rows ≥ %d weights %v: %v, the plain search %v", threshold, k, maxBands, minRows, w, got, want)
						}
					}
				}
			}
		}
	}
}

// TestParseBands: a banding is read, or refused saying why. Regression:
// 0x0 and 2x-1 were refused as "needing" 0 and -2 signature values, and
// 3037000500x3037000500, whose product overflows an int, was taken, and
// the first document sketched panicked.
func TestParseBands(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Bands
		err  string // "" for none
	}{
		{"20x3", Bands{B: 20, R: 3}, ""},
		{"1x128", Bands{B: 1, R: 128}, ""},
		{"20x7", Bands{}, "20x7 needs 140 signature values, have 128"},
		{"0x3", Bands{}, "0x3: the bands and the rows must be positive, BxR as in 20x3"},
		{"0x0", Bands{}, "0x0: the bands and the rows must be positive, BxR as in 20x3"},
		{"2x-1", Bands{}, "2x-1: the bands and the rows must be positive, BxR as in 20x3"},
		{"3037000500x3037000500", Bands{}, "3037000500x3037000500 needs 9223372037000250000 signature values, have 128"},
		{"4294967296x4294967297", Bands{}, "4294967296x4294967297 needs 18446744078004518912 signature values, have 128"},
		{"20", Bands{}, `"20" is not BxR, bands x rows (20x3)`},
		{"ax3", Bands{}, `"ax3" is not BxR, bands x rows (20x3)`},
		{"20x", Bands{}, `"20x" is not BxR, bands x rows (20x3)`},
	} {
		got, err := ParseBands(tc.in, 128)
		var msg string
		if err != nil {
			msg = err.Error()
		}
		if msg != tc.err || got != tc.want {
			t.Errorf("ParseBands(%q) = %v, %q; want %v, %q", tc.in, got, msg, tc.want, tc.err)
		}
	}
}

func TestBandKeys(t *testing.T) {
	bd := Bands{B: 4, R: 2}
	sig := []uint32{1, 2, 3, 4, 5, 6, 7, 8}
	keys := bd.BandKeys(sig, nil)
	other := append([]uint32(nil), sig...)
	other[7] = 99 // last band differs
	keys2 := bd.BandKeys(other, nil)
	for i := 0; i < 3; i++ {
		if keys[i] != keys2[i] {
			t.Errorf("band %d key changed", i)
		}
	}
	if keys[3] == keys2[3] {
		t.Error("changed band kept its key")
	}
	same := Bands{B: 2, R: 1}.BandKeys([]uint32{5, 5}, nil)
	if same[0] == same[1] {
		t.Error("equal values in different bands gave equal keys")
	}
}

func BenchmarkSignature(b *testing.B) {
	a, _ := setPair(0, 150, 0)
	m := NewMinHash(128, 1)
	dst := make([]uint32, 128)
	b.ReportAllocs()
	for b.Loop() {
		dst = m.Signature(a, dst)
	}
}

func TestBottom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{0, 1, 5, 16, 17, 100, 200, 257, 1000, 5000} {
		for _, k := range []int{1, 10, 16, 32, 33, 256, 6000} {
			hs := make([]uint32, n)
			for i := range hs {
				hs[i] = rng.Uint32()
				if n == 200 {
					hs[i] %= 40 // few distinct values, repeated
				}
			}
			hs = append(hs, hs[:n/3]...) // duplicates
			want := slices.Sorted(slices.Values(hs))
			want = slices.Compact(want)
			wantCut := uint32(Complete)
			if len(want) > k {
				want, wantCut = want[:k], want[k-1]
			}
			in := slices.Clone(hs)
			var b Bottomer
			got, cut := b.Bottom(hs, k, nil)
			if !slices.Equal(got, want) || cut != wantCut {
				t.Errorf("n=%d k=%d: got %d values cut %d, want %d values cut %d", n, k, len(got), cut, len(want), wantCut)
			}
			if !slices.Equal(hs, in) {
				t.Errorf("n=%d k=%d: input modified", n, k)
			}
			// BottomLow reads the low halves of 64-bit values alone.
			wide := make([]uint64, len(hs))
			for i, h := range hs {
				wide[i] = rng.Uint64()<<32 | uint64(h)
			}
			if got, cut := b.BottomLow(wide, k, nil); !slices.Equal(got, want) || cut != wantCut {
				t.Errorf("BottomLow n=%d k=%d: got %d values cut %d, want %d values cut %d", n, k, len(got), cut, len(want), wantCut)
			}
		}
	}
	// The fallback of BottomLow, below a skewed estimate, takes low halves too.
	var low Bottomer
	if got, _ := low.BottomLow([]uint64{1<<40 | math.MaxUint32 - 1, 7 << 32, 1<<33 | math.MaxUint32}, 2, nil); !slices.Equal(got, []uint32{0, math.MaxUint32 - 1}) {
		t.Errorf("BottomLow skewed: got %v", got)
	}
	// Skewed values defeat the cut-off estimate: the fallback still gives
	// the k smallest.
	skewed := []uint32{math.MaxUint32 - 5, math.MaxUint32 - 4, math.MaxUint32 - 3, math.MaxUint32 - 2, math.MaxUint32 - 1}
	var b Bottomer
	if got, cut := b.Bottom(skewed, 2, nil); !slices.Equal(got, skewed[:2]) || cut != skewed[1] {
		t.Errorf("skewed: got %v cut %d", got, cut)
	}
	// Exactly k distinct values are the whole set.
	if _, cut := b.Bottom([]uint32{9, 3, 3, 7}, 3, nil); cut != Complete {
		t.Errorf("k distinct values: cut %d, want Complete", cut)
	}
}

func BenchmarkBottom(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	hs := make([]uint32, 1500) // a 2,000-character article's character shingles
	for i := range hs {
		hs[i] = rng.Uint32()
	}
	var dst []uint32
	var bt Bottomer
	b.Run("bottom-256-of-650", func(b *testing.B) { // an 820-character story
		for b.Loop() {
			dst, _ = bt.Bottom(hs[:650], 256, dst)
		}
	})
	b.Run("bottom-375", func(b *testing.B) {
		for b.Loop() {
			dst, _ = bt.Bottom(hs, 375, dst)
		}
	})
	many := make([][]uint32, 64) // other articles each time, as in a run
	for i := range many {
		many[i] = make([]uint32, 1500)
		for j := range many[i] {
			many[i][j] = rng.Uint32()
		}
	}
	b.Run("bottom-375-of-many", func(b *testing.B) {
		i := 0
		for b.Loop() {
			dst, _ = bt.Bottom(many[i%len(many)], 375, dst)
			i++
		}
	})
	b.Run("bottom-16-of-200", func(b *testing.B) { // a lead's sample
		for b.Loop() {
			dst, _ = bt.Bottom(hs[:200], 16, dst)
		}
	})
	b.Run("sort-all", func(b *testing.B) { // the baseline: sort every value
		for b.Loop() {
			dst = append(dst[:0], hs...)
			slices.Sort(dst)
		}
	})
}

func TestSortUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	inputs := map[string][]uint32{"empty": {}, "one": {5}}
	uniform, narrow, dups, desc := make([]uint32, 500), make([]uint32, 500), make([]uint32, 500), make([]uint32, 500)
	for i := range 500 {
		uniform[i] = rng.Uint32()
		narrow[i] = 1000 + rng.Uint32N(50) // all in one bucket of the full range
		dups[i] = uint32(i % 7)
		desc[i] = math.MaxUint32 - uint32(i)*9
	}
	inputs["uniform"], inputs["narrow"], inputs["duplicates"], inputs["descending"] = uniform, narrow, dups, desc
	var b Bottomer
	for name, in := range inputs {
		for _, limit := range []uint32{math.MaxUint32, 1 << 20} {
			vs := slices.Clone(in)
			if limit < math.MaxUint32 {
				vs = slices.DeleteFunc(vs, func(v uint32) bool { return v > limit })
			}
			want := slices.Sorted(slices.Values(vs))
			b.sortUniform(vs, limit)
			if !slices.Equal(vs, want) {
				t.Errorf("%s, limit %d: not sorted", name, limit)
			}
		}
	}
}
