package analysis

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a text.
type Sentence struct {
	Start, End int32 // byte span in the original text, trimmed of surrounding space
	// Hash is HashTokens of the sentence's words: equal for sentences that
	// differ only in spacing, punctuation or case; 0 when it has no words.
	Hash uint64
	// Chars is the length in runes of the trimmed span, a run of white
	// space counted as one: equal for sentences that differ only in spacing.
	Chars int32
	Words int32 // number of word tokens
}

// wrapWidth is the line length, in runes, above which a line cannot come
// from hard-wrapped text (which wraps at 60–80 columns): a line break
// next to such a line is a paragraph or headline break.
const wrapWidth = 100

// Sentences returns the sentences of text in order. The sentences cover
// every non-space byte of text: the space between two sentences belongs to
// neither, and any punctuation or symbol belongs to the sentence it is in
// (leading punctuation of the text to the first sentence, trailing to the
// last). A sentence has no words only when it is made of symbols alone,
// separated from its neighbours by blank lines. See the package
// documentation for the rules.
func (a *Analyzer) Sentences(text string) []Sentence {
	_, s := a.Analyze(text)
	return s
}

// Analyze returns the words and the sentences of text from a single
// segmentation: the first sentence holds the first Words tokens, the
// second the next ones, and so on. Both slices are valid until the next
// call.
func (a *Analyzer) Analyze(text string) ([]Token, []Sentence) {
	text = clip(text)
	a.tokenize(text)
	a.segment(text)
	return a.tokens, a.sentences
}

// segState is the sentence under construction.
type segState struct {
	start     int // byte offset where the sentence starts (untrimmed)
	firstTok  int // index of its first token
	lineStart int // byte offset where the current line starts
}

// segment fills a.sentences from a.tokens, deciding in each gap between
// two words (and before the first and after the last) where sentences end.
func (a *Analyzer) segment(text string) {
	a.sentences = a.sentences[:0]
	var st segState
	prevEnd := 0
	for i := 0; i <= len(a.tokens); i++ {
		gapEnd := len(text)
		if i < len(a.tokens) {
			gapEnd = int(a.tokens[i].Start)
		}
		if gapEnd-prevEnd > 1 || gapEnd-prevEnd == 1 && text[prevEnd] != ' ' {
			a.splitGap(text, i, prevEnd, gapEnd, &st)
		}
		if i < len(a.tokens) {
			prevEnd = int(a.tokens[i].End)
		}
	}
	a.emit(text, &st, len(text), len(a.tokens))
}

// splitGap ends sentences inside the gap text[s:e] that precedes token i.
func (a *Analyzer) splitGap(text string, i, s, e int, st *segState) {
	a.splits = a.splits[:0]
	g := a.scanGap(text, s, e)
	hasPrev, hasNext := i > 0, i < len(a.tokens)
	switch {
	case g.firstNL >= 0 && hasPrev && hasNext && startsItem(text[g.lastNL:e]):
		a.splits = append(a.splits, g.firstNL)
	case g.runs > 0:
		if hasPrev && hasNext && (a.terminatorEnds(text, i, s, &g) || a.paragraphAfterAbbrev(text, i, &g)) &&
			(a.PeriodBeforeCommaEnds || !continues(text[g.termEnd:e])) {
			a.splits = append(a.splits, g.termEnd)
		}
	case g.firstNL >= 0 && len(a.splits) == 0 && g.cleanBefore && hasPrev && hasNext:
		if a.lineBreakEnds(text, i, st.lineStart, &g) {
			a.splits = append(a.splits, g.firstNL)
		}
	}
	if len(a.splits) > 1 {
		slices.Sort(a.splits)
	}
	for _, p := range a.splits {
		a.emit(text, st, p, i)
		st.start, st.firstTok = p, i
	}
	if g.firstNL >= 0 {
		st.lineStart = g.lastNL
	}
}

// emit ends the sentence under construction at byte offset end, holding
// the tokens before index tokEnd, and appends it unless it is empty.
func (a *Analyzer) emit(text string, st *segState, end, tokEnd int) {
	s, e := trimSpace(text, st.start, end)
	if s >= e {
		return
	}
	toks := a.tokens[st.firstTok:tokEnd]
	a.sentences = append(a.sentences, Sentence{
		Start: int32(s),
		End:   int32(e),
		Hash:  HashTokens(toks),
		Chars: int32(countChars(text[s:e])),
		Words: int32(len(toks)),
	})
}

// countChars returns the number of runes of valid UTF-8 text s, each run
// of white space counted as one, as its words and punctuation read:
// "a  lot" and "a\n  lot" are as long as "a lot".
func countChars(s string) int {
	n := countRunes(s)
	var space uint8 // 1 when the rune before is white space
	for i := 0; i < len(s); i++ {
		c := spaceClass[s[i]]
		if c == maySpace {
			r, size := utf8.DecodeRuneInString(s[i:])
			c = 0
			if unicode.IsSpace(r) {
				c = isSpace
			}
			i += size - 1
		}
		// Without a branch: which bytes are white space is unforeseeable.
		n -= int(c & space)
		space = c
	}
	return n
}

// The classes of a byte for countChars: white space, not, or the first
// byte of a rune that may be (U+0085, U+00A0, U+1680, U+2000–U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000). A continuation byte is not:
// the rune it continues was classed by its first byte.
const (
	notSpace = iota
	isSpace
	maySpace
)

// spaceClass is each byte's class for countChars.
var spaceClass = [256]uint8{'\t': isSpace, '\n': isSpace, '\v': isSpace, '\f': isSpace, '\r': isSpace, ' ': isSpace, 0xc2: maySpace, 0xe1: maySpace, 0xe2: maySpace, 0xe3: maySpace}

// countRunes returns the number of runes of valid UTF-8 text s: its
// bytes that are not continuation bytes, counted eight at a time.
func countRunes(s string) int {
	n := len(s)
	for ; len(s) >= 8; s = s[8:] {
		x := binary.LittleEndian.Uint64([]byte(s[:8]))
		// A continuation byte is 10xxxxxx: bit 7 set, bit 6 clear.
		n -= bits.OnesCount64(x &^ (x << 1) & 0x8080808080808080)
	}
	for i := 0; i < len(s); i++ {
		if s[i]&0xc0 == 0x80 {
			n--
		}
	}
	return n
}

// trimSpace narrows text[s:e] to exclude leading and trailing white space.
func trimSpace(text string, s, e int) (int, int) {
	for s < e {
		r, size := rune(text[s]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[s:e])
		}
		if !unicode.IsSpace(r) {
			break
		}
		s += size
	}
	for e > s {
		r, size := rune(text[e-1]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeLastRuneInString(text[s:e])
		}
		if !unicode.IsSpace(r) {
			break
		}
		e -= size
	}
	return s, e
}

// terminatorEnds decides whether the terminator of gap g (text[s:…])
// ends the sentence before token i.
func (a *Analyzer) terminatorEnds(text string, i, s int, g *gapInfo) bool {
	next := firstRuneClass(text, a.tokens[i])
	if next == runeLower {
		return false // "e.g. the", "Wait... what", "“Stop!” he said"
	}
	if g.runs > 1 || g.firstRun != s || g.firstRunLen != 1 || text[s] != '.' {
		return true // "?!", "...", "…", or a period after punctuation
	}
	prev := a.tokens[i-1]
	decimals := a.DecimalAbbreviates || i >= 2 && datedFigure(text, a.tokens[i-2], prev)
	switch abbrevKindOf(text, prev, decimals) {
	case abbrevTitle:
		return false
	case abbrevNumber:
		return next != runeDigit
	case abbrevUnit:
		if i >= 2 && isNumberToken(text, a.tokens[i-2]) {
			return true
		}
		return next == runeUpper && isStarter(text, a.tokens[i])
	case abbrevFinal:
		return next == runeUpper && isStarter(text, a.tokens[i])
	}
	return true
}

// continues reports whether the rest of a gap after its terminators and
// closers, rest, starts, after white space, with punctuation that carries
// on a sentence: a comma, a semicolon or a colon ("STAMFORD, Conn., Feb
// 26 -", "Acme Corp.; Beta", "“Stop!”, Smith said").
func continues(rest string) bool {
	for _, r := range rest {
		switch r {
		case ',', ';', ':', '，', '、', '；', '：', '،', '؛', '﹐', '﹑', '﹔', '﹕':
			return true
		}
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return false
}

// paragraphAfterAbbrev reports whether an abbreviation's period is
// followed by an indented line that does not start in lower case: a
// paragraph break ("in the U.S.\n    \"I'm from ...").
func (a *Analyzer) paragraphAfterAbbrev(text string, i int, g *gapInfo) bool {
	return g.firstNL >= 0 && indented(text[g.lastNL:]) && firstRuneClass(text, a.tokens[i]) != runeLower
}

// lineBreakEnds decides whether a line break without a terminator before
// it (gap g) ends the sentence before token i: the next line starts with a
// capital letter or digit, and it is indented or one of the two lines is
// longer than any hard-wrapped line, which makes the break a paragraph or
// headline break ("Headline\nFirst paragraph ..."), not a wrap.
func (a *Analyzer) lineBreakEnds(text string, i, lineStart int, g *gapInfo) bool {
	if c := firstRuneClass(text, a.tokens[i]); c != runeUpper && c != runeDigit {
		return false
	}
	if indented(text[g.lastNL:]) || runesMoreThan(text[lineStart:g.firstNL], wrapWidth) {
		return true
	}
	rest := text[g.lastNL:]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	return runesMoreThan(rest, wrapWidth)
}

// startsItem reports whether a line starting with lead is a list item or
// a dialogue line: a bullet or dash followed by a space.
func startsItem(lead string) bool {
	lead = strings.TrimLeft(lead, " \t")
	r, size := utf8.DecodeRuneInString(lead)
	if !strings.ContainsRune("-*•·–—▪►●◦‣", r) || r == utf8.RuneError {
		return false
	}
	next, _ := utf8.DecodeRuneInString(lead[size:])
	return next == ' ' || next == '\t' || next == '\u00a0'
}

// indented reports whether a line starting with lead is indented by a tab
// or two spaces, the paragraph mark of plain-text news ("\n    The ...").
func indented(lead string) bool {
	return strings.HasPrefix(lead, "\t") || strings.HasPrefix(lead, "  ")
}

// runesMoreThan reports whether s holds more than n runes.
func runesMoreThan(s string, n int) bool {
	if len(s) <= n {
		return false
	}
	count := 0
	for range s {
		count++
		if count > n {
			return true
		}
	}
	return false
}

// Classes of the first letter or digit of a word.
const (
	runeOther = iota // uncased letters (Han, Arabic, ...)
	runeLower
	runeUpper
	runeDigit
)

// firstRuneClass classifies the first letter or digit of token tok.
func firstRuneClass(text string, tok Token) int {
	for _, r := range text[tok.Start:tok.End] {
		switch {
		case r < utf8.RuneSelf && 'a' <= r && r <= 'z':
			return runeLower
		case r < utf8.RuneSelf && 'A' <= r && r <= 'Z':
			return runeUpper
		case unicode.IsDigit(r) || unicode.IsNumber(r):
			return runeDigit
		case unicode.IsLower(r):
			return runeLower
		case isUpper(r):
			return runeUpper
		case unicode.IsLetter(r):
			return runeOther
		}
	}
	return runeOther
}
