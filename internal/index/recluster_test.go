package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// chain returns documents that duplicate marks chain from one story to
// another: c1~c2, c2~c3, c3~c4, c3~c5 and c4~c5 are duplicates, no other
// pair is, and u1 matches nothing. Which of them a cluster holds then
// depends on the linking policy and on the order they are added.
func chain(g *enginetest.TextGen) []core.Document {
	q, l := g.Sentences(14), g.Sentences(14)
	return []core.Document{
		enginetest.Doc("c1", q),
		enginetest.Doc("c2", append(slices.Clone(q[4:]), l[:5]...)),
		enginetest.Doc("c3", append(slices.Clone(q[9:]), l[:12]...)),
		enginetest.Doc("c4", l),
		enginetest.Doc("c5", l[1:]),
		enginetest.Doc("u1", g.Sentences(14)),
	}
}

// reorder returns the documents of docs at the given positions, in order.
func reorder(docs []core.Document, at ...int) []core.Document {
	out := make([]core.Document, len(at))
	for i, k := range at {
		out[i] = docs[k]
	}
	return out
}

// TestRemovalReclustersLikeAFreshIndex: after a removal, by every linking
// policy and from every store engine, the clusters are those of a fresh
// index of the documents left, added in the same order. Placing again only
// the members left of the cluster that lost one (as removal did) lost a
// document that the removal let join: with majority, removing c2 from
// [c1 c2 c3] [c4 c5] left [c4 c5] where a fresh index holds [c3 c4 c5], c3
// being a duplicate of both; with anchor, removing c1 of [c1 c2] [c3 c4 c5]
// left c2 alone, where a fresh index holds [c2 c3] [c4 c5]. A replace
// gives the fresh index of the documents with the new version where the
// old one was, as dedup of them as they now stand reads them. Regression:
// a replace was a removal and an add at the end, so two documents joined
// through the old version alone (c1 and c3 through c2, added in that
// order) ended with the new version joining one of them, the other alone.
func TestRemovalReclustersLikeAFreshIndex(t *testing.T) {
	eachOrder(t, []cluster.Linking{cluster.Any, cluster.Majority, cluster.Anchor}, removals)
}

// eachOrder runs check under every store engine, each of links and the
// chain corpus in three orders (as made, reversed and mixed).
func eachOrder(t *testing.T, links []cluster.Linking, check func(t *testing.T, engine string, link cluster.Linking, order []core.Document)) {
	docs := chain(enginetest.NewTextGen(41))
	orders := []struct {
		name string
		docs []core.Document
	}{
		{"chain", docs},
		{"reversed", reorder(docs, 5, 4, 3, 2, 1, 0)},
		{"mixed", reorder(docs, 2, 0, 4, 1, 5, 3)},
	}
	for _, engine := range storetest.Engines {
		for _, link := range links {
			for _, o := range orders {
				t.Run(fmt.Sprintf("%s/%s/%s", engine, link, o.name), func(t *testing.T) {
					check(t, engine, link, o.docs)
				})
			}
		}
	}
}

// freshGroups returns the clusters of a fresh index under link of docs,
// added in their order: what an index whose documents stand in that order
// must hold.
func freshGroups(t *testing.T, link cluster.Linking, docs []core.Document) string {
	x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{Link: link})
	add(t, x, docs...)
	return groups(t, x)
}

// removals removes each document of order, then each two neighbours,
// from an index of order, and replaces each, comparing the clusters with
// those of a fresh index.
func removals(t *testing.T, engine string, link cluster.Linking, order []core.Document) {
	fresh := func(docs []core.Document) string { return freshGroups(t, link, docs) }
	without := func(gone ...string) []core.Document {
		return slices.DeleteFunc(slices.Clone(order), func(d core.Document) bool { return slices.Contains(gone, d.ID) })
	}
	var cases [][]string
	for i := range order {
		cases = append(cases, []string{order[i].ID})
	}
	for i := 1; i < len(order); i++ {
		cases = append(cases, []string{order[i-1].ID, order[i].ID})
	}
	for _, gone := range cases {
		x := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
		add(t, x, order...)
		if removed, err := x.Remove(t.Context(), gone); err != nil || len(removed) != len(gone) {
			t.Fatalf("remove %v: %v %v", gone, removed, err)
		}
		if diff := cmp.Diff(fresh(without(gone...)), groups(t, x)); diff != "" {
			t.Errorf("removing %v (-fresh index +index)\n%s", gone, diff)
		}
		if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
			t.Errorf("removing %v: verify: %v %v", gone, faults, err)
		}
	}
	for _, d := range order {
		x := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
		add(t, x, order...)
		d.URL = "https://moved.example/" + d.ID // another document: replaced, not left as stored
		if ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Replace: true}); err != nil || ms[0].Status != index.Replaced {
			t.Fatalf("replacing %s: %v %v", d.ID, ms, err)
		}
		i := slices.IndexFunc(order, func(o core.Document) bool { return o.ID == d.ID })
		inPlace := slices.Clone(order)
		inPlace[i] = d
		want := fresh(inPlace)
		if diff := cmp.Diff(want, groups(t, x)); diff != "" {
			t.Errorf("replacing %s (-fresh index +index)\n%s", d.ID, diff)
		}
		// A removal after it places the documents again in that order too.
		if i+1 == len(order) {
			continue
		}
		gone := order[i+1].ID
		if removed, err := x.Remove(t.Context(), []string{gone}); err != nil || len(removed) != 1 {
			t.Fatalf("remove %s: %v %v", gone, removed, err)
		}
		want = fresh(slices.Delete(slices.Clone(inPlace), i+1, i+2))
		if diff := cmp.Diff(want, groups(t, x)); diff != "" {
			t.Errorf("replacing %s, then removing %s (-fresh index +index)\n%s", d.ID, gone, diff)
		}
	}
}

// TestReplacesPlaceLikeAFreshIndex: by every linking policy and from every
// store engine, an index that documents are added to and replaced in, a
// new version sent with Replace where its old one was, holds after each
// change the clusters of a fresh index of the documents as they now stand,
// added in place order, and of dedup of them in that order; and verify
// finds it sound. The documents are windows of a few stories with
// sentences of their own, so that which pairs are duplicates, and which
// only similar, varies with each version. Regressions: by majority, a new
// version of a document in no cluster, placed last, joined a cluster of
// later documents it was a duplicate of, before which it stands (alone in
// a fresh index, as only similar to the first); by anchor, a cluster whose
// first member was replaced was named by its member stored first, so that
// a later duplicate of the new version, the first in place order, joined
// no cluster.
func TestReplacesPlaceLikeAFreshIndex(t *testing.T) {
	for _, engine := range storetest.Engines {
		for _, link := range []cluster.Linking{cluster.Any, cluster.Majority, cluster.Anchor} {
			for seed := range uint64(6) {
				t.Run(fmt.Sprintf("%s/%s/%d", engine, link, seed), func(t *testing.T) {
					replaces(t, engine, link, seed)
				})
			}
		}
	}
}

// replaces adds documents to an index of link and replaces some, in an
// order of seed, checking its clusters after each change.
func replaces(t *testing.T, engine string, link cluster.Linking, seed uint64) {
	g := enginetest.NewTextGen(300 + seed)
	rng := rand.New(rand.NewPCG(seed, 17))
	stories := [][]string{g.Sentences(18), g.Sentences(18)}
	version := func(id string) core.Document {
		s := stories[rng.IntN(len(stories))]
		from := rng.IntN(8)
		sents := slices.Clone(s[from : from+6+rng.IntN(5)])
		for range rng.IntN(3) {
			sents[rng.IntN(len(sents))] = g.Sentence()
		}
		return enginetest.Doc(id, sents)
	}
	x := open(t, storetest.DSN(t, engine), index.OpenOptions{Link: link})
	var now []core.Document // the documents as they stand, in place order
	for step := range 16 {
		d := version(fmt.Sprintf("d%02d", len(now)))
		what := "adding " + d.ID
		if i := rng.IntN(len(now) + 1); step >= 6 && i < len(now) && rng.IntN(2) == 0 {
			d = version(now[i].ID)
			now[i], what = d, "replacing "+d.ID
		} else {
			now = append(now, d)
		}
		if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Replace: true}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		fresh := freshGroups(t, link, now)
		if diff := cmp.Diff(fresh, groups(t, x)); diff != "" {
			t.Fatalf("after %s (-fresh index +index)\n%s", what, diff)
		}
		if diff := cmp.Diff(batchGroups(t, minhash.Defaults(), link, now), fresh); diff != "" {
			t.Fatalf("after %s (-dedup +fresh index)\n%s", what, diff)
		}
		if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
			t.Fatalf("after %s: verify: %v %v", what, faults, err)
		}
	}
}
