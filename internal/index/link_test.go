package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/tfidf"
)

// groupsAfterRescore checks that a rescore of x leaves its clusters want.
func groupsAfterRescore(t *testing.T, x *index.Index, want string) {
	t.Helper()
	if _, err := x.Rescore(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if got := groups(t, x); got != want {
		t.Errorf("after a rescore: %s, want %s", got, want)
	}
}

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
			l := cluster.NewLinker(tc.link, minhash.Defaults().BucketLimit)
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
			groupsAfterRescore(t, x, tc.want)
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
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(20).Sentences(8)))
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

// copiesPastTheBucketLimit returns n copies of each of two stories,
// interleaved as wire copy arrives: a00, b00, a01, b01, ...; the a are the
// same text byte for byte, each b the same text between a header line and
// a footer line of its own.
func copiesPastTheBucketLimit(g *enginetest.TextGen, n int) []core.Document {
	a, b := strings.Join(g.Sentences(12), " "), strings.Join(g.Sentences(12), " ")
	var docs []core.Document
	for i := range n {
		docs = append(docs, core.Document{ID: fmt.Sprintf("a%02d", i), Text: a},
			core.Document{ID: fmt.Sprintf("b%02d", i), Text: g.Sentences(1)[0] + "\n\n" + b + "\n\n" + g.Sentences(1)[0]})
	}
	return docs
}

// batchGroups returns the clusters of neardup dedup of docs by minhash of
// options o, linked by link, as groups returns an index's.
func batchGroups(t *testing.T, o minhash.Options, link cluster.Linking, docs []core.Document) string {
	t.Helper()
	b, err := minhash.Spec.NewBatchWith(o, engine.Grouping{Link: link})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Feed(t, b, docs)
	var out [][]string
	for _, c := range b.Result().Clusters {
		ids := slices.Clone(c.Members)
		slices.Sort(ids)
		out = append(out, ids)
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return fmt.Sprint(out)
}

// TestMajorityPastTheBucketLimit: many copies of one story, exact or each
// with lines of its own, are one cluster by --link majority, in the batch,
// in the index, and after a removal places them again. A document is
// compared with at most --bucket-limit members of a bucket, so it was a
// duplicate of fewer than half of a cluster of more than about twice that
// many, and started a new one: under a bucket limit of 4 the 24 exact
// copies made three clusters and a copy left out, the 24 reprints a
// cluster of 23 and one left out.
func TestMajorityPastTheBucketLimit(t *testing.T) {
	o := minhash.Defaults()
	o.BucketLimit = 4
	docs := copiesPastTheBucketLimit(enginetest.NewTextGen(59), 24)
	var as, bs []string
	for _, d := range docs {
		if d.ID[0] == 'a' {
			as = append(as, d.ID)
		} else {
			bs = append(bs, d.ID)
		}
	}
	want := fmt.Sprint([][]string{as, bs})
	if got := batchGroups(t, o, cluster.Majority, docs); got != want {
		t.Errorf("batch: %s\nwant %s", got, want)
	}
	gone := []string{"a00", "b00", "a11"}
	rest := slices.DeleteFunc(slices.Clone(docs), func(d core.Document) bool { return slices.Contains(gone, d.ID) })
	wantRest := fmt.Sprint([][]string{append(slices.Clone(as[1:11]), as[12:]...), bs[1:]})
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Majority, Method: o})
			add(t, x, docs...)
			if got := groups(t, x); got != want {
				t.Errorf("index: %s\nwant %s", got, want)
			}
			if removed, err := x.Remove(t.Context(), gone); err != nil || len(removed) != len(gone) {
				t.Fatalf("remove %v: %v %v", gone, removed, err)
			}
			if got := groups(t, x); got != wantRest {
				t.Errorf("after removing %v: %s\nwant %s", gone, got, wantRest)
			}
			if got := batchGroups(t, o, cluster.Majority, rest); got != wantRest {
				t.Errorf("batch of the rest: %s\nwant %s", got, wantRest)
			}
		})
	}
}

// TestExactCopiesJoinByEveryLinking: copies an add with Exact stores as
// copies of a story's first document (watch's), each compared with that
// document alone, are in its cluster by majority and anchor too, as they
// are by any, after a rescore and after a removal of the first too. By
// majority they had one link, to half of a cluster of two at most, and by
// anchor none to a first member that was another document: the third
// copy on, or every copy, was in no cluster.
func TestExactCopiesJoinByEveryLinking(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	docs := []core.Document{
		// A reprint published first, with a line of its own: the cluster's first member.
		{ID: "r", Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")},
		{ID: "s", Title: "Story", Text: strings.Join(story, " ")},
	}
	for i := range 5 {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: docs[1].Text})
	}
	for _, tc := range []struct {
		link   cluster.Linking
		joined string // why the last copy is in
	}{
		{cluster.Majority, "exact copy of s (1)"},
		{cluster.Anchor, "exact copy of s (1)"},
		{cluster.Any, "duplicate of s (1)"},
	} {
		t.Run(string(tc.link), func(t *testing.T) {
			x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{Link: tc.link})
			ms, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if ms[6].Skip != core.SkipExactCopy {
				t.Fatalf("c4 stored as %+v, want an exact copy", ms[6])
			}
			const want = "[[c0 c1 c2 c3 c4 r s]]"
			if got := groups(t, x); got != want {
				t.Errorf("index: %s, want %s", got, want)
			}
			var ex clusterExport
			if _, err := x.Export(t.Context(), &ex); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(ex.joined); !strings.Contains(got, "[c4 "+tc.joined+"]") {
				t.Errorf("exported %s, want c4 %s", got, tc.joined)
			}
			groupsAfterRescore(t, x, want)
			if _, err := x.Remove(t.Context(), []string{"s"}); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != "[[c0 c1 c2 c3 c4 r]]" {
				t.Errorf("after removing s: %s", got)
			}
			if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify: %v %v", faults, err)
			}
		})
	}
}

// TestReprintJoinsAStoryWithExactCopies: a reprint of a story (its text
// and a line of its own) that arrives after four exact copies of the story
// is in their cluster by every linking, as in dedup of the same
// documents, also after a rescore and a removal. The copies, stored
// without being compared, were counted among the members by majority
// while the reprint was compared with the story alone: one link of five,
// and the reprint was left out. A link to the story counts for the copies
// that stand for it.
func TestReprintJoinsAStoryWithExactCopies(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	docs := []core.Document{{ID: "s", Title: "Story", Text: strings.Join(story, " ")}}
	for i := range 4 {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: docs[0].Text})
	}
	docs = append(docs, core.Document{ID: "r", Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")})
	const want = "[[c0 c1 c2 c3 r s]]"
	for _, link := range []cluster.Linking{cluster.Majority, cluster.Anchor, cluster.Any} {
		if got := batchGroups(t, minhash.Defaults(), link, docs); got != want {
			t.Fatalf("%s: batch %s, want %s", link, got, want)
		}
		for _, e := range storetest.Engines {
			t.Run(string(link)+"/"+e, func(t *testing.T) {
				x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: link})
				ms, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true})
				if err != nil {
					t.Fatal(err)
				}
				if ms[4].Skip != core.SkipExactCopy || len(ms[5].Pairs) != 1 {
					t.Fatalf("c3 %+v, r %+v: want an exact copy, and a reprint compared with s alone", ms[4], ms[5])
				}
				if got := groups(t, x); got != want {
					t.Errorf("index: %s, want %s", got, want)
				}
				if link == cluster.Majority {
					var ex clusterExport
					if _, err := x.Export(t.Context(), &ex); err != nil {
						t.Fatal(err)
					}
					if got := fmt.Sprint(ex.joined); !strings.Contains(got, "[r duplicate of 5 of 5 members, best s (") {
						t.Errorf("exported %s, want r a duplicate of 5 of 5 members", got)
					}
				}
				groupsAfterRescore(t, x, want)
				if _, err := x.Remove(t.Context(), []string{"s"}); err != nil {
					t.Fatal(err)
				}
				if got, want := groups(t, x), batchGroups(t, minhash.Defaults(), link, docs[1:]); got != want {
					t.Errorf("after removing s: %s, want %s", got, want)
				}
			})
		}
	}
}

// TestRemovalPastTheBucketLimitPlacesByTheMarksStored pins what
// docs/index.md says of --link majority past the bucket limit: a removal
// places the documents left by the marks stored, and does not compare them
// again. Of ten identical documents under a bucket limit of 4, d9 was
// compared with d0 and d6 … d8; with d3 … d8 removed it keeps one mark of
// the three members left and leaves the cluster, which a new index of the
// four keeps it in. A rescore compares them again and joins it.
func TestRemovalPastTheBucketLimitPlacesByTheMarksStored(t *testing.T) {
	o := minhash.Defaults()
	o.BucketLimit = 4
	text := strings.Join(enginetest.NewTextGen(59).Sentences(12), " ")
	var docs []core.Document
	for i := range 10 {
		docs = append(docs, core.Document{ID: fmt.Sprintf("d%d", i), Text: text})
	}
	rest := []core.Document{docs[0], docs[1], docs[2], docs[9]}
	const fresh = "[[d0 d1 d2 d9]]"
	if got := batchGroups(t, o, cluster.Majority, rest); got != fresh {
		t.Fatalf("batch of the rest: %s, want %s", got, fresh)
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Majority, Method: o})
			add(t, x, docs...)
			if _, err := x.Remove(t.Context(), []string{"d3", "d4", "d5", "d6", "d7", "d8"}); err != nil {
				t.Fatal(err)
			}
			if got := groups(t, x); got != "[[d0 d1 d2]]" {
				t.Errorf("after the removal: %s, want [[d0 d1 d2]]", got)
			}
			y := open(t, storetest.DSN(t, e), index.OpenOptions{Link: cluster.Majority, Method: o})
			add(t, y, rest...)
			if got := groups(t, y); got != fresh {
				t.Errorf("a new index of the rest: %s, want %s", got, fresh)
			}
			groupsAfterRescore(t, x, fresh)
		})
	}
}

// TestCentralScoresACopyAsItsOriginal: by --keep central an index's
// export and a cluster's page choose the representative dedup of the same
// documents chooses, and say why alike, of a story, three exact copies
// stored without being compared and a reprint, beside other stories: the
// story, by minhash and by tfidf (which weighs again, and finds the
// reprint no duplicate). A copy, never sketched, scored 0 against every
// other member: by minhash the reprint was chosen. A copy is scored as
// its original.
func TestCentralScoresACopyAsItsOriginal(t *testing.T) {
	g := enginetest.NewTextGen(61)
	story := g.Sentences(12)
	docs := []core.Document{{ID: "s", Title: "Story", Text: strings.Join(story, " ")}}
	for i := range 3 {
		docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: "Story", Text: docs[0].Text})
	}
	docs = append(docs, core.Document{ID: "r", Title: "Reprint", Text: strings.Join(append(g.Sentences(1), story...), " ")})
	for i := range 6 { // other stories, by which tfidf weighs the story's words
		docs = append(docs, core.Document{ID: fmt.Sprint("o", i), Title: fmt.Sprint("Other ", i), Text: strings.Join(g.Sentences(12), " ")})
	}
	for _, spec := range []engine.Spec{minhash.Spec, tfidf.Spec} {
		b, err := spec.NewBatchWith(spec.Defaults(), engine.Grouping{Keep: cluster.Central})
		if err != nil {
			t.Fatal(err)
		}
		enginetest.Feed(t, b, docs)
		want := b.Result().Clusters
		b.Close()
		if len(want) != 1 || want[0].Representative != "s" {
			t.Fatalf("%s: batch clusters %+v, want one represented by s", spec.Name, want)
		}
		for _, e := range storetest.Engines {
			t.Run(spec.Name+"/"+e, func(t *testing.T) {
				x, err := index.Open(t.Context(), storetest.DSN(t, e), store.Options{Sync: "normal"}, []engine.Spec{spec},
					index.OpenOptions{Keep: cluster.Central})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { x.Close() })
				ms, err := x.Add(t.Context(), docs, index.AddOptions{Exact: true})
				if err != nil {
					t.Fatal(err)
				}
				if ms[1].Skip != core.SkipExactCopy {
					t.Fatalf("c0 stored as %+v, want an exact copy", ms[1])
				}
				got := export(t, x).clusters
				if len(got) != 1 || got[0].Representative != want[0].Representative || got[0].Why != want[0].Why {
					t.Fatalf("exported %+v, want represented as the batch's %+v", got, want[0])
				}
				c, err := x.Cluster(t.Context(), got[0].ID)
				if err != nil || c.Representative != "s" || c.Why != want[0].Why {
					t.Errorf("the cluster's page: %q (%s), %v; want s (%s)", c.Representative, c.Why, err, want[0].Why)
				}
			})
		}
	}
}
