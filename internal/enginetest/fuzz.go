package enginetest

import (
	"testing"

	"github.com/neardup/neardup/internal/engine"
)

// FuzzCodec fuzzes the decoding of a method's stored sketches: nothing
// panics, and what decodes survives encoding (see engine.Spec.Redecode).
func FuzzCodec(f *testing.F, spec engine.Spec) {
	g := NewTextGen(9)
	seeds := 0
	for _, n := range []int{1, 5, 40} {
		d := Doc("seed", g.Sentences(n))
		if index, detail, ok := spec.Sample(&d); ok { // short ones may be skipped
			f.Add(index, detail)
			seeds++
		}
	}
	if seeds == 0 {
		f.Fatal("every seed document was skipped")
	}
	f.Add([]byte{1, 1, 0, 0, 0, 0}, []byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, index, detail []byte) {
		if _, err := spec.Redecode(index, detail); err != nil {
			t.Fatal(err)
		}
	})
}
