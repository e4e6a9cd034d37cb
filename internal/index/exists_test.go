package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
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
// stored copy's cluster and original, as Add reports it, by a method that
// checks beside writes (minhash) and one that checks with the index to
// itself (sentences). Regression: a query gave neither.
func TestQueryOfAStoredIDReportsItsCluster(t *testing.T) {
	for _, c := range [][2]string{{minhash.Name, "sqlite"}, {sentences.Name, "sqlite"}, {minhash.Name, "postgres"}, {sentences.Name, "postgres"}} {
		method, e := c[0], c[1]
		if !slices.Contains(storetest.Engines, e) {
			continue
		}
		t.Run(method+"/"+e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{MethodName: method})
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

// A document given with Replace that is the one stored under its ID is
// left as stored and reported Unchanged, with its cluster and original:
// it keeps its place among the documents of its date. Regression: it was
// stored anew, after the other document of its date, which then became
// the original (and the cluster was renumbered). A document that differs
// in any field, or in its text, is stored anew, as before, in the place of
// the version it replaces (TestReplacedOriginalKeepsItsPlace).
func TestReplaceByTheSameDocumentLeavesItAsStored(t *testing.T) {
	for _, e := range storetest.Engines {
		for _, texts := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/texts=%v", e, texts), func(t *testing.T) {
				x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: texts})
				story := enginetest.NewTextGen(41).Sentences(12)
				first, second := enginetest.Doc("first", story), enginetest.Doc("second", story)
				first.Date = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
				second.Date = first.Date
				stored := add(t, x, first, second)
				if stored[1].Original != "first" {
					t.Fatalf("added: %+v", stored)
				}
				replace := func(d core.Document) index.Match {
					t.Helper()
					ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Replace: true})
					if err != nil {
						t.Fatal(err)
					}
					return ms[0]
				}
				for range 2 {
					if got := replace(first); got.Status != index.Unchanged || got.Cluster != stored[1].Cluster || got.Original != "first" {
						t.Errorf("the same document again: %+v, want unchanged in cluster %d, original first", got, stored[1].Cluster)
					}
				}
				retitled := first
				retitled.Title += " (updated)"
				if got := replace(retitled); got.Status != index.Replaced || got.Original != "first" {
					t.Errorf("retitled: %+v, want replaced, still the original (in the place of the version replaced)", got)
				}
				edited := second
				edited.Text = strings.Replace(edited.Text, ".", ";", 1)
				if got := replace(edited); got.Status != index.Replaced {
					t.Errorf("text edited: %+v, want replaced", got)
				}
			})
		}
	}
}

// A checked document whose ID is stored with other content is reported
// Conflict, naming the fields that differ, as Add reports it, with no
// cluster and no original (those of the stored document, another), and
// matched as if it replaced the stored one: a story of another cluster
// under the ID of the first cluster's original, and the original again
// under another date, by a method that checks beside writes (minhash) and
// one that checks with the index to itself (sentences), with and without
// texts. Regression: both were reported exists with the stored cluster and
// original, beside matches of the other story, or matches naming
// themselves the original where the line named the stored one.
func TestQueryOfAnotherDocumentUnderAStoredID(t *testing.T) {
	for _, method := range []string{minhash.Name, sentences.Name} {
		for _, c := range engineTexts() {
			t.Run(method+"/"+c.name, func(t *testing.T) {
				x := open(t, storetest.DSN(t, c.engine), index.OpenOptions{MethodName: method, StoreText: c.texts})
				theft, budget := enginetest.NewTextGen(31).Sentences(12), enginetest.NewTextGen(32).Sentences(12)
				day := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
				doc := func(id string, sents []string, hours int) core.Document {
					d := enginetest.Doc(id, sents)
					d.Source, d.Date = "wire", day.Add(time.Duration(hours)*time.Hour)
					return d
				}
				stored := add(t, x, doc("theft", theft, 0), doc("theft-copy", theft, 2), doc("budget", budget, 1), doc("budget-copy", budget, 3))
				if stored[1].Original != "theft" || stored[3].Original != "budget" || stored[1].Cluster == stored[3].Cluster {
					t.Fatalf("stored: %+v", stored)
				}
				for _, tc := range []struct {
					name    string
					doc     core.Document
					differs []string
					matches []string
				}{
					{"another story", doc("theft", budget, 5), []string{"date", "text"}, []string{"budget", "budget-copy"}},
					{"another date", doc("theft", theft, 4), []string{"date"}, []string{"theft-copy"}},
				} {
					ms, err := x.Query(t.Context(), []core.Document{tc.doc})
					if err != nil {
						t.Fatal(err)
					}
					m := ms[0]
					var ids []string
					for _, p := range m.Pairs {
						other := p.Other(m.ID) // the pair as export writes it: the queried document may be its A
						ids = append(ids, other)
						if p.Original != "" && p.Original != other && p.Original != m.ID {
							t.Errorf("%s: pair with %s names %s the original", tc.name, other, p.Original)
						}
					}
					slices.Sort(ids)
					if m.Status != index.Conflict || !slices.Equal(m.Differs, tc.differs) || m.Cluster != 0 || m.Original != "" ||
						!slices.Equal(ids, tc.matches) {
						t.Errorf("%s: %s %v cluster %d original %q, matches %v; want conflict %v, no cluster, no original, matches %v",
							tc.name, m.Status, m.Differs, m.Cluster, m.Original, ids, tc.differs, tc.matches)
					}
				}
			})
		}
	}
}
