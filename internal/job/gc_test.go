package job

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// gogc reads GOGC as in force.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		live, projected float64
		want            int
	}{
		{100 * mib, 2000 * mib, 500}, // a twentieth read: room for a quarter of the end
		{1000 * mib, 2000 * mib, 50},
		{2000 * mib, 2000 * mib, 25}, // at the end: GOGC=25
		{2000 * mib, 1000 * mib, 25}, // never less than a quarter of the live heap
		{1 * mib, 1 * mib, 400},      // the floor of 4 MiB
	} {
		if got := gcPercent(tc.live, tc.projected, headroomShare); got != tc.want {
			t.Errorf("gcPercent(%v MiB, %v MiB) = %d, want %d", tc.live/mib, tc.projected/mib, got, tc.want)
		}
	}
	if got := gcPercent(2000*mib, 2000*mib, lastShare); got != 10 {
		t.Errorf("last stretch: GOGC %d, want 10", got)
	}
}

// eventually waits up to 5 s for GOGC to satisfy ok and returns it: the
// pacer sets it in a finalizer, which runs after the collection returns.
func eventually(ok func(int) bool) int {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if g := gogc(); ok(g) || time.Now().After(deadline) {
			return g
		}
	}
}

// The pacer sets GOGC after collections, by what is left to read, and puts
// back the GOGC it found when it stops; with GOGC in the environment it
// changes nothing.
func TestGCPacerRestoresGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	var done atomic.Int64 // read by the finalizer after each collection
	done.Store(100)
	p := startGCPacer(func() (int64, int64) { return done.Load(), 1000 })
	runtime.GC()
	// Before the first collection of the process there is no live heap to
	// pace by: the pacer sets GOGC in the finalizer that runs after it.
	if got := eventually(func(g int) bool { return g > 25 }); got <= 25 {
		t.Errorf("GOGC %d with a tenth of the input read", got)
	}
	done.Store(1000)
	p.readingDone()
	if got := gogc(); got < 25 {
		t.Errorf("GOGC %d after reading", got)
	}
	p.stop()
	runtime.GC()
	if got := gogc(); got != 77 {
		t.Errorf("GOGC %d after stop, want 77 as before", got)
	}

	t.Setenv("GOGC", "77")
	p = startGCPacer(func() (int64, int64) { return 1, 1000 })
	runtime.GC()
	if got := gogc(); got != 77 {
		t.Errorf("GOGC %d with GOGC set, want 77", got)
	}
	p.stop()
}
