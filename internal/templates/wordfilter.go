package templates

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/analysis"
)

// Filter is a Bloom filter of 32-bit shingle fingerprints (see
// Context.WordFilter): Has answers true for every fingerprint added, and
// for about filterFalse of the others. The nil Filter holds nothing.
type Filter []uint32

// filterBitsPerKey is how many bits a Filter spends on each fingerprint,
// and filterProbes how many of them each sets: 8 and 5 answer true for
// about 2.2 % of the fingerprints never added (filterFalse; 1.7 % measured
// at 66 fingerprints, a 600-word article's words with a capital), fewer
// for a filter of a few, whose bits are rounded up to a whole word. A name
// taken for held by mistake is what every name past the cut was before
// the filter.
const (
	filterBitsPerKey = 8
	filterProbes     = 5
	filterFalse      = 0.022
)

// newFilter returns the filter of keys, distinct fingerprints; nil for
// none.
func newFilter(keys []uint32) Filter {
	if len(keys) == 0 {
		return nil
	}
	f := make(Filter, (len(keys)*filterBitsPerKey+31)/32)
	for _, x := range keys {
		a, b := filterHash(x)
		for range filterProbes {
			i := f.bit(a)
			f[i/32] |= 1 << (i % 32)
			a += b
		}
	}
	return f
}

// Has reports whether x may have been added to f: true for every
// fingerprint added, and for about filterFalse of the others.
func (f Filter) Has(x uint32) bool {
	if len(f) == 0 {
		return false
	}
	a, b := filterHash(x)
	for range filterProbes {
		if i := f.bit(a); f[i/32]&(1<<(i%32)) == 0 {
			return false
		}
		a += b
	}
	return true
}

// bit returns the place of probe a among f's bits: a scaled to their
// number by a multiplication, not a division.
func (f Filter) bit(a uint32) uint64 { return uint64(a) * uint64(32*len(f)) >> 32 }

// filterHash returns the first probe of x and the step to the next
// (double hashing): the halves of a 64-bit mix of x (splitmix64's
// finaliser), the step odd. The fingerprints looked up are those past a
// sample's cut, large ones: the mix spreads them over the filter anyway.
func filterHash(x uint32) (first, step uint32) {
	h := uint64(x) * 0x9e3779b97f4a7c15
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	h ^= h >> 31
	return uint32(h), uint32(h>>32) | 1
}

// wordFilter returns the filter of the character shingles of the words of
// a text (words its tokens) and its title (tw) where a name is looked up
// (Context.WordFilter), or nil when WordFilter is off or no word has
// Shingle letters. A word holding a capital gives every shingle, so that a
// name's least shingle is found whatever the word adds to the name
// ("Seattle's", "Berlins"); any other word its least one, as a name of the
// same letters has it ("banking" for a title's "Banking"). A word's
// shingles are those addName computes for a name: the word's alone, folded
// when Folded is set. A word met again is not read again, and the
// fingerprints are made distinct in a set, not sorted.
func (s *Scanner) wordFilter(text string, words []analysis.Token, title string, tw []analysis.Token) Filter {
	if !s.WordFilter || s.Shingle == 0 {
		return nil
	}
	s.seen.reset(len(words) + len(tw))
	s.keys = s.appendWordShingles(s.keys[:0], text, words)
	s.keys = s.appendWordShingles(s.keys, title, tw)
	s.seen.reset(len(s.keys))
	for _, x := range s.keys {
		s.seen.add(uint64(x) | 1<<32)
	}
	s.keys = s.keys[:0]
	for _, x := range s.seen.t {
		if x != 0 {
			s.keys = append(s.keys, uint32(x))
		}
	}
	return newFilter(s.keys)
}

// appendWordShingles appends to keys the low 32 bits of the shingles of
// the words of text (words its tokens) that wordFilter keeps, and with
// ShortNames the keys of its short words with a capital (see
// appendShortKey), but for the words s.seen holds already, which it adds.
func (s *Scanner) appendWordShingles(keys []uint32, text string, words []analysis.Token) []uint32 {
	one := []analysis.Token{{}} // one word, as addName reads a name
	for _, t := range words {
		w := text[t.Start:t.End]
		if len(w) < s.Shingle {
			// Fewer bytes than the letters of a shingle, as most words: a
			// word a name can be is kept by its key (a name starts with
			// a capital and is no function word, see nameWords).
			if s.ShortNames && len(w) >= minNameLetters && startsCapital(w) && !isFunctionWord(t.Hash) &&
				s.seen.add(t.Hash<<2|1<<1|1) {
				keys = s.appendShortKey(keys, w)
			}
			continue
		}
		capital, letters := wordShape(w)
		long := letters >= s.Shingle
		if !long && !(s.ShortNames && capital) || !s.seen.add(t.Hash<<2|uint64(b2i(capital))<<1|1) {
			continue
		}
		if s.ShortNames && capital && (!long || trimPossessive(w) != w) {
			keys = s.appendShortKey(keys, w)
		}
		if !long {
			continue
		}
		one[0].End = int32(len(w))
		if s.Folded {
			s.shings = s.an.FoldedCharShingles(w, one, s.Shingle, s.shings[:0])
		} else {
			s.shings = s.an.CharShingles(w, one, s.Shingle, s.shings[:0])
		}
		if len(s.shings) == 0 {
			continue // letters that normalise to nothing ("ʼʼʼʼʼʼ"): no shingle to keep
		}
		if capital {
			for _, h := range s.shings {
				keys = append(keys, uint32(h))
			}
			continue
		}
		least := uint32(s.shings[0])
		for _, h := range s.shings[1:] {
			least = min(least, uint32(h))
		}
		keys = append(keys, least)
	}
	return keys
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// set64 is a set of non-zero 64-bit values, by open addressing in a table
// of a power of two places, at most half of them filled: what wordFilter
// makes its words and fingerprints distinct with. The zero set64 is
// reset before use.
type set64 struct {
	t     []uint64
	n     int   // values held
	shift uint8 // 64 less the bits of a place
}

// reset empties s for about n values, reusing its table. A table for more
// than set64Room values is made as they come: a long text's words are
// mostly repeats, and its table would be sized for each of them.
func (s *set64) reset(n int) {
	s.size(min(n, set64Room))
	s.n = 0
}

// set64Room is the most values reset makes room for at once: those of
// a news article's words many times over.
const set64Room = 1 << 14

// size gives s an empty table of at least 2n places, 16 at least, reusing
// its storage when it has the room.
func (s *set64) size(n int) {
	b := bits.Len(uint(max(2*n-1, 15)))
	if cap(s.t) < 1<<b {
		s.t = make([]uint64, 1<<b)
	} else {
		s.t = s.t[:1<<b]
		clear(s.t)
	}
	s.shift = uint8(64 - b)
}

// add adds x, not 0, and reports whether s lacked it.
func (s *set64) add(x uint64) bool {
	if 2*(s.n+1) > len(s.t) {
		s.grow()
	}
	mask := uint64(len(s.t) - 1)
	for i := x * 0x9e3779b97f4a7c15 >> s.shift; ; i = (i + 1) & mask {
		switch s.t[i] {
		case 0:
			s.t[i] = x
			s.n++
			return true
		case x:
			return false
		}
	}
}

// grow doubles s's table, keeping its values.
func (s *set64) grow() {
	old := s.t
	s.t = nil
	s.size(len(old))
	s.n = 0
	for _, x := range old {
		if x != 0 {
			s.add(x)
		}
	}
}

// appendShortKey appends to keys the key (wordKey) of a word with a
// capital of fewer letters and digits than a shingle, from
// minNameLetters, where a short title name is looked up: that of the
// word, or of what precedes its possessive ending ("Rome's" holds
// "Rome", as "Seattle's" holds "Seattle" by its shingles).
func (s *Scanner) appendShortKey(keys []uint32, word string) []uint32 {
	word = trimPossessive(word)
	if mask, n, ok := asciiNameMask(word, s.Folded); ok {
		if n >= minNameLetters && n < s.Shingle && mask != 0 {
			keys = append(keys, wordKey(mask))
		}
		return keys
	}
	if n := letterCount(word); n < minNameLetters || n >= s.Shingle {
		return keys
	}
	s.buf = s.an.AppendNormalized(s.buf[:0], word)
	if s.Folded {
		for i, c := range s.buf {
			if l := digitLookAlikes[c]; l != 0 {
				s.buf[i] = l // as addName reads a name
			}
		}
	}
	if mask := nameMask(s.buf); mask != 0 {
		keys = append(keys, wordKey(mask))
	}
	return keys
}

// asciiNameMask returns, for an ASCII word, the mask addName gives it as
// a name (nameMask of the word normalised, its digit look-alikes read as
// letters when folded) and its count of letters and digits, in one pass
// over its bytes, as most words are; ok is false for a word beyond ASCII.
func asciiNameMask(word string, folded bool) (mask uint64, letters int, ok bool) {
	prev, first := uint8(asciiAlnums), byte(0)
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= utf8.RuneSelf {
			return 0, 0, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A' // as analysis.Analyzer.AppendNormalized
		}
		if l := digitLookAlikes[c]; folded && l != 0 {
			c = l
		}
		a := asciiAlnum[c]
		if a == asciiAlnums {
			continue
		}
		if letters++; prev != asciiAlnums {
			mask |= 1 << asciiPairBits[1][prev][a]
		} else {
			first = c
		}
		prev = a
	}
	if mask == 0 && letters > 0 {
		mask = 1 << modBits(pairHash(-1, rune(first)), kindShift) // one character, as bigramMask
	}
	return mask, letters, true
}

// trimPossessive returns word without its possessive ending ("'s", "’s",
// in any case), or word itself.
func trimPossessive(word string) string {
	n := len(word)
	if n < 3 || word[n-1]|0x20 != 's' {
		return word
	}
	switch {
	case word[n-2] == '\'':
		return word[:n-2]
	case strings.HasSuffix(word[:n-1], "’"):
		return word[:n-1-len("’")]
	}
	return word
}

// wordKey returns the key of a word by its letter pairs (nameMask, the
// kind left out): the fingerprint of a name shorter than a shingle, which
// has none of its own, in the filter of the words (Context.WordFilter),
// where its name is looked up. Two words of other letter pairs have one
// key once in 2^32, below the filter's own false answers.
func wordKey(bigrams uint64) uint32 {
	x := bigrams ^ 0x5851f42d4c957f2d // apart from a mask's plain bits
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return uint32(x ^ x>>31)
}

// startsCapital reports whether word starts with a capital letter.
func startsCapital(word string) bool {
	if c := word[0]; c < utf8.RuneSelf {
		return 'A' <= c && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsUpper(r)
}

// wordShape reports whether word holds a capital letter ("Seattle",
// "SEATTLE", "eBay") and how many letters and digits it has: a word of a
// shingle's has shingles of its own.
func wordShape(word string) (capital bool, letters int) {
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= utf8.RuneSelf {
			for _, r := range word[i:] {
				capital = capital || unicode.IsUpper(r)
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					letters++
				}
			}
			break
		}
		capital = capital || 'A' <= c && c <= 'Z'
		if asciiAlnum[c] != asciiAlnums {
			letters++
		}
	}
	return capital, letters
}
