package analysis

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
)

// Word segmentation reads text in runs of bytes between ASCII white space
// (space, tab, CR, LF, VT, FF). A run of ASCII bytes only is segmented by
// asciiSegments, a transcription of the UAX #29 word-break rules (the
// library's own state machine) restricted to ASCII; a run that holds any
// other byte goes to the UAX #29 library. Splitting at ASCII white space
// changes no word: no rule joins a letter or a digit across it (its
// neighbours are word boundaries, or join it into a segment of no letter
// or digit, which yields no token), and the library reads a run from its
// first byte to the text's end as it would have from a boundary inside the
// whole text. Most runs start with a word of ASCII letters and digits that
// nothing joins to what follows (see wordEnds): that word is a token at
// once, and the rest of its run, from that boundary, is read as any run
// is. A narrow no-break space inside a segment sets it apart unless
// NarrowSpaceJoins (see addSpacedSegment), and a zero-width space inside a
// run joins what is either side of it unless ZeroWidthSpaceSplits (see
// zeroWidthSpace). TestWordsSameAsLibrary and
// FuzzWordsSameAsLibrary check the tokens against the library on the whole
// text, its segments so cut.

// Word-break classes of the ASCII bytes (UAX #29, as the library tables
// them).
const (
	wbOther      = iota
	wbLetter     // ALetter: A–Z, a–z
	wbNumeric    // 0–9
	wbMidLetter  // ':'
	wbMidNumLetQ // '.', and the single quote (MidNumLet and Single_Quote)
	wbMidNum     // ',', ';'
	wbExtendNum  // '_' (ExtendNumLet)
	wbSpace      // ASCII white space: a run ends
	wbNonASCII   // a byte of a multi-byte or invalid sequence
)

// wbClass gives each byte its class.
var wbClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= 0x80:
			t[c] = wbNonASCII
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t[c] = wbLetter
		case '0' <= c && c <= '9':
			t[c] = wbNumeric
		}
	}
	t[':'] = wbMidLetter
	t['.'], t['\''] = wbMidNumLetQ, wbMidNumLetQ
	t[','], t[';'] = wbMidNum, wbMidNum
	t['_'] = wbExtendNum
	for _, c := range " \t\n\v\f\r" {
		t[c] = wbSpace
	}
	return t
}()

// wbAlnum reports the bytes of classes wbLetter and wbNumeric.
var wbAlnum = func() (t [256]bool) {
	for c, class := range wbClass {
		t[c] = class == wbLetter || class == wbNumeric
	}
	return t
}()

// tokenizeUpTo fills a.tokens with the word tokens of text, stopping once
// it holds at least limit tokens.
func (a *Analyzer) tokenizeUpTo(text string, limit int) {
	a.tokens = Room(a.tokens, min(limit, len(text)/4+1)) // about one word in five or six bytes
	for i := 0; i < len(text) && len(a.tokens) < limit; {
		switch wbClass[text[i]] {
		case wbSpace:
			i++
			continue
		case wbLetter, wbNumeric:
			// Most runs are one word of letters and digits: a segment
			// and a token of its own, added without the general path.
			// A token at once: the word is lower-cased into a.buf as it
			// is read, and hashed.
			buf := append(a.buf[:0], byteLower[text[i]])
			j := i + 1
			for j < len(text) && wbAlnum[text[j]] {
				buf = append(buf, byteLower[text[j]])
				j++
			}
			a.buf = buf
			if wordEnds(text, j) {
				a.tokens = append(a.tokens, Token{Start: int32(i), End: int32(j), Hash: HashWord(buf)})
				i = j // on white space, or on the segments after the word
				continue
			}
		}
		// The run text[i:j] ends at white space or the text's end.
		j, ascii := i, true
		for ; j < len(text); j++ {
			c := wbClass[text[j]]
			if c == wbSpace {
				break
			}
			if c == wbNonASCII {
				ascii = false
			}
		}
		if ascii {
			a.asciiSegments(text, i, j, limit)
			i = j
		} else {
			i = a.librarySegments(text, i, j, limit)
		}
	}
}

// wordEnds reports whether a word segment of ASCII letters and digits
// that reaches text[j] ends there: at the text's end, white space, or
// ASCII punctuation that no rule joins to it, because it is not one that
// joins letters or digits (WB6, WB7, WB11, WB12) or is not followed by
// one (ASCII, so no Extend or Format character can come between). An
// underscore (WB13a) or a non-ASCII byte is left to the general path.
func wordEnds(text string, j int) bool {
	if j == len(text) {
		return true
	}
	switch wbClass[text[j]] {
	case wbSpace, wbOther:
		return true
	case wbMidLetter, wbMidNumLetQ, wbMidNum:
		return j+1 == len(text) || !wbAlnum[text[j+1]] && text[j+1] < utf8.RuneSelf
	}
	return false
}

// asciiSegments adds the word tokens of the UAX #29 segments of the ASCII
// run text[s:e], up to limit tokens.
func (a *Analyzer) asciiSegments(text string, s, e, limit int) {
	for s < e && len(a.tokens) < limit {
		end := asciiSegmentEnd(text[s:e])
		a.addSegment(text, s, s+end)
		s += end
	}
}

// asciiSegmentEnd returns the length of the UAX #29 word segment that
// starts run, an ASCII run without white space. It follows the library's
// state machine: with no characters to ignore (Extend, Format, ZWJ) and no
// Hebrew, Katakana or regional indicators in ASCII, the rules left are WB5
// to WB13b.
func asciiSegmentEnd(run string) int {
	cur := wbClass[run[0]]
	var last, lastLast uint8 = wbOther, wbOther
	pos := 1
	if cur == wbLetter || cur == wbNumeric {
		// Most segments are a word of letters or digits, all joined by
		// WB5 and WB8–WB10 (the first case below): skip them without the
		// look-ahead, then go on from the last two.
		for pos < len(run) && wbAlnum[run[pos]] {
			pos++
		}
		if pos == len(run) {
			return pos
		}
		cur = wbClass[run[pos-1]]
		if pos >= 2 {
			last = wbClass[run[pos-2]]
		}
	}
	for pos < len(run) {
		// The character at pos is cur's successor; last and lastLast are
		// the two before it within this segment (wbOther when none).
		lastLast, last = last, cur
		cur = wbClass[run[pos]]
		next := uint8(wbOther)
		if pos+1 < len(run) {
			next = wbClass[run[pos+1]]
		}
		alnum := func(c uint8) bool { return c == wbLetter || c == wbNumeric }
		switch {
		case alnum(cur) && alnum(last): // WB5, WB8, WB9, WB10
		case (cur == wbMidLetter || cur == wbMidNumLetQ) && last == wbLetter && next == wbLetter: // WB6
		case cur == wbLetter && (last == wbMidLetter || last == wbMidNumLetQ) && lastLast == wbLetter: // WB7
		case cur == wbNumeric && (last == wbMidNum || last == wbMidNumLetQ) && lastLast == wbNumeric: // WB11
		case (cur == wbMidNum || cur == wbMidNumLetQ) && last == wbNumeric && next == wbNumeric: // WB12
		case cur == wbExtendNum && (alnum(last) || last == wbExtendNum): // WB13a
		case alnum(cur) && last == wbExtendNum: // WB13b
		default: // WB999
			return pos
		}
		pos++
	}
	return pos
}

// librarySegments adds the word tokens of the segments the UAX #29 library
// finds from text[s:], a run holding a non-ASCII byte that ends at e, up to
// limit tokens. It returns where the last segment read ends: e, or past it
// when a segment without letters ran on into white space.
func (a *Analyzer) librarySegments(text string, s, e, limit int) int {
	if a.iter == nil {
		a.iter = words.FromString("")
	}
	if !a.ZeroWidthSpaceSplits && strings.Contains(text[s:e], zeroWidthSpace) {
		// The run, its zero-width spaces read as word joiners, of the
		// same length: offsets into it are the text's. The run ends at
		// white space or the text's end, where every segment of a letter
		// or digit ends; the bytes after it that the library decodes a
		// character of the run's end with (at most utf8.UTFMax from its
		// last byte, which is no UTF-8 perhaps) are read too.
		a.iter.SetText(strings.ReplaceAll(text[s:e], zeroWidthSpace, wordJoiner) + text[e:min(len(text), e+utf8.UTFMax)])
	} else {
		a.iter.SetText(text[s:])
	}
	end := s
	for end < e && len(a.tokens) < limit && a.iter.Next() {
		if a.NarrowSpaceJoins {
			a.addSegment(text, s+a.iter.Start(), s+a.iter.End())
		} else {
			a.addSpacedSegment(text, s+a.iter.Start(), s+a.iter.End())
		}
		end = s + a.iter.End()
	}
	return max(end, e)
}

// zeroWidthSpace (U+200B) is a word boundary to UAX #29, unlike the other
// invisible characters (a soft hyphen, a word joiner: Format, which no rule
// breaks at). Put inside a word by a page's markup or its copy protection
// ("wi\u200bdth"), it made two words of one, where a copy without it has
// one; wordJoiner (U+2060), of the same length, is read in its place
// (unless ZeroWidthSpaceSplits), and Normalize leaves both out.
const (
	zeroWidthSpace = "\u200b"
	wordJoiner     = "\u2060"
)

// addSpacedSegment adds the word tokens of the segment text[s:e] as
// addSegment does, the parts a narrow no-break space (U+202F) sets apart
// each a segment of its own. UAX #29 joins figures across it (it is
// ExtendNumLet), so that "180\u202f000", as French typography sets a sum,
// was one word where a copy with a plain space, or NFKC, which makes it
// one, has two.
func (a *Analyzer) addSpacedSegment(text string, s, e int) {
	for {
		i := strings.Index(text[s:e], "\u202f")
		if i < 0 {
			a.addSegment(text, s, e)
			return
		}
		if i > 0 {
			a.addSegment(text, s, s+i)
		}
		s += i + len("\u202f")
	}
}
