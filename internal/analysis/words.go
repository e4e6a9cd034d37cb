package analysis

import (
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
	"golang.org/x/text/cases"
)

// Token is one word of a text.
type Token struct {
	Start, End int32 // byte offsets of the word in the original text
	// Hash is the xxh3 hash (fixed seed) of the normalised word, see
	// Normalize and HashWord. It is stable across runs, machines and
	// versions of the same HashVersion.
	Hash uint64
}

// Analyzer segments texts into words and sentences. It holds reusable
// buffers: the zero value is ready to use, an Analyzer is not safe for
// concurrent use (give each goroutine its own), and the slices its
// methods return are valid only until its next call.
type Analyzer struct {
	iter      *words.Iterator[string]
	tokens    []Token
	sentences []Sentence
	splits    []int // split offsets of the gap being examined
	buf       []byte
	block     []uint64    // the hashes of CharShingleBlocks
	fold      cases.Caser // case folder of the slow normalisation path
	foldReady bool

	// NarrowSpaceJoins says to read a narrow no-break space (U+202F)
	// inside a segment as UAX #29 does, joining the figures either side
	// ("180\u202f000" one word), as the sketch formats before minhash 12,
	// simhash 8, sentences and cosine 5 read it. Without it the space
	// sets them apart, as a plain space and NFKC do.
	NarrowSpaceJoins bool
	// ZeroWidthSpaceSplits says to read a zero-width space (U+200B) as
	// UAX #29 does, a word boundary ("wi\u200bdth" two words), as the
	// sketch formats before minhash 12, simhash 8, sentences and cosine 5
	// read it. Without it the space is read as the invisible character
	// it is: the word is one, as a copy without it writes it.
	ZeroWidthSpaceSplits bool
	// PeriodBeforeCommaEnds says to end a sentence at a terminator that a
	// comma, semicolon or colon follows ("STAMFORD, Conn., Feb 26 -" two
	// sentences), as the sketch formats before sentences 5 read it.
	// Without it such punctuation continues the sentence.
	PeriodBeforeCommaEnds bool
	// DecimalAbbreviates says to read a figure with a decimal point
	// before a period as a dotted abbreviation ("$9.3bn. Analysts said"
	// one sentence, as "Ph.D. Students"), as the sketch formats before
	// sentences 5 read it. Without it the period after such a figure ends
	// the sentence as it does after "9bn".
	DecimalAbbreviates bool
	// DottedIApart says to fold the Turkish "ı" and "İ" as Unicode's full
	// case folding alone does, "ı" kept and "İ" made "i" with a combining
	// dot above, so that "KAPALI" and "kapalı" are two words, as the
	// sketch formats before minhash 13, simhash 9, sentences and cosine 6,
	// tfidf and rarewords 4 read them. Without it both letters fold to
	// "i" (see Normalize).
	DottedIApart bool
	// FewTerminators says to end sentences only at the terminators the
	// sketch formats before sentences 7 read (". ! ? … ‼ ⁇ ⁈ ⁉ 。 ！ ？ ．
	// ؟ ।"), so that a text in Urdu, Burmese, Khmer, Amharic, Armenian or
	// Tibetan is one sentence per paragraph, as those formats read it.
	// Without it the full stops of those scripts end sentences too (see
	// the package documentation).
	FewTerminators bool
}

// Words returns the word tokens of text in order: the UAX #29 word
// segments holding at least one letter or digit. Punctuation, symbols,
// emoji and space are dropped. Besides plain UAX #29:
//
//   - "don't", "O'Brien", "3.5", "1,000" and "1.000,5" stay one token
//     (UAX #29 keeps letters or digits joined by an apostrophe, a period
//     or a comma);
//   - hyphens split: "well-known" is "well" and "known", so the hyphenated
//     and the spaced spellings hash alike;
//   - a period glued between a letter and a capitalised word splits the
//     segment ("here.Another" is "here" and "Another", "U.S.Army" is "U.S"
//     and "Army", "e.g.The" is "e.g" and "The"), because UAX #29 would keep
//     it whole and it is almost always a missing space after a sentence or
//     abbreviation; a domain-like rest ("www.Example.com") is kept whole.
//
// Texts longer than math.MaxInt32 bytes are analysed up to that length.
func (a *Analyzer) Words(text string) []Token {
	a.tokenize(clip(text))
	return a.tokens
}

// clip bounds text so that every offset fits a Token's int32.
func clip(text string) string {
	if len(text) > math.MaxInt32 {
		return text[:math.MaxInt32]
	}
	return text
}

// tokenize fills a.tokens with the word tokens of text.
func (a *Analyzer) tokenize(text string) {
	a.tokenizeUpTo(text, math.MaxInt)
}

// asciiWord reports the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// Byte flags of the ASCII fast path of addSegment.
const (
	flagWord     = 1 << iota // ASCII letter or digit
	flagDot                  // '.'
	flagNonASCII             // first byte of a non-ASCII rune or a continuation byte
)

// byteFlags and byteLower drive the branch-free loop of addSegment.
var byteFlags, byteLower = func() (f, l [256]byte) {
	for c := range f {
		switch {
		case c >= utf8.RuneSelf:
			f[c] = flagNonASCII
		case asciiWord[c]:
			f[c] = flagWord
		case c == '.':
			f[c] = flagDot
		}
		l[c] = byte(c)
		if c < utf8.RuneSelf {
			l[c] = asciiLower[c]
		}
	}
	return f, l
}()

// addSegment appends the word tokens of the UAX #29 segment text[s:e].
func (a *Analyzer) addSegment(text string, s, e int) {
	seg := text[s:e]
	buf := a.scratch(len(seg))
	var flags byte
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		flags |= byteFlags[c]
		buf[i] = byteLower[c]
	}
	switch {
	case flags&flagNonASCII != 0:
		a.addSegmentUnicode(text, s, e)
	case flags&flagWord == 0:
	case flags&flagDot != 0 && a.splitGlued(text, s, e):
	default:
		a.tokens = append(a.tokens, Token{Start: int32(s), End: int32(e), Hash: HashWord(buf)})
	}
}

// scratch returns a.buf holding n bytes, grown when it is too small.
func (a *Analyzer) scratch(n int) []byte {
	if cap(a.buf) < n {
		a.buf = make([]byte, 0, 2*n+16)
	}
	return a.buf[:n]
}

// addSegmentUnicode is addSegment for a segment with non-ASCII bytes.
func (a *Analyzer) addSegmentUnicode(text string, s, e int) {
	// UAX #29 segments never start or end with space in valid UTF-8; on
	// invalid input the segmenter may join a space to the bad bytes.
	s, e = trimSpace(text, s, e)
	seg := text[s:e]
	if !hasWordRune(seg) {
		return
	}
	if strings.IndexByte(seg, '.') >= 0 && a.splitGlued(text, s, e) {
		return
	}
	a.buf = a.appendNormalizedTable(a.buf[:0], seg)
	a.tokens = append(a.tokens, Token{Start: int32(s), End: int32(e), Hash: HashWord(a.buf)})
}

// splitGlued adds text[s:e] as two or more tokens when it holds a glued
// sentence or abbreviation period (see Words) and reports whether it did.
func (a *Analyzer) splitGlued(text string, s, e int) bool {
	cut := gluedCut(text[s:e])
	if cut < 0 {
		return false
	}
	a.addSegment(text, s, s+cut)
	a.addSegment(text, s+cut+1, e)
	return true
}

// gluedCut returns the offset of the first period in seg that follows a
// letter and precedes an upper-case letter followed by a lower-case one,
// unless the rest looks like a domain name (has a period followed by a
// lower-case letter); -1 if there is none. A zero-width space, which a
// segment holds when it is read as the invisible character it is (see
// zeroWidthSpace), is passed over ("Tuesday.\u200bAnalysts" is cut).
func gluedCut(seg string) int {
	for i := 1; i+2 < len(seg); i++ {
		if seg[i] != '.' {
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(strings.TrimRight(seg[:i], zeroWidthSpace))
		rest := strings.TrimLeft(seg[i+1:], zeroWidthSpace)
		r1, n1 := utf8.DecodeRuneInString(rest)
		r2, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest[n1:], zeroWidthSpace))
		if unicode.IsLetter(before) && isUpper(r1) && unicode.IsLower(r2) && !domainLike(seg[i+1:]) {
			return i
		}
	}
	return -1
}

// domainLike reports whether rest holds a period followed by a lower-case
// letter, as in "Example.com" (a zero-width space between them passed
// over).
func domainLike(rest string) bool {
	for {
		j := strings.IndexByte(rest, '.')
		if j < 0 {
			return false
		}
		rest = rest[j+1:]
		r, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, zeroWidthSpace))
		if unicode.IsLower(r) {
			return true
		}
	}
}

// isUpper reports upper- and title-case letters.
func isUpper(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsTitle(r)
}

// hasWordRune reports whether s holds a letter or a digit.
func hasWordRune(s string) bool {
	t := wordRunes()
	for _, r := range s {
		switch {
		case r < foldTableSize:
			if t[r] {
				return true
			}
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			return true
		}
	}
	return false
}

// wordRunes marks the letters and digits below foldTableSize.
var wordRunes = sync.OnceValue(func() *[foldTableSize]bool {
	var t [foldTableSize]bool
	for r := range rune(foldTableSize) {
		t[r] = unicode.IsLetter(r) || unicode.IsNumber(r)
	}
	return &t
})
