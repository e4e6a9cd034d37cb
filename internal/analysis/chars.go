package analysis

import (
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
	// Each character becomes a token whose hash is the character's, so
	// one window loop serves words and characters.
	chars := a.chars[:0]
	for _, t := range tokens {
		w := text[t.Start:t.End]
		if isLowerASCIIWord(w) {
			for i := 0; i < len(w); i++ {
				chars = append(chars, Token{Hash: runeHash(rune(w[i]))})
			}
			continue
		}
		a.buf = a.AppendNormalized(a.buf[:0], w)
		for i := 0; i < len(a.buf); {
			r, size := utf8.DecodeRune(a.buf[i:])
			i += size
			if r < utf8.RuneSelf && asciiWord[r] || r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				chars = append(chars, Token{Hash: runeHash(r)})
			}
		}
	}
	a.chars = chars
	return appendWindows(dst, chars, n, charSalt)
}

// isLowerASCIIWord reports whether w is made of lower-case ASCII letters and
// digits only: its own normalised form, every character kept.
func isLowerASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
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
