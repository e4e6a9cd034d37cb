package extract

import "golang.org/x/text/unicode/norm"

// canonical returns s in Unicode normalization form C. Pages spell the same
// letter in more than one way (a precomposed Bengali "য়" or "য" followed
// by a nukta; an accented Latin letter or the letter and a combining
// accent): in form C two texts that read alike are the same bytes, so that
// the same article served by two sites gives the same text. Text already in
// form C, nearly every page's, is returned as it is, without a copy.
func canonical(s string) string { return norm.NFC.String(s) }
