package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// groups returns the index's clusters as sorted lists of member ids.
func groups(t *testing.T, x *index.Index) string {
	t.Helper()
	cs, _, err := x.Clusters(t.Context(), store.ClusterFilter{}, store.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, s := range cs {
		c, err := x.Cluster(t.Context(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, m := range c.Members {
			ids = append(ids, m.ID)
		}
		slices.Sort(ids)
		out = append(out, ids)
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return fmt.Sprint(out)
}

// The index places a new document by its linking policy as the batch's
// cluster.Linker does, fed the same duplicate pairs in the same order; its
// export says why each member is in as the batch does; a rescore groups
// again by the policy; a removal places again the documents it may move, as
// a fresh index of the rest would place them: without a, z has more links
// to [x y] than to b, and joins it.
func TestLinkingPolicies(t *testing.T) {
	g := enginetest.NewTextGen(23)
	s1, s2 := g.Sentences(8), g.Sentences(8)
	both := append(append([]string{}, s1...), s2...)
	docs := []core.Document{enginetest.Doc("a", s1), enginetest.Doc("b", s1), enginetest.Doc("x", s2),
		enginetest.Doc("y", s2), enginetest.Doc("z", both)}
	for _, tc := range []struct {
		link        cluster.Linking
		want, lessA string
		joined      string // the export's linking and why each member is in
	}{
		// z, a duplicate of all four, merges the two stories.
		{cluster.Any, "[[a b x y z]]", "[[b x y z]]",
			"[any: [[a first member] [b duplicate of a (1)] [x a later member is its duplicate] [y duplicate of x (1)] [z duplicate of a (0.5508)]]]"},
		// z has links to both members of each: the older cluster wins.
		{cluster.Majority, "[[a b z] [x y]]", "[[x y z]]",
			"[majority: [[a first member] [b duplicate of 1 of 1 members, best a (1)] [z duplicate of 2 of 2 members, best a (0.5508)]] majority: [[x first member] [y duplicate of 1 of 1 members, best x (1)]]]"},
		// z links to each first member: the older cluster wins.
		{cluster.Anchor, "[[a b z] [x y]]", "[[x y z]]",
			"[anchor: [[a first member] [b duplicate of the first member a (1)] [z duplicate of the first member a (0.5508)]] anchor: [[x first member] [y duplicate of the first member x (1)]]]"},
	} {
		t.Run(string(tc.link), func(t *testing.T) {
			x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{Link: tc.link})
			l := cluster.NewLinker(tc.link)
			ord := map[string]int32{}
			for i, d := range docs {
				ms := add(t, x, d)
				ord[d.ID] = int32(i)
				var links []cluster.Link
				for _, p := range ms[0].Pairs {
					if p.Label == core.Duplicate {
						links = append(links, cluster.Link{Other: ord[p.A], Score: p.Score})
					}
				}
				l.Add(int32(i), links)
			}
			var batch [][]string
			for _, grp := range l.Groups() {
				var ids []string
				for _, i := range grp {
					ids = append(ids, docs[i].ID)
				}
				batch = append(batch, ids)
			}
			if got := groups(t, x); got != tc.want || fmt.Sprint(batch) != tc.want {
				t.Errorf("index %s, batch %v, want %s", got, batch, tc.want)
			}
			var ex clusterExport
			if _, err := x.Export(t.Context(), &ex); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(ex.joined); got != tc.joined {
				t.Errorf("exported %s, want %s", got, tc.joined)
			}
			if _, err := x.Rescore(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != tc.want {
				t.Errorf("after a rescore: %s, want %s", got, tc.want)
			}
			if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != tc.lessA {
				t.Errorf("after removing a: %s, want %s", got, tc.lessA)
			}
			if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify: %v %v", faults, err)
			}
		})
	}
}

// A stored index keeps its linking policy: asking for another is refused.
func TestLinkingIsFixed(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{Link: cluster.Majority})
	if got := x.Meta().Link; got != string(cluster.Majority) {
		t.Errorf("stored linking %q", got)
	}
	x.Close()
	open(t, dsn, index.OpenOptions{}).Close() // its own
	_, err := index.Open(t.Context(), dsn, store.Options{}, specs, index.OpenOptions{Link: cluster.Anchor})
	if err == nil || !strings.Contains(err.Error(), "links by majority, not anchor") {
		t.Errorf("got %v, want a refusal", err)
	}
	_, err = index.Open(t.Context(), storetest.DSN(t, "sqlite"), store.Options{}, specs, index.OpenOptions{Link: "some"})
	if err == nil || !strings.Contains(err.Error(), "unknown linking") {
		t.Errorf("got %v, want an unknown linking", err)
	}
}

// clusterExport keeps, of an export, each cluster's linking and why each
// member is in.
type clusterExport struct{ joined []string }

func (e *clusterExport) Pair(*core.Pair) error     { return nil }
func (e *clusterExport) Kept(*store.Doc) error     { return nil }
func (e *clusterExport) Rejected(*store.Doc) error { return nil }
func (e *clusterExport) Cluster(c *core.Cluster) error {
	var ms []string
	for i, m := range c.Members {
		ms = append(ms, fmt.Sprintf("[%s %s]", m, c.Joined[i]))
	}
	e.joined = append(e.joined, c.Linking+": "+fmt.Sprint(ms))
	return nil
}
