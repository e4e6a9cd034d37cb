package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchWords returns n words of made-up prose: a Zipf-distributed vocabulary
// of 20,000 words, so a few words are very common as in real text, with a
// sentence end every 8 to 30 words and a paragraph break every 4 sentences.
func benchWords(rng *rand.Rand, n int) []string {
	z := rand.NewZipf(rng, 1.1, 1, 19999)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", z.Uint64())
	}
	return out
}

func benchText(words []string, rng *rand.Rand) string {
	var b strings.Builder
	next, sentences := 8+rng.IntN(23), 0
	for i, w := range words {
		b.WriteString(w)
		switch {
		case i == next:
			b.WriteString(".")
			sentences++
			next += 8 + rng.IntN(23)
			if sentences%4 == 0 {
				b.WriteString("\n\n")
				continue
			}
		}
		b.WriteString(" ")
	}
	return b.String()
}

// edit returns words with a share p of them deleted, replaced or followed by
// an inserted word.
func edit(rng *rand.Rand, words []string, p float64) []string {
	var out []string
	extra := benchWords(rng, len(words))
	for i, w := range words {
		switch r := rng.Float64(); {
		case r < p/3:
		case r < 2*p/3:
			out = append(out, extra[i])
		case r < p:
			out = append(out, w, extra[i])
		default:
			out = append(out, w)
		}
	}
	return out
}

// BenchmarkCompare diffs texts of 10,000 words: near duplicates (5 % of the
// words edited), rewrites (30 %), unrelated texts and a text whose halves
// were swapped.
func BenchmarkCompare(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := benchWords(rng, 10000)
	swapped := append(append([]string{}, a[5000:]...), a[:5000]...)
	cases := []struct {
		name string
		b    []string
	}{
		{"near", edit(rng, a, 0.05)},
		{"rewrite", edit(rng, a, 0.3)},
		{"unrelated", benchWords(rng, 10000)},
		{"swapped", swapped},
	}
	ta := benchText(a, rng)
	for _, tc := range cases {
		tb := benchText(tc.b, rng)
		for _, by := range []By{ByWord, BySentence} {
			b.Run(tc.name+"/"+by.String(), func(b *testing.B) {
				b.SetBytes(int64(len(ta) + len(tb)))
				for b.Loop() {
					Compare(ta, tb, Options{By: by})
				}
			})
		}
	}
}
