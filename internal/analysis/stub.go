package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Stub says whether a text is a stub, not worth comparing, and of which
// kind.
type Stub uint8

// The kinds of stub.
const (
	NotStub     Stub = iota
	StubShort        // under the minimum length
	StubGallery      // a gallery or video caption: "See all photos (18)"
)

// DefaultStubChars is the minimum length of a text compared, in
// characters, white space not counted. It was chosen as the longest that
// loses no labelled duplicate: on the Reuters labelled pairs a minimum of
// 100 characters loses 3 of 112 duplicates (wire briefs and earnings
// tables), and on MSRP's 3,900 paraphrase pairs of news sentences a
// minimum of 40 loses 7 and one of 30 none.
const DefaultStubChars = 30

// GalleryStubChars is the longest text, in characters, white space not
// counted, that a gallery opening makes a stub: a longer one is an article
// that happens to start with its pictures.
const GalleryStubChars = 200

// galleryOpenings are the lower-cased openings of gallery and video
// captions.
var galleryOpenings = []string{
	"see all photos", "view all photos", "see all pictures", "photo gallery", "in pictures",
	"watch the video", "watch video", "video:", "gallery:", "photos:", "slideshow",
	"смотреть все фото", "смотрите все фото", "смотреть фото", "смотреть видео", "смотрите видео",
	"фотогалерея", "фоторепортаж", "фото:", "видео:",
}

// StubOf returns whether text is a stub: StubGallery when it opens as a
// gallery or video caption and holds at most GalleryStubChars characters
// (white space not counted), else StubShort under minChars characters.
// minChars 0 means DefaultStubChars; a negative minChars turns both rules
// off.
func StubOf(text string, minChars int) Stub {
	if minChars < 0 {
		return NotStub
	}
	if minChars == 0 {
		minChars = DefaultStubChars
	}
	n, enough := 0, max(minChars, GalleryStubChars+1)
	for i := 0; i < len(text); {
		// ASCII, most of a text, is read eight bytes at a time while they
		// cannot reach enough, else a byte at a time without decoding: its
		// white space is the space and \t to \r.
		if i+8 <= len(text) && n+8 < enough {
			if v := Load64(text[i:]); v&asciiHighs == 0 {
				n += 8 - spaces8(v)
				i += 8
				continue
			}
		}
		if c := text[i]; c < utf8.RuneSelf {
			i++
			if c == ' ' || c-'\t' <= '\r'-'\t' {
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size
			if unicode.IsSpace(r) {
				continue
			}
		}
		if n++; n >= enough {
			return NotStub
		}
	}
	return stubOfCount(text, n, minChars)
}

// stubOfCount is StubOf for a text of n characters, white space not
// counted.
func stubOfCount(text string, n, minChars int) Stub {
	switch {
	case n <= GalleryStubChars && opensGallery(text):
		return StubGallery
	case n < minChars:
		return StubShort
	}
	return NotStub
}

// Load64 returns the first eight bytes of b as one little-endian number, for
// code that tests eight ASCII bytes at a time.
func Load64(b string) uint64 {
	_ = b[7] // one bounds check: the eight loads become one
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// asciiHighs has the high bit of each of eight bytes set: a byte beyond
// ASCII has it.
const asciiHighs = 0x8080808080808080

// spaces8 returns how many of the eight ASCII bytes of v are white space,
// all tested at once (no byte's sum below carries into the next).
func spaces8(v uint64) int {
	const ones = 0x0101010101010101
	x := v ^ ' '*ones                                             // a space's byte is 0
	space := ^(x&^asciiHighs + ^uint64(asciiHighs) | x)           // the high bit of a 0 byte
	control := (v + (0x80-'\t')*ones) &^ (v + (0x80-'\r'-1)*ones) // \t to \r
	return int((space | control) & asciiHighs >> 7 * ones >> 56)  // the high bits summed
}

// opensGallery reports whether text, less leading space and punctuation,
// opens with a gallery or video caption.
func opensGallery(text string) bool {
	text = strings.TrimLeftFunc(text, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	var head [64]byte
	lower := AppendLower(head[:0], text[:min(len(text), 48)])
	if !utf8.Valid(lower) { // cut inside a character: drop the piece
		for len(lower) > 0 && !utf8.Valid(lower) {
			lower = lower[:len(lower)-1]
		}
	}
	for _, o := range galleryOpenings {
		if strings.HasPrefix(string(lower), o) {
			return true
		}
	}
	return false
}
