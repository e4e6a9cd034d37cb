package index_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// exported records what an index exports.
type exported struct {
	pairs    map[string]string // "a~b" → original of a duplicate pair
	clusters []core.Cluster
}

func (e *exported) Pair(p *core.Pair) error {
	if p.Label == core.Duplicate {
		e.pairs[p.A+"~"+p.B] = p.Original
	}
	return nil
}

func (e *exported) Cluster(c *core.Cluster) error {
	e.clusters = append(e.clusters, *c)
	return nil
}

func (e *exported) Kept(*store.Doc) error     { return nil }
func (e *exported) Rejected(*store.Doc) error { return nil }

func export(t *testing.T, x *index.Index) exported {
	t.Helper()
	e := exported{pairs: map[string]string{}}
	if _, err := x.Export(t.Context(), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// storyAt returns story as document id, dated hour h of 2024-03-01, its
// sentence edit rewritten by g (none when edit is negative).
func storyAt(g *enginetest.TextGen, story []string, id string, h, edit int) core.Document {
	s := slices.Clone(story)
	if edit >= 0 {
		s[edit] = g.Sentence()
	}
	d := enginetest.Doc(id, s)
	d.Date = time.Date(2024, 3, 1, h, 0, 0, 0, time.UTC)
	return d
}

// roles says, as the index's readers show them, the original of cluster
// and, for each of ids, the original its document page names.
func roles(t *testing.T, x *index.Index, cluster int64, ids ...string) []string {
	t.Helper()
	c, err := x.Cluster(t.Context(), cluster)
	if err != nil {
		t.Fatal(err)
	}
	cs, _, err := x.Clusters(t.Context(), store.ClusterFilter{}, store.Page{})
	if err != nil || len(cs) != 1 {
		t.Fatalf("clusters %+v: %v", cs, err)
	}
	out := []string{"cluster " + c.Original, "list " + cs[0].Original.ID}
	for _, id := range ids {
		d, err := x.Document(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Original == nil {
			out = append(out, id+" in no cluster")
			continue
		}
		out = append(out, id+" "+d.Original.ID)
	}
	return out
}

// TestLateOriginal: copies of a story are stored before the story, which
// was published first. Each add's pairs name the original of each pair;
// when the story arrives, it becomes the original of the cluster, of every
// pair and on every reader's page, in the transaction that stores it; an
// add that fails leaves the roles as they were.
func TestLateOriginal(t *testing.T) {
	eachEngine(t, 35, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		version := func(id string, h, edit int) core.Document { return storyAt(g, story, id, h, edit) }
		noon, eleven, wire := version("copy-noon", 12, 2), version("copy-eleven", 11, 5), version("wire", 10, -1)

		add(t, x, noon)
		m := add(t, x, eleven)[0]
		if m.Cluster == 0 || m.Original != "copy-eleven" || len(m.Pairs) != 1 || m.Pairs[0].Original != "copy-eleven" {
			t.Fatalf("the second copy, published before the first: %+v", m)
		}
		before := []string{"cluster copy-eleven", "list copy-eleven", "copy-noon copy-eleven", "copy-eleven copy-eleven"}
		if diff := cmp.Diff(before, roles(t, x, m.Cluster, "copy-noon", "copy-eleven")); diff != "" {
			t.Errorf("roles (-want +got)\n%s", diff)
		}

		boom := errors.New("boom")
		_, err := x.Add(t.Context(), []core.Document{wire}, index.AddOptions{
			Then: func(store.FeedWriter, []index.Match) error { return boom }})
		if !errors.Is(err, boom) {
			t.Fatalf("a failing add: %v", err)
		}
		if diff := cmp.Diff(before, roles(t, x, m.Cluster, "copy-noon", "copy-eleven")); diff != "" {
			t.Errorf("roles after a failed add of the original (-want +got)\n%s", diff)
		}

		var inTxn string
		w, err := x.Add(t.Context(), []core.Document{wire}, index.AddOptions{
			Then: func(_ store.FeedWriter, ms []index.Match) error { inTxn = ms[0].Original; return nil }})
		if err != nil {
			t.Fatal(err)
		}
		if inTxn != "wire" || w[0].Original != "wire" || w[0].Cluster != m.Cluster {
			t.Errorf("the late original: %+v (in the transaction: %q)", w[0], inTxn)
		}
		// Every member stored before it copies it, matched with it or not.
		if got := slices.Sorted(slices.Values(w[0].Copies)); !slices.Equal(got, []string{"copy-eleven", "copy-noon"}) {
			t.Errorf("the late original's copies: %v", got)
		}
		for _, p := range w[0].Pairs {
			if p.Label == core.Duplicate && p.Original != "wire" {
				t.Errorf("pair %s~%s names %q its original", p.A, p.B, p.Original)
			}
		}
		after := []string{"cluster wire", "list wire", "copy-noon wire", "copy-eleven wire", "wire wire"}
		if diff := cmp.Diff(after, roles(t, x, m.Cluster, "copy-noon", "copy-eleven", "wire")); diff != "" {
			t.Errorf("roles once the original is stored (-want +got)\n%s", diff)
		}
		d, err := x.Document(t.Context(), "copy-noon")
		if err != nil {
			t.Fatal(err)
		}
		for _, mk := range d.Marks {
			if want := map[string]string{"copy-eleven": "copy-eleven", "wire": "wire"}[mk.Other.ID]; mk.Original != want {
				t.Errorf("copy-noon's mark with %s names %q its original, want %q", mk.Other.ID, mk.Original, want)
			}
		}

		ex := export(t, x)
		if len(ex.clusters) != 1 || ex.clusters[0].Original != "wire" {
			t.Errorf("exported clusters %+v", ex.clusters)
		}
		wantPairs := map[string]string{"copy-noon~copy-eleven": "copy-eleven", "copy-noon~wire": "wire", "copy-eleven~wire": "wire"}
		if diff := cmp.Diff(wantPairs, ex.pairs); diff != "" {
			t.Errorf("exported pairs' originals (-want +got)\n%s", diff)
		}

		q, err := x.Query(t.Context(), []core.Document{version("earlier-still", 9, 7)})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range q[0].Pairs {
			if p.Label == core.Duplicate && p.Original != "earlier-still" {
				t.Errorf("a check of a copy published before all: pair with %s names %q", p.A, p.Original)
			}
		}
	})
}

// TestUndatedOriginal: among undated documents, and exact copies, the
// original is the first stored; a dated document comes before the
// undated ones.
func TestUndatedOriginal(t *testing.T) {
	eachEngine(t, 36, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		first := enginetest.Doc("first", story)
		exact := enginetest.Doc("exact", story)
		addExact := func(d core.Document) index.Match {
			ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			return ms[0]
		}
		addExact(first)
		if m := addExact(exact); m.Skip != core.SkipExactCopy || m.Original != "first" || m.Pairs[0].Original != "first" {
			t.Errorf("an undated exact copy: %+v", m)
		}
		m := addExact(storyAt(g, story, "dated", 0, -1))
		if m.Skip != core.SkipExactCopy || m.Original != "dated" {
			t.Errorf("a dated copy of undated ones: original %q, want dated", m.Original)
		}
		for _, p := range m.Pairs {
			if p.Original != "dated" {
				t.Errorf("pair %s~%s: original %q", p.A, p.B, p.Original)
			}
		}
		if got := roles(t, x, m.Cluster, "exact"); !strings.HasSuffix(got[2], " dated") {
			t.Errorf("roles %v", got)
		}
	})
}

// TestOriginalInOneAdd: copies and the story they copy, published first,
// added in one call: every answer of the call names the story the
// original of one cluster, as the index holds them once the call commits.
func TestOriginalInOneAdd(t *testing.T) {
	eachEngine(t, 37, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		var docs []core.Document
		for i, h := range []int{12, 11, 10} {
			edit := 2 + 3*i
			if h == 10 {
				edit = -1
			}
			docs = append(docs, storyAt(g, story, fmt.Sprint("at-", h), h, edit))
		}
		ms := add(t, x, docs...)
		for _, m := range ms {
			if m.Cluster != ms[2].Cluster || m.Original != "at-10" {
				t.Errorf("%s: cluster %d (want %d), original %q, want at-10", m.ID, m.Cluster, ms[2].Cluster, m.Original)
			}
		}
	})
}

// TestReplacedOriginalKeepsItsPlace: a story and its reprint of one date,
// the story stored first and so the original; a new version of the story
// (Replace) keeps its place among the documents of its date, so that it
// stays the original of its pairs, its cluster and every reader's page,
// as dedup of the two as they now stand names it. Regression: a
// replacement was stored as if read after the reprint, which became the
// original.
func TestReplacedOriginalKeepsItsPlace(t *testing.T) {
	eachEngine(t, 37, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		story := g.Sentences(10)
		w := storyAt(g, story, "W", 0, -1)
		r := storyAt(g, append(slices.Clone(story), g.Sentence()), "R", 0, -1)
		if ms := add(t, x, w, r); ms[1].Original != "W" {
			t.Fatalf("before the replace: original %q, want W", ms[1].Original)
		}
		for _, tc := range []struct {
			name string
			docs []core.Document
		}{
			{"replaced", []core.Document{storyAt(g, story, "W", 0, 2)}},
			{"replaced again", []core.Document{storyAt(g, story, "W", 0, 3)}},
			{"replaced twice in one add", []core.Document{storyAt(g, story, "W", 0, 4), storyAt(g, story, "W", 0, 5)}},
		} {
			ms, err := x.Add(t.Context(), tc.docs, index.AddOptions{Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			m := ms[len(ms)-1]
			if m.Status != index.Replaced || m.Original != "W" || len(m.Pairs) != 1 || m.Pairs[0].Original != "W" {
				t.Errorf("%s: %s, original %q, pairs %+v; want replaced, original W", tc.name, m.Status, m.Original, m.Pairs)
			}
			if got, want := roles(t, x, m.Cluster, "W", "R"), []string{"cluster W", "list W", "W W", "R W"}; !slices.Equal(got, want) {
				t.Errorf("%s: roles %v, want %v", tc.name, got, want)
			}
			e := export(t, x)
			// W placed before R: the pair is W~R, as dedup of the two writes it
			if len(e.clusters) != 1 || e.clusters[0].Original != "W" || e.pairs["W~R"] != "W" {
				t.Errorf("%s: exported clusters %+v, pairs %v; want W the original", tc.name, e.clusters, e.pairs)
			}
			qs, err := x.Query(t.Context(), tc.docs[len(tc.docs)-1:])
			if err != nil {
				t.Fatal(err)
			}
			if q := qs[0]; q.Status != index.Exists || q.Original != "W" || len(q.Pairs) != 1 || q.Pairs[0].Original != "W" {
				t.Errorf("%s: query of the stored version: %s, original %q, pairs %+v", tc.name, q.Status, q.Original, q.Pairs)
			}
		}
	})
}

// TestReplacedOriginalIsRepresentative: a cluster's representative is
// chosen among its members in the order of publication, a new version of a
// document (Replace) in the place of the one it replaced, as the original
// is. Regression: the members were numbered in the order stored, so after
// a replace --keep earliest kept the reprint stored before the new version
// while the original was the story, and of members of one length the
// default kept an identical copy as "the first published".
func TestReplacedOriginalIsRepresentative(t *testing.T) {
	story := enginetest.NewTextGen(43).Sentences(10)
	for _, tc := range []struct {
		name    string
		keep    cluster.Policy
		other   []string // the text of the other document, C
		wantWhy string
	}{
		{"earliest", cluster.Earliest, append(slices.Clone(story), "One more sentence of the reprint."), "earliest: the oldest date among the members"},
		{"longest tie", cluster.Longest, story, "tied; the first published"},
		{"first", cluster.First, append(slices.Clone(story), "One more sentence of the reprint."), "first: the first member in input order"},
		{"central tie", cluster.Central, story, "tied; the longest, then the first published"},
	} {
		for _, engine := range storetest.Engines {
			t.Run(tc.name+"/"+engine, func(t *testing.T) {
				x := open(t, storetest.DSN(t, engine), index.OpenOptions{Keep: tc.keep})
				w, c := enginetest.Doc("W", story), enginetest.Doc("C", tc.other)
				w.Date = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
				c.Date = w.Date
				add(t, x, w, c)
				w.Title += " (updated)"
				ms, err := x.Add(t.Context(), []core.Document{w}, index.AddOptions{Replace: true})
				if err != nil || ms[0].Status != index.Replaced || ms[0].Original != "W" {
					t.Fatalf("replaced: %+v %v", ms, err)
				}
				want := "W" // the first published; for first, read first (stored where it replaced)
				ex := export(t, x)
				if len(ex.clusters) != 1 || ex.clusters[0].Representative != want || !strings.Contains(ex.clusters[0].Why, tc.wantWhy) {
					t.Errorf("exported clusters %+v, want representative %s (%s)", ex.clusters, want, tc.wantWhy)
				}
				got, err := x.Cluster(t.Context(), ms[0].Cluster)
				if err != nil || got.Representative != want || got.Original != "W" {
					t.Errorf("cluster page: representative %q, original %q, %v; want %s, W", got.Representative, got.Original, err, want)
				}
			})
		}
	}
}

// TestReplacedMembersInPlaceOrder: a cluster lists its members, and why
// each is in, in place order, a new version of a document (Replace) where
// the one it replaced was, as a batch run over the documents so placed
// does and as the representative is chosen. Regression: after W stored,
// its reprint C, then W replaced, export --keep first wrote W as the
// representative but members [C W], C "first member" and W "duplicate of
// C"; the cluster page listed C first.
func TestReplacedMembersInPlaceOrder(t *testing.T) {
	story := enginetest.NewTextGen(43).Sentences(10)
	for _, link := range []cluster.Linking{cluster.Any, cluster.Majority, cluster.Anchor} {
		for _, engine := range storetest.Engines {
			t.Run(string(link)+"/"+engine, func(t *testing.T) {
				x := open(t, storetest.DSN(t, engine), index.OpenOptions{Keep: cluster.First, Link: link})
				w := enginetest.Doc("W", story)
				c := enginetest.Doc("C", append(slices.Clone(story), "One more sentence of the reprint."))
				w.Date = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
				c.Date = w.Date
				add(t, x, w, c)
				w.Title += " (updated)"
				ms, err := x.Add(t.Context(), []core.Document{w}, index.AddOptions{Replace: true})
				if err != nil || ms[0].Status != index.Replaced {
					t.Fatalf("replaced: %+v %v", ms, err)
				}
				ex := export(t, x)
				if len(ex.clusters) != 1 {
					t.Fatalf("exported clusters %+v, want 1", ex.clusters)
				}
				cl := ex.clusters[0]
				if cl.Representative != "W" || !slices.Equal(cl.Members, []string{"W", "C"}) || len(cl.Joined) != 2 ||
					cl.Joined[0] != "first member" || !strings.Contains(cl.Joined[1], " W (") {
					t.Errorf("exported cluster: representative %s, members %q, joined %q; want W, [W C], [first member, … W (…)]",
						cl.Representative, cl.Members, cl.Joined)
				}
				got, err := x.Cluster(t.Context(), ms[0].Cluster)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, m := range got.Members {
					ids = append(ids, m.ID)
				}
				if got.Representative != "W" || !slices.Equal(ids, []string{"W", "C"}) {
					t.Errorf("cluster page: representative %s, members %q; want W, [W C]", got.Representative, ids)
				}
			})
		}
	}
}
