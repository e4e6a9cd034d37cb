package analysis

import (
	"bytes"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Normalize returns the normalised form of s, the form whose bytes are
// hashed into Token.Hash:
//
//  1. format characters (Unicode category Cf: soft hyphen, zero-width
//     space and joiners, byte-order mark, bidi marks) are removed, so
//     "co\u00ADoperate" equals "cooperate";
//  2. Unicode NFKC, so the ligature "ﬁ" becomes "fi", full-width letters
//     become ASCII and decomposed accents are composed;
//  3. the Turkish dotless "ı" and dotted "İ" become "i" (and so does an
//     "i" with a combining dot above, U+0307, the lower case some tools
//     give "İ"), so "KAPALI" equals "kapalı" and "İSTANBUL" "istanbul",
//     whichever language's case rules wrote the copy; then full Unicode
//     case folding, so "ŁÓDŹ" equals "łódź" and "Straße" equals "STRASSE";
//  4. NFKC again (folding can leave a decomposed sequence);
//  5. the typographic apostrophes U+2019, U+2018 and U+02BC become "'",
//     so "don’t" equals "don't", and the Cyrillic "ё" becomes "е", because
//     Russian text writes the two interchangeably ("учёные", "ученые");
//     Cherokee letters fold to capitals as Unicode specifies (x/text
//     swaps the two cases, which would not be idempotent).
//
// Normalize is idempotent and safe for concurrent use. It allocates; the
// Analyzer's AppendNormalized gives the same bytes without allocating.
func Normalize(s string) string {
	return string(appendNormalizedSlow(nil, s, cases.Fold(), false))
}

// appendNormalizedSlow appends Normalize(s) to dst using the x/text
// transformers; fold is a case-folding Caser owned by the caller;
// dottedIApart leaves out the folding of "ı" and "İ" (see
// Analyzer.DottedIApart).
func appendNormalizedSlow(dst []byte, s string, fold cases.Caser, dottedIApart bool) []byte {
	tmp := make([]byte, 0, len(s)+8)
	for _, r := range s {
		if r == utf8.RuneError || !unicode.Is(unicode.Cf, r) {
			tmp = utf8.AppendRune(tmp, r)
		}
	}
	tmp = norm.NFKC.Append(nil, tmp...)
	if !dottedIApart {
		tmp = foldTurkishI(tmp)
	}
	folded, _, err := transform.Append(fold, make([]byte, 0, len(tmp)+8), tmp)
	if err != nil {
		// Folding never fails on complete input; keep the NFKC form.
		folded = tmp
	}
	folded = norm.NFKC.Append(tmp[:0], folded...)
	return appendPostFold(dst, folded)
}

// foldTurkishI replaces, in place, each "ı" and "İ" of b by "i" and drops a
// combining dot above (U+0307) after an "i", and returns the shortened b.
func foldTurkishI(b []byte) []byte {
	if bytes.IndexByte(b, 0xC4) < 0 && !bytes.Contains(b, dotAbove) {
		return b // neither letter, nor the dot (most words)
	}
	out := b[:0]
	for i := 0; i < len(b); {
		switch {
		case b[i] == 0xC4 && i+1 < len(b) && (b[i+1] == 0xB0 || b[i+1] == 0xB1): // İ, ı
			out = append(out, 'i')
			i += 2
		case bytes.HasPrefix(b[i:], dotAbove) && len(out) > 0 && out[len(out)-1] == 'i':
			i += len(dotAbove)
		default:
			out = append(out, b[i])
			i++
		}
	}
	return out
}

// dotAbove is U+0307 COMBINING DOT ABOVE in UTF-8.
var dotAbove = []byte("\u0307")

// appendPostFold appends b to dst with the final rune replacements of
// Normalize (apostrophes and "ё").
func appendPostFold(dst, b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if m, ok := postFold(r); ok && size > 1 {
			dst = utf8.AppendRune(dst, m)
		} else {
			dst = append(dst, b[:size]...)
		}
		b = b[size:]
	}
	return dst
}

// postFold reports the replacement of r in step 5 of Normalize.
func postFold(r rune) (rune, bool) {
	switch r {
	case '\u2019', '\u2018', '\u02BC':
		return '\'', true
	case 'ё':
		return 'е', true
	}
	// x/text folds Cherokee capitals to small letters and small letters to
	// capitals; Unicode folds both to the capitals.
	switch {
	case 0xAB70 <= r && r <= 0xABBF:
		return r - 0xAB70 + 0x13A0, true
	case 0x13F8 <= r && r <= 0x13FD:
		return r - 8, true
	}
	return r, false
}

// foldTableSize bounds the runes of the non-ASCII fast path: every rune
// encoded in two UTF-8 bytes (Latin-1 Supplement, Latin Extended-A/B,
// Greek, Cyrillic, Armenian, Hebrew, Arabic, ...).
const foldTableSize = 0x800

// Entries of the fold table besides a replacement rune.
const (
	foldSlow   = 0  // rune needs the x/text path (marks, multi-rune results)
	foldRemove = -1 // rune is removed (format character)
)

// foldTable maps a two-byte rune to its normalised rune, foldRemove or
// foldSlow; each entry is checked against Normalize when the table is
// built, so the fast path cannot disagree with it.
var foldTable = sync.OnceValue(buildFoldTable)

func buildFoldTable() *[foldTableSize]rune {
	var t [foldTableSize]rune
	fold := cases.Fold()
	for r := rune(utf8.RuneSelf); r < foldTableSize; r++ {
		if unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) {
			continue // combines with its neighbours: context-dependent
		}
		if unicode.Is(unicode.Cf, r) {
			t[r] = foldRemove
			continue
		}
		n := appendNormalizedSlow(nil, string(r), fold, false)
		m, size := utf8.DecodeRune(n)
		if size != len(n) || m == utf8.RuneError || unicode.In(m, unicode.Mn, unicode.Mc, unicode.Me) {
			continue
		}
		t[r] = m
	}
	return &t
}

// asciiLower maps an ASCII byte to lower case.
var asciiLower = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i + 'a' - 'A')
		}
	}
	return t
}()

// AppendNormalized appends Normalize(word) to dst and returns the extended
// slice. Pure-ASCII input is lower-cased byte by byte and text made of
// runes below U+0800 goes through a precomputed table, both without
// allocating; anything else takes the x/text path. The result is the same
// as Normalize's in every case, but for "ı" and "İ" under DottedIApart.
func (a *Analyzer) AppendNormalized(dst []byte, word string) []byte {
	start := len(dst)
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= utf8.RuneSelf {
			return a.appendNormalizedTable(dst[:start], word)
		}
		dst = append(dst, asciiLower[c])
	}
	return dst
}

// appendNormalizedTable is the table path of AppendNormalized.
func (a *Analyzer) appendNormalizedTable(dst []byte, word string) []byte {
	t := foldTable()
	start := len(dst)
	for i := 0; i < len(word); {
		c := word[i]
		if c < utf8.RuneSelf {
			dst = append(dst, asciiLower[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(word[i:])
		i += size
		switch {
		case r == '\u2019' || r == '\u2018':
			dst = append(dst, '\'')
		case r >= foldTableSize || t[r] == foldSlow || a.DottedIApart && (r == 'ı' || r == 'İ'):
			return a.appendSlow(dst[:start], word)
		case t[r] != foldRemove:
			dst = utf8.AppendRune(dst, t[r])
		}
	}
	return dst
}

// appendSlow runs the x/text path with the Analyzer's own Caser.
func (a *Analyzer) appendSlow(dst []byte, word string) []byte {
	if !a.foldReady {
		a.fold = cases.Fold()
		a.foldReady = true
	}
	return appendNormalizedSlow(dst, word, a.fold, a.DottedIApart)
}
