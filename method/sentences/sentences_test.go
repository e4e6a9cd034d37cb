package sentences

import (
	"fmt"
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

func TestConformance(t *testing.T) {
	low := Defaults()
	low.Similar = 0.01
	enginetest.Suite{Spec: Spec, Options: Defaults(), Low: low}.Run(t)
}

func TestSketchRoundTrip(t *testing.T) {
	m := newMethod(Defaults())
	sk := m.NewSketcher()
	for _, d := range enginetest.Copies(enginetest.NewTextGen(8), 10, 20) {
		s, _ := sk.Sketch(&d)
		got, err := m.DecodeSketch(m.AppendIndex(nil, s), m.AppendDetail(nil, s))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Hashes, s.Hashes) || !slices.Equal(got.Chars, s.Chars) {
			t.Fatalf("%s: the sketch changed in a round trip", d.ID)
		}
	}
}

func FuzzDecode(f *testing.F) {
	m := newMethod(Defaults())
	d := enginetest.Doc("a", enginetest.NewTextGen(9).Sentences(5))
	s, _ := m.NewSketcher().Sketch(&d)
	f.Add(m.AppendIndex(nil, s))
	f.Add([]byte{Format, 1, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := m.DecodeIndex(b)
		if err != nil {
			return
		}
		again, err := m.DecodeIndex(m.AppendIndex(nil, s))
		if err != nil || !slices.Equal(again.Hashes, s.Hashes) || !slices.Equal(again.Chars, s.Chars) {
			t.Fatalf("a decoded sketch does not survive re-encoding: %v", err)
		}
	})
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
