package templates

import (
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"
)

// NameKind says where a name was found; names are compared with the names
// of their kind (see foreignNames).
type NameKind uint8

// The kinds of names.
const (
	TitleName NameKind = iota // a title word the text writes with a capital inside a sentence
	Place                     // the place of the dateline
	Tag                       // a <...> mark of the title or the opening: a ticker, a company
)

// kindShift places a name's kind in the top bits of its mask.
const kindShift = 62

// Name is one name of a document (see Context.Names).
type Name struct {
	// Mask has the bit of each pair of consecutive letters or digits of
	// the normalised name set, in its low 62 bits ("manville" and a
	// misread "manvville" share seven of eight), and the name's kind in
	// its top two.
	Mask uint64
	// Shingle is the least fingerprint of the name's character shingles;
	// 0 for a name shorter than a shingle, which is looked up by its key
	// (wordKey) instead.
	Shingle uint32
	// Letters has, for a Place, the bit of each letter or digit of the
	// normalised name (letterMask): a misspelling keeps them, or all but a
	// letter or two ("MAIMI", "MIAMI"), where two towns' short names whose
	// pairs share a bit by chance differ ("BURSA", "SIVAS"). 0 for another
	// kind (a tag a character recogniser damaged has more letters apart),
	// and where not known (a sketch format before Scanner.Columns).
	Letters uint32
}

// Kind returns the kind of the name.
func (n Name) Kind() NameKind { return NameKind(n.Mask >> kindShift) }

// bigrams returns the bigram bits of the name.
func (n Name) bigrams() uint64 { return n.Mask &^ (3 << kindShift) }

// nameMask returns the bigram mask of a normalised name: letters and
// digits only, each pair hashed to one of 62 bits; a name of one character
// has the bit of that character alone. 0 for a name without letters or
// digits.
func nameMask(b []byte) uint64 { return bigramMask(b, kindShift) }

// bigramMask returns the mask of the pairs of consecutive letters or
// digits of b, each hashed to one of its low n bits (see nameMask).
func bigramMask(b []byte, n uint64) uint64 {
	var t *[asciiAlnums][asciiAlnums]uint8
	switch n {
	case fillMaskBits:
		t = &asciiPairBits[0]
	case kindShift:
		t = &asciiPairBits[1]
	}
	var mask, single uint64
	prev := rune(-1)
	for len(b) > 0 {
		r := rune(b[0])
		if r < utf8.RuneSelf { // ASCII: its letters and digits are a-z, A-Z and 0-9
			b = b[1:]
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
				continue
			}
		} else {
			var size int
			r, size = utf8.DecodeRune(b)
			b = b[size:]
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				continue
			}
		}
		if prev >= 0 {
			if t != nil && prev < utf8.RuneSelf && r < utf8.RuneSelf {
				mask |= 1 << t[asciiAlnum[prev]][asciiAlnum[r]] // as below, looked up
			} else {
				mask |= 1 << modBits(pairHash(prev, r), n)
			}
		} else {
			single = 1 << modBits(pairHash(-1, r), n)
		}
		prev = r
	}
	if mask == 0 {
		return single
	}
	return mask
}

// asciiAlnums is how many ASCII letters and digits there are.
const asciiAlnums = 62

// asciiAlnum numbers the ASCII letters and digits from 0 (other bytes
// have asciiAlnums, no place in asciiPairBits).
var asciiAlnum = func() (t [utf8.RuneSelf]uint8) {
	n := uint8(0)
	for c := range t {
		t[c] = asciiAlnums
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			t[c], n = n, n+1
		}
	}
	return t
}()

// asciiPairBits holds modBits(pairHash(a, b), n) of every pair of ASCII
// letters and digits, by their asciiAlnum numbers, for the masks' two
// widths: fillMaskBits, then kindShift. Most names and fills are ASCII.
var asciiPairBits = func() (t [2][asciiAlnums][asciiAlnums]uint8) {
	for a := range rune(utf8.RuneSelf) {
		for b := range rune(utf8.RuneSelf) {
			i, j := asciiAlnum[a], asciiAlnum[b]
			if i == asciiAlnums || j == asciiAlnums {
				continue
			}
			for w, n := range []uint64{fillMaskBits, kindShift} {
				t[w][i][j] = uint8(modBits(pairHash(a, b), n))
			}
		}
	}
	return t
}()

// modBits returns h % n, by a constant for the masks' two widths (a
// multiplication, not a division).
func modBits(h, n uint64) uint64 {
	switch n {
	case fillMaskBits:
		return h % fillMaskBits
	case kindShift:
		return h % kindShift
	}
	return h % n
}

// pairHash returns a hash of two consecutive characters.
func pairHash(a, b rune) uint64 {
	x := uint64(uint32(a))<<32 | uint64(uint32(b)) // splitmix64's finaliser
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// sameName reports whether two names share at least half of their
// bigrams: the same name, misread or not.
func sameName(a, b Name) bool {
	x, y := a.bigrams(), b.bigrams()
	return 2*bits.OnesCount64(x&y) >= bits.OnesCount64(x|y)
}

// letterCount counts the letters and digits of s: its ASCII bytes by
// asciiAlnum, the rest rune by rune.
func letterCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					n++
				}
			}
			return n
		}
		if asciiAlnum[c] != asciiAlnums {
			n++
		}
	}
	return n
}

// foreignNames counts the names of a that b, whose shingle sample is sb,
// does not hold. Names are compared like with like: a dateline's place
// only when b has a dateline too, a tag only when b has tags; a title name
// with every name of b. A name b holds is the same name (sameName) as one
// of b's or, for a name of full shingles, one whose least shingle is in
// b's shingle sample or, past b's cut, where the sample cannot tell, in
// b's filter of its words (Context.WordFilter; without one, such a
// shingle is taken as present); for a title name shorter than a shingle,
// one whose key (wordKey) is in b's filter of its words.
func foreignNames(a, b *Context, sb Sample) int {
	var has [3]bool
	for _, y := range b.Names {
		has[y.Kind()] = true
	}
	n := 0
	for _, x := range a.Names {
		if k := x.Kind(); k != TitleName && !has[k] || holdsName(b, sb, x) {
			continue
		}
		n++
	}
	return n
}

// holdsName reports whether b holds the name x (see foreignNames).
func holdsName(b *Context, sb Sample, x Name) bool {
	for _, y := range b.Names {
		if sameName(x, y) {
			return true
		}
	}
	if x.Shingle == 0 {
		return x.Kind() == TitleName && b.WordFilter.Has(wordKey(x.bigrams()))
	}
	if x.Shingle > sb.Cut {
		return b.WordFilter == nil || b.WordFilter.Has(x.Shingle)
	}
	_, ok := slices.BinarySearch(sb.Set, x.Shingle)
	return ok
}

// otherPlaces reports whether the datelines of a and b name other places:
// both name one, and no word of either place is held by the other
// document (see holdsName) or can be a misspelling of the other's place
// (misspelt: "MAIMI" for "MIAMI" is the same place).
func otherPlaces(a, b *Context, sa, sb Sample) bool {
	na, nb := 0, 0
	for _, x := range a.Names {
		if x.Kind() != Place {
			continue
		}
		na++
		if holdsName(b, sb, x) {
			return false
		}
		for _, y := range b.Names {
			if y.Kind() == Place && misspelt(x, y) {
				return false
			}
		}
	}
	for _, y := range b.Names {
		if y.Kind() == Place {
			if holdsName(a, sa, y) {
				return false
			}
			nb++
		}
	}
	return na > 0 && nb > 0
}

// maxMisspeltPairs is the most pairs of letters two spellings of one place
// have apart (in one and not the other): a letter swapped with its
// neighbour ("MAIMI", "MIAMI") changes at most three pairs of each.
const maxMisspeltPairs = 6

// maxMisspeltLetters is the most letters two spellings of one place have
// apart (Name.Letters): a letter swapped with its neighbour or doubled
// changes none, one dropped one, one misread two; and a spelling with
// other letters has at most maxMisreadPairs pairs apart (a misread letter
// changes two pairs of each, a dropped one two of one and one of the
// other), where one with the same letters may have more (a swap: three of
// each).
const (
	maxMisspeltLetters = 2
	maxMisreadPairs    = 4
)

// misspelt reports whether two places can be one place spelt two ways:
// they share a pair of letters and have at most maxMisspeltPairs apart,
// and, where both names' letters are known, at most maxMisspeltLetters
// letters apart (and then, with other letters, maxMisreadPairs pairs). A pair shared alone is no evidence: the pairs are hashed
// to 62 bits, so two names of six and ten letters share one by chance
// about two times in three ("MINNEAPOLIS" and "CHICAGO"), two of five
// letters one time in four ("BURSA" and "SIVAS", their letters apart),
// and two towns' names may share a real one ("JOLIET", "ST JOSEPH").
func misspelt(x, y Name) bool {
	bx, by := x.bigrams(), y.bigrams()
	apart := maxMisspeltPairs
	if x.Letters != 0 && y.Letters != 0 {
		switch letters := bits.OnesCount32(x.Letters ^ y.Letters); {
		case letters > maxMisspeltLetters:
			return false
		case letters > 0:
			apart = maxMisreadPairs
		}
	}
	return bx&by != 0 && bits.OnesCount64(bx^by) <= apart
}

// letterMask returns the mask of the letters and digits of a normalised
// name: an ASCII letter's bit its place in the alphabet, a digit's or
// another letter's its code point hashed to one of 32 bits. A German
// umlaut sets its letter's bit and e's, as the spelling without it writes
// it ("ZUERICH", "KOELN"). b is case-folded (ß is "ss").
func letterMask(b []byte) uint32 {
	var mask uint32
	for _, r := range string(b) {
		switch {
		case 'a' <= r && r <= 'z':
			mask |= 1 << (r - 'a')
		case r == 'ä':
			mask |= 1 | 1<<('e'-'a') // a, e
		case r == 'ö':
			mask |= 1<<('o'-'a') | 1<<('e'-'a')
		case r == 'ü':
			mask |= 1<<('u'-'a') | 1<<('e'-'a')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			mask |= 1 << (uint32(r) * 0x9E3779B1 >> 27)
		}
	}
	return mask
}
