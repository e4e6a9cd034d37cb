package corpus

import (
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/jsonenc"
	"github.com/neardup/neardup/internal/tempfile"
)

// A Parquet file is one document a row. The columns of a document are
// top-level columns named as the fields of a CSV header are (Options'
// IDField, TextField ...): the text, title, URL and source are strings
// (BYTE_ARRAY), the id a string or a number, the date a string, a
// TIMESTAMP, a DATE, an INT96 (the timestamp of Impala, Hive and older
// Spark) or a number of Unix time; what becomes of a column of another
// type is in parquet_columns.go. Every column, mapped or not, goes into Doc.Raw, an
// object of the top-level columns in schema order, so that kept.jsonl holds
// each row whole; and ParquetRow gives the row itself, for a Parquet copy.
//
// The file is read a row group at a time and, within one, a page at a time
// (package parquet-go reads the pages of the columns as the rows need
// them): memory is bounded by a few pages of each column, not by the file.
// A row over the limit is known only once its page is decoded: it is read
// with the page, and the page's header and the file's footer with the
// statistics the writer kept (some keep the longest value whole), before
// it is skipped.
// A file given as input is read in place; one inside an archive or
// compressed stream, or read from standard input, is copied to a temporary
// file first, since Parquet keeps its schema and row groups' offsets at
// its end. A record's origin is "file.parquet:N", N the row's number in the
// file from 1.

// parquetBatch is how many rows are read from a row group at a time.
const parquetBatch = 64

// parquetHeader is a Parquet file's schema and where the mapped fields are
// in it. It is immutable once made and shared by the file's rows.
type parquetHeader struct {
	schema *parquet.Schema
	names  []string       // the top-level columns, in schema order
	keys   [][]byte       // the names as JSON strings, for Doc.Raw
	nodes  []parquet.Node // the top-level columns' nodes
	first  []int          // each top-level column's first leaf column
	leaf   []int          // each top-level column's leaf column, or -1 for a group or a repeated leaf
	types  []parquet.Type // each top-level column's type
	kinds  []parquetKind  // each top-level column's kind
	col    [nFields]int   // the leaf column of each field; -1 when absent
	kind   [nFields]parquetKind
	ftype  [nFields]parquet.Type // the type of each field's column
	flat   bool                  // every top-level column is a leaf, not repeated
	// oddDate is the top-level column under the date's default name
	// when no date is read from its kind, else -1: each of its values
	// is a date not read, described by oddDateType ("a Parquet struct").
	oddDate     int
	oddDateType string
	// sum is the hash of the schema as text (its columns' names, types,
	// repetition and nesting), which Raw.Sum adds to each row's.
	sum uint64
}

// ParquetRow returns the row of a Parquet record with its file's schema, or
// nil and nil for a record of another kind. The row is the Raw's own.
func (r Raw) ParquetRow() (parquet.Row, *parquet.Schema) {
	if r.kind != rawParquet {
		return nil, nil
	}
	return r.row, r.pq.schema
}

// parquetSource reads the rows of one Parquet file.
type parquetSource struct {
	r      *Reader
	m      container.Member
	origin string
	file   *tempfile.File // the temporary copy, when the member could not be read in place
	h      *parquetHeader
	groups []parquet.RowGroup
	g      int          // the row group being read
	rows   parquet.Rows // its rows; nil between row groups
	buf    []parquet.Row
	pos, n int   // the next row of buf, and how many it holds
	row    int64 // rows of the file read so far
	start  int64 // the first row of the row group being read, from 0
	limit  int
}

func (r *Reader) newParquetSource(m container.Member, limit int) *parquetSource {
	return &parquetSource{r: r, m: m, origin: m.Origin, limit: limit}
}

func (s *parquetSource) close() {
	if s.rows != nil {
		s.rows.Close()
		s.rows = nil
	}
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// open reads the file's footer and maps the columns.
func (s *parquetSource) open() error {
	ra, size, err := s.readerAt()
	if err != nil {
		return err
	}
	f, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("reading %s: not a Parquet file that can be read: %w", s.origin, err)
	}
	h, err := s.r.newParquetHeader(s.origin, f.Schema())
	if err != nil {
		return err
	}
	s.h, s.groups = h, f.RowGroups()
	s.buf = make([]parquet.Row, parquetBatch)
	return nil
}

// readerAt gives random access to the member: in place, or through a
// temporary copy.
func (s *parquetSource) readerAt() (io.ReaderAt, int64, error) {
	if s.m.At != nil {
		return s.m.At()
	}
	f, err := tempfile.Create("", "neardup-parquet-*")
	if err != nil {
		return nil, 0, fmt.Errorf("reading %s: copying it for random access: %w", s.origin, err)
	}
	s.file = f
	n, err := io.Copy(f, s.m.R)
	if err != nil {
		return nil, 0, fmt.Errorf("reading %s: %w after %d bytes", s.origin, err, n)
	}
	return f, n, nil
}

// next returns the next row. Package parquet-go panics on some damaged
// files (a page whose header lies about its contents); such a panic is the
// file's fault, not this program's, and becomes an error naming the file
// and where reading got to, as any other damage does.
func (s *parquetSource) next() (raw Raw, err error) {
	defer func() {
		if p := recover(); p != nil {
			where := "its footer"
			if s.h != nil {
				where = fmt.Sprintf("row group %d, after row %d", s.g+1, s.row)
			}
			raw, err = Raw{}, fmt.Errorf("reading %s: damaged Parquet at %s: %v", s.origin, where, p)
		}
	}()
	return s.read()
}

func (s *parquetSource) read() (Raw, error) {
	if s.h == nil {
		if err := s.open(); err != nil {
			return Raw{}, err
		}
	}
	for s.pos >= s.n {
		if err := s.fill(); err != nil {
			return Raw{}, err
		}
	}
	row := s.buf[s.pos]
	s.pos++
	s.row++
	origin := string(appendOrigin(nil, s.origin, int(s.row)))
	if size := rowBytes(row); size > s.limit {
		// Read whole with its page, the row is not kept: only its id,
		// which names it in the rejects as it would name its document.
		id, note := s.h.idOnly(row)
		return Raw{Origin: origin, kind: rawTooLarge, size: int64(size), rows: true, pq: s.h, row: id, note: note}, nil
	}
	return Raw{Origin: origin, kind: rawParquet, row: row.Clone(), pq: s.h, rows: true}, nil
}

// fill reads the next rows into buf, opening the next row group when the
// one being read is done; io.EOF after the last.
func (s *parquetSource) fill() error {
	if s.rows == nil {
		if s.g >= len(s.groups) {
			return io.EOF
		}
		s.rows = s.groups[s.g].Rows()
		s.start = s.row
	}
	s.pos = 0
	n, err := s.rows.ReadRows(s.buf)
	s.n = n
	if err == io.EOF || err == nil && n == 0 {
		s.rows.Close()
		s.rows = nil
		if end := s.start + s.groups[s.g].NumRows(); s.row+int64(n) != end && err == io.EOF {
			return fmt.Errorf("reading %s: row group %d holds %d rows, %d were read", s.origin, s.g+1, s.groups[s.g].NumRows(), s.row+int64(n)-s.start)
		}
		s.g++
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: row group %d (rows %d to %d), after row %d: %w",
			s.origin, s.g+1, s.start+1, s.start+s.groups[s.g].NumRows(), s.row+int64(n), err)
	}
	return nil
}

// newParquetHeader maps a file's columns to the fields, as newCSVHeader
// maps a header's, and checks the kinds of those mapped (see
// parquetKind).
func (r *Reader) newParquetHeader(origin string, schema *parquet.Schema) (*parquetHeader, error) {
	fields := schema.Fields()
	h := &parquetHeader{schema: schema, flat: true, oddDate: -1, sum: sumSchema(schema)}
	seen := make(map[string]bool, len(fields))
	first := 0
	for _, f := range fields {
		h.names = append(h.names, f.Name())
		h.types = append(h.types, f.Type())
		h.nodes = append(h.nodes, f)
		h.first = append(h.first, first)
		first += numLeaves(f)
		seen[f.Name()] = true
		lc, ok := schema.Lookup(f.Name())
		if !f.Leaf() || f.Repeated() || !ok {
			h.leaf = append(h.leaf, -1)
			h.kinds = append(h.kinds, pqOther)
			h.flat = false
			continue
		}
		h.leaf = append(h.leaf, lc.ColumnIndex)
		h.kinds = append(h.kinds, columnKind(f, false))
	}
	h.keys = encodedKeys(uniqueNames(h.names)...)
	r.seen.add(seen)
	if f, ok := r.missing(seen, true); ok {
		return nil, r.fieldError(f, h.usable(f),
			fmt.Sprintf("%s: no %q column (the %s) in the Parquet schema (columns: %s)", origin, r.names[f], fieldRoles[f], quoteList(h.names)))
	}
	r.noteUnread(origin, seen, true, func(f field) map[string]bool {
		m := map[string]bool{}
		for _, n := range h.usable(f) {
			m[n] = true
		}
		return m
	})
	for f, w := range r.names {
		h.col[f] = -1
		i, clash := matchColumn(h.names, w)
		if clash != nil {
			return nil, fmt.Errorf("%s: %s", origin, clashMessage("columns", clash, w, "", field(f)))
		}
		if i >= 0 {
			if err := r.mapParquetColumn(h, origin, field(f), i); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}

func isTimestamp(t parquet.Type) bool {
	lt := t.LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.TimestampType)
	return ok
}

// isUUID reports whether t is a UUID: bytes of a fixed length (16) of the
// UUID logical type.
func isUUID(t parquet.Type) bool {
	lt := t.LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.UUIDType)
	return ok && t.Kind() == parquet.FixedLenByteArray
}

// appendUUID appends the canonical text of the 16 bytes of a UUID,
// 8-4-4-4-12 hexadecimal digits in lower case.
func appendUUID(dst []byte, b []byte) []byte {
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return dst
}

const hexDigits = "0123456789abcdef"

func isDate(t parquet.Type) bool {
	lt := t.LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.DateType)
	return ok
}

// decodeParquet maps one Parquet row to a document; Doc.Raw is an object
// of the top-level columns in schema order. A row without an id (null or
// "") is named by its origin as a JSON Lines record is (idOf), made only
// then: most rows have their own.
func (r *Reader) decodeParquet(raw Raw) Record {
	doc := core.Document{Origin: raw.Origin}
	h := raw.pq
	get := func(f field) string { s, _ := h.field(raw.row, f); return s }
	doc.ID = r.parquetID(raw)
	doc.Title = get(fTitle)
	doc.Text = get(fText)
	doc.URL = get(fURL)
	doc.Source = get(fSource)
	var unread string
	date := get(fDate) // "NaN" for a NaN, a date not read
	switch {
	case h.kind[fDate] == pqNumber && date != "":
		if doc.Date = unixDate([]byte(date)); doc.Date.IsZero() {
			unread = r.unreadDate(date, doc.Origin, raw.seq)
		}
	case h.oddDate >= 0 && !h.isNull(raw.row, h.oddDate):
		unread = r.noteUnreadDate(h.oddDateType, doc.Origin, raw.seq)
	default:
		doc.Date, unread = r.date(date, doc.Origin, raw.seq)
	}
	rec := r.finish(doc)
	rec.UnreadDate = unread
	if rec.Skip == core.SkipNone {
		rec.Doc.Raw = parquetObject(h, raw.row)
	}
	return rec
}

// field returns the value of field f in row as a document takes it
// (parquetString), "" when the field has no column or the row's value is
// null; finite is false for a FLOAT or DOUBLE that JSON has no number
// for, whose text s is then "NaN", "+Inf" or "-Inf".
func (h *parquetHeader) field(row parquet.Row, f field) (s string, finite bool) {
	if c := h.col[f]; c >= 0 {
		if v, ok := leafValue(row, c); ok && !v.IsNull() {
			return parquetString(v, h.ftype[f])
		}
	}
	return "", true
}

// idOnly returns a copy of row's value of the id column, the one value of
// it a row skipped as too large keeps; nil when there is no id column, or
// when the id is longer than core.MaxIDBytes, which note then says: such
// a row is named by its origin, its id not copied.
func (h *parquetHeader) idOnly(row parquet.Row) (id parquet.Row, note string) {
	c := h.col[fID]
	if c < 0 {
		return nil, ""
	}
	v, ok := leafValue(row, c)
	if !ok {
		return nil, ""
	}
	n := 0
	if k := v.Kind(); !v.IsNull() && (k == parquet.ByteArray || k == parquet.FixedLenByteArray) {
		if n = len(v.ByteArray()); n <= core.MaxIDBytes {
			text, _ := parquetString(v, h.ftype[fID])
			n = len(text) // a decimal's digits, a UUID's text
		}
	}
	if n > core.MaxIDBytes {
		return nil, fmt.Sprintf("its id of %d bytes is longer than %d bytes, so the row is named by its origin", n, core.MaxIDBytes)
	}
	return parquet.Row{v.Clone()}, ""
}

// parquetID is the id of a Parquet row's document: its id column's value,
// or, when that is null, "", NaN or infinite (or there is none), its
// origin as idOf names it.
func (r *Reader) parquetID(raw Raw) string {
	if id, finite := raw.pq.field(raw.row, fID); finite && id != "" {
		return id
	}
	return r.idOf(raw.Origin)
}

// parquetString is a mapped column's value as a document takes it: a
// string's bytes, a UUID's canonical text, a FLOAT or DOUBLE as floatText
// writes it; another number, a timestamp or a date as kept.jsonl writes
// it (appendParquetValue). finite is false for a number JSON has none for
// (NaN, +Inf, -Inf), which is no id.
func parquetString(v parquet.Value, t parquet.Type) (s string, finite bool) {
	if k := v.Kind(); k == parquet.ByteArray || k == parquet.FixedLenByteArray {
		if b := v.ByteArray(); isUUID(t) && len(b) == 16 {
			return string(appendUUID(nil, b)), true
		}
		if _, decimal := decimalScale(t); !decimal {
			return string(v.ByteArray()), true
		}
	}
	switch v.Kind() {
	case parquet.Float:
		return floatText(float64(v.Float()), 32)
	case parquet.Double:
		return floatText(v.Double(), 64)
	}
	s = string(appendParquetValue(nil, v, t))
	if s == "null" {
		return "", true
	}
	return strings.Trim(s, `"`), true
}

// floatText is a FLOAT (bits 32) or DOUBLE (64) value as an id takes it:
// the shortest decimal that reads back as the value in its own bits,
// without an exponent from 10⁻⁶ up to 10²¹ (1000000, 20240105, 0.5, not
// 1e+06), with one beyond (1e+21, 1e-07), the bounds JavaScript writes
// numbers within. The bounds are the nearest values of those bits, so
// that they bound the decimal written: float32(1e-6), which is under 1e-6
// as a float64, is written 0.000001. NaN and the infinities, which JSON
// has no number for, are "NaN", "+Inf" and "-Inf", finite false.
func floatText(f float64, bits int) (s string, finite bool) {
	lo, hi := 1e-6, 1e21
	if bits == 32 {
		lo, hi = float64(float32(1e-6)), float64(float32(1e21))
	}
	switch a := math.Abs(f); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return strconv.FormatFloat(f, 'g', -1, 64), false
	case a == 0:
		return "0", true // -0 too
	case a >= lo && a < hi:
		return strconv.FormatFloat(f, 'f', -1, bits), true
	}
	return strconv.FormatFloat(f, 'g', -1, bits), true
}

// parquetTime is a TIMESTAMP value as a time in UTC, or in core.NoZone
// when it is not adjusted to UTC (a wall clock of no zone named).
func parquetTime(v parquet.Value, t parquet.Type) time.Time {
	ts := t.LogicalType().Value.(*format.TimestampType)
	n := v.Int64()
	var at time.Time
	switch ts.Unit.Value.(type) {
	case *format.MicroSeconds:
		at = time.UnixMicro(n)
	case *format.NanoSeconds:
		at = time.Unix(0, n)
	default:
		at = time.UnixMilli(n)
	}
	if !ts.IsAdjustedToUTC {
		return at.In(core.NoZone)
	}
	return at.UTC()
}

// timeOfDay returns a TIME value (of the TIME logical type: milliseconds
// in an INT32, micro- or nanoseconds in an INT64, since midnight) as a
// duration since midnight; ok is false for a value of another type, or
// one outside a day.
func timeOfDay(v parquet.Value, t parquet.Type) (d time.Duration, ok bool) {
	lt := t.LogicalType()
	if lt == nil {
		return 0, false
	}
	tt, ok := lt.Value.(*format.TimeType)
	if !ok {
		return 0, false
	}
	switch tt.Unit.Value.(type) {
	case *format.MicroSeconds:
		d = time.Duration(v.Int64()) * time.Microsecond
	case *format.NanoSeconds:
		d = time.Duration(v.Int64())
	default:
		d = time.Duration(v.Int32()) * time.Millisecond
	}
	return d, d >= 0 && d < 24*time.Hour
}

// julianUnixEpoch is the Julian day of 1970-01-01.
const julianUnixEpoch = 2440588

// int96Time is an INT96 value, the timestamp of Impala, Hive and older
// Spark (its nanoseconds of the day, then its Julian day), as a time in UTC.
func int96Time(v parquet.Value) time.Time {
	i := v.Int96()
	nanos := int64(uint64(i[1])<<32 | uint64(i[0]))
	return time.Unix((int64(i[2])-julianUnixEpoch)*86400, nanos).UTC()
}

// parquetObject returns a row as a JSON object of its top-level columns in
// schema order: strings as strings (bytes that are not UTF-8 in base64; a
// UUID's canonical text),
// numbers as numbers (a decimal's exact digits), timestamps and dates in
// RFC 3339, nulls as null, groups (lists, maps, structs) as JSON arrays
// and objects of such values (see appendNested).
func parquetObject(h *parquetHeader, row parquet.Row) []byte {
	var cols [][]parquet.Value
	if !h.flat {
		cols = columnsOf(row, len(h.schema.Columns()))
	}
	dst := make([]byte, 0, 64+rowBytes(row))
	dst = append(dst, '{')
	for i, key := range h.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, key...)
		dst = append(dst, ':')
		if h.leaf[i] < 0 {
			end := min(h.first[i]+numLeaves(h.nodes[i]), len(cols))
			dst = appendNested(dst, h.nodes[i], nestedLevels{}, cols[min(h.first[i], end):end])
			continue
		}
		v, ok := leafValue(row, h.leaf[i])
		if !ok || v.IsNull() {
			dst = append(dst, "null"...)
			continue
		}
		dst = appendParquetValue(dst, v, h.types[i])
	}
	return append(dst, '}')
}

// rowBytes is about the bytes a row holds: its strings' and 8 a value.
func rowBytes(row parquet.Row) int {
	n := 0
	for _, v := range row {
		n += 8
		if k := v.Kind(); !v.IsNull() && (k == parquet.ByteArray || k == parquet.FixedLenByteArray) {
			n += len(v.ByteArray())
		}
	}
	return n
}

// leafValue returns the value of the leaf column col in row.
func leafValue(row parquet.Row, col int) (parquet.Value, bool) {
	for _, v := range row {
		if v.Column() == col {
			return v, true
		}
	}
	return parquet.Value{}, false
}

// appendParquetValue appends a leaf value of type t as JSON.
func appendParquetValue(dst []byte, v parquet.Value, t parquet.Type) []byte {
	switch {
	case isTimestamp(t):
		return jsonenc.AppendString(dst, core.FormatDate(parquetTime(v, t), time.RFC3339Nano))
	case isDate(t):
		return jsonenc.AppendString(dst, time.Unix(int64(v.Int32())*86400, 0).UTC().Format(time.DateOnly))
	}
	if d, ok := timeOfDay(v, t); ok {
		return jsonenc.AppendString(dst, time.Unix(0, int64(d)).UTC().Format("15:04:05.999999999"))
	}
	if scale, ok := decimalScale(t); ok {
		if d, ok := appendDecimal(dst, v, scale); ok {
			return d
		}
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.AppendBool(dst, v.Boolean())
	case parquet.Int32, parquet.Int64:
		return appendInt(dst, v, t)
	case parquet.Float:
		return appendFloat(dst, float64(v.Float()), 32)
	case parquet.Double:
		return appendFloat(dst, v.Double(), 64)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		if isUUID(t) && len(b) == 16 {
			dst = append(dst, '"')
			return append(appendUUID(dst, b), '"')
		}
		if utf8.Valid(b) {
			return jsonenc.AppendString(dst, string(b))
		}
		return jsonenc.AppendString(dst, base64.StdEncoding.EncodeToString(b))
	}
	if v.Kind() == parquet.Int96 {
		return jsonenc.AppendString(dst, int96Time(v).Format(time.RFC3339Nano))
	}
	return jsonenc.AppendString(dst, v.String())
}

// appendInt appends an INT32 or INT64 value of type t as a JSON number:
// an unsigned integer (INT(n, false), UINT_n) as the value of its low n
// bits, unsigned (18446744073709551615, not -1), a signed one as it is.
func appendInt(dst []byte, v parquet.Value, t parquet.Type) []byte {
	bits, unsigned := unsignedBits(t)
	switch {
	case !unsigned && v.Kind() == parquet.Int32:
		return strconv.AppendInt(dst, int64(v.Int32()), 10)
	case !unsigned:
		return strconv.AppendInt(dst, v.Int64(), 10)
	}
	u := uint64(v.Int64())
	if v.Kind() == parquet.Int32 {
		u = uint64(uint32(v.Int32()))
	}
	if bits < 64 {
		u &= 1<<bits - 1
	}
	return strconv.AppendUint(dst, u, 10)
}

// unsignedBits returns the bit width of an unsigned integer type
// (INT(n, false) or the UINT_n it was written as before logical types);
// ok is false for a type that is not one.
func unsignedBits(t parquet.Type) (bits int, ok bool) {
	lt := t.LogicalType()
	if lt == nil {
		return 0, false
	}
	it, ok := lt.Value.(*format.IntType)
	if !ok || it.IsSigned {
		return 0, false
	}
	if it.BitWidth <= 0 || it.BitWidth > 64 {
		return 64, true
	}
	return int(it.BitWidth), true
}

// appendFloat appends f as a JSON number, the text floatText gives it as
// an id (1000000, not 1e+06; 0, not -0), so that a record of kept.jsonl
// read again as JSON Lines has the id it had; NaN and the infinities,
// which JSON has no number for, as null.
func appendFloat(dst []byte, f float64, bits int) []byte {
	s, finite := floatText(f, bits)
	if !finite {
		return append(dst, "null"...)
	}
	return append(dst, s...)
}
