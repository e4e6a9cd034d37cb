package extract

import (
	"os"
	"runtime/debug"
	"testing"
)

// gcPercent returns the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestSetGC(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	before := gcPercent()
	restore := SetGC()
	if got := gcPercent(); got != GCPercent {
		t.Errorf("target after SetGC = %d, want %d", got, GCPercent)
	}
	restore()
	if got := gcPercent(); got != before {
		t.Errorf("target after restore = %d, want %d", got, before)
	}
}

// TestSetGCKeepsUsersChoice checks that a GOGC set in the environment
// stands.
func TestSetGCKeepsUsersChoice(t *testing.T) {
	t.Setenv("GOGC", "50")
	before := gcPercent()
	defer SetGC()()
	if got := gcPercent(); got != before {
		t.Errorf("target after SetGC = %d, want the user's %d", got, before)
	}
}
