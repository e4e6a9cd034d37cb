package extract

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/neardup/neardup/internal/mojibake"
)

// canonical returns s in Unicode normalization form C, without soft
// hyphens, its double-encoded UTF-8 repaired (mojibake.Repair: "isnâ€™t"
// is "isn’t"; a reprint that went through a system that garbled it is the
// same text as its original). Pages spell the same letter in more than one way (a precomposed
// Bengali "য়" or "য" followed by a nukta; an accented Latin letter or the
// letter and a combining accent), and some mark where a long word may break
// with an invisible soft hyphen (U+00AD, "Mit&shy;tel&shy;al&shy;ter"): in
// form C and without them, two texts that read alike are the same bytes,
// so that the same article served by two sites gives the same text, and a
// search of the text finds its words. Text already so, nearly every
// page's, is returned as it is, without a copy.
func canonical(s string) string {
	s = mojibake.Repair(s) // before the soft hyphens: "Ã\u00ad" is "í"
	if strings.Contains(s, softHyphen) {
		s = respace(strings.ReplaceAll(s, softHyphen, ""))
	}
	return norm.NFC.String(s)
}

// repairedAlong returns a page's title and author with their double-encoded
// UTF-8 repaired as its text is (canonical): when the text is garbled
// (mojibake.Garbled: a page written in UTF-8 read as Windows-1252), so is
// all the page, and the one "mÃ©tro" of a title, too few for Repair to
// tell from ordinary text in a title alone, is repaired all the same.
func repairedAlong(title, author, text string) (string, string) {
	if !mojibake.Garbled(text) {
		return title, canonical(author)
	}
	return canonical(mojibake.RepairAll(title)), canonical(mojibake.RepairAll(author))
}

// respace puts the paragraphs and lines of a text back in shape after
// characters were taken out of it: no space at either end of a line, no
// empty line inside a paragraph, no empty paragraph. A soft hyphen that
// stood alone ("0 &shy;", a paragraph of one) left a space or a line with
// nothing on it.
func respace(s string) string {
	var paras []string
	for p := range strings.SplitSeq(s, "\n\n") {
		var lines []string
		for l := range strings.SplitSeq(p, "\n") {
			if l = strings.Trim(l, " "); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 {
			paras = append(paras, strings.Join(lines, "\n"))
		}
	}
	return strings.Join(paras, "\n\n")
}

// softHyphen is U+00AD, a hint where a word may break, never shown
// otherwise.
const softHyphen = "\u00ad"
