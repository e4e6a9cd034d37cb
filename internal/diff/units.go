package diff

import (
	"slices"
	"strings"
	"unicode"

	"github.com/neardup/neardup/internal/analysis"
)

// splitter cuts texts into the units Compare aligns.
type splitter struct {
	an analysis.Analyzer
}

// side returns the Side of text cut into units of kind by.
func (s *splitter) side(text string, by By) Side {
	tokens, sentences := s.an.Analyze(text)
	sd := Side{Text: text, Words: len(tokens), words: make([]uint64, len(tokens))}
	for i, t := range tokens {
		sd.words[i] = t.Hash
	}
	switch by {
	case BySentence:
		sd.units = make([]unit, 0, len(sentences))
		w := 0
		for _, sn := range sentences {
			if sn.Hash != 0 {
				sd.units = append(sd.units, unit{Span{int(sn.Start), int(sn.End)}, sn.Hash, w, int(sn.Words)})
			}
			w += int(sn.Words)
		}
	case ByLine:
		sd.units = lines(text, tokens)
	default:
		sd.units = make([]unit, len(tokens))
		for i, t := range tokens {
			sd.units[i] = unit{Span{int(t.Start), int(t.End)}, t.Hash, i, 1}
		}
	}
	return sd
}

// lines returns the lines of text holding at least one word, each trimmed of
// surrounding space and keyed by the hash of its words.
func lines(text string, tokens []analysis.Token) []unit {
	var us []unit
	w := 0
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		n := 0
		for w+n < len(tokens) && int(tokens[w+n].Start) < end {
			n++
		}
		if n > 0 {
			us = append(us, unit{trim(text, start, end), analysis.HashTokens(tokens[w : w+n]), w, n})
		}
		w += n
		start = end + 1
	}
	return us
}

// trim returns [s,e) without the ASCII and Unicode space at its ends.
func trim(text string, s, e int) Span {
	line := text[s:e]
	left := len(line) - len(strings.TrimLeftFunc(line, isSpace))
	right := len(strings.TrimRightFunc(line, isSpace))
	return Span{s + left, s + right}
}

// alike reports whether unit i of a and unit j of b share at least half the
// distinct words of the smaller: a rewrite of the same sentence or line
// rather than another one.
func alike(a, b *Side, i, j int) bool {
	wa := slices.Clone(a.words[a.units[i].w0 : a.units[i].w0+a.units[i].words])
	wb := slices.Clone(b.words[b.units[j].w0 : b.units[j].w0+b.units[j].words])
	slices.Sort(wa)
	slices.Sort(wb)
	wa, wb = slices.Compact(wa), slices.Compact(wb)
	shared := 0
	for x, y := 0, 0; x < len(wa) && y < len(wb); {
		switch {
		case wa[x] < wb[y]:
			x++
		case wa[x] > wb[y]:
			y++
		default:
			shared, x, y = shared+1, x+1, y+1
		}
	}
	return 2*shared >= min(len(wa), len(wb))
}

func isSpace(r rune) bool { return unicode.IsSpace(r) }
