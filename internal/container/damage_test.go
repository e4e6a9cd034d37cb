package container

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The check of a zip member too large to hold, read through to its end
// before any byte of it is given, gives up when Options.Stop ends, and
// Next returns its cause; a member held in memory is read as before.
// Regression: the check inflated the whole member whatever the context:
// a run stopped by SIGINT on a member of 2 GB took 12.7 s to end.
func TestZipCheckStops(t *testing.T) {
	big := strings.Repeat("x\n", zipHoldMax/2+1)
	data := zipOf(t, "small.txt", "a\n", "big.txt", big)
	stopped := errors.New("stopped by a signal")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stopped)
	// The ratio allows the member's check (lines of "x" inflate far past
	// the default); no bound stops it before.
	got, err := walkAll(t, "a.zip", data, Options{MaxRatio: 1 << 20, Stop: ctx})
	if !errors.Is(err, stopped) {
		t.Errorf("walk: %v, want the stop's cause", err)
	}
	if len(got) != 1 || got[0].Origin != "a.zip/small.txt" || got[0].Body != "a\n" {
		t.Errorf("read %+v, want a.zip/small.txt only", got)
	}

	// Without Stop, the large member is checked and read.
	got, err = walkAll(t, "a.zip", data, Options{MaxRatio: 1 << 20})
	if err != nil || len(got) != 2 || got[1].Skip != "" {
		t.Errorf("walk without Stop: %+v, %v; want both members read", got, err)
	}
}
