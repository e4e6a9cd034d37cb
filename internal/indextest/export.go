package indextest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// policies are the representative policies a cluster can be exported by.
var policies = []cluster.Policy{cluster.Central, cluster.Longest, cluster.Earliest, cluster.First}

// exported is what an export, or a batch, gives of a corpus's clusters:
// each cluster without its id (an index numbers its own), and the IDs of
// the documents kept, in order.
type exported struct {
	Clusters []core.Cluster
	Kept     []string
}

// rescoredExportMatchesBatch: an index built in chunks and rescored
// exports the clusters of a batch of the same documents in the same order,
// with the same representative by every policy, and keeps the same
// documents. A central member is chosen by the statistics of the whole
// index, as the batch chooses it, not by what each member was made into
// when it arrived: each story of lateCopies has an identical copy that
// arrives last, when the corpus has grown, and weighs its words otherwise
// than its original did (the index chose it, or another member, where the
// batch chose the original).
func (s Suite) rescoredExportMatchesBatch(t *testing.T) {
	docs := lateCopies(enginetest.NewTextGen(9))
	want := map[cluster.Policy]exported{}
	for _, keep := range policies {
		b, err := s.Spec.NewBatch(s.Options, keep)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		enginetest.Feed(t, b, docs)
		var w exported
		for _, c := range b.Result().Clusters {
			c.ID = 0
			w.Clusters = append(w.Clusters, c)
		}
		for i := range docs {
			if b.Kept(i) {
				w.Kept = append(w.Kept, docs[i].ID)
			}
		}
		if len(w.Clusters) < 4 {
			t.Fatalf("the batch found %d clusters: %+v", len(w.Clusters), w.Clusters)
		}
		want[keep] = w
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := OpenAt(t, dsn, s.Spec, s.Options)
			AddAll(t, x, docs, 10)
			if _, err := x.Rescore(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			x.Close()
			for _, keep := range policies {
				x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{s.Spec},
					index.OpenOptions{Method: s.Options, Keep: keep, Existing: true})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { x.Close() })
				var got exportedBy
				if _, err = x.Export(t.Context(), &got); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want[keep], got.exported); diff != "" {
					t.Errorf("--keep %s: the export differs from the batch (-want +got):\n%s", keep, diff)
				}
				for i, id := range got.ids { // a cluster's page names the same
					c, err := x.Cluster(t.Context(), id)
					if err != nil || c.Representative != got.Clusters[i].Representative || c.Why != got.Clusters[i].Why {
						t.Errorf("--keep %s: cluster %d's page: %q (%s), %v; exported %q (%s)", keep, id,
							c.Representative, c.Why, err, got.Clusters[i].Representative, got.Clusters[i].Why)
					}
				}
				x.Close()
			}
		})
	}
}

// exportedBy is an index.Exporter that keeps what it is sent of clusters,
// and their ids.
type exportedBy struct {
	exported
	ids []int64
}

func (e *exportedBy) Pair(*core.Pair) error { return nil }

func (e *exportedBy) Cluster(c *core.Cluster) error {
	k := *c
	e.ids, k.ID = append(e.ids, c.ID), 0
	e.Clusters = append(e.Clusters, k)
	return nil
}

func (e *exportedBy) Kept(d *store.Doc) error {
	e.exported.Kept = append(e.exported.Kept, d.ID)
	return nil
}

func (e *exportedBy) Rejected(*store.Doc) error { return nil }

// lateCopies returns six stories told four times each among unrelated
// documents, in five sources (each telling of a story in another): each
// story's original comes first, two versions of it with a sentence
// replaced after the corpus has doubled, and an identical copy of the
// original last, after it has doubled again. The documents are dated
// out of the order they come in.
func lateCopies(g *enginetest.TextGen) []core.Document {
	const stories = 6
	var docs []core.Document
	doc := func(id string, source int, sents []string) {
		d := enginetest.Doc(id, sents)
		d.Source = fmt.Sprint("source", source%5)
		d.Date = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(len(docs)*37%101) * time.Hour)
		docs = append(docs, d)
	}
	background := func(n int) {
		for i := range n {
			doc(fmt.Sprint("bg", len(docs)), i, g.Sentences(10))
		}
	}
	bases := make([][]string, stories)
	for k := range bases {
		bases[k] = g.Sentences(10)
		doc(fmt.Sprint("story", k), k, bases[k])
	}
	background(10)
	for v := 1; v <= 2; v++ {
		for k, base := range bases {
			edited := append([]string(nil), base...)
			edited[2*v] = g.Sentence()
			doc(fmt.Sprintf("story%d-v%d", k, v), k+v, edited)
		}
	}
	background(25)
	for k, base := range bases {
		doc(fmt.Sprintf("story%d-copy", k), k+3, base)
	}
	return docs
}
