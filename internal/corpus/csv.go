package corpus

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
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
	h := &csvHeader{names: names, keys: encodedKeys(uniqueNames(names)...)}
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

// uniqueNames returns names with the second and later of a repeated name
// suffixed "_2", "_3", ...: a row's object (its Raw) has one key a column,
// and a reader of kept.jsonl sees each value. A suffixed name that is
// itself a column is skipped over.
func uniqueNames(names []string) []string {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		seen[n] = true
	}
	if len(seen) == len(names) {
		return names
	}
	out := make([]string, len(names))
	used := make(map[string]bool, len(names))
	for i, n := range names {
		name := n
		for k := 2; used[name] || name != n && seen[name]; k++ {
			name = fmt.Sprintf("%s_%d", n, k)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

// errRowTooLong stops reading a CSV row over the size limit that never ends.
var errRowTooLong = errors.New("corpus: CSV row too long")

// rowLimiter passes a CSV stream on to encoding/csv and keeps a runaway row
// out of memory: once the current row has passed max bytes, it discards the
// rest of the row from the input (up to the first line break outside
// quotes), hands the CSV reader a line end that closes whatever it holds, and
// notes the row as cut, so that the row becomes one too-large record and the
// rows after it are read as usual. A row that never ends (an unclosed quote)
// fails the read with errRowTooLong.
type rowLimiter struct {
	r    io.Reader
	n    int64 // bytes passed on
	base int64 // n at the start of the current row
	max  int64

	// row holds the bytes passed on since base: the current row and what
	// the CSV reader read ahead of it (at most its buffer), for the
	// quoting state at the start of the next row and for checkRow.
	row    []byte
	quoted bool // whether the bytes passed on end inside quotes

	chunk   int    // when above 0, the most one read passes on (tests)
	pending []byte // bytes to pass on before reading more
	cut     int64  // the size of the current row when it was cut; 0 when not
	lines   int    // line breaks discarded, less the one passed on in their stead
}

// rowEnd closes a row the CSV reader is in the middle of, inside quotes or
// not: a byte that cannot end a quoted field, then a quote and a line break.
const rowEnd = "\x00\"\n"

var quote = []byte{'"'}

func (l *rowLimiter) Read(p []byte) (int, error) {
	if l.chunk > 0 && len(p) > l.chunk {
		p = p[:l.chunk]
	}
	if len(l.pending) == 0 && l.n-l.base > l.max && l.cut == 0 {
		if err := l.discardRow(); err != nil {
			return 0, err
		}
	}
	var n int
	var err error
	if len(l.pending) > 0 {
		n = copy(p, l.pending)
		l.pending = l.pending[n:]
	} else {
		n, err = l.r.Read(p)
	}
	l.passed(p[:n])
	return n, err
}

// passed notes bytes passed on to the CSV reader.
func (l *rowLimiter) passed(b []byte) {
	l.n += int64(len(b))
	if bytes.Count(b, quote)%2 == 1 {
		l.quoted = !l.quoted
	}
	l.row = append(l.row, b...)
}

// discardRow reads and drops the rest of the current row and queues rowEnd
// and the bytes after the row.
func (l *rowLimiter) discardRow() error {
	buf := make([]byte, 32<<10)
	quoted := l.quoted
	l.cut = l.n - l.base
	for {
		n, err := l.r.Read(buf)
		for i, c := range buf[:n] {
			switch {
			case c == '"':
				quoted = !quoted
			case c == '\n' && quoted:
				l.lines++
			case c == '\n':
				l.cut += int64(i)
				l.pending = append([]byte(rowEnd), buf[i+1:n]...)
				l.quoted = false
				return nil
			}
		}
		l.cut += int64(n)
		if err == io.EOF {
			return errRowTooLong
		}
		if err != nil {
			return err
		}
	}
}

// startRow notes that the CSV reader has read up to offset: the next row
// starts there, outside quotes.
func (l *rowLimiter) startRow(offset int64) {
	// The quoting state at the end of what was passed on is that after the
	// read-ahead, which starts outside quotes.
	l.quoted = false
	if ahead := l.n - offset; ahead >= 0 && ahead <= int64(len(l.row)) {
		rest := l.row[int64(len(l.row))-ahead:]
		l.quoted = bytes.Count(rest, quote)%2 == 1
		l.row = append(l.row[:0], rest...)
	} else {
		l.row = l.row[:0]
	}
	l.base = offset
}

// current returns the bytes of the row the CSV reader has just read, which
// ends at offset.
func (l *rowLimiter) current(offset int64) []byte {
	if n := offset - l.base; n >= 0 && n <= int64(len(l.row)) {
		return l.row[:n]
	}
	return nil
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
	shift  int // line breaks discarded with rows over the limit
	obuf   []byte
}

func newCSVSource(r *Reader, rd io.Reader, origin string, comma rune, limit int) *csvSource {
	lim := &rowLimiter{r: rd, max: int64(limit)}
	if r.cfg.bufSize < 4096 {
		lim.chunk = r.cfg.bufSize // a small buffer in tests reaches the limit with small rows
	}
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
		return Raw{}, fmt.Errorf("reading %s: the row after line %d is over %d bytes and never ends (an unclosed quote?)", s.origin, s.line, s.lim.max)
	case errors.As(err, &pe):
		s.obuf = appendOrigin(s.obuf[:0], s.origin, pe.StartLine+s.shift)
		if size := s.endRow(pe.Line); size > 0 {
			return Raw{Origin: string(s.obuf), kind: rawTooLarge, size: size}, nil
		}
		return Raw{Origin: string(s.obuf), kind: rawCSV, id: pe.Err.Error()}, nil
	case err != nil:
		return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
	}
	start, _ := s.cr.FieldPos(0)
	end, _ := s.cr.FieldPos(len(fields) - 1)
	s.obuf = appendOrigin(s.obuf[:0], s.origin, start+s.shift)
	runOn := ""
	if s.lim.cut == 0 {
		runOn = checkRow(s.lim.current(s.cr.InputOffset()), fields, byte(s.cr.Comma), start+s.shift)
	}
	if size := s.endRow(end); size > 0 {
		return Raw{Origin: string(s.obuf), kind: rawTooLarge, size: size}, nil
	}
	if runOn != "" {
		return Raw{Origin: string(s.obuf), kind: rawMalformed, note: runOn}, nil
	}
	return Raw{Origin: string(s.obuf), kind: rawCSV, fields: fields, header: s.header}, nil
}

// checkRow finds a row that ran on over the rows after it. The CSV reader
// takes a quote inside a quoted field that is neither doubled nor the
// field's end as it is (a stray quote is common in hand-made files); but
// when a line break follows it, the field goes on to the next quote, and the
// rows between become part of it. A quoted field that is never closed runs
// on to the end of the file. raw is the row as read, starting on line
// first, and fields its fields; checkRow returns what is wrong with the row,
// or "" when no field holds a line break or the row's quotes are well
// formed. The rows the run-on row took in are lost: the message says which
// lines they are.
func checkRow(raw []byte, fields []string, comma byte, first int) string {
	if !slices.ContainsFunc(fields, func(f string) bool { return strings.IndexByte(f, '\n') >= 0 }) {
		return ""
	}
	raw = bytes.TrimLeft(raw, "\r\n") // blank lines before the row
	bad := strayQuote(raw, comma)
	if bad == 0 {
		return ""
	}
	msg := fmt.Sprintf("a quoted field holds a quote that is neither doubled nor its end, or is never closed (seen on line %d)", first+bad-1)
	if last := first + bytes.Count(bytes.TrimRight(raw, "\r\n"), []byte("\n")); last > first {
		msg += fmt.Sprintf(": the row runs on to line %d, and lines %d to %d are not read", last, first, last)
	}
	return msg
}

// strayQuote reads raw, one CSV row, by the strict rules of quoting: a
// field that starts with a quote ends at the next quote that is not
// doubled, and that quote must end the field (a comma, a line end or the
// end of raw after it). It returns the line of raw (from 1) of the first
// quote that breaks the rules, or of the opening quote of a field never
// closed; 0 when every quoted field keeps them. A quote inside a
// field that does not start with one is left alone: such a field ends at
// its line's end whatever its quotes. encoding/csv reads by these rules
// without LazyQuotes, but a reader made for each row (its buffer and
// copies) cost about as much again as reading the row; this check skips a
// string's bytes to its next quote.
func strayQuote(raw []byte, comma byte) int {
	line, start := 1, true
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '\n':
			line++
			start = true
		case c == comma:
			start = true
		case c == '"' && start:
			end, lines, ok := quotedField(raw[i+1:], comma)
			if !ok {
				return line + lines
			}
			i += 1 + end // the closing quote; a comma or line end follows
			line += lines
			start = false
		default:
			start = false
		}
	}
	return 0
}

// quotedField reads the rest of a quoted field, b, from after its opening
// quote. It returns the offset in b of the closing quote and the line
// breaks before it, with ok; or, when the field breaks the rules of
// quoting, the line breaks before the fault (none when the field is never
// closed: it is at the opening quote).
func quotedField(b []byte, comma byte) (end, lines int, ok bool) {
	for i := 0; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return 0, 0, false // never closed: the fault is where it opens
		}
		lines += bytes.Count(b[i:i+q], []byte("\n"))
		i += q
		if i+1 < len(b) && b[i+1] == '"' {
			i += 2 // a doubled quote
			continue
		}
		switch rest := b[i+1:]; {
		case len(rest) == 0, rest[0] == comma, rest[0] == '\n', string(rest) == "\r", bytes.HasPrefix(rest, []byte("\r\n")):
			return i, lines, true
		}
		return 0, lines, false
	}
}

// endRow notes the end of the row read, at line as the CSV reader counts
// lines, and returns the row's size in bytes when it was cut at the limit
// (its fields are then not the row's), else 0.
func (s *csvSource) endRow(line int) int64 {
	size := s.lim.cut
	s.shift += s.lim.lines
	s.lim.cut, s.lim.lines = 0, 0
	s.mark(line)
	return size
}

// mark notes the end of a row at line (as the CSV reader counts lines).
func (s *csvSource) mark(line int) {
	s.line = line + s.shift
	s.lim.startRow(s.cr.InputOffset())
}

func (s *csvSource) readHeader() error {
	names, err := s.cr.Read()
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, errRowTooLong) || err == nil && s.lim.cut > 0:
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
	if f, ok := s.r.missing(seen, true); ok {
		return s.r.fieldError(f, names,
			fmt.Sprintf("%s: no %q column (the %s) in the header (columns: %s)", s.origin, s.want[f], fieldRoles[f], quoteList(names)))
	}
	s.r.noteUnread(s.origin, seen, true, nil)
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
	doc := core.Document{ID: r.idOf(raw.Origin), Origin: raw.Origin}
	h := raw.header
	if h == nil { // encoding/csv rejected the row; raw.id holds why
		return skip(doc, core.SkipMalformed, "", "malformed CSV: "+raw.id)
	}
	if len(raw.fields) != len(h.names) {
		// A row cut short (a truncated last line, a stray separator) is
		// as malformed as one too long: its fields may not be the
		// header's columns.
		return skip(doc, core.SkipMalformed, "", fmt.Sprintf("malformed: %d fields, the header has %d", len(raw.fields), len(h.names)))
	}
	get := func(f field) string {
		if c := h.col[f]; c >= 0 { // every row has the header's fields
			return raw.fields[c]
		}
		return ""
	}
	if id := get(fID); id != "" {
		doc.ID = id
	}
	doc.Title, doc.Text, doc.URL, doc.Source = get(fTitle), get(fText), get(fURL), get(fSource)
	doc.Date = r.date(get(fDate), doc.Origin)
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
