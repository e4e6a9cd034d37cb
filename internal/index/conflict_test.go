package index_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestAnotherDocumentUnderAStoredID: a document added without Replace
// whose ID is stored with other content (title, URL, source, date or text)
// is reported Conflict, naming the fields, and not stored, while the other
// documents of its add are; the same document again is Exists, so that an
// add made twice changes nothing. So too within one add. Regression
// (reviewer's finding): another document under a stored ID, as two daily
// files of one name give by their positional ids (news.jsonl:1), was
// reported Exists and silently dropped, in an index of SQLite or
// PostgreSQL alike.
func TestAnotherDocumentUnderAStoredID(t *testing.T) {
	g := enginetest.NewTextGen(41)
	base := enginetest.Doc("news.jsonl:1", g.Sentences(12))
	base.Title, base.URL = "Ferry sinks", "https://example.com/ferry"
	base.Date = time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	other := g.Sentences(12)
	change := func(f func(d *core.Document)) core.Document {
		d := base
		f(&d)
		return d
	}
	for _, tc := range []struct {
		name string
		doc  core.Document
		want index.Status
		diff []string
	}{
		{"same document", base, index.Exists, nil},
		{"same, dated within the second", change(func(d *core.Document) { d.Date = d.Date.Add(time.Millisecond) }), index.Exists, nil},
		{"title", change(func(d *core.Document) { d.Title = "Ferry floats" }), index.Conflict, []string{"title"}},
		{"url", change(func(d *core.Document) { d.URL = "https://example.com/ferry-2" }), index.Conflict, []string{"url"}},
		{"source", change(func(d *core.Document) { d.Source = "wire" }), index.Conflict, []string{"source"}},
		{"date", change(func(d *core.Document) { d.Date = d.Date.AddDate(0, 0, 1) }), index.Conflict, []string{"date"}},
		{"undated", change(func(d *core.Document) { d.Date = time.Time{} }), index.Conflict, []string{"date"}},
		{"text", change(func(d *core.Document) { d.Text += " And one more." }), index.Conflict, []string{"text"}},
		{"another article", change(func(d *core.Document) {
			d.Title, d.Text, d.Date = "Day two", enginetest.Doc("", other).Text, d.Date.AddDate(0, 0, 1)
		}), index.Conflict, []string{"title", "date", "text"}},
	} {
		for _, c := range engineTexts() {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				x := open(t, storetest.DSN(t, c.engine), index.OpenOptions{StoreText: c.texts})
				add(t, x, base)
				fresh := enginetest.Doc("fresh", g.Sentences(12))
				ms := add(t, x, tc.doc, fresh)
				if ms[0].Status != tc.want || !slices.Equal(ms[0].Differs, tc.diff) {
					t.Errorf("the document again: %s %v, want %s %v", ms[0].Status, ms[0].Differs, tc.want, tc.diff)
				}
				if ms[1].Status != index.Added {
					t.Errorf("a new document beside it: %s, want added", ms[1].Status)
				}
				got, err := x.Document(t.Context(), base.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Title != base.Title || c.texts && got.Text != base.Text {
					t.Errorf("stored under %s: %q (%d bytes), want the first document left as it was (%d)", base.ID, got.Title, len(got.Text), len(base.Text))
				}
				if _, err := x.Document(t.Context(), "fresh"); err != nil {
					t.Errorf("the new document beside it: %v", err)
				}
			})
		}
	}
	// Within one add: a later document of an ID the add stored is compared
	// with that one.
	for _, e := range storetest.Engines {
		t.Run("within one add/"+e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{})
			again := change(func(d *core.Document) { d.Title = "Ferry floats" })
			ms := add(t, x, base, base, again)
			var got []index.Status
			for _, m := range ms {
				got = append(got, m.Status)
			}
			if want := []index.Status{index.Added, index.Exists, index.Conflict}; !slices.Equal(got, want) {
				t.Errorf("statuses (-want +got):\n%s", cmp.Diff(want, got))
			}
		})
	}
}

// engineText is a store engine, with an index that stores texts or not.
type engineText struct {
	name, engine string
	texts        bool
}

// engineTexts are the store engines, each with an index that stores texts
// and one that does not.
func engineTexts() []engineText {
	var out []engineText
	for _, e := range storetest.Engines {
		out = append(out, engineText{e, e, true}, engineText{e + ",no texts", e, false})
	}
	return out
}
