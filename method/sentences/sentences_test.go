package sentences

import (
	"fmt"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

func TestConformance(t *testing.T) {
	low := Defaults()
	low.Similar = 0.01
	enginetest.Suite{Spec: Spec, Options: Defaults(), Low: low}.Run(t)
}

// The incremental rule: an Index judges boilerplate by the documents stored
// when a document arrives, so a sentence that becomes boilerplate later
// still joins the documents that came before; Rescore judges again with
// the statistics of the whole index, as a batch does.
func TestIndexRuleAndRescore(t *testing.T) {
	g := enginetest.NewTextGen(41)
	shared := "Readers can reach the newsroom any day of the week through the contact page."
	var docs []core.Document
	for i := range 15 {
		docs = append(docs, enginetest.Doc(fmt.Sprint("d", i), []string{g.Sentence(), shared}))
	}
	story := g.Sentences(6)
	docs = append(docs, enginetest.Doc("story", story), enginetest.Doc("story-copy", story))
	batch := enginetest.Batch(t, Spec, Defaults(), docs)
	x := enginetest.OpenIndex(t, Spec, Defaults())
	inc := enginetest.AddAll(t, x, docs, 4)
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
	if faults, err := x.Verify(t.Context(), nil); err != nil || len(faults) > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }
