package index_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestRescoreAfterReplaceClustersInPlaceOrder replaces each document of an
// index, rescores, and replaces another, under majority and anchor linking:
// the clusters are those of a fresh index of the documents in place order,
// the new version standing where the old one stood, and the marks the
// rescore stores verify (each names the document stored first A).
func TestRescoreAfterReplaceClustersInPlaceOrder(t *testing.T) {
	docs := chain(enginetest.NewTextGen(41))
	orders := map[string][]core.Document{"chain": docs, "reversed": reorder(docs, 5, 4, 3, 2, 1, 0), "mixed": reorder(docs, 2, 0, 4, 1, 5, 3)}
	for _, engine := range storetest.Engines {
		for _, link := range []cluster.Linking{cluster.Majority, cluster.Anchor} {
			for name, order := range orders {
				t.Run(fmt.Sprintf("%s/%s/%s", engine, link, name), func(t *testing.T) {
					fresh := func(docs []core.Document) string {
						x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{Link: link})
						add(t, x, docs...)
						return groups(t, x)
					}
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
		}
	}
}
