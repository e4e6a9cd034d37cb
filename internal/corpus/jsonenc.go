package corpus

import "github.com/neardup/neardup/internal/jsonenc"

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
