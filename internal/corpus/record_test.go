package corpus

import (
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/extract"
)

// TestSetIDSetsTheIDOfABuiltRecord: SetID gives a record that the Reader
// builds (a text file's, a feed item's, a page's) the new id in its Raw,
// its other fields as they were, also when an id holds a quote or a
// backslash; a record read as a JSON object keeps its Raw as read.
func TestSetIDSetsTheIDOfABuiltRecord(t *testing.T) {
	dir := t.TempDir()
	text := "The harbour reopened on Monday after the storm, the port authority said."
	writeFiles(t, dir, map[string]string{
		`say "hi" \ now.txt`: "Storm\n" + text,
		"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><guid>g"\1</guid>` +
			`<title>Storm</title><description>` + text + `</description></item></channel></rss>`,
		"p.html":  "<html><head><title>Storm</title></head><body><article><p>" + text + " " + text + "</p></article></body></html>",
		"a.jsonl": `{"id":"x","text":"` + text + `"}` + "\n",
	})
	r, err := Open([]string{dir}, Options{Extract: extract.Options{MinChars: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for ; ; n++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Skip != "" {
			t.Fatalf("%s skipped: %v", rec.Doc.Origin, rec.Err)
		}
		before := map[string]any{}
		if err := json.Unmarshal(rec.Doc.Raw, &before); err != nil {
			t.Fatal(err)
		}
		id := rec.Doc.ID + `#2"\`
		rec.SetID(id)
		after := map[string]any{}
		if err := json.Unmarshal(rec.Doc.Raw, &after); err != nil {
			t.Fatalf("%s: Raw %s: %v", rec.Doc.Origin, rec.Doc.Raw, err)
		}
		want := before
		if filepath.Base(rec.Doc.Origin) != "a.jsonl:1" { // the JSON object keeps its "x"
			want["id"] = id
		}
		if rec.Doc.ID != id {
			t.Errorf("%s: ID %q, want %q", rec.Doc.Origin, rec.Doc.ID, id)
		}
		if diff := cmp.Diff(want, after); diff != "" {
			t.Errorf("%s: Raw (-want +got)\n%s", rec.Doc.Origin, diff)
		}
	}
	if n != 4 {
		t.Errorf("%d records, want 4", n)
	}
}
