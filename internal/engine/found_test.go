package engine

import "testing"

// A foundList gives back every pair in order, by index and all at once,
// whatever its chunks.
func TestFoundList(t *testing.T) {
	var l foundList[int]
	want := 0
	add := func(n int) []Found[int] {
		c := make([]Found[int], n)
		for i := range c {
			c[i] = Found[int]{B: int32(want), Ev: want}
			want++
		}
		return c
	}
	for _, f := range add(3) {
		l.add(f)
	}
	for _, n := range []int{0, 1, 5, 0, 2} {
		l.addChunk(add(n))
	}
	if l.n != want {
		t.Fatalf("n = %d, want %d", l.n, want)
	}
	for i := range want {
		if got := l.at(i).Ev; got != i {
			t.Errorf("at(%d) = %d", i, got)
		}
	}
	for i, f := range l.flat() {
		if f.Ev != i {
			t.Errorf("flat()[%d] = %d", i, f.Ev)
		}
	}
}
