package gen

import (
	"unicode/utf8"
)

// appendDoc appends d with text as its Text as one JSON line: what
// encoding/json writes with HTML escaping off, made without reflection.
func appendDoc(b []byte, d *DocRecord, text []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, d.ID)
	b = append(b, `,"title":`...)
	b = appendJSONString(b, d.Title)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, text)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, d.Source)
	b = append(b, `,"url":`...)
	b = appendJSONString(b, d.URL)
	b = append(b, `,"date":`...)
	b = appendJSONString(b, d.Date)
	return append(b, "}\n"...)
}

// appendTruth appends t as one JSON line.
func appendTruth(b []byte, t *TruthRecord) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, t.ID)
	b = append(b, `,"cluster":`...)
	b = appendJSONString(b, t.Cluster)
	b = append(b, `,"base":`...)
	b = appendJSONString(b, t.Base)
	b = append(b, `,"ops":[`...)
	for i, op := range t.Ops {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(op))
	}
	b = append(b, ']')
	if t.NegativeOf != "" {
		b = append(b, `,"negative_of":`...)
		b = appendJSONString(b, t.NegativeOf)
	}
	return append(b, "}\n"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD
// and U+2028, U+2029 are escaped, as encoding/json does.
func appendJSONString[S string | []byte](b []byte, s S) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := decodeRune(s[i:])
		if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			}
			start = i + n
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// decodeRune decodes the first rune of s.
func decodeRune[S string | []byte](s S) (rune, int) {
	var buf [utf8.UTFMax]byte
	return utf8.DecodeRune(buf[:copy(buf[:], s)])
}
