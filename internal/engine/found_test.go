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
	l.sortByB()
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
