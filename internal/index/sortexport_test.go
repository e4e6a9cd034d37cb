package index

import (
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// Marks whose stored scores tie at four decimals are exported in the
// order of those scores, as dedup lists them: 0.84999 (written so because
// 0.85 would cross a bound) before 0.84996, whatever their documents'
// order.
func TestSortForExportShownScores(t *testing.T) {
	ms := []store.Mark{
		{A: 0, B: 2, Score: 0.84996, Label: core.Similar},
		{A: 1, B: 2, Score: 0.84999, Label: core.Similar},
		{A: 3, B: 2, Score: 0.5, Label: core.Duplicate},
	}
	sortForExport(ms, nil)
	var got []int64
	for _, m := range ms {
		got = append(got, m.A)
	}
	if want := []int64{3, 1, 0}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("marks ordered by A as %v, want %v", got, want)
	}
}
