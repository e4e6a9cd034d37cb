package index_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestReplaceWithinOneAddPlacesAgain replaces a version stored earlier in
// the same add (a new ID stored and replaced, or a stored one replaced twice)
// under majority and anchor linking: the clusters are those of a fresh index
// of the documents in place order.
func TestReplaceWithinOneAddPlacesAgain(t *testing.T) {
	eachOrder(t, []cluster.Linking{cluster.Majority, cluster.Anchor}, func(t *testing.T, engine string, link cluster.Linking, order []core.Document) {
		fresh := func(docs []core.Document) string { return freshGroups(t, link, docs) }
		for i, d := range order {
			// new ID stored and replaced within the same add
			x := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
			d.URL = "https://moved.example/" + d.ID
			if _, err := x.Add(t.Context(), append(slices.Clone(order), d), index.AddOptions{Replace: true}); err != nil {
				t.Fatal(err)
			}
			inPlace := slices.Clone(order)
			inPlace[i] = d
			if diff := cmp.Diff(fresh(inPlace), groups(t, x)); diff != "" {
				t.Errorf("one add of order then %s' (-fresh +index)\n%s", d.ID, diff)
			}
			// stored, then replaced twice in one add
			y := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
			add(t, y, order...)
			d2 := d
			d2.URL = "https://moved2.example/" + d.ID
			if _, err := y.Add(t.Context(), []core.Document{d, d2}, index.AddOptions{Replace: true}); err != nil {
				t.Fatal(err)
			}
			inPlace[i] = d2
			if diff := cmp.Diff(fresh(inPlace), groups(t, y)); diff != "" {
				t.Errorf("replacing %s twice in one add (-fresh +index)\n%s", d.ID, diff)
			}
		}
	})
}
