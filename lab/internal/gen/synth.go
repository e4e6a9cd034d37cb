package gen

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// synthRate is the chance that a word of a synthesised original is replaced,
// and synthMaxRun the most words in a row left unchanged: a word after
// synthMaxRun unchanged ones is always replaced. Together about 37 % of the
// words change and no four consecutive words of the real text survive, so
// a word 3-gram survives in a variant with probability about 0.2 and in two
// variants of one article with about 0.04, before sentence shuffling and
// mixing lower both further.
const (
	synthRate   = 0.25
	synthMaxRun = 3
)

// synthThreshold is synthRate as a bound on 32 random bits.
const synthThreshold = uint64(synthRate * (1 << 32))

// vocabularySample is the number of frequency-weighted draws a vocabulary
// keeps; a small table stays in cache.
const vocabularySample = 1 << 16

// vocabulary is the corpus's words, drawn in proportion to their frequency.
type vocabulary struct {
	sample   []string // lower-case words, each as often as its frequency says
	distinct []string // every word once, in order of first use
}

// newVocabulary collects the all-letter words of the bases' bodies and keeps
// them and a fixed-size frequency-weighted sample of them.
func newVocabulary(bases []prepared) *vocabulary {
	ids := map[string]uint32{}
	var list []string
	var stream []uint32
	for _, b := range bases {
		for _, p := range b.paras {
			for _, s := range p {
				for _, w := range words(s) {
					if len(w) < 2 || !isAlpha(w) {
						continue
					}
					id, ok := ids[w]
					if !ok {
						id = uint32(len(list))
						ids[w] = id
						list = append(list, w)
					}
					stream = append(stream, id)
				}
			}
		}
	}
	if len(stream) == 0 {
		list, stream = []string{"alpha", "beta"}, []uint32{0, 1}
	}
	// Both tables point into one contiguous string, which stays in cache.
	var arena strings.Builder
	for _, w := range list {
		arena.WriteString(w)
	}
	all := arena.String()
	v := &vocabulary{sample: make([]string, vocabularySample), distinct: make([]string, len(list))}
	off := 0
	for i, w := range list {
		v.distinct[i] = all[off : off+len(w)]
		off += len(w)
	}
	rng := rand.New(rand.NewPCG(uint64(len(stream)), 0x5851f42d4c957f2d))
	for i := range v.sample {
		v.sample[i] = v.distinct[stream[rng.IntN(len(stream))]]
	}
	return v
}

// draw returns a random lower-case word other than not (in any case).
func (v *vocabulary) draw(rng *rand.Rand, not string) string {
	return v.drawFrom(rng.Uint64(), rng, not)
}

// drawFrom is draw with the first random number given: its low 16 bits
// pick the word.
func (v *vocabulary) drawFrom(r uint64, rng *rand.Rand, not string) string {
	for {
		w := v.sample[r&(vocabularySample-1)]
		if len(w) != len(not) || !strings.EqualFold(w, not) {
			return w
		}
		r = rng.Uint64()
	}
}

// variantWord returns the word variant mark puts first in sentence s, whose
// first word is core.
func (v *vocabulary) variantWord(s, core string, mark uint64) string {
	n := uint64(len(v.distinct))
	w := v.distinct[(xxhash.Sum64String(s)+mark)%n]
	if strings.EqualFold(w, core) {
		w = v.distinct[(xxhash.Sum64String(s)+mark+n/2)%n]
	}
	return w
}

// synthesise makes a new original from base b and another base of the same
// kind: about 70 % of b's sentences and 30 % of the partner's (so lengths
// stay those of real stories), shuffled, regrouped into paragraphs, with
// synthRate of the words and every figure replaced. Every sentence gets at
// least one replaced word, so no sentence of the result is a sentence of b,
// of the partner or of another variant.
//
// Variant k of base b replaces the first word of each sentence with the word
// (hash(sentence) + b·synthMix + k) mod V of the V distinct words: two
// variants of one base always differ there, so they never share a sentence
// that has a word, however small the vocabulary.
func (g *generator) synthesise(b, k int, rng *rand.Rand, sents []string) *article {
	base := &g.bases[b]
	partner := &g.bases[g.partnerOf(b, rng)]
	sents = pickSentences(sents[:0], base.paras, 70, rng)
	if len(sents) == 0 {
		sents = append(sents, base.paras[0][0])
	}
	own := textLen(sents)
	sents = pickSentences(sents, partner.paras, 30, rng)
	// A short base gets at least half its length again from the partner.
	for _, p := range partner.paras {
		for _, s := range p {
			if textLen(sents)-own < own/2 && !slices.Contains(sents, s) {
				sents = append(sents, s)
			}
		}
	}
	rng.Shuffle(len(sents), func(i, j int) { sents[i], sents[j] = sents[j], sents[i] })
	var buf []byte
	a := &article{date: base.date}
	mark := uint64(b)*synthMix + uint64(k)
	a.title, buf = g.substitute(base.title, mark, rng, buf)
	for len(sents) > 0 {
		n := 1
		if !base.templated {
			n = min(len(sents), 1+rng.IntN(4))
		}
		para := make([]string, n)
		for i := range n {
			para[i], buf = g.substitute(sents[i], mark, rng, buf)
		}
		a.paras = append(a.paras, para)
		sents = sents[n:]
	}
	return a
}

func textLen(sents []string) int {
	n := 0
	for _, s := range sents {
		n += len(s)
	}
	return n
}

// pickSentences appends each sentence of paras to dst with probability
// percent/100.
func pickSentences(dst []string, paras [][]string, percent int, rng *rand.Rand) []string {
	for _, p := range paras {
		for _, s := range p {
			if rng.IntN(100) < percent {
				dst = append(dst, s)
			}
		}
	}
	return dst
}

// partnerOf picks another base of the same kind (templated or prose) as b.
func (g *generator) partnerOf(b int, rng *rand.Rand) int {
	same := g.prose
	if g.bases[b].templated {
		same = g.templated
	}
	if len(same) < 2 {
		same = g.all
	}
	for range 8 {
		if p := same[rng.IntN(len(same))]; p != b {
			return p
		}
	}
	return b
}

// synthMix spreads the variant words of different bases over the vocabulary.
const synthMix = 0x9e3779b97f4a7c15

// substitute replaces the first word of s with the variant word for mark,
// synthRate of the other words with vocabulary words in the same letter
// case, and every figure with other digits; at least one word changes. buf
// is scratch space, returned for reuse.
func (g *generator) substitute(s string, mark uint64, rng *rand.Rand, buf []byte) (string, []byte) {
	buf = buf[:0]
	changed, alpha, run := false, 0, 0
	for i := 0; i <= len(s); {
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if i > 0 {
			buf = append(buf, ' ')
		}
		tok := s[i:j]
		lead, core, trail := splitToken(tok)
		switch {
		case core == "":
			buf = append(buf, tok...)
		case isAlpha(core):
			alpha++
			if alpha == 1 {
				buf = appendReplaced(buf, lead, core, trail, g.vocab.variantWord(s, core, mark))
				changed = true
			} else if r := rng.Uint64(); r>>32 < synthThreshold || run == synthMaxRun {
				buf = appendReplaced(buf, lead, core, trail, g.vocab.drawFrom(r, rng, core))
				changed, run = true, 0
			} else {
				buf = append(buf, tok...)
				run++
			}
		default:
			n := len(buf)
			buf = appendRandomDigits(buf, tok, rng)
			if string(buf[n:]) != tok {
				changed, run = true, 0
			}
		}
		i = j + 1
	}
	if !changed {
		return g.forceSubstitute(s, alpha, rng), buf
	}
	return string(buf), buf
}

// forceSubstitute replaces one random all-letter word of s (which has alpha
// of them), or appends a word when there is none.
func (g *generator) forceSubstitute(s string, alpha int, rng *rand.Rand) string {
	toks := strings.Split(s, " ")
	if alpha == 0 {
		return strings.TrimSpace(s + " " + g.vocab.draw(rng, ""))
	}
	k := rng.IntN(alpha)
	for i, tok := range toks {
		lead, core, trail := splitToken(tok)
		if core == "" || !isAlpha(core) {
			continue
		}
		if k == 0 {
			toks[i] = string(appendReplaced(nil, lead, core, trail, g.vocab.draw(rng, core)))
			break
		}
		k--
	}
	return strings.Join(toks, " ")
}

// appendReplaced appends lead, the lower-case word w in core's letter case,
// and trail.
func appendReplaced(buf []byte, lead, core, trail, w string) []byte {
	buf = append(buf, lead...)
	first, _ := utf8.DecodeRuneInString(core)
	switch {
	case first >= 'a' && first <= 'z' || first >= utf8.RuneSelf:
		buf = append(buf, caseLike(w, core)...)
	case len(core) > 1 && isUpperASCII(core):
		for k := 0; k < len(w); k++ {
			buf = append(buf, upperASCII(w[k]))
		}
	default:
		buf = append(buf, upperASCII(w[0]))
		buf = append(buf, w[1:]...)
	}
	return append(buf, trail...)
}

func isUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' || s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}
