package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// docTable holds what a Batch keeps of each document: no text.
type docTable struct {
	ids     []string
	origins origins
	lengths []int32
	dates   []int64
	byID    idIndex
}

// add records doc and returns its ordinal, or an error naming both places
// when its ID was seen before.
func (t *docTable) add(doc *core.Document) (int32, error) {
	id := int32(len(t.ids))
	if prev, seen := t.byID.addOrFind(t.ids, doc.ID, id); seen {
		return 0, &DuplicateIDError{ID: doc.ID, Origin: place(doc.Origin, len(t.ids)), First: place(t.origins.at(prev), int(prev))}
	}
	t.ids = append(t.ids, doc.ID)
	t.origins.add(doc.Origin)
	t.lengths = append(t.lengths, int32(min(len(doc.Text), 1<<31-1)))
	t.dates = append(t.dates, unixOrZero(doc))
	return id, nil
}

// DuplicateIDError is Batch.Add's error for a document whose id an earlier
// document has: it names both places.
type DuplicateIDError struct {
	ID     string // the id given twice
	Origin string // where the document is: its origin, or "document N" (from 1) without one
	First  string // where the earlier document of that id is
}

// Error reads `news.jsonl:17: id "a1" repeats the id of news.jsonl:3`.
func (e *DuplicateIDError) Error() string {
	return fmt.Sprintf("%s: id %q repeats the id of %s", e.Origin, e.ID, e.First)
}

// place is origin, or for a document without one (a caller of the library
// that gives ids only) "document N", its ordinal from 1.
func place(origin string, ord int) string {
	if origin != "" {
		return origin
	}
	return "document " + strconv.Itoa(ord+1)
}

func (t *docTable) member(id int32) cluster.Member {
	return cluster.Member{Ord: id, Length: int(t.lengths[id]), Date: t.dates[id]}
}

// original returns which of documents a and b was published first (see
// cluster.Published): the original of a duplicate pair.
func (t *docTable) original(a, b int32) int32 {
	if cluster.Published(t.member(b), t.member(a)) < 0 {
		return b
	}
	return a
}

// unixOrZero returns the document's date in Unix seconds, 0 when unknown
// (or one that stands for none: core.NoDate).
func unixOrZero(doc *core.Document) int64 {
	if doc.Date.IsZero() || core.NoDate(doc.Date) {
		return 0
	}
	return doc.Date.Unix()
}

// origins holds the origins of a Batch's documents in 8 bytes each rather
// than a string each: an origin "name:line" is kept as the name, shared
// with the document before when it has the same one (the records of one
// file), and the line.
type origins struct {
	names []string // the distinct names, in the order of first use
	name  []uint32 // name[i]: the index of document i's name
	line  []uint32 // line[i]: document i's line + 1; 0 for an origin without one
}

// add records the origin of the next document.
func (o *origins) add(origin string) {
	name, line := origin, uint32(0)
	if i := strings.LastIndexByte(origin, ':'); i >= 0 {
		if n, ok := lineNumber(origin[i+1:]); ok {
			name, line = origin[:i], n+1
		}
	}
	if len(o.names) == 0 || o.names[len(o.names)-1] != name {
		o.names = append(o.names, strings.Clone(name))
	}
	o.name = append(o.name, uint32(len(o.names)-1))
	o.line = append(o.line, line)
}

// at returns the origin of document i as it was added.
func (o *origins) at(i int32) string {
	name := o.names[o.name[i]]
	if o.line[i] == 0 {
		return name
	}
	return name + ":" + strconv.FormatUint(uint64(o.line[i]-1), 10)
}

// lineNumber parses a line number as "name:line" writes it: decimal digits
// without a leading zero (but "0"), below 2^32-1, so that at gives back the
// same origin.
func lineNumber(s string) (uint32, bool) {
	if s == "" || len(s) > 9 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	n := uint32(0)
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + uint32(s[i]-'0')
	}
	return n, true
}
