package index

import (
	"fmt"

	"github.com/neardup/neardup/core"
)

// UnstorableError is Add's error for a document with a field no store
// can keep (see core.Document.UnstorableField); nothing of the add is
// stored.
type UnstorableError struct {
	// Doc is the document's position in the add, from 1.
	Doc   int
	ID    string
	Field string
	Why   string
}

func (e *UnstorableError) Error() string {
	return fmt.Sprintf("document %d (id %q): the %s %s", e.Doc, e.ID, e.Field, e.Why)
}

// CheckStorable returns an *UnstorableError for the first of docs with a
// field no store can keep, nil when all can be stored: the check Add makes
// before it stores anything, for an edge that answers each document apart.
func CheckStorable(docs []core.Document) error {
	for i := range docs {
		if field, why := docs[i].UnstorableField(); field != "" {
			return &UnstorableError{Doc: i + 1, ID: docs[i].ID, Field: field, Why: why}
		}
	}
	return nil
}
