package similarity

import (
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
