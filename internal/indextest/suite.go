package indextest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// Suite says how to run the conformance suite on a method.
type Suite struct {
	Spec engine.Spec
	// Options are the options the suite runs the method with.
	Options engine.Config
	// Low are options that also report pairs of low scores (similar at
	// 0.01), to see scores fall as edits accumulate.
	Low engine.Config
	// ScoresSeeCorpus is set for methods whose Index weighs each document
	// by the statistics as they stand when it takes it in (adds it, or
	// loads it from the store), so that its scores and evidence differ from
	// a Batch's, though not its decisions, and, after a removal, its
	// pairs from an index's opened since (see afterARemoval).
	ScoresSeeCorpus bool
}

// Run runs the conformance suite.
func (s Suite) Run(t *testing.T) {
	t.Run("FindsCopiesNotStrangers", s.findsCopiesNotStrangers)
	t.Run("IgnoresSharedBoilerplate", s.ignoresSharedBoilerplate)
	t.Run("EditsLowerScore", s.editsLowerScore)
	t.Run("Deterministic", s.deterministic)
	t.Run("EmptyAndTinyDocuments", s.emptyAndTiny)
	t.Run("IndexMatchesBatch", s.indexMatchesBatch)
	t.Run("ReopenedIndexMatchesBatch", s.reopened)
	t.Run("RemoveAndAddAgain", s.removeAndAddAgain)
	t.Run("AfterARemoval", s.afterARemoval)
	t.Run("HeirJudgedAgain", s.heirJudgedAgain)
	t.Run("RescoredExportMatchesBatch", s.rescoredExportMatchesBatch)
	t.Run("ReplacedExportMatchesBatch", s.replacedExportMatchesBatch)
	t.Run("SketchRoundTrip", s.sketchRoundTrip)
}

// sketchRoundTrip: every sketch of a corpus decodes from its encoding and
// encodes again to the same bytes.
func (s Suite) sketchRoundTrip(t *testing.T) {
	for _, d := range enginetest.Copies(enginetest.NewTextGen(8), 10, 20) {
		index, detail, ok := s.Spec.Sample(&d)
		if !ok {
			t.Fatalf("%s: skipped", d.ID)
		}
		again, err := s.Spec.Redecode(index, detail)
		if !again || err != nil {
			t.Fatalf("%s: decoded %v: %v", d.ID, again, err)
		}
	}
}

func (s Suite) findsCopiesNotStrangers(t *testing.T) {
	g := enginetest.NewTextGen(1)
	base := g.Sentences(12)
	edited := slices.Clone(base)
	edited[5] = g.Sentence()
	docs := []core.Document{enginetest.Doc("orig", base), enginetest.Doc("copy", base), enginetest.Doc("edit", edited),
		enginetest.Doc("other", g.Sentences(12)), enginetest.Doc("third", g.Sentences(12))}
	docs = append(docs, enginetest.Background(g, 40)...)
	got := enginetest.Batch(t, s.Spec, s.Options, docs)
	for _, want := range []string{"orig~copy", "orig~edit", "copy~edit"} {
		if got[want].Label != core.Duplicate {
			t.Errorf("%s: got %+v, want a duplicate", want, got[want])
		}
	}
	for k, p := range got {
		if strings.Contains(k, "other") || strings.Contains(k, "third") || strings.Contains(k, "bg") {
			t.Errorf("unrelated documents paired: %+v", p)
		}
	}
	if p := got["orig~copy"]; p.Score != 1 {
		t.Errorf("identical documents scored %v", p.Score)
	}
}

func (s Suite) ignoresSharedBoilerplate(t *testing.T) {
	g := enginetest.NewTextGen(2)
	boiler := []string{
		"Subscribe to our newsletter to receive the morning headlines every day.",
		"Copyright Example Media Group, all rights reserved, no reproduction.",
		"Follow us on social media for breaking news and live coverage.",
	}
	var docs []core.Document
	for i := range 30 {
		docs = append(docs, enginetest.Doc(fmt.Sprint("d", i), append(g.Sentences(3), boiler...)))
	}
	for k, p := range enginetest.Batch(t, s.Spec, s.Options, docs) {
		if p.Label == core.Duplicate {
			t.Errorf("%s: documents sharing only boilerplate marked duplicate (%.3f)", k, p.Score)
		}
	}
}

func (s Suite) editsLowerScore(t *testing.T) {
	g := enginetest.NewTextGen(3)
	base := g.Sentences(20)
	docs := []core.Document{enginetest.Doc("base", base)}
	for edits := 1; edits <= 8; edits++ {
		e := slices.Clone(base)
		for i := range edits {
			e[i*2] = g.Sentence()
		}
		docs = append(docs, enginetest.Doc(fmt.Sprint("e", edits), e))
	}
	docs = append(docs, enginetest.Background(g, 40)...)
	got := enginetest.Batch(t, s.Spec, s.Low, docs)
	prev := 1.01
	for edits := 1; edits <= 8; edits++ {
		p, ok := got[fmt.Sprint("base~e", edits)]
		if !ok {
			t.Fatalf("%d edits: pair not found", edits)
		}
		if p.Score >= prev {
			t.Errorf("%d edits scored %.3f, not below %.3f", edits, p.Score, prev)
		}
		prev = p.Score
	}
}

func (s Suite) deterministic(t *testing.T) {
	docs := enginetest.Copies(enginetest.NewTextGen(4), 40, 8)
	a, b := enginetest.Batch(t, s.Spec, s.Options, docs), enginetest.Batch(t, s.Spec, s.Options, docs)
	if enginetest.Summary(a) != enginetest.Summary(b) || len(a) < 10 {
		t.Errorf("two runs differ or found too little: %d vs %d pairs", len(a), len(b))
	}
}

func (s Suite) emptyAndTiny(t *testing.T) {
	x := OpenIndex(t, s.Spec, s.Options)
	outs, err := x.Add(t.Context(), []core.Document{
		{ID: "empty", Text: ""},
		{ID: "punct", Text: "?!. ,,, --"},
		{ID: "one", Text: "word"},
		{ID: "one-again", Text: "word"},
	}, index.AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs[:2] {
		if o.Skip == core.SkipNone || len(o.Pairs) > 0 {
			t.Errorf("%s: skip %q pairs %v", o.ID, o.Skip, o.Pairs)
		}
	}
	// The same document again exists; another under its id is a conflict,
	// not stored.
	outs, err = x.Add(t.Context(), []core.Document{{ID: "one", Text: "word"}, {ID: "one-again", Text: "again"}}, index.AddOptions{})
	if err != nil || outs[0].Status != index.Exists || outs[1].Status != index.Conflict {
		t.Errorf("repeated ids: %+v, %v; want the same document existing, another a conflict", outs, err)
	}
}

// compare checks that incremental pairs equal batch pairs.
func (s Suite) compare(t *testing.T, what string, batch, inc map[string]core.Pair) {
	t.Helper()
	if s.ScoresSeeCorpus {
		batch, inc = enginetest.Decisions(batch), enginetest.Decisions(inc)
	}
	if b, i := enginetest.Summary(batch), enginetest.Summary(inc); b != i {
		t.Errorf("%s: batch found %d pairs, incremental %d\nbatch:\n%s\nincremental:\n%s", what, len(batch), len(inc), b, i)
	}
}

func (s Suite) indexMatchesBatch(t *testing.T) {
	docs := enginetest.Copies(enginetest.NewTextGen(5), 60, 10)
	reversed := slices.Clone(docs)
	slices.Reverse(reversed)
	// One document at a time, chunks of 7 and all at once, in both orders
	// in long runs (as in CI); otherwise the first and the last in input
	// order and chunks reversed.
	chunks := map[string][]int{"input order": {1, 0}, "reversed": {7}}
	if os.Getenv("NEARDUP_LONG") != "" {
		chunks = map[string][]int{"input order": {1, 7, 0}, "reversed": {1, 7, 0}}
	}
	for name, order := range map[string][]core.Document{"input order": docs, "reversed": reversed} {
		batch := enginetest.Batch(t, s.Spec, s.Options, order)
		if len(batch) < 10 {
			t.Fatalf("%s: the batch found %d pairs", name, len(batch))
		}
		for _, chunk := range chunks[name] {
			inc := Incremental(t, "sqlite", s.Spec, s.Options, order, chunk)
			s.compare(t, fmt.Sprintf("%s, chunks of %d", name, chunk), batch, inc)
		}
		t.Run("postgres", func(t *testing.T) {
			s.compare(t, name+", PostgreSQL", batch, Incremental(t, "postgres", s.Spec, s.Options, order, 7))
		})
	}
}

// reopened adds the originals of a corpus, reopens the store, adds their
// copies: the in-memory index rebuilt from the store must find every pair.
func (s Suite) reopened(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			// A background corpus first, as in any real index: methods
			// that weigh words by the statistics at arrival need some.
			g := enginetest.NewTextGen(6)
			originals := enginetest.Background(g, 40)
			var copies []core.Document
			for _, d := range enginetest.Copies(g, 60, 10) {
				if strings.HasPrefix(d.ID, "c") {
					copies = append(copies, d)
				} else {
					originals = append(originals, d)
				}
			}
			docs := append(slices.Clone(originals), copies...)
			dsn := storetest.DSN(t, e)
			got := map[string]core.Pair{}
			for _, part := range [][]core.Document{originals, copies} {
				x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{s.Spec}, index.OpenOptions{Method: s.Options})
				if err != nil {
					t.Fatal(err)
				}
				for k, p := range AddAll(t, x, part, 5) {
					got[k] = p
				}
				faults, err := x.Verify(t.Context(), nil)
				if err != nil || faults.Total > 0 {
					t.Errorf("verify: %v %v", faults, err)
				}
				x.Close()
			}
			batch := enginetest.Batch(t, s.Spec, s.Options, docs)
			if len(batch) < len(copies) {
				t.Fatalf("the batch found %d pairs for %d copies", len(batch), len(copies))
			}
			s.compare(t, "reopened", batch, got)
		})
	}
}

func (s Suite) removeAndAddAgain(t *testing.T) {
	g := enginetest.NewTextGen(7)
	docs := enginetest.Copies(g, 30, 10)
	x := OpenIndex(t, s.Spec, s.Options)
	first := AddAll(t, x, docs, 0)
	var ids []string
	var again []core.Document
	for _, d := range docs {
		if strings.HasPrefix(d.ID, "c") {
			ids = append(ids, d.ID)
			again = append(again, d)
		}
	}
	removed, err := x.Remove(t.Context(), append(ids, "no-such-document"))
	if err != nil || len(removed) != len(ids) {
		t.Fatalf("removed %v, %v; want %d", removed, err, len(ids))
	}
	second := AddAll(t, x, again, 0)
	for k, p := range first {
		if !strings.Contains(k, "~c") {
			continue
		}
		if q, ok := second[k]; !ok || q.Label != p.Label {
			t.Errorf("%s: first %s, after remove and add %+v", k, p.Label, q)
		}
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}
