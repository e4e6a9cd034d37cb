package minhash

import (
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
)

// TestFormat5FillsDropped: a sketch of format 5 still reads, without the
// fills of its template's slots, whose values format 6 computes otherwise.
func TestFormat5FillsDropped(t *testing.T) {
	m, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.NewSketcher().Sketch(&core.Document{ID: "x", Title: "RIVERTON BARLEY OPENING",
		Text: "RIVERTON, May 2 - Dealers said Quillon Harbour Works sold barley at 12.50 dlrs a tonne on light receipts of 3,000 tonnes."})
	if len(s.Fills) == 0 {
		t.Fatal("the made-up document has no fills to drop")
	}
	detail := m.AppendDetail(nil, s)
	got, err := m.DecodeDetail(detail)
	if err != nil || !slices.Equal(got.Fills, s.Fills) {
		t.Fatalf("format %d: fills %x, %v; want %x", Format, got.Fills, err, s.Fills)
	}
	detail[0] = 5
	got, err = m.DecodeDetail(detail)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fills != nil || !slices.Equal(got.Set, s.Set) || !slices.Equal(got.Slots, s.Slots) {
		t.Errorf("format 5: fills %x (want none), set and slots kept %v", got.Fills, slices.Equal(got.Set, s.Set) && slices.Equal(got.Slots, s.Slots))
	}
}
