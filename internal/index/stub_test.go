package index_test

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// TestStubs: a batch and an index skip the same stubs with the same
// reasons, before any method sees them: a text under the minimum length
// and a gallery caption, each twice (so a method would pair them); a
// negative minimum compares them.
func TestStubs(t *testing.T) {
	g := enginetest.NewTextGen(31)
	story := enginetest.Doc("story", g.Sentences(6))
	docs := []core.Document{
		story,
		{ID: "gallery-18", Text: "Смотреть все фото к статье (18)"},
		{ID: "gallery-9", Text: "Смотреть все фото к статье (18)"},
		{ID: "short-1", Text: "Markets closed higher."},
		{ID: "short-2", Text: "Markets closed higher."},
		{ID: "long-enough", Text: strings.Repeat("x", 40)},
	}
	want := map[string]core.SkipReason{"gallery-18": core.SkipGallery, "gallery-9": core.SkipGallery,
		"short-1": core.SkipTooShort, "short-2": core.SkipTooShort}
	for _, minChars := range []int{0, -1} {
		b, err := minhash.Spec.NewBatchWith(minhash.Defaults(), engine.Grouping{MinChars: minChars})
		if err != nil {
			t.Fatal(err)
		}
		sk := b.NewSketcher()
		x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{MinChars: minChars})
		ms := add(t, x, docs...)
		for i, d := range docs {
			w := want[d.ID]
			if minChars < 0 {
				w = core.SkipNone
			}
			if got := sk.Sketch(&docs[i]).Skip(); got != w {
				t.Errorf("min %d, batch: %s skipped %q, want %q", minChars, d.ID, got, w)
			}
			if ms[i].Skip != w {
				t.Errorf("min %d, index: %s skipped %q, want %q", minChars, d.ID, ms[i].Skip, w)
			}
		}
		if minChars < 0 && len(ms[2].Pairs)+len(ms[4].Pairs) != 2 {
			t.Errorf("without a minimum the repeated stubs pair: %+v %+v", ms[2], ms[4])
		}
	}
}
