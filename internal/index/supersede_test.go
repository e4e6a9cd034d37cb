package index_test

import (
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestReplacedWithinOneAdd: with Replace, a document that a later one of
// the same add and ID replaces is reported Superseded, with no cluster, no
// original and no matches, and the last of the ID Added when the ID was
// not stored before the add, else Replaced; every other result's cluster,
// original and pairs are those that stand once the add is stored.
// Regression: the first of two documents of one ID reported a cluster that
// did not exist once the add was stored, or one it was not in, and no
// original; z, between two versions of x, reported a duplicate of the
// version replaced; the last of an ID new to the index was reported
// Replaced, and an add of three records of one ID to an empty index
// counted no document added.
func TestReplacedWithinOneAdd(t *testing.T) {
	g := enginetest.NewTextGen(61)
	a := g.Sentences(10)
	near := append(append([]string(nil), a[:9]...), g.Sentences(1)...)
	y := enginetest.Doc("y", near)
	x1, z := enginetest.Doc("x", a), enginetest.Doc("z", a)
	x2 := enginetest.Doc("x", g.Sentences(10))
	for _, tc := range []struct {
		name   string
		stored []core.Document
		add    []core.Document
		want   []index.Status
	}{
		{"x new", []core.Document{y}, []core.Document{x1, z, x2}, []index.Status{index.Superseded, index.Added, index.Added}},
		{"x stored", []core.Document{y, x2}, []core.Document{x1, z, x2}, []index.Status{index.Superseded, index.Added, index.Replaced}},
		{"x stored, given unchanged first", []core.Document{y, x1}, []core.Document{x1, z, x2}, []index.Status{index.Superseded, index.Added, index.Replaced}},
		{"a cluster that goes with it", nil, []core.Document{x1, enginetest.Doc("w", a), x2}, []index.Status{index.Superseded, index.Added, index.Added}},
		{"three of x", []core.Document{y}, []core.Document{x1, z, x2, x1}, []index.Status{index.Superseded, index.Added, index.Superseded, index.Added}},
		{"three of x stored", []core.Document{y, x2}, []core.Document{x1, z, x2, x1}, []index.Status{index.Superseded, index.Added, index.Superseded, index.Replaced}},
		{"three of x in an empty index", nil, []core.Document{x1, x2, x1}, []index.Status{index.Superseded, index.Superseded, index.Added}},
	} {
		for _, e := range storetest.Engines {
			t.Run(tc.name+"/"+e, func(t *testing.T) {
				x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
				add(t, x, tc.stored...)
				ms, err := x.Add(t.Context(), tc.add, index.AddOptions{Replace: true})
				if err != nil {
					t.Fatal(err)
				}
				for i, m := range ms {
					if m.Status != tc.want[i] {
						t.Errorf("document %d (%s): status %s, want %s", i+1, m.ID, m.Status, tc.want[i])
					}
					if m.Status == index.Superseded && (m.Cluster != 0 || m.Original != "" || len(m.Pairs) != 0) {
						t.Errorf("document %d (%s), superseded: %+v, want no cluster, original or matches", i+1, m.ID, m)
					}
					if m.Status != index.Superseded {
						checkFinal(t, x, m)
					}
				}
			})
		}
	}
}

// checkFinal checks m against the index: its cluster holds it, with the
// original m names, and each pair it reports is a stored mark. The
// document's page shows a mark with the earlier-placed document as a: a
// new version stored in the place of the one it replaced is a where the
// add, which reports the document added as b, has it b.
func checkFinal(t *testing.T, x *index.Index, m index.Match) {
	t.Helper()
	d, err := x.Document(t.Context(), m.ID)
	if err != nil {
		t.Fatalf("%s: %v", m.ID, err)
	}
	for _, p := range m.Pairs {
		if !slices.ContainsFunc(d.Marks, func(k browse.Mark) bool {
			return (k.A == p.A && k.B == p.B || k.A == p.B && k.B == p.A) && k.Label == p.Label
		}) {
			t.Errorf("%s: reports %s %s of %s, not stored (stored: %+v)", m.ID, p.Label, p.B, p.A, d.Marks)
		}
	}
	if d.Cluster != m.Cluster {
		t.Errorf("%s: reported in cluster %d, stored in %d", m.ID, m.Cluster, d.Cluster)
	}
	if m.Cluster != 0 {
		c, err := x.Cluster(t.Context(), m.Cluster)
		if err != nil || c.Original != m.Original {
			t.Errorf("%s: cluster %d: original %q, %v; reported %q", m.ID, m.Cluster, c.Original, err, m.Original)
		}
	}
}

// TestReplaceExactCopyOfTheReplaced: with Replace and Exact, a document of
// the add that copies the stored version another document of the add
// replaces is no copy of it (that version is gone), and adding the same
// documents again leaves the index sound. Regression: the exact keys read
// before the add still named the removed version, so the copy was marked
// against a document no longer stored (Verify: "mark … names a document
// that is not stored").
func TestReplaceExactCopyOfTheReplaced(t *testing.T) {
	g := enginetest.NewTextGen(61)
	a := g.Sentences(10)
	x0, x1, y := enginetest.Doc("x", a), enginetest.Doc("x", g.Sentences(10)), enginetest.Doc("y", a)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
			add(t, x, x0)
			for round, docs := range [][]core.Document{{x1, y}, {y, x1}, {x1, y}} {
				ms, err := x.Add(t.Context(), docs, index.AddOptions{Replace: true, Exact: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					checkFinal(t, x, m)
				}
				if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
					t.Fatalf("round %d: verify: %v %v", round+1, faults.List, err)
				}
			}
		})
	}
}
