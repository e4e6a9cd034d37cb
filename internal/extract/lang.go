package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// langSample bounds how much text language detection reads.
const langSample = 4096

// language returns the ISO 639-1 code of text's language: detected from
// the text when the detector is sure, else the page's declared language
// (<html lang>), else "".
func language(text, declared string) string {
	sample := text
	if len(sample) > langSample {
		sample = sample[:langSample]
		for !utf8.ValidString(sample) {
			sample = sample[:len(sample)-1]
		}
	}
	if sample != "" {
		info := whatlanggo.Detect(sample)
		if info.IsReliable() {
			if code := info.Lang.Iso6391(); code != "" {
				return code
			}
		}
	}
	return primaryTag(declared)
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
