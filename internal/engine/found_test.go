package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
)

// TestSortByB: each later document's pairs are listed duplicates first,
// then by score, whatever order they were found in, and the documents keep
// their order. Regression: a duplicate at 0.377 (admitted by containment)
// was listed below similar pairs at 0.39.
func TestSortByB(t *testing.T) {
	type f = Found[struct{}]
	var l foundList[struct{}]
	l.addChunk([]f{
		{A: 0, B: 1, Score: 0.5, Label: core.Similar},
		{A: 0, B: 2, Score: 0.39, Label: core.Similar},
		{A: 1, B: 2, Score: 0.377, Label: core.Duplicate},
		{A: 3, B: 2, Score: 0.41, Label: core.Similar},
	})
	l.addChunk([]f{
		{A: 0, B: 5, Score: 0.9, Label: core.Duplicate},
		{A: 2, B: 5, Score: 0.95, Label: core.Duplicate},
		{A: 4, B: 5, Score: 0.95, Label: core.Duplicate},
	})
	l.sortByB(func(s float64, _ struct{}) float64 { return core.Round(s) })
	want := [][]f{{
		{A: 0, B: 1, Score: 0.5, Label: core.Similar},
		{A: 1, B: 2, Score: 0.377, Label: core.Duplicate},
		{A: 3, B: 2, Score: 0.41, Label: core.Similar},
		{A: 0, B: 2, Score: 0.39, Label: core.Similar},
	}, {
		{A: 2, B: 5, Score: 0.95, Label: core.Duplicate},
		{A: 4, B: 5, Score: 0.95, Label: core.Duplicate},
		{A: 0, B: 5, Score: 0.9, Label: core.Duplicate},
	}}
	if diff := cmp.Diff(want, l.chunks); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestSortByBShown orders pairs whose scores tie at four decimals by the
// scores as shown: two similar pairs just below a duplicate bound of 0.85
// are written 0.84996 and 0.84999, and the higher is listed first.
func TestSortByBShown(t *testing.T) {
	type f = Found[struct{}]
	shown := func(s float64, _ struct{}) float64 {
		return Shown(s, func(v float64) bool { return v < 0.85 })
	}
	var l foundList[struct{}]
	l.addChunk([]f{
		{A: 0, B: 2, Score: 0.849961, Label: core.Similar},
		{A: 1, B: 2, Score: 0.849992, Label: core.Similar},
	})
	l.sortByB(shown)
	if got := l.chunks[0][0].A; got != 1 {
		t.Errorf("first pair joins %d (shown %v), want 1 (shown %v)", got,
			shown(l.chunks[0][0].Score, struct{}{}), shown(0.849992, struct{}{}))
	}
}
