package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// langSample bounds how much text language detection reads: its trigram
// profile costs time in proportion, and a paragraph or two is enough.
const langSample = 1024

// language returns the ISO 639-1 code of text's language: the page's
// declared language (<html lang>) when it has one, else detected from the
// text when the detector is sure, else "". Detection costs as much as the
// rest of the extraction, so the declaration, present on most news pages,
// is trusted.
func language(text, declared string) string {
	if tag := primaryTag(declared); tag != "" {
		return tag
	}
	sample := text
	if len(sample) > langSample {
		sample = sample[:langSample]
		for !utf8.ValidString(sample) {
			sample = sample[:len(sample)-1]
		}
	}
	if sample == "" {
		return ""
	}
	info := whatlanggo.Detect(sample)
	if !info.IsReliable() {
		return ""
	}
	return info.Lang.Iso6391()
}

// primaryTag returns the lower-cased primary subtag of a language tag:
// "en-GB" → "en".
func primaryTag(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	tag, _, _ = strings.Cut(tag, "-")
	tag, _, _ = strings.Cut(tag, "_")
	if len(tag) < 2 || len(tag) > 3 {
		return ""
	}
	return tag
}
