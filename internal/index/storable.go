package index

import (
	"fmt"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
)

// UnstorableError is Add's error for a document with a field no store
// can keep (see core.Document.UnstorableField), a title, URL or source
// longer than an index stores (see core.Document.OverlongField), or an id
// that can name no stored document (see core.BadID); nothing of the add is
// stored.
type UnstorableError struct {
	// Doc is the document's position in the add, from 1.
	Doc int
	// Origin is the document's Origin ("file:line"), which Error names it
	// by when it is not empty.
	Origin string
	ID     string
	Field  string
	Why    string
}

func (e *UnstorableError) Error() string {
	id := e.ID
	if n := 64; len(id) > n {
		for n > 0 && !utf8.RuneStart(id[n]) {
			n--
		}
		id = id[:n] + "..." // a long id is its own fault: its start names it
	}
	at := e.Origin
	if at == "" {
		at = fmt.Sprintf("document %d", e.Doc)
	}
	return fmt.Sprintf("%s (id %q): the %s %s", at, id, e.Field, e.Why)
}

// CheckStorable returns an *UnstorableError for the first of docs with a
// field no store can keep, a title, URL or source longer than an index
// stores (which the HTTP API refuses, and which an export would write and
// `index add` skip), or an id no stored document can have, nil when all
// can be stored: the check Add makes before it stores anything, for an
// edge that answers each document apart.
func CheckStorable(docs []core.Document) error {
	for i := range docs {
		field, why := docs[i].UnstorableField()
		if field == "" {
			if f, max := docs[i].OverlongField(); f != "" {
				field, why = f, fmt.Sprintf("is longer than %d bytes", max)
			}
		}
		if field == "" {
			if why = core.BadID(docs[i].ID); why != "" {
				field = "id"
			}
		}
		if field != "" {
			return &UnstorableError{Doc: i + 1, Origin: docs[i].Origin, ID: docs[i].ID, Field: field, Why: why}
		}
	}
	return nil
}
