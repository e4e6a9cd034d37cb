package analysis

import (
	"encoding/binary"
	"unicode"
	"unicode/utf8"
)

// HasUnspaced reports whether text holds a letter of a script written
// without spaces between its words (Unspaced). Such a letter is above
// U+0E00, three bytes or four in UTF-8, so only a byte that begins a rune
// of three bytes or more (0xE0 and up) is decoded, and eight bytes without
// one are passed over at once: text in Latin, Greek or Cyrillic letters
// costs the tokenizers that ask about every text little.
func HasUnspaced(text []byte) bool {
	for i := 0; i < len(text); i++ {
		for i+8 <= len(text) && !hasLongLead(binary.LittleEndian.Uint64(text[i:])) {
			i += 8
		}
		if i == len(text) || text[i] < 0xe0 {
			continue
		}
		if r, _ := utf8.DecodeRune(text[i:]); Unspaced(r) {
			return true
		}
	}
	return false
}

// hasLongLead reports whether a byte of w is 0xE0 or above, its three
// high bits set.
func hasLongLead(w uint64) bool { return w&(w<<1)&(w<<2)&0x8080808080808080 != 0 }

// AppendUnspaced appends to dst the hashes (HashWord) of the terms of a
// piece of text, between white space, that holds letters of a script
// written without spaces: a piece that splitting at white space makes one
// term of a whole clause or paragraph, which an edit anywhere in it makes
// another. Its runs of such letters give their overlapping pairs of
// letters, the usual terms of such text ("中国经济" gives "中国", "国经",
// "经济"), a letter without a neighbour of its script giving itself; its
// runs of other letters and digits (a name in Latin letters, a figure) are
// terms of their own when they are minRun bytes long or more; punctuation
// and symbols are left out. A combining mark of no script of its own (a
// kana's voiced sound mark in NFD, a variation selector) is a letter of
// the run it follows, as Thai's marks are. text is taken as it is
// (lower-case it first to fold case).
func AppendUnspaced(dst []uint64, text []byte, minRun int) []uint64 {
	prev := -1  // the start of the unspaced letter just before; -1: none
	other := -1 // the start of the run of other letters and digits under way
	flush := func(end int) {
		if other >= 0 && end-other >= minRun {
			dst = append(dst, HashWord(text[other:end]))
		}
		other = -1
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:]) // a byte that is not UTF-8 is one rune, U+FFFD
		end := i + n
		switch {
		case Unspaced(r) || prev >= 0 && unicode.IsMark(r):
			flush(i)
			if prev >= 0 {
				dst = append(dst, HashWord(text[prev:end]))
			} else if next, _ := utf8.DecodeRune(text[end:]); !Unspaced(next) && !unicode.IsMark(next) {
				dst = append(dst, HashWord(text[i:end]))
			}
			prev = i
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			prev = -1
			if other < 0 {
				other = i
			}
		default:
			prev = -1
			flush(i)
		}
		i = end
	}
	flush(len(text))
	return dst
}

// AppendTokenPairs appends to dst the hashes of tokens (of text, as Words
// gives them, some perhaps left out) as terms, as AppendUnspaced makes
// them of text in a script written without spaces: a run of tokens each
// one letter of such a script, each beside the next in text, gives the
// overlapping pairs of its letters, and a token alone its own hash; any
// other token gives its own hash.
func AppendTokenPairs(dst []uint64, text string, tokens []Token) []uint64 {
	single := func(t Token) bool {
		r, n := utf8.DecodeRuneInString(text[t.Start:t.End])
		return n == int(t.End-t.Start) && Unspaced(r)
	}
	for i, t := range tokens {
		if !single(t) {
			dst = append(dst, t.Hash)
			continue
		}
		next := i+1 < len(tokens) && tokens[i+1].Start == t.End && single(tokens[i+1])
		prev := i > 0 && tokens[i-1].End == t.Start && single(tokens[i-1])
		switch {
		case next:
			dst = append(dst, HashWordString(text[t.Start:tokens[i+1].End]))
		case !prev:
			dst = append(dst, t.Hash)
		}
	}
	return dst
}

// Unspaced reports whether r is a letter (or a mark) of a script written
// without spaces between its words: Han (with its numeral "〇"), Hiragana,
// Katakana (with the prolonged sound mark of both kana, "ー", and the
// halfwidth voiced sound marks, "ﾞ" and "ﾟ", all three of no script of
// their own), Thai, Lao, Khmer, Myanmar.
func Unspaced(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	switch r {
	case 'ー', 'ｰ', 'ﾞ', 'ﾟ':
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) &&
		(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.Nl, r))
}
