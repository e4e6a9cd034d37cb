package candidates

import "testing"

func TestCounter(t *testing.T) {
	var c Counter
	want := map[uint64]int{}
	for i := 0; i < 30000; i++ {
		k := uint64(i%7000) * 0x9e3779b97f4a7c15 // includes key 0
		want[k]++
		if got := c.Inc(k); got != want[k] {
			t.Fatalf("Inc(%d) = %d, want %d", k, got, want[k])
		}
	}
	for k, n := range want {
		if c.Count(k) != n {
			t.Fatalf("Count(%d) = %d, want %d", k, c.Count(k), n)
		}
	}
	seen := 0
	c.EachKey(func(k uint64, n int) {
		seen++
		if want[k] != n {
			t.Errorf("EachKey %d: %d, want %d", k, n, want[k])
		}
	})
	if seen != len(want) || c.Count(12345) != 0 {
		t.Errorf("EachKey saw %d keys, want %d", seen, len(want))
	}
}

func TestCounterDec(t *testing.T) {
	var c Counter
	for k := uint64(0); k < 2000; k++ {
		c.Inc(k)
		c.Inc(k)
	}
	for k := uint64(0); k < 2000; k += 2 {
		c.Dec(k)
		c.Dec(k)
		c.Dec(k) // below zero: stays at zero
	}
	for k := uint64(0); k < 2000; k++ {
		want := 2 * int(k%2)
		if got := c.Count(k); got != want {
			t.Fatalf("key %d counts %d, want %d", k, got, want)
		}
	}
	for k := uint64(5000); k < 9000; k++ { // grow past the emptied slots
		c.Inc(k)
	}
	if c.Count(1) != 2 || c.Count(2) != 0 || c.Count(8999) != 1 {
		t.Errorf("after growth: %d %d %d", c.Count(1), c.Count(2), c.Count(8999))
	}
}
