package indextest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// afterARemoval queries one store, after a removal, through four
// processes: the one that removed, one that held the same documents and
// catches up with the removal from the log, one that catches up with the
// adds and the removal at once, and one opened since. The first two score
// every query alike, and so do the last two, as an index of the documents
// left, added in the same order, scores it. A method that weighs each
// document by the statistics as they stand when a process takes it in
// (ScoresSeeCorpus) keeps the weights the first two gave the documents
// stored after a removed one: their scores, and pairs, differ from the
// last two's, though not those of the documents stored before the first
// removed (docs/agreement.md). The other
// methods score alike in all four.
func (s Suite) afterARemoval(t *testing.T) {
	g := enginetest.NewTextGen(10)
	docs := append(enginetest.Background(g, 30), enginetest.Copies(g, 24, 10)...)
	removed := []string{"d6", "c9", "d15"}
	first := slices.IndexFunc(docs, func(d core.Document) bool { return d.ID == removed[0] })
	before := map[string]bool{}
	var left, probes []core.Document
	for i, d := range docs {
		if d.ID == "d6" || d.ID == "c6" {
			// A source of two for rarewords: the copy's words are
			// common there until the original is removed.
			docs[i].Source, d.Source = "s", "s"
		}
		before[d.ID] = i < first
		if !slices.Contains(removed, d.ID) {
			left = append(left, d)
		}
		if strings.HasPrefix(d.ID, "d") {
			probes = append(probes, enginetest.Doc("q"+d.ID, []string{d.Text, g.Sentence()}))
		}
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			live := OpenAt(t, dsn, s.Spec, s.Options)
			held := OpenAt(t, dsn, s.Spec, s.Options)
			late := OpenAt(t, dsn, s.Spec, s.Options)
			AddAll(t, live, docs, 7)
			query(t, held, probes) // catches up with the adds
			if got, err := live.Remove(t.Context(), removed); err != nil || len(got) != len(removed) {
				t.Fatalf("removed %v, %v; want %v", got, err, removed)
			}
			fresh := OpenIndex(t, s.Spec, s.Options)
			AddAll(t, fresh, left, 7)
			want := query(t, fresh, probes)
			if len(want) < len(probes) {
				t.Fatalf("an index of the documents left found %d pairs for %d queries", len(want), len(probes))
			}
			got := map[string]map[string]string{"live": query(t, live, probes), "held": query(t, held, probes),
				"late": query(t, late, probes), "reopened": query(t, OpenAt(t, dsn, s.Spec, s.Options), probes)}
			for _, name := range []string{"late", "reopened"} {
				if d := pairDiff(want, got[name], nil); d != "" {
					t.Errorf("%s: pairs differ from an index of the documents left's (-left +%s):\n%s", name, name, d)
				}
			}
			if d := pairDiff(got["live"], got["held"], nil); d != "" {
				t.Errorf("pairs differ between the live index and one that held its documents (-live +held):\n%s", d)
			}
			if !s.ScoresSeeCorpus {
				if d := pairDiff(want, got["live"], nil); d != "" {
					t.Errorf("live: pairs differ from an index of the documents left's (-left +live):\n%s", d)
				}
				return
			}
			if d := pairDiff(want, got["live"], func(id string) bool { return before[id] }); d != "" {
				t.Errorf("live: pairs of documents stored before the first removed differ (-left +live):\n%s", d)
			}
			if pairDiff(want, got["live"], nil) == "" {
				t.Errorf("live: the pairs of documents stored after a removed one are those of an index of the documents left")
			}
		})
	}
}

// heirJudgedAgain: an exact copy of a story's original by content, of
// another date and source, stored without a sketch, takes the original's
// place when it is removed, with a sketch of its own text, and its pairs
// with the near duplicates stored before and after it are judged again:
// the index then holds for it the marks a rescore makes (their decisions,
// for a method that weighs by the corpus: see ScoresSeeCorpus).
func (s Suite) heirJudgedAgain(t *testing.T) {
	g := enginetest.NewTextGen(11)
	story := g.Sentences(12)
	before, after := slices.Clone(story), slices.Clone(story)
	before[3], after[8] = g.Sentence(), g.Sentence()
	docs := enginetest.Background(g, 30)
	for i, d := range []core.Document{enginetest.Doc("a", story), enginetest.Doc("n1", before), enginetest.Doc("b", story),
		enginetest.Doc("n2", after)} {
		d.Date = time.Date(2026, 3, []int{1, 2, 5, 6}[i], 9, 0, 0, 0, time.UTC)
		docs = append(docs, d)
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x, err := index.Open(t.Context(), storetest.DSN(t, e), store.Options{Sync: "normal"}, []engine.Spec{s.Spec},
				index.OpenOptions{Method: s.Options, StoreText: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { x.Close() })
			for _, d := range docs {
				if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
				t.Fatal(err)
			}
			removed := s.marksOf(t, x, "b")
			if len(removed) < 2 {
				t.Fatalf("b, taking a's place, holds the marks %v; want its pairs with n1 and n2", removed)
			}
			if _, err := x.Rescore(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			if d := pairDiff(s.marksOf(t, x, "b"), removed, nil); d != "" {
				t.Errorf("b's marks after the removal differ from a rescore's (-rescore +removal):\n%s", d)
			}
		})
	}
}

// marksOf returns the marks of the method of document id in x by "a~b",
// each as its label or, unless ScoresSeeCorpus, its label, score and
// evidence.
func (s Suite) marksOf(t *testing.T, x *index.Index, id string) map[string]string {
	t.Helper()
	d, err := x.Document(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range d.Marks {
		switch {
		case m.Method != s.Spec.Name:
		case s.ScoresSeeCorpus:
			got[m.A+"~"+m.B] = string(m.Label)
		default:
			got[m.A+"~"+m.B] = fmt.Sprintf("%s %v %s", m.Label, m.Score, m.Evidence)
		}
	}
	return got
}

// query queries x with probes and returns the pairs found by "a~b", each
// as its label, its score to the last digit and its evidence.
func query(t *testing.T, x *index.Index, probes []core.Document) map[string]string {
	t.Helper()
	outs, err := x.Query(t.Context(), probes)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range outs {
		for k, p := range enginetest.ByKey(o.Pairs) {
			ev, err := json.Marshal(p.Evidence)
			if err != nil {
				t.Fatal(err)
			}
			got[k] = fmt.Sprintf("%s %v %s", p.Label, p.Score, ev)
		}
	}
	return got
}

// pairDiff returns the pairs of a and b that differ, a's first, among
// those of the stored documents keep reports (nil: all); "" when none
// does.
func pairDiff(a, b map[string]string, keep func(id string) bool) string {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out strings.Builder
	for _, k := range keys {
		if keep != nil && !keep(k[:strings.IndexByte(k, '~')]) {
			continue
		}
		if a[k] != b[k] {
			fmt.Fprintf(&out, "-%s %s\n+%s %s\n", k, a[k], k, b[k])
		}
	}
	return out.String()
}
