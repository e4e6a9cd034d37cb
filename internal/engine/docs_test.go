package engine

import (
	"errors"
	"testing"

	"github.com/neardup/neardup/core"
)

// TestDuplicateIDNamesBothPlaces pins the message of a repeated id, with
// origins and without (a library caller that gives ids only; the message
// read ": id "0" repeats the id of ").
func TestDuplicateIDNamesBothPlaces(t *testing.T) {
	for _, tc := range []struct {
		name   string
		docs   []core.Document
		want   string
		origin string
	}{
		{"origins", []core.Document{{ID: "0", Origin: "a.jsonl:1"}, {ID: "1", Origin: "a.jsonl:2"}, {ID: "0", Origin: "b.jsonl:1"}},
			`b.jsonl:1: id "0" repeats the id of a.jsonl:1`, "b.jsonl:1"},
		{"no origins", []core.Document{{ID: "0"}, {ID: "1"}, {ID: "0"}},
			`document 3: id "0" repeats the id of document 1`, "document 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab docTable
			var err error
			for i := range tc.docs {
				if _, err = tab.add(&tc.docs[i]); err != nil {
					break
				}
			}
			var dup *DuplicateIDError
			if !errors.As(err, &dup) || err.Error() != tc.want || dup.Origin != tc.origin || dup.ID != "0" {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
}
