package similarity

import (
	"math"
	"math/rand/v2"
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

func TestTouchReadsEveryCacheLine(t *testing.T) {
	var x Sparse
	for i := range 40 {
		x.Terms = append(x.Terms, uint32(i*3))
		x.Weights = append(x.Weights, 1)
	}
	// One word in 16 of each array: terms 0, 16 and 32, weights likewise.
	want := uint32(0+16*3+32*3) + 3*math.Float32bits(1)
	if got := Touch(x); got != want {
		t.Errorf("Touch = %d, want %d", got, want)
	}
	if got := Touch(Sparse{}); got != 0 {
		t.Errorf("Touch of an empty vector = %d, want 0", got)
	}
}
