package enginetest

import (
	"testing"

	"github.com/neardup/neardup/internal/similarity"
)

// CheckSetFloor fails t unless floor(na, nb), the fewest members two
// samples of na and nb must share before a method computes the rest of
// their evidence, drops only pairs that reported would turn down: for
// samples of every size up to 300, it must be the fewest shared members
// whose scores reported accepts, or one fewer where rounding leaves it in
// doubt (or more than either sample holds when no share is accepted).
func CheckSetFloor(t testing.TB, name string, floor func(na, nb int) int, reported func(similarity.SetScores) bool) {
	t.Helper()
	for na := 1; na <= 300; na++ {
		for nb := 1; nb <= 300; nb += 1 + nb/40 {
			none := min(na, nb) + 1
			least := none // the fewest reported shares
			for n := min(na, nb); n >= 0; n-- {
				if reported(similarity.ScoresOf(n, na, nb)) {
					least = n
				}
			}
			if f := floor(na, nb); f > least && least != none || f < least-1 {
				t.Fatalf("%s: samples of %d and %d: floor %d, but %d shared is the fewest reported", name, na, nb, f, least)
			}
		}
	}
}
