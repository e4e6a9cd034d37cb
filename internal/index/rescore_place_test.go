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

// TestRescoreAfterReplaceClustersInPlaceOrder replaces each document of an
// index, rescores, and replaces another, under majority and anchor linking:
// the clusters are those of a fresh index of the documents in place order,
// the new version standing where the old one stood, and the marks the
// rescore stores verify (each names the document stored first A).
func TestRescoreAfterReplaceClustersInPlaceOrder(t *testing.T) {
	eachOrder(t, []cluster.Linking{cluster.Majority, cluster.Anchor}, func(t *testing.T, engine string, link cluster.Linking, order []core.Document) {
		fresh := func(docs []core.Document) string { return freshGroups(t, link, docs) }
		for i, d := range order {
			x := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
			add(t, x, order...)
			d.URL = "https://moved.example/" + d.ID
			if ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Replace: true}); err != nil || ms[0].Status != index.Replaced {
				t.Fatalf("replacing %s: %v %v", d.ID, ms, err)
			}
			inPlace := slices.Clone(order)
			inPlace[i] = d
			want := fresh(inPlace)
			if _, err := x.Rescore(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, groups(t, x)); diff != "" {
				t.Errorf("replacing %s then rescore (-fresh +index)\n%s", d.ID, diff)
			}
			if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify after replacing %s then rescore: %v %+v", d.ID, err, faults.List)
			}
			// a second replace of another document
			j := (i + 2) % len(order)
			e := order[j]
			e.URL = "https://moved2.example/" + e.ID
			if ms, err := x.Add(t.Context(), []core.Document{e}, index.AddOptions{Replace: true}); err != nil || ms[0].Status != index.Replaced {
				t.Fatalf("replacing %s: %v %v", e.ID, ms, err)
			}
			inPlace[j] = e
			if diff := cmp.Diff(fresh(inPlace), groups(t, x)); diff != "" {
				t.Errorf("replacing %s then %s (-fresh +index)\n%s", d.ID, e.ID, diff)
			}
		}
	})
}
