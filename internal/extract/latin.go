package extract

import (
	"strings"
	"unicode"

	"golang.org/x/text/encoding/charmap"
)

// Between the single-byte charsets of Latin script, github.com/gogs/chardet
// is unsure on a short text: a Polish title in Windows-1250 comes out as
// Windows-1252 ("Za¿ó³æ" for "Zażółć"), ISO-8859-2 or, for a few bytes, a
// multi-byte charset of Chinese. Read in the wrong one, a text's bytes past
// ASCII turn into symbols inside its words (¿ ³ ¹ £ of Windows-1252, the
// controls ISO-8859-2 has where Windows-1250 has ś and ź, the ± ¶ of
// Windows-1250 where ISO-8859-2 has ą and ś), or into letters whose case
// no word has ("dŸ"); read in the right one, they are letters. latinChoice
// counts those misreadings in each of latinCharsets and takes the charset
// with the fewest.

// latinCharsets are the charsets latinChoice chooses among, by the names
// DetectCharset gives them, in the order it prefers them when they read a
// text equally well. ISO-8859-1 is read as Windows-1252, its superset, and
// ISO-8859-9 (Turkish) as Windows-1254.
var latinCharsets = []struct {
	name string
	cm   *charmap.Charmap
}{
	{"windows-1252", charmap.Windows1252},
	{"windows-1250", charmap.Windows1250},
	{"ISO-8859-2", charmap.ISO8859_2},
	{"windows-1254", charmap.Windows1254},
}

// latinChoice returns the charset of latinCharsets in which head reads with
// the fewest misreadings (misread), and whether it reads with none. Of
// charsets that read it equally well it takes prefer when prefer is one of
// them (the detector's confident choice), else the first.
func latinChoice(head []byte, prefer string) (string, bool) {
	best, fewest := "", -1
	for _, c := range latinCharsets {
		n := misread(head, c.cm)
		if fewest < 0 || n < fewest || n == fewest && strings.EqualFold(c.name, prefer) {
			best, fewest = c.name, n
		}
	}
	return best, fewest == 0
}

// misread counts the bytes of head past ASCII that cm reads as no text
// holds them: a control character or none (2 each: no text in that charset
// has the byte); an opening quotation mark or bracket, an inverted question
// or exclamation mark after a letter ("ju¿"), a closing one, a dash, an
// ellipsis or a bullet between two letters, any other character but a
// letter, an apostrophe, a soft hyphen or a middle dot next to a letter (a
// symbol, ¶, §: "£ódź", "¶wiat", "ci±"), but a mark after its word
// ("ROLODEX®"), © before a capital ("©AFP": not "©koda", Škoda in
// ISO-8859-2), a fraction or ± beside a figure ("1¼in": not "¾udia", ľudia
// in Windows-1250), a degree or a footnote's figure after a word
// ("Union¹", "m²"); an
// upper-case letter after a lower-case one, or a lower-case letter before
// an upper-case one ("dŸ", "żQué"). To those it adds, of the letters that
// are Polish alone (ą ę ł ń ś ź ż) and those that are Czech or Slovak alone
// (č ď ě ĺ ľ ň ř š ť ů ž: ŕ too), the fewer, when it reads both: no word
// mixes them ("pamięciš" for "pamięcią").
func misread(head []byte, cm *charmap.Charmap) int {
	at := func(i int) rune {
		if i < 0 || i >= len(head) {
			return ' '
		}
		return cm.DecodeByte(head[i])
	}
	letter := func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Lm, r) } // ˇ is a mark
	n, polish, czech := 0, 0, 0
	for i, b := range head {
		if b < 0x80 {
			continue
		}
		prev, r, next := at(i-1), at(i), at(i+1)
		switch {
		case r == unicode.ReplacementChar || unicode.IsControl(r):
			n += 2
		case letter(r):
			if unicode.IsLower(prev) && unicode.IsUpper(r) || unicode.IsLower(r) && unicode.IsUpper(next) {
				n++
			}
			switch l := unicode.ToLower(r); {
			case strings.ContainsRune("ąęłńśźż", l):
				polish++
			case strings.ContainsRune("čďěĺľňřšťůžŕ", l):
				czech++
			}
		case strings.ContainsRune("\u2019\u2018\u00ad\u00b7", r): // in words: "don’t", "l·l"
		case unicode.In(r, unicode.Pi, unicode.Ps) || r == '¿' || r == '¡': // before words
			if letter(prev) {
				n++
			}
		case unicode.In(r, unicode.Pf, unicode.Pe, unicode.Pd) || strings.ContainsRune("…•", r): // between words
			if letter(prev) && letter(next) {
				n++
			}
		case strings.ContainsRune("¼½¾±", r) && (unicode.IsDigit(prev) || unicode.IsDigit(next)): // "1¼in", "5±2"
		case strings.ContainsRune("®™©", r) && letter(prev) && !letter(next): // after its word ("ROLODEX®")
		case r == '©' && !letter(prev) && (unicode.IsUpper(next) || !letter(next)): // before a credit ("©AFP", "©Søren")
		case letter(next) || letter(prev) && !strings.ContainsRune("°¹²³", r): // a symbol, ¶, §
			n++
		}
	}
	return n + min(polish, czech)
}
