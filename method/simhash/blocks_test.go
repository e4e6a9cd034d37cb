package simhash

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// blockPieces are what the random texts of TestSketchBlocksSameAsWhole
// put between the generated sentences: letters beyond ASCII (the text is
// then read by its words), characters that normalise into several ("ﬃ",
// "ﷺ": more shingles than bytes), figures and a paragraph break.
var blockPieces = []string{" Łódź ", " ﬃce ", " ﷺ ", " 17.5 ", "\n\n", " rn "}

// TestSketchBlocksSameAsWhole: the sketch of a text whose shingles, and
// features, are made a block at a time (sketchBlocks) is the sketch of the
// text whole, byte for byte in both parts, for texts of a few characters to
// more than a block of the defaults, ASCII or not, in blocks of one
// shingle to more than the text; at the defaults (character features
// weighed by their counts, made by blocks), with every fingerprint kept,
// with features the shingles themselves, and with features made whole
// (words; characters weighed by the log of their counts); a text of
// characters that normalise into several, whose sample is larger than its
// length promised, included.
func TestSketchBlocksSameAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	all, same, words, logTF := Defaults(), Defaults(), Defaults(), Defaults()
	all.SampleSize = 0
	same.FeatureLength = same.CharShingle
	words.Features = Words
	logTF.Weighting = LogTF
	for _, o := range []Options{Defaults(), all, same, words, logTF} {
		m := newMethod(o)
		byBlocks, whole := m.NewSketcher().(*sketcher), m.NewSketcher().(*sketcher)
		byBlocks.long, whole.long = 0, math.MaxInt
		for i, size := range []int{1, 4, 5, 6, 7, 40, 1000, 3000, 20_000, blockShingles + 1, 3 * blockShingles} {
			text := randomText(rng, size, i%3 != 0)
			if i == 4 {
				text = strings.Repeat(" ﷺ ", 60)
			}
			doc := core.Document{ID: fmt.Sprint(i), Title: "Kelso report " + text[:min(len(text), 30)], Text: text}
			want, _ := whole.Sketch(&doc)
			wantIndex, wantDetail := m.AppendIndex(nil, want), m.AppendDetail(nil, want)
			for _, block := range []int{1, 2, 13, 4096, blockShingles, 10 * len(text)} {
				byBlocks.block = block
				got, _ := byBlocks.Sketch(&doc)
				if !bytes.Equal(m.AppendIndex(nil, got), wantIndex) || !bytes.Equal(m.AppendDetail(nil, got), wantDetail) {
					t.Errorf("%+v: a text of %d bytes in blocks of %d: the sketch differs from the whole text's (fingerprint %x and %x, %d and %d in the sample, cut %d and %d)",
						o, len(text), block, got.FP, want.FP, len(got.Set), len(want.Set), got.Cut, want.Cut)
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
