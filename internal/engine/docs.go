package engine

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// docTable holds what a Batch keeps of each document: no text.
type docTable struct {
	ids     []string
	origins []string
	lengths []int32
	dates   []int64
	byID    map[string]int32
}

// add records doc and returns its ordinal, or an error naming both places
// when its ID was seen before.
func (t *docTable) add(doc *core.Document) (int32, error) {
	if t.byID == nil {
		t.byID = map[string]int32{}
	}
	if prev, ok := t.byID[doc.ID]; ok {
		return 0, fmt.Errorf("%s: id %q repeats the id of %s", doc.Origin, doc.ID, t.origins[prev])
	}
	id := int32(len(t.ids))
	t.byID[doc.ID] = id
	t.ids = append(t.ids, doc.ID)
	t.origins = append(t.origins, doc.Origin)
	t.lengths = append(t.lengths, int32(min(len(doc.Text), 1<<31-1)))
	t.dates = append(t.dates, unixOrZero(doc))
	return id, nil
}

func (t *docTable) member(id int32) cluster.Member {
	return cluster.Member{Ord: id, Length: int(t.lengths[id]), Date: t.dates[id]}
}

// unixOrZero returns the document's date in Unix seconds, 0 when unknown.
func unixOrZero(doc *core.Document) int64 {
	if doc.Date.IsZero() {
		return 0
	}
	return doc.Date.Unix()
}
