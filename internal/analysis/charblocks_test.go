package analysis

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// charShingleBlocks returns the blocks CharShingleBlocks yields, copied.
func charShingleBlocks(a *Analyzer, text string, n int, fold bool, size int) [][]uint64 {
	var blocks [][]uint64
	for b := range a.CharShingleBlocks(text, a.Words(text), n, fold, size) {
		blocks = append(blocks, slices.Clone(b))
	}
	return blocks
}

// TestCharShingleBlocksSameAsCharShingles: the blocks of random texts,
// ASCII (read whole) or not (read by words), folded or not, joined, are
// CharShingles' (FoldedCharShingles') shingles, for block sizes from one
// character to more than the text, so that blocks end inside words, inside
// the pairs folding reads as one letter ("r|n", "v|v") and inside the
// first window; no block is empty, and none longer than its size and a
// word.
func TestCharShingleBlocksSameAsCharShingles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var a Analyzer
	pieces := map[string][]string{
		"ascii":     {"r", "n", "v", "rn", "vv", "1", "0", "5", "a", "Q", " ", ".", "-", "'", "don't", "U.S.Army", "1,000", "here.Another"},
		"non-ascii": append(slices.Clone(foldPieces), segmentPieces...),
	}
	for name, pieces := range pieces {
		for i := range randomTexts() {
			var b strings.Builder
			for range rng.IntN(60) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text, n, size, fold := b.String(), 1+i%7, 1+rng.IntN(40), i%2 == 0
			want := a.CharShingles(text, a.Words(text), n, nil)
			if fold {
				want = a.FoldedCharShingles(text, a.Words(text), n, nil)
			}
			blocks := charShingleBlocks(&a, text, n, fold, size)
			if got := slices.Concat(blocks...); !slices.Equal(got, want) {
				t.Fatalf("%s: the blocks of %q (n %d, folded %v, size %d) are %x, CharShingles %x", name, text, n, fold, size, blocks, want)
			}
			for _, bl := range blocks {
				if len(bl) == 0 || name == "ascii" && len(bl) > size+1 {
					t.Fatalf("%s: %q (n %d, size %d) has a block of %d shingles", name, text, n, size, len(bl))
				}
			}
		}
	}
}

// TestCharShingleBlocksLong: the blocks of long texts, English (read
// whole) and Polish and Russian (read by words), a few thousand shingles
// each, are their CharShingles, and a loop that stops early stops the
// blocks.
func TestCharShingleBlocksLong(t *testing.T) {
	var a Analyzer
	for _, lang := range []string{"en", "pl", "ru"} {
		text := benchText(lang, 200_000)
		for _, size := range []int{1 << 12, 1<<12 + 1, 1 << 20} {
			for _, fold := range []bool{false, true} {
				want := a.CharShingles(text, a.Words(text), 6, nil)
				if fold {
					want = a.FoldedCharShingles(text, a.Words(text), 6, nil)
				}
				blocks := charShingleBlocks(&a, text, 6, fold, size)
				if got := slices.Concat(blocks...); !slices.Equal(got, want) || size < len(want) && len(blocks) < len(want)/(2*size) {
					t.Errorf("%s, size %d, folded %v: %d blocks of %d shingles, not CharShingles' %d", lang, size, fold, len(blocks), len(got), len(want))
				}
			}
		}
	}
	text := benchText("en", 200_000)
	count := 0
	for range a.CharShingleBlocks(text, a.Words(text), 6, true, 1<<12) {
		if count++; count == 2 {
			break
		}
	}
	if count != 2 {
		t.Errorf("a loop that breaks at the second block saw %d", count)
	}
}
