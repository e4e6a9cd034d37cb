package corpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/neardup/neardup/internal/jsonenc"
	"io"
	"strings"

	"github.com/neardup/neardup/core"
)

// csvHeader is a CSV file's header row and where the mapped fields are in
// it. It is immutable once made and shared by the file's rows.
type csvHeader struct {
	names []string
	keys  [][]byte     // the names as JSON strings, for Doc.Raw
	col   [nFields]int // the column of each field; -1 when absent
}

// newCSVHeader maps names to fields: an exact match first, else one ignoring
// case and surrounding spaces.
func newCSVHeader(names []string, want [nFields]string) *csvHeader {
	h := &csvHeader{names: names, keys: make([][]byte, len(names))}
	for i, n := range names {
		h.keys[i] = jsonenc.AppendString(nil, n)
	}
	for f, w := range want {
		h.col[f] = -1
		for i, n := range names {
			if n == w {
				h.col[f] = i
				break
			}
			if h.col[f] < 0 && strings.EqualFold(strings.TrimSpace(n), w) {
				h.col[f] = i
			}
		}
	}
	return h
}

// errRowTooLong stops reading a CSV row over the size limit.
var errRowTooLong = errors.New("corpus: CSV row too long")

// rowLimiter fails a read once the current row has passed max bytes, so a
// runaway quoted field cannot fill memory.
type rowLimiter struct {
	r    io.Reader
	n    int64 // bytes passed on
	base int64 // n at the start of the current row
	max  int64
}

func (l *rowLimiter) Read(p []byte) (int, error) {
	if l.n-l.base > l.max {
		return 0, errRowTooLong
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	return n, err
}

// csvSource reads the rows of a CSV or TSV file.
type csvSource struct {
	r      *Reader
	cr     *csv.Reader
	lim    *rowLimiter
	header *csvHeader
	want   [nFields]string
	origin string
	line   int // the last line of the last row read
	obuf   []byte
}

func newCSVSource(r *Reader, rd io.Reader, origin string, comma rune, limit int) *csvSource {
	lim := &rowLimiter{r: rd, max: int64(limit)}
	cr := csv.NewReader(lim)
	cr.Comma = comma
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	return &csvSource{r: r, cr: cr, lim: lim, want: r.names, origin: origin}
}

func (s *csvSource) close() {}

func (s *csvSource) next() (Raw, error) {
	if s.header == nil {
		if err := s.readHeader(); err != nil {
			return Raw{}, err
		}
	}
	fields, err := s.cr.Read()
	var pe *csv.ParseError
	switch {
	case err == io.EOF:
		return Raw{}, io.EOF
	case errors.Is(err, errRowTooLong):
		return Raw{}, fmt.Errorf("reading %s: the row after line %d is over %d bytes (an unclosed quote?)", s.origin, s.line, s.lim.max)
	case errors.As(err, &pe):
		s.mark(pe.Line)
		s.obuf = appendOrigin(s.obuf[:0], s.origin, pe.StartLine)
		return Raw{Origin: string(s.obuf), kind: rawCSV, id: pe.Err.Error()}, nil
	case err != nil:
		return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
	}
	start, _ := s.cr.FieldPos(0)
	end, _ := s.cr.FieldPos(len(fields) - 1)
	s.mark(end)
	s.obuf = appendOrigin(s.obuf[:0], s.origin, start)
	return Raw{Origin: string(s.obuf), kind: rawCSV, fields: fields, header: s.header}, nil
}

// mark notes the end of a row.
func (s *csvSource) mark(line int) {
	s.line = line
	s.lim.base = s.cr.InputOffset()
}

func (s *csvSource) readHeader() error {
	names, err := s.cr.Read()
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, errRowTooLong):
		return fmt.Errorf("reading %s: the header row is over %d bytes", s.origin, s.lim.max)
	case err != nil:
		return fmt.Errorf("reading %s: header: %w", s.origin, err)
	}
	h := newCSVHeader(names, s.want)
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	s.r.seen.add(seen)
	if f, ok := s.r.missing(seen); ok {
		return fmt.Errorf("%s: no %q column (the %s) in the header (columns: %s)", s.origin, s.want[f], fieldRoles[f], quoteList(names))
	}
	line, _ := s.cr.FieldPos(len(names) - 1)
	s.mark(line)
	s.header = h
	return nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// decodeCSV maps one CSV row to a document; Doc.Raw is an object of the
// header's names and the row's values in header order.
func (r *Reader) decodeCSV(raw Raw) Record {
	doc := core.Document{ID: raw.Origin, Origin: raw.Origin}
	h := raw.header
	if h == nil { // encoding/csv rejected the row; raw.id holds why
		return skip(doc, core.SkipMalformed, "", "malformed CSV: "+raw.id)
	}
	if len(raw.fields) > len(h.names) {
		return skip(doc, core.SkipMalformed, "", fmt.Sprintf("malformed: %d fields, the header has %d", len(raw.fields), len(h.names)))
	}
	get := func(f field) string {
		if c := h.col[f]; c >= 0 && c < len(raw.fields) {
			return raw.fields[c]
		}
		return ""
	}
	if id := get(fID); id != "" {
		doc.ID = id
	}
	doc.Title, doc.Text, doc.URL, doc.Source = get(fTitle), get(fText), get(fURL), get(fSource)
	doc.Date = parseDate(get(fDate))
	rec := r.finish(doc)
	if rec.Skip == core.SkipNone {
		rec.Doc.Raw = appendJSONObject(make([]byte, 0, rowSize(raw.fields)+16*len(h.names)), h.keys, raw.fields)
	}
	return rec
}

func rowSize(fields []string) int {
	n := 0
	for _, f := range fields {
		n += len(f) + 3
	}
	return n
}
