package analysis

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// CharShingles appends to dst the hash of every window of n consecutive
// letters and digits of text's words, and returns the extended slice. The
// characters are those of the normalised words (see Normalize) with
// everything but letters and digits left out, joined without separators: a
// word split in two ("gov ernment"), two words run together, "1,000" and
// "1000", "U.S." and "US" give the same characters, and a damaged character
// changes only the n windows that hold it. tokens must be the words of text
// (Analyzer.Words). With fewer than n characters (but at least one) it
// appends one shingle of all of them; with none, nothing. n < 1 is treated
// as 1.
//
// Character shingles tolerate character noise (OCR damage, misspellings)
// that breaks every word shingle it touches, at the price of about one
// shingle per character instead of one per word.
func (a *Analyzer) CharShingles(text string, tokens []Token, n int, dst []uint64) []uint64 {
	return a.charShingles(text, tokens, n, dst, false)
}

// FoldedCharShingles is CharShingles with the look-alikes a character
// recogniser confuses read as one character (see ocrFold): "1O5" is "lOS",
// "rn" is "m" and "vv" is "w", so that an OCR-damaged copy keeps the
// shingles of its misread figures and words. A text without look-alikes
// has the shingles of CharShingles.
func (a *Analyzer) FoldedCharShingles(text string, tokens []Token, n int, dst []uint64) []uint64 {
	return a.charShingles(text, tokens, n, dst, true)
}

// charShingles is CharShingles, its characters folded when fold is set.
//
// The characters' hashes are written where the shingles go, after dst's
// elements, and each window's hash then over its first character's, which
// no later window reads: a long text costs one array of its characters'
// size, not two.
func (a *Analyzer) charShingles(text string, tokens []Token, n int, dst []uint64, fold bool) []uint64 {
	start := len(dst)
	hs := dst[start:start] // the characters' hashes; appends move them when dst lacks the room
	switch {
	case fold && isASCII(text):
		hs = appendFolded(hs, text)
	case len(text) <= math.MaxInt32 && isASCII(text):
		// Most news is ASCII, and in ASCII every letter and digit lies in
		// one of the words (a segment holding one is a token, or two
		// around a glued period), so the text is read whole. Every byte's
		// hash is stored and only a letter's or digit's kept.
		hs = appendASCIIChars(hs, text)
	default:
		hs = a.appendCharHashes(hs, text, tokens, fold)
	}
	hs = hashWindowsInPlace(hs, n, charSalt)
	if start == 0 {
		return hs
	}
	return append(dst, hs...) // in place when hs is still dst's tail
}

// appendCharHashes appends to hs the hash of each letter and digit of the
// normalised words of text, folded when fold is set.
func (a *Analyzer) appendCharHashes(hs []uint64, text string, tokens []Token, fold bool) []uint64 {
	for _, t := range tokens {
		w := text[t.Start:t.End]
		if fold && isASCII(w) {
			hs = appendFolded(hs, w)
			continue
		}
		if isASCII(w) {
			// Normalised ASCII is lower case: the table gives the hash of
			// each letter or digit, in either case, and 0 for the rest.
			for i := 0; i < len(w); i++ {
				if h := asciiCharHash[w[i]]; h != 0 {
					hs = append(hs, h)
				}
			}
			continue
		}
		a.buf = a.AppendNormalized(a.buf[:0], w)
		for i := 0; i < len(a.buf); {
			r, size := utf8.DecodeRune(a.buf[i:])
			switch {
			case fold && r < utf8.RuneSelf:
				hs = appendFolded(hs, a.buf[i:i+1])
			case r < utf8.RuneSelf && asciiWord[r] || r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
				hs = append(hs, runeHash(r))
			}
			i += size
		}
	}
	return hs
}

// isASCII reports whether w is ASCII only. It reads eight bytes at a time,
// as one number whose high bits of each byte are then tested at once.
func isASCII(w string) bool {
	i := 0
	for ; i+8 <= len(w); i += 8 {
		v := Load64(w[i : i+8])
		if v&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiCharHash is runeHash of each ASCII letter or digit lower-cased, 0
// for the other bytes (no letter's or digit's hash is 0; see
// TestASCIICharHash).
var asciiCharHash = func() (t [256]uint64) {
	for c := range utf8.RuneSelf {
		if asciiWord[c] {
			t[c] = runeHash(rune(asciiLower[c]))
		}
	}
	return t
}()

// ocrFold maps each ASCII letter or digit to the character a folded
// shingle holds for it (see FoldedCharShingles): the letter lower-cased,
// and the digits a character recogniser takes for letters and letters for
// digits (0 and O, 1 and l, 5 and S, 8 and B, 2 and Z) to that letter.
// Other bytes map to 0. Letters are not folded into one another (c and e, i
// and l): unrelated texts then share more shingles, and a story and its
// follow-up look closer.
var ocrFold = func() (t [256]byte) {
	for c := range utf8.RuneSelf {
		if asciiWord[c] {
			t[c] = asciiLower[c]
		}
	}
	for _, p := range DigitLookAlikes {
		t[p[0]] = p[1]
	}
	return t
}()

// DigitLookAlikes lists the digits and letters a character recogniser
// confuses, the digit first and the letter lower-cased ("0o": 0 and O):
// FoldedCharShingles reads each pair as its letter.
var DigitLookAlikes = [...]string{"0o", "1l", "5s", "8b", "2z"}

// appendFolded appends to hs the hash of each letter and digit of the ASCII
// string w, folded (see ocrFold), with the pairs a recogniser makes of one
// letter counted as that letter ("rn" is "m", "vv" is "w", the text's own
// included, so that both sides of a comparison read alike). The character
// before w is the one hs ends with: a pair may start there.
func appendFolded[T string | []byte](hs []uint64, w T) []uint64 {
	// Every byte's hash is stored, in room made for all of them, and the
	// next one written over it unless it is a letter's or a digit's: no
	// append and no branch a text's spaces and punctuation mispredict.
	// prev is the hash stored last (0 for none): a byte that ends a pair
	// compares it with the hash of the pair's first letter, and only the
	// rare pair takes the branch.
	k := len(hs)
	var prev uint64
	if k > 0 {
		prev = hs[k-1]
	}
	hs = slices.Grow(hs, len(w))[:k+len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		h := foldedHash[c]
		if prev == pairFirst[c] { // "rn", "vv": one letter, hashed in place of the first
			k--
			h = pairHash[c]
		}
		hs[k] = h
		if h != 0 {
			k++
			prev = h
		}
	}
	return hs[:k]
}

// foldedHash is the hash of each byte's folded character (see ocrFold), 0
// for a byte that is no letter or digit. pairFirst is, for a byte whose
// folded character ends a pair a recogniser makes of one letter ('n' after
// 'r', 'v' after 'v'), the hash of the pair's first character, and
// noPair, which no character's hash is, for the others; pairHash is the
// hash of the letter the pair is read as ('m', 'w').
var foldedHash, pairFirst, pairHash = func() (folded, first, joined [256]uint64) {
	pairs := [...]struct{ first, second, joined byte }{{'r', 'n', 'm'}, {'v', 'v', 'w'}}
	for c := range folded {
		folded[c] = asciiCharHash[ocrFold[c]]
		first[c] = noPair
		for _, p := range pairs {
			if ocrFold[c] == p.second {
				first[c], joined[c] = asciiCharHash[p.first], asciiCharHash[p.joined]
			}
		}
	}
	return
}()

// noPair is the value of pairFirst for a byte that ends no pair: no
// character's hash (runeHash), which TestNoPairIsNoHash checks for every
// code point, and not 0, the hash appendFolded compares with before the
// first character.
const noPair = 1

// hashWindowsInPlace is appendWindows over a slice of hashes, written over
// them: it returns hs's storage holding the hash of every window of n
// consecutive hashes of hs, in order.
func hashWindowsInPlace(hs []uint64, n int, salt uint64) []uint64 {
	n = max(n, 1)
	if len(hs) == 0 {
		return hs
	}
	if len(hs) <= n {
		var h uint64
		for _, x := range hs {
			h = h*seqPrime + x
		}
		hs[0] = finishSeq(h^salt, len(hs))
		return hs[:1]
	}
	var h, top uint64 = 0, 1 // top = seqPrime^(n-1)
	for i := 0; i < n; i++ {
		h = h*seqPrime + hs[i]
		if i > 0 {
			top *= seqPrime
		}
	}
	key := salt ^ lengthKey(n)
	first := fmix(h ^ key)
	m := len(hs) - n + 1
	// Window j leaves out hs[j-1], which no later window reads: its hash
	// goes there, and the windows are moved up one place at the end to
	// make room for the first.
	leaving, coming := hs[:m-1], hs[n:]
	coming = coming[:len(leaving)]
	for i := range leaving {
		h = (h-leaving[i]*top)*seqPrime + coming[i]
		leaving[i] = fmix(h ^ key)
	}
	copy(hs[1:m], hs[:m-1])
	hs[0] = first
	return hs[:m]
}

// runeHash spreads a code point over 64 bits so that the polynomial of a
// window mixes every bit of every character.
func runeHash(r rune) uint64 {
	h := uint64(r)*0xbf58476d1ce4e5b9 + 0x94d049bb133111eb
	return h ^ h>>29
}

// charSalt keeps character shingles apart from word shingles of the same
// length.
const charSalt = 0x6368617273686e67
