package indextest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// replacedExportMatchesBatch: after a document is replaced, an export
// writes the pairs of a batch of the documents in place order (the new
// version where the old one was): each with the earlier-placed document as
// a and its evidence read that way round, in the batch's order. W is
// reprinted as C and retold as X; W's corrected version, longer and naming
// more, takes its place, stored after C and X, so that every mark it has is
// stored the other way round from the batch's.
func (s Suite) replacedExportMatchesBatch(t *testing.T) {
	g := enginetest.NewTextGen(13)
	base := g.Sentences(12)
	bg := enginetest.Background(g, 20)
	retold := slices.Clone(base)
	retold[3] = g.Sentence()
	corrected := append(slices.Clone(base), "Officials named Halvorsen Brightwater and Kettleby Marsh.")
	stored := append([]core.Document{enginetest.Doc("W", base)}, bg...)
	stored = append(stored, enginetest.Doc("C", base[:11]), enginetest.Doc("X", retold))
	w2 := enginetest.Doc("W", corrected)
	w2.Title = "Kettleby Marsh sailings" // names the others do not hold
	placed := append([]core.Document{w2}, stored[1:]...)

	b, err := s.Spec.NewBatch(s.Options, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	enginetest.Feed(t, b, placed)
	for i := range placed {
		if b.NeedsText(i) {
			b.Explain(i, &placed[i])
		}
	}
	want := s.pairLines(b.Result().Pairs)
	if !strings.Contains(strings.Join(want, "\n"), `W C duplicate`) {
		t.Fatalf("the batch finds no W~C duplicate:\n%s", strings.Join(want, "\n"))
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := OpenAt(t, storetest.DSN(t, e), s.Spec, s.Options)
			AddAll(t, x, stored, 0)
			outs, err := x.Add(t.Context(), []core.Document{w2}, index.AddOptions{Replace: true})
			if err != nil || outs[0].Status != index.Replaced {
				t.Fatalf("replacing W: %+v, %v", outs, err)
			}
			var got pairsOf
			if _, err := x.Export(t.Context(), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, s.pairLines(got.pairs)); diff != "" {
				t.Errorf("the export after a replace differs from the batch in place order (-want +got):\n%s", diff)
			}
			pagesShowExported(t, x, got)
			addReportsExported(t, outs[0], got)
		})
	}
}

// pairLines renders pairs in order, each as a, b, label, score, original
// and evidence; of a method whose scores see the corpus, a, b, label and
// the evidence's words (which sources), not its figures nor whose best
// match a pair is (an index tells it for the document it adds, not both).
func (s Suite) pairLines(ps []core.Pair) []string {
	var out []string
	for _, p := range ps {
		ev, _ := json.Marshal(p.Evidence)
		line := fmt.Sprintf("%s %s %s", p.A, p.B, p.Label)
		if !s.ScoresSeeCorpus {
			out = append(out, fmt.Sprintf("%s %.4f %s %s", line, p.Score, p.Original, ev))
			continue
		}
		var fields map[string]any
		_ = json.Unmarshal(ev, &fields)
		for _, k := range slices.Sorted(maps.Keys(fields)) {
			if v, ok := fields[k].(string); ok && k != "best_match_for" {
				line += fmt.Sprintf(" %s=%s", k, v)
			}
		}
		out = append(out, line)
	}
	return out
}

// pagesShowExported checks that each document's page, and each cluster's,
// shows the marks an export wrote, the same way round: the same A and B
// and evidence.
func pagesShowExported(t *testing.T, x *index.Index, got pairsOf) {
	t.Helper()
	line := func(a, b, method string, ev []byte) string { return fmt.Sprintf("%s %s %s %s", a, b, method, ev) }
	exported := map[string][]string{} // by document
	var all []string
	for _, p := range got.pairs {
		ev, _ := json.Marshal(p.Evidence)
		l := line(p.A, p.B, p.Method, ev)
		exported[p.A], exported[p.B] = append(exported[p.A], l), append(exported[p.B], l)
		all = append(all, l)
	}
	for id, want := range exported {
		d, err := x.Document(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		var shown []string
		for _, m := range d.Marks {
			shown = append(shown, line(m.A, m.B, m.Method, m.Evidence))
		}
		if diff := cmp.Diff(sorted(want), sorted(shown)); diff != "" {
			t.Errorf("%s's page shows its marks otherwise than the export (-export +page):\n%s", id, diff)
		}
	}
	for _, id := range got.clusters {
		c, err := x.Cluster(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		var shown []string
		for _, m := range c.Marks {
			shown = append(shown, line(m.A, m.B, m.Method, m.Evidence))
		}
		if diff := cmp.Diff(sorted(all), sorted(shown)); diff != "" {
			t.Errorf("cluster %d's page shows its marks otherwise than the export (-export +page):\n%s", id, diff)
		}
	}
}

// addReportsExported checks that an add's report of document m shows each
// of its pairs as an export wrote it: the same A and B, score, original
// and evidence, read the same way round. Regression: the add named the
// document it added B, a new version placed first included, its evidence
// read that way round, where the export names it A.
func addReportsExported(t *testing.T, m index.Match, got pairsOf) {
	t.Helper()
	line := func(p core.Pair) string {
		ev, _ := json.Marshal(p.Evidence)
		return fmt.Sprintf("%s %s %s %s %.4f %s %s", p.A, p.B, p.Method, p.Label, p.Score, p.Original, ev)
	}
	var exported, reported []string
	for _, p := range got.pairs {
		if p.A == m.ID || p.B == m.ID {
			exported = append(exported, line(p))
		}
	}
	for _, p := range m.Pairs {
		reported = append(reported, line(p))
	}
	if len(exported) == 0 {
		t.Fatalf("the export holds no pair of %s", m.ID)
	}
	if diff := cmp.Diff(sorted(exported), sorted(reported)); diff != "" {
		t.Errorf("the add reports %s's pairs otherwise than the export (-export +add):\n%s", m.ID, diff)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// pairsOf is an index.Exporter that keeps the pairs and the cluster ids
// it is sent.
type pairsOf struct {
	pairs    []core.Pair
	clusters []int64
}

func (e *pairsOf) Pair(p *core.Pair) error {
	e.pairs = append(e.pairs, *p)
	return nil
}

func (e *pairsOf) Cluster(c *core.Cluster) error {
	e.clusters = append(e.clusters, c.ID)
	return nil
}

func (e *pairsOf) Kept(*store.Doc) error     { return nil }
func (e *pairsOf) Rejected(*store.Doc) error { return nil }
