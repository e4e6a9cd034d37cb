package analysis

import "testing"

// TestRoom pins when Room keeps a buffer's array: when it has the room and
// is not far larger than needed, or small anyway.
func TestRoom(t *testing.T) {
	small := make([]int, 3, 100)
	if r := Room(small, 50); len(r) != 0 || cap(r) != 100 || &r[:1][0] != &small[:1][0] {
		t.Errorf("a buffer with room: len %d cap %d, a new array", len(r), cap(r))
	}
	if r := Room(small, 200); len(r) != 0 || cap(r) < 200 {
		t.Errorf("a buffer without room: len %d cap %d", len(r), cap(r))
	}
	huge := make([]int, 0, 1<<20)
	if r := Room(huge, 1000); cap(r) != 1000 {
		t.Errorf("a huge buffer for a small need: cap %d, want a new one of 1000", cap(r))
	}
	if r := Room(huge, 1<<18); cap(r) != 1<<20 {
		t.Errorf("a huge buffer for a quarter of it: cap %d, want it kept", cap(r))
	}
	if r := Room([]int(nil), -1); len(r) != 0 {
		t.Errorf("a negative need: %v", r)
	}
}
