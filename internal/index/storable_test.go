package index

import (
	"errors"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
)

// An add with a URL that is not http or https is refused, naming the
// document and the field. Regression: "javascript:alert(1)" was stored.
func TestCheckStorableURL(t *testing.T) {
	err := CheckStorable([]core.Document{{ID: "a", Text: "x", URL: "https://example.com/a"}, {ID: "b", Text: "x", URL: "javascript:alert(1)"}})
	var ue *UnstorableError
	if !errors.As(err, &ue) || ue.Doc != 2 || ue.Field != "url" {
		t.Fatalf("CheckStorable = %v, want the url of document 2 refused", err)
	}
	if want := `document 2 (id "b"): the url names another scheme than http or https`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// An add with a title, URL or source longer than an index stores is
// refused, naming the document and the field. Regression: the watcher's
// and a library user's documents were stored with them, which `index
// export` wrote and `index add` of the export skipped as malformed.
func TestCheckStorableOverlong(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n/2) + "x" } // n+1 bytes
	for _, tc := range []struct {
		name string
		doc  core.Document
		want string
	}{
		{"title", core.Document{ID: "b", Text: "x", Title: long(core.MaxTitleBytes)},
			`document 2 (id "b"): the title is longer than 4096 bytes`},
		{"url", core.Document{ID: "b", Text: "x", URL: "https://example.com/" + long(core.MaxURLBytes)},
			`document 2 (id "b"): the url is longer than 4096 bytes`},
		{"source", core.Document{ID: "b", Text: "x", Source: long(core.MaxSourceBytes)},
			`document 2 (id "b"): the source is longer than 256 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok := core.Document{ID: "a", Text: "x", Title: long(core.MaxTitleBytes - 1), URL: "https://example.com/a", Source: long(core.MaxSourceBytes - 1)}
			err := CheckStorable([]core.Document{ok, tc.doc})
			var ue *UnstorableError
			if !errors.As(err, &ue) || ue.Doc != 2 || ue.Field != tc.name {
				t.Fatalf("CheckStorable = %v, want the %s of document 2 refused", err, tc.name)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

// TestCheckStorableNamesTheOrigin: the error of a document read from an
// input names its file and line, not its position in the add. Regression:
// a record of a file was "document 12", which names no line of any input.
func TestCheckStorableNamesTheOrigin(t *testing.T) {
	docs := []core.Document{{ID: "a", Text: "x", Origin: "news.jsonl:1"}, {ID: "b\tc", Text: "x", Origin: "news.jsonl:2"}}
	err := CheckStorable(docs)
	var ue *UnstorableError
	if !errors.As(err, &ue) || ue.Doc != 2 || ue.Field != "id" {
		t.Fatalf("CheckStorable = %v, want the id of document 2 refused", err)
	}
	if want := `news.jsonl:2 (id "b\tc"): the id holds a control character`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
