package heappeak

import (
	"testing"
	"time"
)

var keep []byte

// TestOfSeesAnAllocation: a 64 MiB buffer held while f runs is seen.
func TestOfSeesAnAllocation(t *testing.T) {
	objects, _ := Of(time.Millisecond, func() {
		keep = make([]byte, 64<<20)
		for i := range keep {
			keep[i] = 1
		}
		time.Sleep(20 * time.Millisecond)
	})
	if objects < 64<<20 {
		t.Errorf("peak %d bytes, want at least %d", objects, 64<<20)
	}
	keep = nil
}
