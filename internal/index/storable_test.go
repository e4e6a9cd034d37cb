package index

import (
	"errors"
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
