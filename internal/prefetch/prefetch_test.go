package prefetch

import (
	"math/rand/v2"
	"testing"
)

// TestRequestsLeaveMemoryAlone: requests for values and slices of every
// length and alignment, up to the last byte of their allocations, neither
// fault nor change what they request.
func TestRequestsLeaveMemoryAlone(t *testing.T) {
	buf := make([]byte, 1000)
	for i := range buf {
		buf[i] = byte(i)
	}
	for lo := range 70 {
		for hi := lo; hi <= len(buf); hi += 1 + hi/7 {
			Slice(buf[lo:hi])
		}
		Value(&buf[len(buf)-1-lo])
	}
	Slice([]uint32(nil))
	Slice(make([]struct{ a, b float64 }, 3))
	for i := range buf {
		if buf[i] != byte(i) {
			t.Fatalf("byte %d changed to %d", i, buf[i])
		}
	}
}

// BenchmarkScatteredSums sums vectors picked at random from a set far
// larger than the caches, as verifying candidates does, with and without
// requesting the next vector while summing the current one.
func BenchmarkScatteredSums(b *testing.B) {
	const vectors, length = 1 << 16, 128 // 32 MiB of uint32
	data := make([][]uint32, vectors)
	for i := range data {
		data[i] = make([]uint32, length)
		for k := range data[i] {
			data[i][k] = uint32(i + k)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	order := make([]int, 1<<15) // 16 MiB read an operation: more than the caches hold
	for i := range order {
		order[i] = rng.IntN(vectors)
	}
	sum := func(ahead bool) uint32 {
		var s uint32
		for k, i := range order {
			if ahead && k+1 < len(order) {
				Slice(data[order[k+1]])
			}
			for _, x := range data[i] {
				s += x
			}
		}
		return s
	}
	for _, c := range []struct {
		name  string
		ahead bool
	}{{"plain", false}, {"prefetched", true}} {
		b.Run(c.name, func(b *testing.B) {
			var s uint32
			for b.Loop() {
				s += sum(c.ahead)
			}
			if s == 1 {
				b.Log(s)
			}
		})
	}
}
