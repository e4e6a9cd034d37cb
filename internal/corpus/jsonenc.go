package corpus

import (
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/jsonenc"
)

// encodedKeys returns names encoded as JSON strings, as appendJSONObject
// takes them.
func encodedKeys(names ...string) [][]byte {
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = jsonenc.AppendString(nil, n)
	}
	return keys
}

// jsonDate is t as RFC 3339 for an object's "date", without an offset
// when t is in core.NoZone (core.FormatDate), "" when unknown.
func jsonDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return core.FormatDate(t, time.RFC3339)
}

// appendJSONObject appends an object of the given keys (already encoded as
// JSON strings) and string values, in order. A missing value is "".
func appendJSONObject(dst []byte, keys [][]byte, vals []string) []byte {
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, k...)
		dst = append(dst, ':')
		v := ""
		if i < len(vals) {
			v = vals[i]
		}
		dst = jsonenc.AppendString(dst, v)
	}
	return append(dst, '}')
}
