package sentences

import (
	"slices"
	"testing"

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
