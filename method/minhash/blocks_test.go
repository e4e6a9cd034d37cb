package minhash

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// blockPieces are what the random texts of TestSketchBlocksSameAsWhole
// put between the generated sentences: the look-alikes folding joins
// ("r|n" may fall across a block's end), letters beyond ASCII (the text is
// then read by its words), characters that normalise into several ("ﬃ",
// "ﷺ": more shingles than bytes), figures and a paragraph break.
var blockPieces = []string{" rn ", "vv", " 1O5 ", " Łódź ", " ﬃce ", " ﷺ ", " 17.5 ", "\n\n", " r", "n "}

// TestSketchBlocksSameAsWhole: the sketch of a text whose shingles are
// made a block at a time (sketchBlocks) is the sketch of the text whole,
// byte for byte in both parts, for texts of a few characters to more than
// a block of the defaults, ASCII or not, under a dateline or not, in
// blocks of one shingle to more than the text, sampled or kept whole; a
// text of characters that normalise into several, whose sample is larger
// than its length promised, included.
func TestSketchBlocksSameAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	sampled, whole := Defaults(), Defaults()
	whole.SampleSize = 0
	for _, o := range []Options{sampled, whole} {
		m, err := newMethod(o)
		if err != nil {
			t.Fatal(err)
		}
		byBlocks, all := m.NewSketcher().(*sketcher), m.NewSketcher().(*sketcher)
		byBlocks.long, all.long = 0, math.MaxInt
		for i, size := range []int{1, 5, 6, 7, 40, 199, 200, 201, 1000, 3000, 20_000, blockShingles - 1, blockShingles + 1, 3 * blockShingles} {
			text := randomText(rng, size, i%3 != 0)
			if i%2 == 0 {
				text = "KELSO, May 2 - " + text
			}
			if i == 4 {
				text = strings.Repeat(" ﷺ ", 60)
			}
			doc := core.Document{ID: fmt.Sprint(i), Title: "Kelso report rn " + text[:min(len(text), 30)], Text: text,
				Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
			want, _ := all.Sketch(&doc)
			wantIndex, wantDetail := m.AppendIndex(nil, want), m.AppendDetail(nil, want)
			for _, block := range []int{1, 2, 13, 200, 4096, blockShingles, 10 * len(text)} {
				byBlocks.block = block
				got, _ := byBlocks.Sketch(&doc)
				if !bytes.Equal(m.AppendIndex(nil, got), wantIndex) || !bytes.Equal(m.AppendDetail(nil, got), wantDetail) {
					t.Errorf("sample size %d, a text of %d bytes in blocks of %d: the sketch differs from the whole text's (%d and %d fingerprints, cut %d and %d, lead %x and %x)",
						o.SampleSize, len(text), block, len(got.Set), len(want.Set), got.Cut, want.Cut, got.Lead, want.Lead)
				}
			}
		}
	}
}

// randomText returns about n bytes of generated sentences with
// blockPieces between them, or only the sentences (ASCII) when pieces is
// false.
func randomText(rng *rand.Rand, n int, pieces bool) string {
	g := enginetest.NewTextGen(rng.Uint64())
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(g.Sentence())
		if pieces && rng.IntN(3) == 0 {
			b.WriteString(blockPieces[rng.IntN(len(blockPieces))])
		}
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// BenchmarkSketchLong sketches a long text (generated sentences) whole
// and by blocks, at the defaults: the time of each way, MB/s of text, and
// the memory it allocates, about a 64-bit hash for each character whole.
// Texts from just above longText, where blocks begin, to 10 MB.
//
//	go test -run '^$' -bench SketchLong -benchmem ./method/minhash/
func BenchmarkSketchLong(b *testing.B) {
	m, err := newMethod(Defaults())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{longText + longText/4, 10_000_000} {
		doc := core.Document{ID: "long", Title: "A long report", Text: randomText(rng, size, false)}
		for _, way := range []string{"whole", "blocks"} {
			b.Run(fmt.Sprintf("%dKB/%s", size/1000, way), func(b *testing.B) {
				s := m.NewSketcher().(*sketcher)
				if way == "whole" {
					s.long = math.MaxInt
				}
				b.SetBytes(int64(size))
				for b.Loop() {
					s.Sketch(&doc)
				}
			})
		}
	}
}
