package similarity

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDenseDotIsDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vec := func() Sparse {
		var v Sparse
		for term := uint32(rng.IntN(5)); term < 300; term += 1 + uint32(rng.IntN(20)) {
			v.Terms = append(v.Terms, term)
			v.Weights = append(v.Weights, rng.Float32())
		}
		return v
	}
	var d Dense
	for range 200 {
		x := vec()
		d.Set(x)
		for range 20 {
			y := vec()
			if got, want := d.Dot(y), Dot(x, y); got != want {
				t.Fatalf("Dense.Dot %v, Dot %v", got, want)
			}
		}
	}
}

// TestDotOfCopiesIsOne is the regression test of the cosine of a vector of
// norm 1 with itself: summed from its 32-bit weights, it came out a hair
// above or below 1, so that a threshold of 1 missed copies. Dot and
// Dense.Dot now give exactly 1, and a vector with its largest weight halved
// less.
func TestDotOfCopiesIsOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d Dense
	missed := 0
	for range 1000 {
		var v Sparse
		var w []float64
		norm := 0.0
		for term := uint32(rng.IntN(5)); term < 2000; term += 1 + uint32(rng.IntN(20)) {
			v.Terms = append(v.Terms, term)
			x := rng.ExpFloat64()
			w = append(w, x)
			norm += x * x
		}
		for _, x := range w {
			v.Weights = append(v.Weights, float32(x/math.Sqrt(norm)))
		}
		d.Set(v)
		if Dot(v, v) != 1 || d.Dot(v) != 1 {
			missed++
		}
		edited := Sparse{Terms: v.Terms, Weights: slices.Clone(v.Weights)}
		top := 0
		for i, x := range edited.Weights {
			if x > edited.Weights[top] {
				top = i
			}
		}
		edited.Weights[top] *= 0.5
		if s := Dot(v, edited); s >= 1 {
			t.Fatalf("an edited vector's cosine %v", s)
		}
	}
	if missed > 0 {
		t.Errorf("%d of 1000 vectors have a cosine with themselves other than 1", missed)
	}
}
