package corpus

import (
	"fmt"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// A Parquet column is read for a field by its kind, as JSON Lines reads a
// value by its JSON type: a string (a UUID as its canonical text,
// 8-4-4-4-12 hexadecimal digits in lower case) as the field's text, a
// number as an id or as a date in Unix time (seconds, or milliseconds when
// too large to be seconds: unixDate), a TIMESTAMP, DATE or INT96 as a
// date, a TIME (a clock, of no day) as an id only; bytes of a fixed
// length that are no UUID are read as a string is, each value for itself
// (text when it is UTF-8 without a NUL, the row skipped as binary else).
// A column of a kind a field has no reading for (a BOOLEAN; a TIME for a
// date; a list, map or struct) is an error when the text is in it or
// a flag named it, or when it is the id or the title; under a field's default
// name it is what JSON Lines makes of such a value in a record:
//
//   - a url or source: no value is read (the column is left out, and
//     IgnoredColumns names it for one warning);
//   - a date: each row's value is a date not read (UnreadDates);
//   - an id or a title: an error still, as JSON Lines skips every record
//     whose id is an object or whose title is a number, as malformed.

// parquetKind is what a column's values are to a document.
type parquetKind int

const (
	pqOther  parquetKind = iota // a BOOLEAN, a list, map or struct: no field reads it
	pqString                    // BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY, not a DECIMAL (a UUID as its text)
	pqNumber                    // an integer, a FLOAT, a DOUBLE or a DECIMAL
	pqTime                      // a TIMESTAMP, a DATE or an INT96
	pqClock                     // a TIME: a time of day, an id but no date
)

// columnKind returns the kind of the top-level column node; list is
// true for a group or a repeated leaf.
func columnKind(n parquet.Node, list bool) parquetKind {
	if list {
		return pqOther
	}
	t := n.Type()
	if isTimestamp(t) || isDate(t) {
		return pqTime
	}
	if isClock(t) {
		return pqClock
	}
	_, decimal := decimalScale(t)
	switch t.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if decimal {
			return pqNumber
		}
		return pqString // each value's bytes are its text, a UUID's its canonical text
	case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		return pqNumber
	case parquet.Int96:
		return pqTime
	}
	return pqOther
}

// isClock reports whether t is of the TIME logical type, a time of day.
func isClock(t parquet.Type) bool {
	lt := t.LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.TimeType)
	return ok
}

// reads reports whether field f reads a column of kind k.
func reads(f field, k parquetKind) bool {
	switch {
	case k == pqString:
		return true
	case f == fID:
		return k == pqNumber || k == pqClock // a clock as its text, 10:30:00.25
	case f == fDate:
		return k == pqNumber || k == pqTime
	}
	return false
}

// acceptedKinds say, for messages, what kinds of column each field reads.
var acceptedKinds = [nFields]string{
	fID:     "an id column holds a string or a number",
	fTitle:  "a title column holds a string",
	fText:   "a text column holds a string",
	fURL:    "a URL column holds a string",
	fSource: "a source column holds a string",
	fDate:   "a date column holds a string, a TIMESTAMP, DATE or INT96, or a number of Unix seconds (or milliseconds)",
}

// columnType describes the type of the top-level column node for
// messages: "INT64", "BOOLEAN", "a TIME", "a list", "a map", "a struct".
func columnType(n parquet.Node, list bool) string {
	switch {
	case n.Leaf() && n.Repeated():
		return "a list (a repeated " + n.Type().Kind().String() + ")"
	case n.Leaf() && isClock(n.Type()):
		return "a TIME"
	case n.Leaf():
		return n.Type().Kind().String()
	}
	if lt := n.Type().LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.ListType:
			return "a list"
		case *format.MapType:
			return "a map"
		}
	}
	if len(n.Fields()) == 1 && n.Fields()[0].Repeated() {
		return "a list"
	}
	return "a struct"
}

// mapParquetColumn maps the top-level column i to f when f reads its
// kind. Otherwise it is an error, but for a URL, a source or a date under
// its default name that no flag named (Options.Named), which is read as
// JSON Lines reads such a value (see parquetKind).
func (r *Reader) mapParquetColumn(h *parquetHeader, origin string, f field, i int) error {
	if reads(f, h.kinds[i]) {
		h.col[f], h.kind[f], h.ftype[f] = h.first[i], h.kinds[i], h.types[i]
		return nil
	}
	typ := columnType(h.nodes[i], h.leaf[i] < 0)
	switch {
	case r.opts.named(f) || f == fID || f == fTitle || f == fText:
		return typeError(origin, h.names[i], f, typ)
	case f == fDate:
		h.oddDate, h.oddDateType = i, "a Parquet "+strings.TrimPrefix(typ, "a ")
	default:
		r.noteIgnored(f, IgnoredColumn{Field: fieldRoles[f], Name: h.names[i], Type: typ, Origin: origin})
	}
	return nil
}

// usable returns the columns, in schema order, of a kind f reads: those a
// hint may name for it.
func (h *parquetHeader) usable(f field) []string {
	var out []string
	for i, n := range h.names {
		if reads(f, h.kinds[i]) {
			out = append(out, n)
		}
	}
	return out
}

// isNull reports whether the top-level column i is null in row: an
// optional column whose first value is not defined.
func (h *parquetHeader) isNull(row parquet.Row, i int) bool {
	v, ok := leafValue(row, h.first[i])
	return !ok || h.nodes[i].Optional() && v.DefinitionLevel() == 0
}

// typeError is the error of a column of a kind field f does not read.
func typeError(origin, name string, f field, typ string) error {
	return fmt.Errorf("reading %s: column %q (the %s) is %s, and %s", origin, name, fieldRoles[f], typ, acceptedKinds[f])
}

// An IgnoredColumn is a Parquet column under the default name of a URL or
// a source (no flag named it) of a type that holds none, a struct or a
// list: its documents are read without the field, as JSON Lines reads a
// record whose url or source is no string.
type IgnoredColumn struct {
	Field  string // what the field holds: "URL" or "source"
	Name   string // the column's name
	Type   string // its type: "a struct", "a list", "BOOLEAN" ...
	Origin string // the first input found with it
}

// noteIgnored notes the column of field f as ignored, the first of each
// field only.
func (r *Reader) noteIgnored(f field, c IgnoredColumn) {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	if r.seen.ignored[f] == nil {
		r.seen.ignored[f] = &c
	}
}

// IgnoredColumns returns the columns noted as ignored (see IgnoredColumn),
// the first of each field, in the order of Options' fields.
func (r *Reader) IgnoredColumns() []IgnoredColumn {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	var out []IgnoredColumn
	for _, c := range r.seen.ignored {
		if c != nil {
			out = append(out, *c)
		}
	}
	return out
}
