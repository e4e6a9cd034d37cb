package minhash

import (
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
)

// TestFormat7Fixture: a sketch of format 7, as the binary of that format
// wrote it (testdata/format7.hex: the index part, then the detail part, of
// a weather bulletin sketched at the defaults), still decodes, without the
// filter of its words; and the options of an index of format 7 (Spec's
// Older) sketch that bulletin into those very bytes, where the defaults
// make format 8 and keep the filter.
func TestFormat7Fixture(t *testing.T) {
	data, err := os.ReadFile("testdata/format7.hex")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != 2 {
		t.Fatalf("testdata/format7.hex holds %d lines, want 2", len(lines))
	}
	var parts [2][]byte
	for i, l := range lines {
		if parts[i], err = hex.DecodeString(l); err != nil {
			t.Fatal(err)
		}
	}
	doc := core.Document{ID: "raleigh", Title: "Raleigh weather: high of 24C on Thursday", Text: forecast("Raleigh", "24", "35"),
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}

	c, ok := older(7, Defaults())
	if !ok {
		t.Fatal("Spec's Older refuses format 7")
	}
	m7, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := m7.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of format 7 does not decode: %v", err)
	}
	if sk.WordFilter != nil || len(sk.Names) == 0 || len(sk.Set) == 0 {
		t.Errorf("decoded: filter %v, %d names, %d fingerprints; want no filter, names and fingerprints", sk.WordFilter, len(sk.Names), len(sk.Set))
	}
	fresh, _ := m7.NewSketcher().Sketch(&doc)
	if i, d := m7.AppendIndex(nil, fresh), m7.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of format 7 sketch other bytes than format 7 did:\n index  %x\n detail %x", i, d)
	}
	m8, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if s8, _ := m8.NewSketcher().Sketch(&doc); s8.WordFilter == nil || m8.AppendDetail(nil, s8)[0] != Format {
		t.Errorf("the defaults sketch format %d, filter %v; want %d with a filter", m8.AppendDetail(nil, s8)[0], s8.WordFilter, Format)
	}
}
