package index_test

import (
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestAddWithoutText: a document without text, or of white space alone,
// is skipped as empty and not stored, as neardup index add skips such a
// record; a stored document of its ID is left as it is, with Replace too,
// and a query of one says empty. Regression: it was stored, skipped as
// too-short, so that the same records added by the API and by index add
// made two indexes.
func TestAddWithoutText(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
			a := enginetest.Doc("a", enginetest.NewTextGen(5).Sentences(6))
			add(t, x, a)
			for _, replace := range []bool{false, true} {
				ms, err := x.Add(t.Context(), []core.Document{{ID: "none"}, {ID: "blank", Title: "A title", Text: " \n\t\u00a0"}, {ID: "a"}},
					index.AddOptions{Replace: replace})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					if m.Status != index.Skipped || m.Skip != core.SkipEmpty || m.Cluster != 0 || len(m.Pairs) != 0 || len(m.Differs) != 0 {
						t.Errorf("replace %v: %+v, want skipped, empty", replace, m)
					}
				}
			}
			st, err := x.Stats(t.Context())
			if err != nil || st.Documents != 1 || len(st.Skipped) != 0 {
				t.Errorf("stats %+v %v, want a alone", st.Counts, err)
			}
			if d, err := x.Document(t.Context(), "a"); err != nil || d.Text != a.Text {
				t.Errorf("a is not left as stored: %v", err)
			}
			ms, err := x.Query(t.Context(), []core.Document{{ID: "q"}})
			if err != nil || len(ms) != 1 || ms[0].Status != index.Checked || ms[0].Skip != core.SkipEmpty {
				t.Errorf("query: %+v %v, want checked, empty", ms, err)
			}
		})
	}
}
