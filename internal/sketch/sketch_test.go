package sketch

import (
	"math"
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
		bd := ChooseBands(tc.threshold, tc.k, tc.k, 0.5, 0.5)
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
	even, fnHeavy := ChooseBands(0.6, 128, 128, 0.5, 0.5), ChooseBands(0.6, 128, 128, 0.1, 0.9)
	if fnHeavy.Probability(0.6) < even.Probability(0.6) {
		t.Errorf("FN-weighted %v less sensitive than %v", fnHeavy, even)
	}
	if capped := ChooseBands(0.3, 128, 20, 0.2, 0.8); capped.B > 20 {
		t.Errorf("band cap ignored: %v", capped)
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
