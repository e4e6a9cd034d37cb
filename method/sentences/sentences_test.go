package sentences

import (
	"fmt"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }

// TestEvidenceSharedCountsEverySentence pins the bug where the evidence's
// shared count stopped at the five sentences it quotes: two texts holding
// seven sentences in common said "shared": 5 beside a score of 7/8.
// Boilerplate, which does not score, is not counted.
func TestEvidenceSharedCountsEverySentence(t *testing.T) {
	g := enginetest.NewTextGen(7)
	common := g.Sentences(7)
	boiler := "Subscribe to our newsletter for the news of the day."
	docs := []core.Document{
		enginetest.Doc("a", append(append([]string{}, common...), boiler)),
		enginetest.Doc("b", append(append([]string{}, common...), g.Sentence(), boiler)),
	}
	o := Defaults()
	for i := range o.MaxDocs { // the boilerplate sentence is in 12 documents
		docs = append(docs, enginetest.Doc(fmt.Sprint("bg", i), append(g.Sentences(3), boiler)))
	}
	for _, weighted := range []bool{false, true} {
		t.Run(fmt.Sprint("weighted=", weighted), func(t *testing.T) {
			o.Weighted = weighted
			p, ok := enginetest.Batch(t, Spec, o, docs)["a~b"]
			if !ok {
				t.Fatal("a and b are not a pair")
			}
			ev := p.Evidence.(Evidence)
			if ev.Shared != len(common) || len(ev.Sentences) != maxQuoted {
				t.Errorf("shared %d, %d sentences quoted; want %d shared, %d quoted", ev.Shared, len(ev.Sentences), len(common), maxQuoted)
			}
			if !weighted && p.Score != 7.0/8 {
				t.Errorf("score %v, want 7/8", p.Score)
			}
		})
	}
}
