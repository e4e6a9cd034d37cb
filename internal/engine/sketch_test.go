package engine_test

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
)

// TestSketchGoesOnlyToItsBatch: a Batch adds only the sketches its own
// Sketchers made. One of another Batch, of the same method or another, or
// a Sketch no Sketcher made, is refused naming why, and nothing is added.
func TestSketchGoesOnlyToItsBatch(t *testing.T) {
	g := enginetest.NewTextGen(7)
	d := enginetest.Doc("a", g.Sentences(8))
	a, err := minhash.Spec.NewBatch(minhash.Defaults(), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := minhash.Spec.NewBatch(minhash.Defaults(), "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sentences.Spec.NewBatch(sentences.Defaults(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sk   func() error
		want string
	}{
		{"another batch of the method", func() error { return b.Add(&d, a.NewSketcher().Sketch(&d)) }, "another batch (minhash)"},
		{"a batch of another method", func() error { return s.Add(&d, a.NewSketcher().Sketch(&d)) }, "another batch (minhash) given to the sentences batch"},
		{"no sketcher's", func() error { return b.Add(&d, engine.Sketch{}) }, "an empty sketch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.sk(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	if b.Len() != 0 || s.Len() != 0 {
		t.Errorf("%d and %d documents added, want none", b.Len(), s.Len())
	}
	if err := a.Add(&d, a.NewSketcher().Sketch(&d)); err != nil || a.Len() != 1 {
		t.Errorf("its own sketch: %v, %d documents", err, a.Len())
	}
}
