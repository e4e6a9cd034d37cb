package analysis

import (
	"unicode"
	"unicode/utf8"
)

// gapInfo describes the text between two words.
type gapInfo struct {
	runs        int  // number of runs of terminators (". ! ? …")
	firstRun    int  // byte offset of the first run
	firstRunLen int  // byte length of the first run
	termEnd     int  // end of the last run and the closing quotes or brackets right after it
	firstNL     int  // byte offset of the first line break, -1 if none
	lastNL      int  // byte offset just after the last line break
	cleanBefore bool // only space, terminators and closers before the first line break
}

// Character classes inside a gap.
const (
	gcOther   = iota
	gcSpace   // horizontal white space
	gcNewline // line break
	gcPara    // paragraph break on its own (U+2029, form feed)
	gcTerm    // sentence terminator
	gcCloser  // quote or closing bracket
)

// asciiGapClass classifies ASCII bytes; '\r' is decided in context.
var asciiGapClass = func() (t [utf8.RuneSelf]uint8) {
	for _, c := range " \t" {
		t[c] = gcSpace
	}
	t['\n'], t['\v'], t['\f'] = gcNewline, gcNewline, gcPara
	for _, c := range ".!?" {
		t[c] = gcTerm
	}
	for _, c := range "\"')]}" {
		t[c] = gcCloser
	}
	return t
}()

// gapClass classifies a rune of a gap; fewTerms reads only the
// terminators of Analyzer.FewTerminators.
func gapClass(r rune, fewTerms bool) uint8 {
	if r < utf8.RuneSelf {
		return asciiGapClass[r]
	}
	switch r {
	case '\u0085', '\u2028':
		return gcNewline
	case '\u2029':
		return gcPara
	case '…', '‼', '⁇', '⁈', '⁉', '。', '！', '？', '．', '؟', '।':
		return gcTerm
	}
	switch {
	case unicode.IsSpace(r):
		return gcSpace
	case unicode.In(r, unicode.Pe, unicode.Pi, unicode.Pf):
		return gcCloser
	case !fewTerms && scriptTerminator(r):
		return gcTerm
	}
	return gcOther
}

// scriptTerminator reports whether r ends a sentence in its script beyond
// the marks every format reads: the full stops of Urdu "۔", Burmese "။",
// Khmer "។" "៕", Amharic "።" (and its question mark "፧"), Armenian "։",
// Tibetan "།" "༎" ("།" ends a clause as well as a sentence, and Tibetan
// writes no other mark, so its sentences end at its clauses), Mongolian
// "᠃" and Manchu "᠉", Javanese "꧉", Balinese "᭟", Hanunoo "᜶", Meetei
// Mayek "꯫", Ol Chiki "᱾", the Syriac end of paragraph "܀", the
// Devanagari double danda "॥", and "‽", "⸮" and the halfwidth and small
// forms "｡" "﹒" "﹖" "﹗". The list is written out, not read from
// Unicode's Sentence_Terminal property: that property grows with each
// Unicode version Go ships, and the fewer marks of a stored sketch's
// sentences move with the toolchain the better; it also holds marks that
// their scripts write as commas (the Burmese "၊", the Javanese "꧈", the
// Balinese "᭞", the Hanunoo "᜵") or between clauses (the Syriac "܁",
// "܂").
func scriptTerminator(r rune) bool {
	switch r {
	case '\u06d4', // ۔
		'\u104b',           // ။
		'\u17d4', '\u17d5', // ។ ៕
		'\u1362', '\u1367', // ። ፧
		'\u0589',           // ։
		'\u0f0d', '\u0f0e', // ། ༎
		'\u1803', '\u1809', // ᠃ ᠉
		'\ua9c9', '\u1b5f', // ꧉ ᭟
		'\u1736', '\uabeb', // ᜶ ꯫
		'\u1c7e', '\u0700', // ᱾ ܀
		'\u0965',           // ॥
		'\u203d', '\u2e2e', // ‽ ⸮
		'\uff61', '\ufe52', '\ufe56', '\ufe57': // ｡ ﹒ ﹖ ﹗
		return true
	}
	return false
}

// gapScanner is the state of scanGap.
type gapScanner struct {
	g         gapInfo
	inRun     bool // the previous rune was a terminator
	afterTerm bool // only terminators and closers since the last terminator
	nlRun     int  // offset of the first line break of the current run of breaks and space, -1 if none
	blankDone bool // the current run of breaks has recorded its blank line
}

// scanGap describes the gap text[s:e] and appends to a.splits the offset
// of every blank line in it (two line breaks with only space between, or a
// paragraph separator).
func (a *Analyzer) scanGap(text string, s, e int) gapInfo {
	sc := gapScanner{g: gapInfo{termEnd: -1, firstNL: -1, cleanBefore: true}, nlRun: -1}
	for i := s; i < e; {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:e])
		}
		cls := gapClass(r, a.FewTerminators)
		if r == '\r' {
			cls = gcNewline
			if i+1 < e && text[i+1] == '\n' {
				cls = gcSpace // the '\n' that follows is the break
			}
		}
		if cls != gcTerm {
			sc.inRun = false
		}
		switch cls {
		case gcTerm:
			sc.terminator(i, size)
		case gcCloser:
			if sc.afterTerm {
				sc.g.termEnd = i + size
			}
			sc.nlRun = -1
		case gcSpace:
			sc.afterTerm = false
		case gcNewline, gcPara:
			sc.lineBreak(a, i, size, cls == gcPara)
		default:
			sc.afterTerm, sc.nlRun = false, -1
			if sc.g.firstNL < 0 {
				sc.g.cleanBefore = false
			}
		}
		i += size
	}
	return sc.g
}

// terminator records the terminator text[i:i+size].
func (sc *gapScanner) terminator(i, size int) {
	g := &sc.g
	if !sc.inRun {
		g.runs++
		if g.runs == 1 {
			g.firstRun = i
		}
		sc.inRun = true
	}
	if g.runs == 1 {
		g.firstRunLen = i + size - g.firstRun
	}
	g.termEnd, sc.afterTerm = i+size, true
	sc.nlRun = -1
}

// lineBreak records the line break text[i:i+size] and, when it completes
// a blank line, the split at the first break of the run.
func (sc *gapScanner) lineBreak(a *Analyzer, i, size int, para bool) {
	sc.afterTerm = false
	if sc.g.firstNL < 0 {
		sc.g.firstNL = i
	}
	sc.g.lastNL = i + size
	if sc.nlRun < 0 {
		sc.nlRun, sc.blankDone = i, false
		if !para {
			return
		}
	}
	if !sc.blankDone {
		a.splits = append(a.splits, sc.nlRun)
		sc.blankDone = true
	}
}
