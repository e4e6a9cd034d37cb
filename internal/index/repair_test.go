package index_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// damageIndexPart is SQL that overwrites sixteen bytes of the index part
// of document id's sketch, for each engine.
func damageIndexPart(dsn, id string) string {
	return storetest.Overwrite(dsn, "docs", "sketch", `id = '`+id+`'`)
}

// TestRemovingADamagedSketch removes a document whose stored index part
// was damaged after two processes loaded it: the removal logs no part, the
// process that removed it and the other one take it out by loading their
// index again, both go on adding and checking, neither matches it, and
// verify finds the index sound. Regression: the removal copied the
// damaged part into the change log, so that the removal itself failed
// reading it back, and every process catching up with the log would have.
func TestRemovingADamagedSketch(t *testing.T) {
	g := enginetest.NewTextGen(83)
	story, other := g.Sentences(10), g.Sentences(10)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x1 := open(t, dsn, index.OpenOptions{})
			add(t, x1, enginetest.Doc("a", story), enginetest.Doc("o", other))
			x2 := open(t, dsn, index.OpenOptions{})
			storetest.Exec(t, dsn, damageIndexPart(dsn, "a"))
			if _, err := x1.Remove(t.Context(), []string{"a"}); err != nil {
				t.Fatalf("removing a document whose index part is damaged: %v", err)
			}
			for i, x := range []*index.Index{x1, x2} {
				ms, err := x.Query(t.Context(), []core.Document{enginetest.Doc("q", story)})
				if err != nil {
					t.Fatalf("process %d: a check after the removal: %v", i+1, err)
				}
				if len(ms[0].Pairs) > 0 {
					t.Errorf("process %d: the check matched %v, a removed document", i+1, ms[0].Pairs)
				}
				if x.Len() != 1 {
					t.Errorf("process %d holds %d documents, want 1", i+1, x.Len())
				}
			}
			ms := add(t, x2, enginetest.Doc("b", story), enginetest.Doc("p", other))
			if len(ms[0].Pairs) != 0 || len(ms[1].Pairs) != 1 || ms[1].Pairs[0].A != "o" {
				t.Errorf("adds after the removal matched %v and %v, want nothing and o", ms[0].Pairs, ms[1].Pairs)
			}
			if faults, err := x1.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify: %v %v, want no fault", faults.List, err)
			}
		})
	}
}

// TestRepairMakesExactMarksAgain damages the exact mark that joins a copy
// (stored unsketched) to its original: index.Repair makes it again, as
// the mark of a copy by content, and the copy stays in its original's
// cluster, where removing the mark would have left it a copy of nothing.
// A damaged mark of the method is removed, and the clusters placed again.
func TestRepairMakesExactMarksAgain(t *testing.T) {
	g := enginetest.NewTextGen(89)
	story, near := g.Sentences(10), g.Sentences(10)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			for i, d := range []core.Document{enginetest.Doc("a", story), enginetest.Doc("b", story),
				enginetest.Doc("n", near), enginetest.Doc("m", append(near, "One more line closes this version of the story for its readers."))} {
				d.Date = time.Date(2026, 3, 1+i, 9, 0, 0, 0, time.UTC)
				if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			x.Close()
			storetest.Exec(t, dsn, `UPDATE marks SET score = score / 2`) // both marks
			st, err := store.Open(t.Context(), dsn, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := index.Repair(t.Context(), st, specs)
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			if r.Marks != 2 || len(r.Removed) != 0 || r.Sketched != 0 {
				t.Errorf("repaired %+v, want 2 marks", r)
			}
			if len(r.Lines) != 2 || !strings.HasSuffix(r.Lines[0], "does not match its checksum: mark made again") ||
				!strings.HasSuffix(r.Lines[1], "does not match its checksum: mark removed") {
				t.Errorf("repair said %q, want the exact mark made again and minhash's removed", r.Lines)
			}
			x = open(t, dsn, index.OpenOptions{})
			if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Errorf("verify after the repair: %v %v", faults.List, err)
			}
			a, errA := x.Document(t.Context(), "a")
			b, errB := x.Document(t.Context(), "b")
			if err := errors.Join(errA, errB); err != nil || a.Cluster == 0 || a.Cluster != b.Cluster {
				t.Errorf("a in cluster %d, b in %d (%v): want one", a.Cluster, b.Cluster, err)
			}
			if got := marks(t, dsn); len(got) != 1 || got["a~b"] != core.Duplicate {
				t.Errorf("marks after the repair: %v, want a~b a duplicate", got)
			}
			if n, err := x.Document(t.Context(), "n"); err != nil || n.Cluster != 0 {
				t.Errorf("n in cluster %d (%v), want none: its one mark was removed", n.Cluster, err)
			}
		})
	}
}

// TestRemovingADocumentWhoseTextChanged removes a document whose title or
// text was changed in the database, as damage on disk changes it, from an
// index that stores texts: the removal succeeds, verify finds the index
// sound, and a search finds neither the old words nor the new ones, and
// finds the other documents. Regression: SQLite's full-text index was told
// to forget the document's words as they read now, which it never indexed
// (words other documents hold, in a title it had none), and the removal
// failed with "database disk image is malformed (267)".
func TestRemovingADocumentWhoseTextChanged(t *testing.T) {
	for _, tc := range []struct{ name, damage string }{
		{"text", `UPDATE texts SET text = 'Zygomorphic quarks, a text of the. ' || text WHERE ord = (SELECT ord FROM docs WHERE id = 'a')`},
		{"title", `UPDATE docs SET title = 'Zygomorphic frost of the orchard' WHERE id = 'a'`}, // it had none
	} {
		for _, e := range storetest.Engines {
			t.Run(tc.name+"/"+e, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				x := open(t, dsn, index.OpenOptions{StoreText: true})
				a := core.Document{ID: "a", Text: "The harbour crane collapsed onto the pier during the storm, and the port closed for the night."}
				b := core.Document{ID: "b", Title: "Orchard frost", Text: "An early frost blackened the orchard's blossoms, and the growers counted their losses by lantern."}
				add(t, x, a, b)
				add(t, x, enginetest.Background(enginetest.NewTextGen(97), 20)...)
				storetest.Exec(t, dsn, tc.damage)
				if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
					t.Fatalf("removing a: %v", err)
				}
				if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
					t.Errorf("verify: %v %v, want no fault", faults.List, err)
				}
				for q, want := range map[string]int{"crane": 0, "zygomorphic": 0, "orchard": 1} {
					if res, err := x.Search(t.Context(), q, store.Page{}); err != nil || res.Total != want {
						t.Errorf("search %q: %d hits (%v), want %d", q, res.Total, err, want)
					}
				}
			})
		}
	}
}

// repairAt repairs the index at dsn, failing the test on an error.
func repairAt(t testing.TB, dsn string) index.Repaired {
	t.Helper()
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := index.Repair(t.Context(), st, specs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRepairOfADamagedOriginalAndItsExactMark: an exact copy's original,
// its text damaged, is removed by a repair, and the copy takes its place
// (sketched, matched by a near duplicate of the story), whether the exact
// mark between them is damaged too or not. Regression: the damaged mark
// was removed before the original, so that the copy was taken for a copy
// of nothing, left unsketched, and verify found the index sound.
func TestRepairOfADamagedOriginalAndItsExactMark(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story := g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	for _, e := range storetest.Engines {
		for _, markToo := range []bool{false, true} {
			t.Run(e+map[bool]string{false: "/text", true: "/text+mark"}[markToo], func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				storyAndItsCopy(t, dsn, story)
				storetest.Exec(t, dsn, `UPDATE texts SET text = 'forged '||text WHERE ord = (SELECT ord FROM docs WHERE id = 'a')`)
				if markToo {
					storetest.Exec(t, dsn, `UPDATE marks SET score = score / 2`)
				}
				r := repairAt(t, dsn)
				if len(r.Removed) != 1 || r.Removed[0] != "a" {
					t.Errorf("repair removed %q, want a; it said %q", r.Removed, r.Lines)
				}
				copyTookItsPlace(t, dsn, near)
			})
		}
	}
}

// TestRepairSketchesShortTextsAgain: a document sketched under its add's
// minimum length (OpenOptions.MinChars -1: every text), which the index
// does not keep, is sketched again from its stored text. Regression: the
// repair's default minimum skipped the short text, and the document was
// removed.
func TestRepairSketchesShortTextsAgain(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true, MinChars: -1})
			add(t, x, core.Document{ID: "s", Text: "Short one here."}, core.Document{ID: "o", Text: "Another line."})
			x.Close()
			storetest.Exec(t, dsn, damageIndexPart(dsn, "s"))
			r := repairAt(t, dsn)
			if r.Sketched != 1 || len(r.Removed) != 0 {
				t.Errorf("repair: %q; want s sketched again from its stored text", r.Lines)
			}
		})
	}
}

// TestRemovingAnEmptiedSketch: a document whose index part was emptied
// (NULL) while its checksum was kept is removed by a repair, and the index
// is then sound. Regression: the removal logged the part as it read, NULL
// with the checksum, a damaged entry of the change log.
func TestRemovingAnEmptiedSketch(t *testing.T) {
	g := enginetest.NewTextGen(5)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: false})
			add(t, x, enginetest.Doc("a", g.Sentences(10)), enginetest.Doc("b", g.Sentences(10)))
			x.Close()
			storetest.Exec(t, dsn, `UPDATE docs SET sketch = NULL WHERE id = 'a'`)
			if r := repairAt(t, dsn); len(r.Removed) != 1 || r.Removed[0] != "a" {
				t.Errorf("repair removed %q, want a; it said %q", r.Removed, r.Lines)
			}
			y := open(t, dsn, index.OpenOptions{})
			if f, err := y.Verify(t.Context(), nil); err != nil || f.Total > 0 {
				t.Errorf("verify after repair: %q %v", f.List, err)
			}
		})
	}
}

// TestRepairMendsTheIndexConsistency deletes a document's record behind the
// store's back, which leaves its text and detail part stored for nothing,
// its marks naming a document not stored and its cluster short of it, and
// puts another document in a cluster of its own: a repair deletes the rows,
// removes the marks and places the clusters again, so that verify finds
// the index sound and the two copies left are one cluster. Regression: the
// repair mended the rows alone, said so, and every verify after it listed
// the marks, each repair again mending nothing.
func TestRepairMendsTheIndexConsistency(t *testing.T) {
	g := enginetest.NewTextGen(101)
	story := g.Sentences(12)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			var docs []core.Document
			for i, id := range []string{"a0", "a1", "a2"} {
				s := slices.Clone(story)
				s[i] = g.Sentence()
				docs = append(docs, enginetest.Doc(id, s))
			}
			add(t, x, append(docs, enginetest.Doc("o", g.Sentences(12)))...)
			x.Close()
			storetest.Exec(t, dsn, `DELETE FROM docs WHERE id = 'a0'`, `UPDATE docs SET cluster = 99 WHERE id = 'o'`)
			r := repairAt(t, dsn)
			want := []string{
				"its text is stored, but the document is not: deleted",
				"the detail part of its sketch is stored, but the document is not: deleted",
				"mark 1~2 names a document that is not stored: mark removed",
				"mark 1~3 names a document that is not stored: mark removed",
				`cluster 99 has one member, "o": a cluster is two or more duplicates: clusters placed again`,
			}
			for _, w := range want {
				if !slices.ContainsFunc(r.Lines, func(l string) bool { return strings.HasSuffix(l, w) }) {
					t.Errorf("repair said %q, want a line ending %q", r.Lines, w)
				}
			}
			y := open(t, dsn, index.OpenOptions{})
			if f, err := y.Verify(t.Context(), nil); err != nil || f.Total > 0 {
				t.Errorf("verify after the repair: %q %v", f.List, err)
			}
			a1, err1 := y.Document(t.Context(), "a1")
			a2, err2 := y.Document(t.Context(), "a2")
			o, err3 := y.Document(t.Context(), "o")
			if err := errors.Join(err1, err2, err3); err != nil || a1.Cluster == 0 || a1.Cluster != a2.Cluster || o.Cluster != 0 {
				t.Errorf("clusters a1 %d, a2 %d, o %d (%v): want a1 and a2 in one, o in none", a1.Cluster, a2.Cluster, o.Cluster, err)
			}
			y.Close()
			if r := repairAt(t, dsn); len(r.Lines) > 0 {
				t.Errorf("a second repair said %q, want nothing", r.Lines)
			}
		})
	}
}

// TestRepairGivesCopiesOfNothingAHead deletes an exact copy's original
// behind the store's back: a repair removes the mark naming it and sketches
// the copy from its stored text, so that it takes the original's place (a
// near duplicate of the story matches it), and verify finds the index
// sound. Regression: the copy was left a copy of nothing, unsketched, and
// verify found nothing wrong (it now says so).
func TestRepairGivesCopiesOfNothingAHead(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story := g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			storyAndItsCopy(t, dsn, story)
			storetest.Exec(t, dsn, `DELETE FROM docs WHERE id = 'a'`)
			r := repairAt(t, dsn)
			if !slices.Contains(r.Lines, `document "b" is an exact copy joined to no document compared: sketched from its stored text`) {
				t.Errorf("repair said %q, want b sketched", r.Lines)
			}
			copyTookItsPlace(t, dsn, near)
		})
	}
}

// storyAndItsCopy stores, in a new index at dsn that keeps texts, a story a
// and b, its exact copy, as watch stores them, and closes the index.
func storyAndItsCopy(t *testing.T, dsn string, story []string) {
	t.Helper()
	x := open(t, dsn, index.OpenOptions{StoreText: true})
	exact := index.AddOptions{Exact: true}
	for i, id := range []string{"a", "b"} {
		if _, err := x.Add(t.Context(), []core.Document{storyDoc(id, story, 1+2*i)}, exact); err != nil {
			t.Fatal(err)
		}
	}
	x.Close()
}

// copyTookItsPlace checks that the index at dsn is sound and holds b alone,
// sketched, which a near duplicate of its story matches.
func copyTookItsPlace(t *testing.T, dsn string, near []string) {
	t.Helper()
	y := open(t, dsn, index.OpenOptions{})
	if f, err := y.Verify(t.Context(), nil); err != nil || f.Total > 0 {
		t.Errorf("verify: %v %v", f.List, err)
	}
	if y.Len() != 1 {
		t.Errorf("loaded %d, want b sketched as heir", y.Len())
	}
	ms, err := y.Query(t.Context(), []core.Document{storyDoc("q", near, 5)})
	if err != nil || len(ms[0].Pairs) == 0 {
		t.Errorf("a near duplicate of the story matched %v (%v): want b", ms[0].Pairs, err)
	}
}

// BenchmarkRepair repairs an index of 2,000 documents that store texts,
// in SQLite, after damaging the index parts of 20 of them, against a
// verify of the same index as the baseline: the repair reads every record
// twice (the store's check, then its damage) and checks the index's
// consistency once, and sketches the 20 again from their texts (go test
// ./internal/index -run '^$' -bench Repair).
func BenchmarkRepair(b *testing.B) {
	dsn := storetest.DSN(b, "sqlite")
	x, err := index.Open(b.Context(), dsn, store.Options{Sync: "normal"}, specs, index.OpenOptions{StoreText: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := x.Add(b.Context(), enginetest.Background(enginetest.NewTextGen(5), 2000), index.AddOptions{}); err != nil {
		b.Fatal(err)
	}
	x.Close()
	damage := storetest.Overwrite(dsn, "docs", "sketch", "ord % 100 = 7")
	b.Run("verify", func(b *testing.B) {
		y := open(b, dsn, index.OpenOptions{})
		for b.Loop() {
			if f, err := y.Verify(b.Context(), nil); err != nil || f.Total > 0 {
				b.Fatal(f.List, err)
			}
		}
	})
	b.Run("repair", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			storetest.Exec(b, dsn, damage)
			b.StartTimer()
			if r := repairAt(b, dsn); r.Sketched != 20 {
				b.Fatalf("repair sketched %d, want 20: %q", r.Sketched, r.Lines)
			}
		}
	})
}

// TestVerifyChecksClustersByTheLinkingPolicy: by anchor and by majority,
// an index whose two clusters of duplicate marks chained from one story to
// another are made one behind the store's back holds a cluster the policy
// does not make of its documents in place order, though duplicate marks
// join them all: verify says so, and a repair places the clusters again as
// a fresh index holds them. Regression: verify checked only that each
// cluster lay within one connected group of duplicate marks, and found such
// an index sound, as it found one whose replaces had left clusters other
// than a fresh index's.
func TestVerifyChecksClustersByTheLinkingPolicy(t *testing.T) {
	docs := chain(enginetest.NewTextGen(41))
	for _, e := range storetest.Engines {
		for _, link := range []cluster.Linking{cluster.Anchor, cluster.Majority} {
			t.Run(fmt.Sprintf("%s/%s", e, link), func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				x := open(t, dsn, index.OpenOptions{Link: link})
				add(t, x, docs...)
				want := groups(t, x)
				if strings.Count(want, "[") != 3 { // [[c1 c2 …] [… c5]]
					t.Fatalf("clusters %s, want two", want)
				}
				x.Close()
				storetest.Exec(t, dsn, `UPDATE docs SET cluster = (SELECT MIN(cluster) FROM docs WHERE cluster <> 0) WHERE cluster <> 0`)
				y := open(t, dsn, index.OpenOptions{})
				f, err := y.Verify(t.Context(), nil)
				if err != nil || f.Total != 1 || !strings.Contains(f.List[0], "not a cluster "+string(link)+" linking in place order makes") {
					t.Errorf("verify of one cluster made of two: %q %v, want the cluster named", f.List, err)
				}
				y.Close()
				if r := repairAt(t, dsn); r.Clusters != 1 {
					t.Errorf("repair said %q, want the clusters placed again", r.Lines)
				}
				z := open(t, dsn, index.OpenOptions{})
				if got := groups(t, z); got != want {
					t.Errorf("clusters after the repair %s, want %s", got, want)
				}
				if f, err := z.Verify(t.Context(), nil); err != nil || f.Total > 0 {
					t.Errorf("verify after the repair: %q %v", f.List, err)
				}
			})
		}
	}
}
