package index_test

import (
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// A document found stored (Exists) is reported with its stored cluster and
// that cluster's original, as an added one is, alone in an add or among
// others. Regression: an add's exists line gave no cluster and no original
// for a document stored in a cluster.
func TestExistsReportsItsCluster(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{})
			story := enginetest.NewTextGen(31).Sentences(12)
			wire, copy := enginetest.Doc("wire", story), enginetest.Doc("copy", story)
			wire.Date = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			copy.Date = wire.Date.Add(time.Hour)
			stored := add(t, x, copy, wire)
			if stored[1].Cluster == 0 || stored[1].Original != "wire" {
				t.Fatalf("added: %+v", stored)
			}
			other := enginetest.Doc("other", enginetest.NewTextGen(32).Sentences(12))
			for _, docs := range [][]core.Document{{copy}, {other, copy}} {
				ms := add(t, x, docs...)
				got := ms[len(ms)-1]
				if got.Status != index.Exists || got.Cluster != stored[1].Cluster || got.Original != "wire" {
					t.Errorf("%d documents: copy reported %+v, want exists in cluster %d, original wire", len(docs), got, stored[1].Cluster)
				}
			}
		})
	}
}

// A checked document whose ID is stored (Exists) is reported with its
// stored copy's cluster and original, as Add reports it. Regression: a
// query gave neither.
func TestQueryOfAStoredIDReportsItsCluster(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{})
			story := enginetest.NewTextGen(31).Sentences(12)
			wire, copy := enginetest.Doc("wire", story), enginetest.Doc("copy", story)
			wire.Date = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			copy.Date = wire.Date.Add(time.Hour)
			stored := add(t, x, copy, wire)
			other := enginetest.Doc("other", enginetest.NewTextGen(32).Sentences(12))
			for _, docs := range [][]core.Document{{copy}, {other, copy}, {wire}} {
				ms, err := x.Query(t.Context(), docs)
				if err != nil {
					t.Fatal(err)
				}
				got := ms[len(ms)-1]
				if got.Status != index.Exists || got.Cluster != stored[1].Cluster || got.Original != "wire" {
					t.Errorf("query of %d documents: %s reported %+v, want exists in cluster %d, original wire",
						len(docs), got.ID, got, stored[1].Cluster)
				}
				if len(docs) == 2 && (ms[0].Cluster != 0 || ms[0].Original != "") {
					t.Errorf("other, not stored: %+v, want no cluster", ms[0])
				}
			}
		})
	}
}
