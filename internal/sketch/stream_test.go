package sketch

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// parts cuts hs into consecutive parts of random lengths from 0 to most.
func parts(rng *rand.Rand, hs []uint64, most int) [][]uint64 {
	var ps [][]uint64
	for len(hs) > 0 {
		n := min(len(hs), rng.IntN(most+1))
		ps, hs = append(ps, hs[:n]), hs[n:]
	}
	return ps
}

// TestSignatureInParts: Start, Add of each part and Finish give Signature
// of the parts joined, for sets that fill every bin, some or none.
func TestSignatureInParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := NewMinHash(128, 9)
	for _, n := range []int{0, 1, 7, 100, 128, 1000, 20000} {
		hs := make([]uint64, n)
		for i := range hs {
			hs[i] = rng.Uint64()
		}
		want := m.Signature(hs, nil)
		for _, most := range []int{1, 50, 5000} {
			sig := m.Start(make([]uint32, 3))
			for _, p := range parts(rng, hs, most) {
				m.Add(sig, p)
			}
			if got := m.Finish(sig); !slices.Equal(got, want) {
				t.Errorf("%d elements in parts of up to %d: the signature differs from Signature's", n, most)
			}
		}
	}
}

// TestBottomStream: the sample of a set given in parts is Bottom's for
// every k up to the stream's most, for sets of many distinct values, of few
// repeated ones (a text that says the same again), and skewed ones, in
// parts short and long, so that the values kept are sorted and cut many
// times or never.
func TestBottomStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sets := map[string]func(n int) []uint64{
		"distinct": func(n int) []uint64 {
			hs := make([]uint64, n)
			for i := range hs {
				hs[i] = rng.Uint64()
			}
			return hs
		},
		"repeated": func(n int) []uint64 {
			hs := make([]uint64, n)
			for i := range hs {
				hs[i] = mix64(uint64(rng.IntN(n/5 + 1)))
			}
			return hs
		},
		"skewed": func(n int) []uint64 {
			hs := make([]uint64, n)
			for i := range hs {
				hs[i] = rng.Uint64() | 0xfff00000 // every value in the top of the range
			}
			return hs
		},
	}
	var s BottomStream
	var b Bottomer
	var dst []uint32
	for name, set := range sets {
		for _, n := range []int{0, 1, 5, 300, 4096, 4097, 50_000} {
			hs := set(n)
			for _, most := range []int{0, 1, 16, 256, n / 4, n, n + 3} {
				for _, k := range []int{0, 1, 16, 256, n / 4, most} {
					if k > most {
						continue
					}
					want, wantCut := b.BottomLow(hs, k, nil)
					s.Reset(most, dst)
					for _, p := range parts(rng, hs, 1+rng.IntN(3*streamPart)) {
						s.AddLow(p)
					}
					got, cut := s.Sample(k)
					if !slices.Equal(got, want) || cut != wantCut {
						t.Errorf("%s, %d values, most %d, k %d: %d values cut %d, want %d cut %d", name, n, most, k, len(got), cut, len(want), wantCut)
					}
					dst = got
				}
			}
		}
	}
}

// TestSampleBlocks: the sample of a set given in blocks is Bottom's of the
// size asked for the hashes counted, whether the stream was sized for it
// (most at least the size) or must read the blocks again (most under it:
// characters that normalise into several), and each is given every block
// once, in order.
func TestSampleBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	hs := make([]uint64, 30_000)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	blocks := parts(rng, hs, 2*streamPart)
	seq := func(yield func([]uint64) bool) {
		for _, b := range blocks {
			if !yield(b) {
				return
			}
		}
	}
	quarter := func(n int) int { return n / 4 }
	var s BottomStream
	var b Bottomer
	want, wantCut := b.BottomLow(hs, len(hs)/4, nil)
	for _, most := range []int{len(hs), len(hs) / 4, 100} {
		var seen []uint64
		got, cut, total := s.SampleBlocks(seq, most, quarter, nil, func(b []uint64) { seen = append(seen, b...) })
		if !slices.Equal(got, want) || cut != wantCut || total != len(hs) {
			t.Errorf("most %d: %d values cut %d of %d hashes, want %d cut %d of %d", most, len(got), cut, total, len(want), wantCut, len(hs))
		}
		if !slices.Equal(seen, hs) {
			t.Errorf("most %d: each was given %d hashes, want the %d of the blocks in order", most, len(seen), len(hs))
		}
	}
}

// TestBottomStreamRoom: a stream keeps about one and a half times the
// values of its largest sample, whatever the set's size, and sorts them in
// as much scratch space as half of them.
func TestBottomStreamRoom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s BottomStream
	s.Reset(100_000, nil)
	part := make([]uint64, 1000)
	for range 2000 {
		for i := range part {
			part[i] = rng.Uint64()
		}
		s.AddLow(part)
	}
	if got, _ := s.Sample(100_000); len(got) != 100_000 || cap(got) > 150_002 || cap(s.b.tmp) > 50_001 {
		t.Errorf("a sample of 100,000 of 2,000,000 values: %d kept in room for %d, sorted in room for %d", len(got), cap(got), cap(s.b.tmp))
	}
}

// BenchmarkBottomStream takes a sample of a quarter of the 8 million
// character shingles of a 10 MB text, given in blocks of 16,384, as a
// BottomStream, beside Bottom over all of them at once.
func BenchmarkBottomStream(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	hs := make([]uint64, 8<<20)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	k := len(hs) / 4
	var dst []uint32
	b.Run("stream", func(b *testing.B) {
		var s BottomStream
		for b.Loop() {
			s.Reset(k, dst)
			for p := hs; len(p) > 0; p = p[min(len(p), 1<<14):] {
				s.AddLow(p[:min(len(p), 1<<14)])
			}
			dst, _ = s.Sample(k)
		}
	})
	b.Run("bottom", func(b *testing.B) {
		var bt Bottomer
		for b.Loop() {
			dst, _ = bt.BottomLow(hs, k, dst)
		}
	})
}
