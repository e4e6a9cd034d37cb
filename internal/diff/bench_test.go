package diff

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
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
// words edited), rewrites (30 %), unrelated texts, a text whose halves
// were swapped, the text with its paragraphs shuffled and one of them
// twice, a text of five distinct words with every tenth replaced, and a
// paragraph repeated 40 times with one word in a hundred replaced.
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
	// A text of five distinct words, and it with every tenth word replaced:
	// aligned by runs of words (grams.go).
	few := fewWords(rng, 10000)
	fewEdited := slices.Clone(few)
	for i := 0; i < len(fewEdited); i += 10 {
		fewEdited[i] = "xyz"
	}
	tf, tfe := strings.Join(few, " "), strings.Join(fewEdited, " ")
	b.Run("fewwords/word", func(b *testing.B) {
		b.SetBytes(int64(len(tf) + len(tfe)))
		for b.Loop() {
			Compare(tf, tfe, Options{})
		}
	})
	// A paragraph of 195 words repeated 40 times, and it with one word in a
	// hundred replaced: every run of words has 40 copies on each side.
	prng := rand.New(rand.NewPCG(7, 8))
	para := benchText(benchWords(prng, 195), prng)
	rep := strings.Fields(strings.Repeat(para+" ", 40))
	repEdited := slices.Clone(rep)
	for i := 37; i < len(repEdited); i += 100 {
		repEdited[i] = "edited"
	}
	tr, tre := strings.Join(rep, " "), strings.Join(repEdited, " ")
	b.Run("repeated/word", func(b *testing.B) {
		b.SetBytes(int64(len(tr) + len(tre)))
		for b.Loop() {
			Compare(tr, tre, Options{})
		}
	})
	// Every paragraph moved: the passages found elsewhere (shared.go).
	paras := strings.Split(ta, "\n\n")
	rand.New(rand.NewPCG(5, 6)).Shuffle(len(paras), func(i, j int) { paras[i], paras[j] = paras[j], paras[i] })
	paras = append(paras, paras[0])
	shuffled := strings.Join(paras, "\n\n")
	for _, by := range []By{ByWord, BySentence} {
		b.Run("shuffled/"+by.String(), func(b *testing.B) {
			b.SetBytes(int64(len(ta) + len(shuffled)))
			for b.Loop() {
				Compare(ta, shuffled, Options{By: by})
			}
		})
	}
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

// sentenceLinesQuadratic is sentenceLines as it was, scanning every
// sentence of the side for each op: the reference of
// BenchmarkSentenceLines.
func (s *Side) sentenceLinesQuadratic(sp Span) string {
	var b strings.Builder
	pos := sp.Start
	for _, u := range s.units {
		if u.span.Start < sp.Start || u.span.End > sp.End {
			continue
		}
		b.WriteString(lineGap(s.Text[pos:u.span.Start], pos > sp.Start))
		b.WriteString(s.Text[u.span.Start:u.span.End])
		pos = u.span.End
	}
	b.WriteString(s.Text[pos:sp.End])
	return b.String()
}

// benchProse returns n sentences of made-up prose from benchWords' vocabulary,
// 8 to 30 words each, the first capitalised, a paragraph every 4.
func benchProse(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		words := benchWords(rng, 8+rng.IntN(23))
		words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
		out[i] = strings.Join(words, " ") + "."
	}
	return out
}

// editProse returns sentences with a share p of them changed: a word
// replaced, the sentence dropped, or another inserted after it.
func editProse(rng *rand.Rand, sentences []string, p float64) []string {
	var out []string
	for _, s := range sentences {
		switch r := rng.Float64(); {
		case r < p/3:
			words := strings.Fields(s)
			words[rng.IntN(len(words))] = "edited"
			out = append(out, strings.Join(words, " "))
		case r < 2*p/3:
		case r < p:
			out = append(out, s, benchProse(rng, 1)[0])
		default:
			out = append(out, s)
		}
	}
	return out
}

func joinProse(sentences []string) string {
	var b strings.Builder
	for i, s := range sentences {
		b.WriteString(s)
		if i%4 == 3 {
			b.WriteString("\n\n")
		} else {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// sentenceDiff is the diff by sentence of two texts of n sentences (about
// 19n words), 10 % of the sentences edited.
func sentenceDiff(n int) *Diff {
	rng := rand.New(rand.NewPCG(3, 4))
	a := benchProse(rng, n)
	return Compare(joinProse(a), joinProse(editProse(rng, a, 0.1)), Options{By: BySentence})
}

// BenchmarkSentenceLines renders every op of a diff by sentence of texts of
// 2,500 and 10,000 sentences (47,000 and 190,000 words, 0.3 and 1.3 MB) one
// sentence a line, as WriteText does: old scans every sentence of the side
// for each op, new finds the op's first sentence by binary search. The
// old/new ratio grows with the length of the texts.
func BenchmarkSentenceLines(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		d := sentenceDiff(n)
		for _, impl := range []struct {
			name string
			f    func(*Side, Span) string
		}{{"old", (*Side).sentenceLinesQuadratic}, {"new", (*Side).sentenceLines}} {
			b.Run(fmt.Sprintf("%d/%s", n, impl.name), func(b *testing.B) {
				b.SetBytes(int64(len(d.A.Text) + len(d.B.Text)))
				for b.Loop() {
					for _, op := range d.Ops {
						impl.f(&d.A, op.A)
						impl.f(&d.B, op.B)
					}
				}
			})
		}
	}
}

// BenchmarkWriteText writes the diff of BenchmarkSentenceLines as text.
func BenchmarkWriteText(b *testing.B) {
	d := sentenceDiff(10000)
	b.SetBytes(int64(len(d.A.Text) + len(d.B.Text)))
	for b.Loop() {
		if err := WriteText(io.Discard, d, TextOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSentenceLinesAsBefore: sentenceLines gives what the quadratic
// version gave, op by op.
func TestSentenceLinesAsBefore(t *testing.T) {
	d := sentenceDiff(300)
	if len(d.Ops) < 50 {
		t.Fatalf("%d ops, want many", len(d.Ops))
	}
	for i, op := range d.Ops {
		if got, want := d.A.sentenceLines(op.A), d.A.sentenceLinesQuadratic(op.A); got != want {
			t.Fatalf("op %d, A: %q, want %q", i, got, want)
		}
		if got, want := d.B.sentenceLines(op.B), d.B.sentenceLinesQuadratic(op.B); got != want {
			t.Fatalf("op %d, B: %q, want %q", i, got, want)
		}
	}
}

// BenchmarkWriteHTML writes the diff of BenchmarkSentenceLines as an HTML
// page, by sentence, and a diff by word of texts of 20,000 words with a
// tenth of them edited, spelt otherwise or repunctuated.
func BenchmarkWriteHTML(b *testing.B) {
	benchWrite(b, WriteHTML)
}

// BenchmarkWriteJSON writes the diffs of BenchmarkWriteHTML as JSON.
func BenchmarkWriteJSON(b *testing.B) {
	benchWrite(b, WriteJSON)
}

func benchWrite(b *testing.B, write func(io.Writer, *Diff) error) {
	for _, tc := range []struct {
		name string
		d    *Diff
	}{{"sentence", sentenceDiff(10000)}, {"word", wordDiff(20000)}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.d.A.Text) + len(tc.d.B.Text)))
			for b.Loop() {
				if err := write(io.Discard, tc.d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// wordDiff returns the diff by word of a text of n words of prose and a
// copy with one word in ten replaced, upper-cased or followed by a comma
// or semicolon the other lacks.
func wordDiff(n int) *Diff {
	rng := rand.New(rand.NewPCG(5, 6))
	words := []string{"the", "council", "said", "on", "Monday", "bridge", "will", "close", "for", "six", "weeks",
		"while", "engineers", "replace", "cables", "traffic", "tunnel", "tolls"}
	var a, b strings.Builder
	for i := range n {
		w := words[rng.IntN(len(words))]
		wb, sepA, sepB := w, " ", " "
		if i%10 == 0 {
			switch rng.IntN(3) {
			case 0:
				wb = words[rng.IntN(len(words))]
			case 1:
				wb = strings.ToUpper(w)
			default:
				sepA, sepB = ", ", "; "
			}
		}
		a.WriteString(w + sepA)
		b.WriteString(wb + sepB)
	}
	return Compare(a.String(), b.String(), Options{})
}
