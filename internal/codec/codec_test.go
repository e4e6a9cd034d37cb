package codec

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSorted32RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		vs   []uint32
	}{
		{"empty", nil},
		{"zero", []uint32{0}},
		{"max", []uint32{1<<32 - 1}},
		{"dense", []uint32{0, 1, 2, 3, 4, 5}},
		{"extremes", []uint32{0, 1<<32 - 1}},
		{"bottom-k", bottom(r, 2000, 256)},
		{"all", bottom(r, 300, 300)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := AppendSorted32([]byte{9}, tc.vs)
			rd := NewReader(b)
			if rd.Byte() != 9 {
				t.Fatal("prefix lost")
			}
			got := rd.Sorted32()
			if err := rd.Done(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.vs) {
				t.Fatalf("got %v, want %v", got, tc.vs)
			}
		})
	}
}

// bottom returns the k smallest of n random 32-bit values, sorted.
func bottom(r *rand.Rand, n, k int) []uint32 {
	vs := make([]uint32, n)
	for i := range vs {
		vs[i] = r.Uint32()
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	return vs[:min(k, len(vs))]
}

// A bottom-k sample of hashes costs well under the 4 bytes a value of a
// plain array.
func TestSorted32Compact(t *testing.T) {
	vs := bottom(rand.New(rand.NewPCG(3, 4)), 1000, 256)
	if n := len(AppendSorted32(nil, vs)); n > 256*27/8+8 {
		t.Errorf("256 values took %d bytes", n)
	}
}

func TestUint64sRoundTrip(t *testing.T) {
	vs := []uint64{0, 1 << 63, 42, 1<<64 - 1}
	rd := NewReader(AppendUint64s(nil, vs))
	if got := rd.Uint64s(); !slices.Equal(got, vs) || rd.Done() != nil {
		t.Fatalf("got %v (%v)", got, rd.Err())
	}
}

func TestCorruptInputs(t *testing.T) {
	good := AppendSorted32(nil, []uint32{5, 900, 70000})
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"truncated", good[:len(good)-1]},
		{"huge count", AppendUvarint(nil, 1<<40)},
		{"bad parameter", []byte{1, 40, 0}},
		{"trailing", append(slices.Clone(good), 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewReader(tc.b)
			rd.Sorted32()
			if err := rd.Done(); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want a corrupt-data error", err)
			}
		})
	}
}

func FuzzSorted32(f *testing.F) {
	f.Add(AppendSorted32(nil, []uint32{1, 2, 3, 1 << 31}))
	f.Add([]byte{3, 0, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		rd := NewReader(b)
		vs := rd.Sorted32()
		if rd.Err() != nil {
			return
		}
		if !slices.IsSorted(vs) || len(slices.Compact(slices.Clone(vs))) != len(vs) {
			t.Fatalf("decoded an unsorted set %v", vs)
		}
		rd2 := NewReader(AppendSorted32(nil, vs))
		if got := rd2.Sorted32(); !slices.Equal(got, vs) || rd2.Done() != nil {
			t.Fatalf("re-encoding %v gave %v", vs, got)
		}
	})
}

func BenchmarkSorted32(b *testing.B) {
	vs := bottom(rand.New(rand.NewPCG(5, 6)), 1000, 256)
	enc := AppendSorted32(nil, vs)
	b.SetBytes(int64(len(enc)))
	for b.Loop() {
		rd := NewReader(enc)
		rd.Sorted32()
	}
}
