package corpus

import (
	"math/big"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/neardup/neardup/internal/jsonenc"
)

// A group column (a list, map or struct) of a Parquet row is written as
// JSON by walking its schema node over the values of its leaf columns,
// their repetition and definition levels saying where each list element
// ends and which value is null, as Schema.Reconstruct does. Each leaf is
// written as a top-level column is (appendParquetValue): a string as a
// string whatever its place, a timestamp in RFC 3339, a decimal as its
// number; a struct's fields in schema order, a map's entries in stored
// order. Reconstructing into map[string]any instead wrote a map's string
// values in base64, a nested timestamp as its count of units, and a map's
// integer keys as the characters they number.

// nestedLevels are the repetition depth and definition level reached at a
// node, counting the repeated and optional nodes above it.
type nestedLevels struct{ rep, def int }

// columnsOf cuts a row into the values of each leaf column, numCols of
// them; a row holds its values in column order.
func columnsOf(row parquet.Row, numCols int) [][]parquet.Value {
	cols := make([][]parquet.Value, numCols)
	for i := 0; i < len(row); {
		c, j := row[i].Column(), i+1
		for j < len(row) && row[j].Column() == c {
			j++
		}
		if c >= 0 && c < numCols {
			cols[c] = row[i:j]
		}
		i = j
	}
	return cols
}

// numLeaves is how many leaf columns a node holds.
func numLeaves(n parquet.Node) int {
	if n.Leaf() {
		return 1
	}
	k := 0
	for _, f := range n.Fields() {
		k += numLeaves(f)
	}
	return k
}

// appendNested appends the value of node n held by cols, the values of
// its leaf columns for this one instance of n, as JSON.
func appendNested(dst []byte, n parquet.Node, lv nestedLevels, cols [][]parquet.Value) []byte {
	switch {
	case n.Optional():
		lv.def++
		if len(cols) == 0 || len(cols[0]) == 0 || cols[0][0].DefinitionLevel() < lv.def {
			return append(dst, "null"...)
		}
		return appendNested(dst, parquet.Required(n), lv, cols)
	case n.Repeated():
		return appendRepeated(dst, parquet.Required(n), lv, cols)
	case n.Leaf():
		if len(cols) == 0 || len(cols[0]) == 0 || cols[0][0].IsNull() {
			return append(dst, "null"...)
		}
		return appendParquetValue(dst, cols[0][0], n.Type())
	}
	if lt := n.Type().LogicalType(); lt != nil {
		if elem := listElement(n, lt); elem != nil {
			return appendRepeated(dst, elem, lv, cols)
		}
		if _, ok := lt.Value.(*format.MapType); ok && len(n.Fields()) == 1 && n.Fields()[0].Repeated() && !n.Fields()[0].Leaf() {
			return appendMap(dst, n.Fields()[0], lv, cols)
		}
	}
	return appendStruct(dst, n, lv, cols)
}

// listElement returns the element node of a LIST group, or nil for a
// group that is not one: the one field of its repeated group (three
// levels, as the specification writes a list), else that repeated field
// itself (two levels, as older writers did).
func listElement(n parquet.Node, lt *format.LogicalType) parquet.Node {
	if _, ok := lt.Value.(*format.ListType); !ok || len(n.Fields()) != 1 || !n.Fields()[0].Repeated() {
		return nil
	}
	r := n.Fields()[0]
	if !r.Leaf() && len(r.Fields()) == 1 {
		return r.Fields()[0]
	}
	return parquet.Required(r)
}

// appendStruct appends a group as a JSON object of its fields in schema
// order.
func appendStruct(dst []byte, n parquet.Node, lv nestedLevels, cols [][]parquet.Value) []byte {
	dst = append(dst, '{')
	off := 0
	for i, f := range n.Fields() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonenc.AppendString(dst, f.Name())
		dst = append(dst, ':')
		end := min(off+numLeaves(f), len(cols))
		dst = appendNested(dst, f, lv, cols[off:end])
		off = end
	}
	return append(dst, '}')
}

// instances calls each with the values of each instance of a repeated
// node, a new one starting at each value of the first column whose
// repetition level is at most lv.rep; none when the first value's
// definition level says the list (or map) is empty.
func instances(lv nestedLevels, cols [][]parquet.Value, each func(i int, sub [][]parquet.Value)) {
	if len(cols) == 0 || len(cols[0]) == 0 || cols[0][0].DefinitionLevel() < lv.def {
		return // an empty list or map
	}
	pos := make([]int, len(cols))
	sub := make([][]parquet.Value, len(cols))
	for i := 0; pos[0] < len(cols[0]); i++ {
		for j, c := range cols {
			k := pos[j]
			if k < len(c) {
				k++
			}
			for k < len(c) && c[k].RepetitionLevel() > lv.rep {
				k++
			}
			sub[j], pos[j] = c[pos[j]:k], k
		}
		each(i, sub)
	}
}

// appendRepeated appends the instances of a repeated node, each an elem,
// as a JSON array.
func appendRepeated(dst []byte, elem parquet.Node, lv nestedLevels, cols [][]parquet.Value) []byte {
	lv.rep++
	lv.def++
	dst = append(dst, '[')
	instances(lv, cols, func(i int, sub [][]parquet.Value) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendNested(dst, elem, lv, sub)
	})
	return append(dst, ']')
}

// appendMap appends the entries of a MAP group's repeated key_value group
// as a JSON object: a key that is not a string is written as the text of
// its JSON (a number's digits).
func appendMap(dst []byte, kv parquet.Node, lv nestedLevels, cols [][]parquet.Value) []byte {
	fields := kv.Fields()
	if len(fields) == 0 {
		return append(dst, "{}"...)
	}
	nk := min(numLeaves(fields[0]), len(cols))
	lv.rep++
	lv.def++
	dst = append(dst, '{')
	var key []byte
	instances(lv, cols, func(i int, sub [][]parquet.Value) {
		if i > 0 {
			dst = append(dst, ',')
		}
		key = appendNested(key[:0], fields[0], lv, sub[:nk])
		if len(key) > 0 && key[0] == '"' {
			dst = append(dst, key...)
		} else {
			dst = jsonenc.AppendString(dst, string(key))
		}
		dst = append(dst, ':')
		if len(fields) < 2 {
			dst = append(dst, "null"...)
			return
		}
		dst = appendNested(dst, fields[1], lv, sub[nk:])
	})
	return append(dst, '}')
}

// maxDecimalZeros is the most zeros a decimal is written with after its
// point before its digits: past them it is written with an exponent
// (1234e-2000000), as a scale that a file says (unchecked) may be any
// int32.
const maxDecimalZeros = 64

// appendDecimal appends a DECIMAL value as a JSON number, its digits
// exact: v holds the unscaled integer (an INT32, an INT64, or big-endian
// two's complement bytes). ok is false for a value of another kind.
func appendDecimal(dst []byte, v parquet.Value, scale int) (_ []byte, ok bool) {
	var n big.Int
	switch v.Kind() {
	case parquet.Int32:
		n.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		n.SetInt64(v.Int64())
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		n.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // negative: subtract 2^(8·len)
			n.Sub(&n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	default:
		return dst, false
	}
	digits := n.Append(nil, 10)
	if n.Sign() < 0 {
		dst = append(dst, '-')
		digits = digits[1:]
	}
	switch pad := scale - len(digits); {
	case scale == 0:
		return append(dst, digits...), true
	case scale < 0 || pad > maxDecimalZeros: // a scale the file says, unchecked
		dst = append(append(dst, digits...), 'e')
		return strconv.AppendInt(dst, int64(-scale), 10), true
	case pad >= 0:
		dst = append(dst, "0."...)
		for range pad {
			dst = append(dst, '0')
		}
		return append(dst, digits...), true
	}
	whole := len(digits) - scale
	dst = append(dst, digits[:whole]...)
	dst = append(dst, '.')
	return append(dst, digits[whole:]...), true
}

// decimalScale returns the scale of a DECIMAL type; ok is false for a type
// that is not one.
func decimalScale(t parquet.Type) (scale int, ok bool) {
	lt := t.LogicalType()
	if lt == nil {
		return 0, false
	}
	d, ok := lt.Value.(*format.DecimalType)
	if !ok {
		return 0, false
	}
	return int(d.Scale), true
}
