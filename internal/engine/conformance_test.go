package engine_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/indextest"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// suites are the options the conformance suite runs each method with.
var suites = map[string]indextest.Suite{
	minhash.Name: func() indextest.Suite {
		low := minhash.Defaults()
		low.Similar = 0.01
		return indextest.Suite{Spec: minhash.Spec, Options: minhash.Defaults(), Low: low}
	}(),
	sentences.Name: func() indextest.Suite {
		low := sentences.Defaults()
		low.Similar = 0.01
		return indextest.Suite{Spec: sentences.Spec, Options: sentences.Defaults(), Low: low}
	}(),
	// tfidf runs with words less stop words and the smoothed IDF: the
	// default, tm's log2(N/df) over every word, gives a term held by every
	// document so far no weight, so the vectors of a young index (the
	// first document's is empty) move with each document added far more
	// than a smoothed IDF's do, and the suite's corpora of a few dozen
	// documents are young indexes: a pair near a threshold is decided one
	// way in the index and the other in a batch. Rescore weighs an index's
	// vectors as a batch does.
	tfidf.Name: func() indextest.Suite {
		o := tfidf.Defaults()
		o.Terms, o.Weighting = tfidf.TermsWords, tfidf.WeightingSmooth
		o.Similar = 0.3
		low := o
		low.Similar = 0.01
		return indextest.Suite{Spec: tfidf.Spec, Options: o, Low: low, ScoresSeeCorpus: true}
	}(),
	// rarewords has no similar threshold (a reported pair the rule does not
	// accept is similar), so its low options are its options. The suite's
	// documents are short, and each is its own source, so no word is common
	// to a source and two strangers share the common half of the vocabulary
	// (a third of their words).
	rarewords.Name: func() indextest.Suite {
		o := rarewords.Defaults()
		o.MinWords, o.Threshold = 20, 0.5
		return indextest.Suite{Spec: rarewords.Spec, Options: o, Low: o, ScoresSeeCorpus: true}
	}(),
	cosine.Name: func() indextest.Suite {
		o := cosine.Defaults()
		o.Similar = 0.3
		low := o
		low.Similar = 0.01
		return indextest.Suite{Spec: cosine.Spec, Options: o, Low: low, ScoresSeeCorpus: true}
	}(),
	// The suite's copies have one sentence in 8 to 12 replaced, which moves
	// a fingerprint up to 11 bits: beyond simhash's default distance, chosen
	// for near-exact copies at scale (docs/evaluation.md). Its corpora are
	// small, so it runs with every fingerprint within 12 bits a candidate
	// (13 tables of 4-bit keys, about a 16th of the corpus in a bucket). Low
	// finds pairs farther still, to see scores fall as edits accumulate.
	simhash.Name: func() indextest.Suite {
		o := simhash.Defaults()
		o.Distance, o.Blocks = 12, 13
		low := o
		low.Similar = 0.01
		low.Distance, low.Blocks = 20, 21
		return indextest.Suite{Spec: simhash.Spec, Options: o, Low: low}
	}(),
}

// TestConformance runs the suite on every method the program offers.
func TestConformance(t *testing.T) {
	for _, spec := range methods.All {
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel()
			s, ok := suites[spec.Name]
			if !ok {
				t.Fatalf("method %s has no suite options here", spec.Name)
			}
			s.Run(t)
		})
	}
}

// The incremental rule: an Index judges boilerplate by the documents stored
// when a document arrives, so a sentence that becomes boilerplate later
// still joins the documents that came before; Rescore judges again with
// the statistics of the whole index, as a batch does.
func TestSentencesIndexRuleAndRescore(t *testing.T) {
	g := enginetest.NewTextGen(41)
	shared := "Readers can reach the newsroom any day of the week through the contact page."
	var docs []core.Document
	for i := range 15 {
		docs = append(docs, enginetest.Doc(fmt.Sprint("d", i), []string{g.Sentence(), shared}))
	}
	story := g.Sentences(6)
	docs = append(docs, enginetest.Doc("story", story), enginetest.Doc("story-copy", story))
	batch := enginetest.Batch(t, sentences.Spec, sentences.Defaults(), docs)
	x := indextest.OpenIndex(t, sentences.Spec, sentences.Defaults())
	inc := indextest.AddAll(t, x, docs, 4)
	if len(batch) != 1 || batch["story~story-copy"].Label != core.Duplicate {
		t.Fatalf("batch pairs: %v", enginetest.Summary(batch))
	}
	if len(inc) <= 1 {
		t.Fatalf("the index paired nothing through the sentence that became boilerplate: %v", enginetest.Summary(inc))
	}
	if _, err := x.Rescore(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	st, err := x.Stats(t.Context())
	if err != nil || st.Marks[core.Duplicate] != 1 || st.Marks[core.Similar] != 0 || st.Clusters != 1 {
		t.Errorf("after rescore: %+v %v; want the batch's one duplicate pair", st.Counts, err)
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}

// TestCosineBigramsAndStems: the same words in another order share their words
// but not their bigrams; inflected forms share their stems.
func TestCosineBigramsAndStems(t *testing.T) {
	const a = "The council approved the new harbour bridge after a long debate about its cost and its design."
	for _, tc := range []struct {
		name, b  string
		min, max float64
	}{
		{"same text", a, 0.9999, 1},
		{"words reversed", "Design its and cost its about debate long a after bridge harbour new the approved council the.", 0.3, 0.7},
		{"inflected", "The councils approve the new harbour bridges after long debates about their costs and their designs.", 0.9999, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := cosine.Defaults()
			o.Similar = 0.01
			got := indextest.Incremental(t, "sqlite", cosine.Spec, o, []core.Document{{ID: "a", Text: a}, {ID: "b", Text: tc.b}}, 1)
			if p, ok := got["a~b"]; !ok || len(got) != 1 || p.Score < tc.min || p.Score > tc.max {
				t.Errorf("pairs\n%s; want a~b scoring in [%v, %v]", enginetest.Summary(got), tc.min, tc.max)
			}
		})
	}
}

// TestRarewordsIndexReportsNewestBest: a rarewords Index reports the new document's best
// match per source among those before it.
func TestRarewordsIndexReportsNewestBest(t *testing.T) {
	x := indextest.OpenIndex(t, rarewords.Spec, rarewordsShort())
	base := words(0, 100)
	var docs []core.Document
	for i, src := range []string{"s1", "s2", "s3"} {
		docs = append(docs, filler(src, 40, 1000+400*i)...)
	}
	docs = append(docs,
		core.Document{ID: "a", Source: "s1", Text: text(base[:70], words(200, 30))},
		core.Document{ID: "b", Source: "s1", Text: text(base[:90], words(300, 10))},
		core.Document{ID: "c", Source: "s2", Text: text(base[:50], words(400, 50))})
	indextest.AddAll(t, x, docs, 1)
	outs, err := x.Add(t.Context(), []core.Document{{ID: "new", Source: "s3", Text: text(base)}}, index.AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range outs[0].Pairs {
		e := p.Evidence.(rarewords.Evidence)
		got = append(got, fmt.Sprintf("%s~%s %v %s", p.A, p.B, e.BInA, e.BestFor))
	}
	want := []string{"b~new 0.9 b", "c~new 0.5 b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// words returns n distinct made-up words starting at the k-th.
func words(k, n int) []string { return enginetest.Words(k, n) }

// filler returns n documents of source src of words of their own: with 40
// of them a word in two documents is rare to the source (2 <= 5 % of 40).
func filler(src string, n, from int) []core.Document { return enginetest.Filler(src, n, from) }

func text(ws ...[]string) string { return enginetest.Join(ws...) }

// rarewordsShort are rarewords' defaults for documents of ten words on.
func rarewordsShort() rarewords.Options {
	o := rarewords.Defaults()
	o.MinWords = 10
	return o
}
