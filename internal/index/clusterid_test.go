package index_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// clusterOf returns, by document id, the cluster each exported cluster's
// member is in.
func clusterOf(t *testing.T, x *index.Index) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, c := range export(t, x).clusters {
		for _, m := range c.Members {
			out[m] = c.ID
		}
	}
	return out
}

// TestReplaceKeepsTheClusterID: a new version of a stored document
// (Replace) that joins the members of its old version's cluster again
// leaves that cluster its id, standing where the old version stood in the
// order of the id rule. Regression: the replace removed the old version,
// which took the id from a cluster it left of one member (or split), and
// the new version then joined the members under a new id.
func TestReplaceKeepsTheClusterID(t *testing.T) {
	g := enginetest.NewTextGen(71)
	s1, s2 := g.Sentences(10), g.Sentences(10)
	edited := slices.Clone(s1)
	edited[4] = g.Sentence()
	for _, tc := range []struct {
		name    string
		stored  []core.Document // the first is replaced
		replace []core.Document // in one add; the last is checked
		// want says, by id, which of stored's clusters (by its first
		// member, "" for none) each document is in after the replace;
		// fresh names a cluster of a new id, one for all it names.
		want map[string]string
		// links are the linking policies of the case, nil for all.
		links []cluster.Linking
	}{
		{"two members",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", edited)},
			map[string]string{"A": "A", "B": "A"}, nil},
		{"three members, the replaced one the oldest and their one link",
			[]core.Document{enginetest.Doc("A", slices.Concat(s1, s2)), enginetest.Doc("B", s1), enginetest.Doc("C", s2)},
			[]core.Document{enginetest.Doc("A", slices.Concat(s1, s2, []string{g.Sentence()}))},
			map[string]string{"A": "A", "B": "A", "C": "A"},
			// By Majority and Anchor the new version joins one of B and
			// C, each left a cluster of one, and the other stays alone.
			[]cluster.Linking{cluster.Any}},
		{"split, the new version's part first",
			[]core.Document{enginetest.Doc("A", slices.Concat(s1, s2)), enginetest.Doc("B", s1), enginetest.Doc("C", s2),
				enginetest.Doc("D", append(slices.Clone(s2), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", append(slices.Clone(s1), g.Sentence()))},
			// The removal leaves the id to C and D; the new version,
			// standing where A stood, comes before them and takes it.
			map[string]string{"A": "A", "B": "A", "C": "fresh", "D": "fresh"},
			[]cluster.Linking{cluster.Any, cluster.Anchor}},
		{"three members, the replaced one the oldest",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence())),
				enginetest.Doc("C", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", edited)},
			map[string]string{"A": "A", "B": "A", "C": "A"}, nil},
		{"no longer a match, the members left a cluster",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence())),
				enginetest.Doc("C", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", s2)},
			map[string]string{"B": "A", "C": "A"}, nil},
		{"replaced twice in one add, first by a version that matches nothing",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", s2), enginetest.Doc("A", edited)},
			// As by the edited version alone: the cluster of the version
			// stored before the add is kept, not that of the one the add
			// stored a moment earlier (none).
			map[string]string{"A": "A", "B": "A"}, nil},
		{"replaced twice in one add",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", edited), enginetest.Doc("A", append(slices.Clone(edited), g.Sentence()))},
			map[string]string{"A": "A", "B": "A"}, nil},
		{"no longer a match, one member left",
			[]core.Document{enginetest.Doc("A", s1), enginetest.Doc("B", append(slices.Clone(s1), g.Sentence()))},
			[]core.Document{enginetest.Doc("A", s2)},
			map[string]string{}, nil},
	} {
		links := tc.links
		if links == nil {
			links = []cluster.Linking{cluster.Any, cluster.Majority, cluster.Anchor}
		}
		for _, link := range links {
			for _, e := range storetest.Engines {
				t.Run(tc.name+"/"+string(link)+"/"+e, func(t *testing.T) {
					x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: link})
					add(t, x, tc.stored...)
					before := clusterOf(t, x)
					if len(before) != len(tc.stored) {
						t.Fatalf("before the replace: clusters %v, want one of %d members", before, len(tc.stored))
					}
					ms, err := x.Add(t.Context(), tc.replace, index.AddOptions{Replace: true})
					if err != nil {
						t.Fatal(err)
					}
					last := ms[len(ms)-1]
					if last.Status != index.Replaced {
						t.Fatalf("replace: %s, want %s", last.Status, index.Replaced)
					}
					after := clusterOf(t, x)
					if c, ok := after["A"]; ok != (last.Cluster != 0) || c != last.Cluster {
						t.Errorf("the replace reported cluster %d, the index holds %d", last.Cluster, c)
					}
					got := map[string]string{}
					fresh := map[int64]bool{} // the ids of the clusters named fresh
					for id, c := range after {
						got[id] = "fresh"
						fresh[c] = true
						for _, d := range tc.stored {
							if before[d.ID] == c {
								got[id] = d.ID
								delete(fresh, c)
								break
							}
						}
					}
					for id := range got {
						if _, ok := tc.want[id]; !ok {
							t.Errorf("%s in cluster %s, want in none", id, got[id])
						}
					}
					for id, w := range tc.want {
						if got[id] != w {
							t.Errorf("%s in cluster %q, want %q (before %v, after %v)", id, got[id], w, before, after)
						}
					}
					if len(fresh) > 1 {
						t.Errorf("the fresh members are in %d clusters, want one (after %v)", len(fresh), after)
					}
				})
			}
		}
	}
}

// TestReplaceKeepsTheIDTheRemovalMade: when a replace splits a cluster and
// the part that keeps its id comes first, the new version's part keeps the
// id the removal gave it, with no id left unused. Regression: each member
// of that part had the former id, which the first part took, and the part
// took a new id, leaving the one the removal made to none.
func TestReplaceKeepsTheIDTheRemovalMade(t *testing.T) {
	g := enginetest.NewTextGen(71)
	s1, s2 := g.Sentences(10), g.Sentences(10)
	D := enginetest.Doc
	// A links C, D and B, E; the replace keeps it with B and E alone.
	stored := []core.Document{D("C", s2), D("D", append(slices.Clone(s2), g.Sentence())), D("A", slices.Concat(s1, s2)),
		D("B", s1), D("E", append(slices.Clone(s1), g.Sentence()))}
	replace := D("A", append(slices.Clone(s1), g.Sentence()))
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Any})
			add(t, x, stored...)
			if got, want := clusterOf(t, x), map[string]int64{"A": 1, "B": 1, "C": 1, "D": 1, "E": 1}; !maps.Equal(got, want) {
				t.Fatalf("before the replace: clusters %v, want %v", got, want)
			}
			ms, err := x.Add(t.Context(), []core.Document{replace}, index.AddOptions{Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			if ms[0].Status != index.Replaced || ms[0].Cluster != 2 {
				t.Errorf("replace: %s in cluster %d, want replaced in cluster 2", ms[0].Status, ms[0].Cluster)
			}
			want := map[string]int64{"C": 1, "D": 1, "A": 2, "B": 2, "E": 2}
			if got := clusterOf(t, x); !maps.Equal(got, want) {
				t.Errorf("after the replace: clusters %v, want %v", got, want)
			}
		})
	}
}
