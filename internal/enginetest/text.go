// Package enginetest holds what tests of the methods and of the engine
// share without a store: the deterministic text generator tests write
// their documents with (so that no test needs a data file), a batch run of
// a method with its pairs by "a~b", and the fuzzing of a method's sketch
// codec. The conformance suite, which also runs the methods' indexes on
// real stores, is package indextest.
package enginetest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/neardup/neardup/core"
)

// TextGen writes deterministic pseudo-English sentences: half the words from
// a small vocabulary of common words, half from a long tail of made-up
// names, as in news, where two unrelated articles share common words but
// few names. (With common words alone, every bag-of-words method would find
// any two documents alike.)
type TextGen struct{ r *rand.Rand }

var vocabulary = strings.Fields(`government minister council report market shares company
profit quarter growth analysts expected said tuesday city bridge river police officers
station train weather storm rain power homes families school teachers students hospital
doctors patients prices energy bank rates inflation economy workers union strike talks
agreement election voters party leader campaign court judge ruling appeal museum festival
music film director players coach season league match victory defeat club fans stadium
farmers harvest wheat export import trade tariff border ministry budget spending tax`)

// names are 4,096 made-up words: three syllables and a suffix.
var names = func() []string {
	syl := strings.Fields("ka lo mi ser tav bru den fol gar hin jus kel mor nap pid ros")
	var out []string
	for _, a := range syl {
		for _, b := range syl {
			for _, c := range syl {
				out = append(out, a+b+c+"n")
			}
		}
	}
	return out
}()

// Words returns n distinct made-up words (of 4,096), from the k-th on: the
// same k and n give the same words, other ranges other words.
func Words(k, n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = names[(k+i)%len(names)]
	}
	return w
}

// Filler returns n documents of source src, each of 10 made-up words of its
// own from the from-th on (IDs "src-filler0" ...): with them a source has
// enough documents for a word in two others to be rare to it.
func Filler(src string, n, from int) []core.Document {
	docs := make([]core.Document, n)
	for i := range docs {
		docs[i] = core.Document{ID: fmt.Sprintf("%s-filler%d", src, i), Source: src, Text: Join(Words(from+10*i, 10))}
	}
	return docs
}

// Join returns the words of every list, in order, separated by spaces.
func Join(ws ...[]string) string {
	var all []string
	for _, w := range ws {
		all = append(all, w...)
	}
	return strings.Join(all, " ")
}

// NewTextGen returns a generator seeded with seed.
func NewTextGen(seed uint64) *TextGen { return &TextGen{rand.New(rand.NewPCG(seed, 1))} }

// Sentence returns a sentence of 10 to 17 words.
func (g *TextGen) Sentence() string {
	n := 10 + g.r.IntN(8)
	w := make([]string, n)
	for i := range w {
		if g.r.IntN(2) == 0 {
			w[i] = vocabulary[g.r.IntN(len(vocabulary))]
		} else {
			w[i] = names[g.r.IntN(len(names))]
		}
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

// Sentences returns n sentences.
func (g *TextGen) Sentences(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = g.Sentence()
	}
	return s
}

// Text returns sentences joined by spaces, at least n bytes of them.
func (g *TextGen) Text(n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(g.Sentence())
		b.WriteByte(' ')
	}
	return b.String()
}

// Doc makes a document of sentences. Each is its own source, which only
// rarewords reads: it compares documents of different sources.
func Doc(id string, sents []string) core.Document {
	return core.Document{ID: id, Text: strings.Join(sents, " "), Origin: "test:" + id, Source: id}
}

// Background returns n unrelated documents bg0, bg1, ... Methods that weigh
// words by their document frequency need a corpus to count in: in five
// documents of which three are copies, the copied text is the common text,
// and what an edit adds is the rarest.
func Background(g *TextGen, n int) []core.Document {
	docs := make([]core.Document, n)
	for i := range docs {
		docs[i] = Doc(fmt.Sprint("bg", i), g.Sentences(12))
	}
	return docs
}

// Copies returns n documents of which every third is followed by a copy
// with one sentence changed: a corpus with pairs to find.
func Copies(g *TextGen, n, sentences int) []core.Document {
	var docs []core.Document
	for i := range n {
		s := g.Sentences(sentences)
		docs = append(docs, Doc(fmt.Sprint("d", i), s))
		if i%3 == 0 {
			s[1] = g.Sentence()
			docs = append(docs, Doc(fmt.Sprint("c", i), s))
		}
	}
	return docs
}
