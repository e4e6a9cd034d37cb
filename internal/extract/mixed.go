package extract

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// A page may hold UTF-8 and another charset at once: a template in UTF-8
// around an article its content management system stored in Windows-1251,
// or one byte of Windows-1252 (a word processor's quotation mark) pasted
// into a page in UTF-8. Read in one charset, one of the two parts is
// garbled: its title and first paragraph in UTF-8 read as Windows-1252
// ("Ð�оваÑ�"), or its other paragraphs as U+FFFD. Each word is read in
// its own charset instead: the runs of bytes past ASCII that are UTF-8 as
// UTF-8, the others in the page's other charset. Text in a single-byte
// charset is seldom UTF-8 by chance (a letter of Windows-1251 or -1252
// past ASCII is a lead byte of UTF-8 followed by a letter of ASCII, or no
// lead byte), so a page of words in both is such a page.

// minMixedRuns is the fewest runs in UTF-8 a page must hold for its other
// runs to be read in another charset when they are more than it has: a
// page in Windows-1251 may hold a few words that are UTF-8 by chance
// ("Ці", an upper-case letter and an "і"), and a page of UTF-8 words
// hardly fewer.
const minMixedRuns = 8

// mixedRuns counts the runs of bytes past ASCII in b that are valid UTF-8
// and those that are not.
func mixedRuns(b []byte) (valid, invalid int) {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] >= utf8.RuneSelf {
			j++
		}
		if utf8.Valid(b[i:j]) {
			valid++
		} else {
			invalid++
		}
		i = j
	}
	return valid, invalid
}

// mixedShare is the least share of a page's runs past ASCII in another
// charset that its runs in UTF-8 must make, at minMixedRuns or more: a
// title and a lead in UTF-8 before an article of 16 times as many words.
const mixedShare = 16

// isMixedUTF8 reports whether b, not valid UTF-8, is UTF-8 with runs of
// another charset (see mixedRuns): as many runs in UTF-8 as not, or
// minMixedRuns and a mixedShare-th of the others.
func isMixedUTF8(b []byte) bool {
	valid, invalid := mixedRuns(b)
	return valid > 0 && valid >= invalid || valid >= minMixedRuns && mixedShare*valid >= invalid
}

// decodeMixed returns b, UTF-8 with runs of bytes past ASCII that are not,
// in UTF-8: those runs decoded in the charset otherCharset finds for them.
func decodeMixed(b []byte) []byte {
	dec := otherCharset(b).NewDecoder()
	out := make([]byte, 0, len(b)+len(b)/4)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] >= utf8.RuneSelf {
			j++
		}
		if run := b[i:j]; utf8.Valid(run) {
			out = append(out, run...)
		} else if text, err := dec.Bytes(run); err == nil {
			out = append(out, text...)
		} else {
			out = append(out, bytes.ToValidUTF8(run, []byte("\uFFFD"))...)
		}
		i = j
	}
	return out
}

// otherCharset returns the charset of the runs of b that are not UTF-8:
// the one a <meta> declares, when it is not UTF-8, else the one those runs
// are detected to be when it writes another script than Latin (a
// Russian article in Windows-1251), else Windows-1252 (a stray quotation
// mark; between Latin charsets detection is unsure on a few bytes).
func otherCharset(b []byte) encoding.Encoding {
	if m := metaCharset.FindSubmatch(b[:min(len(b), headLimit)]); m != nil {
		if e, n := charset.Lookup(string(m[1])); e != nil && n != "utf-8" && n != "utf-16le" && n != "utf-16be" {
			return e
		}
	}
	var runs []byte
	for i := 0; i < len(b) && len(runs) < detectLimit; {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] >= utf8.RuneSelf {
			j++
		}
		if !utf8.Valid(b[i:j]) {
			runs = append(append(runs, b[i:j]...), ' ')
		}
		i = j
	}
	if e, n := charset.Lookup(DetectCharset(runs, false)); e != nil && n != "utf-8" && !latinCharset[n] {
		return e
	}
	return charmap.Windows1252
}
