package extracteval

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// commentSeparator starts the user comments in a Dragnet gold file; the
// article body is what comes before it.
const commentSeparator = "!@#$%^&*()"

// CleanGold turns a gold file into the plain text it grades: it decodes the
// bytes (UTF-16 with a byte-order mark, UTF-8, or else Windows-1252), cuts
// Dragnet's comment section, drops CleanEval's leading "URL:" line and its
// <p>, <h> and <l> block markers.
func CleanGold(raw []byte) string {
	text := decodeText(raw)
	if i := strings.Index(text, commentSeparator); i >= 0 {
		text = text[:i]
	}
	if strings.HasPrefix(text, "URL:") {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		} else {
			text = ""
		}
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " \t")
		for _, m := range []string{"<p>", "<h>", "<l>"} {
			if strings.HasPrefix(trimmed, m) {
				lines[i] = trimmed[len(m):]
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

// decodeText reads text files whose encoding is not declared.
func decodeText(raw []byte) string {
	switch {
	case bytes.HasPrefix(raw, []byte{0xff, 0xfe}), bytes.HasPrefix(raw, []byte{0xfe, 0xff}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		if out, err := dec.Bytes(raw); err == nil {
			return string(out)
		}
	case bytes.HasPrefix(raw, []byte{0xef, 0xbb, 0xbf}):
		raw = raw[3:]
	}
	if utf8.Valid(raw) {
		return string(raw)
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(raw)
	if err != nil {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	return string(out)
}
