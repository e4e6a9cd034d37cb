package minhash

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
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

// BenchmarkSketchNews sketches 200 news-sized texts (about 450 words, one
// word in eight a capitalised name, under a dateline and a title) at the
// defaults, as format 7 did and as format 8 does with the filter of the
// words (the options of an index of format 7 against the defaults): the
// filter's cost to each document's sketch, MB/s of text.
func BenchmarkSketchNews(b *testing.B) {
	var docs []core.Document
	size := 0
	for i := range 200 {
		words := strings.Fields(enginetest.NewTextGen(uint64(i)).Text(3000))
		for j, w := range words {
			if j%8 == 3 {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		docs = append(docs, core.Document{ID: fmt.Sprint(i), Title: strings.ToUpper(strings.Join(words[3:9], " ")),
			Text: fmt.Sprintf("KELSO, May %d - ", i%28+1) + strings.Join(words, " ")})
		size += len(docs[i].Text)
	}
	c, _ := older(7, Defaults())
	for _, o := range []struct {
		name string
		opts Options
	}{{"format=7", c.(Options)}, {"format=8", Defaults()}} {
		b.Run(o.name, func(b *testing.B) {
			m, err := newMethod(o.opts)
			if err != nil {
				b.Fatal(err)
			}
			s := m.NewSketcher()
			b.SetBytes(int64(size))
			for b.Loop() {
				for i := range docs {
					s.Sketch(&docs[i])
				}
			}
		})
	}
}
