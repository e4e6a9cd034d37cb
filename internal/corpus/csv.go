package corpus

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
)

// csvHeader is a CSV file's header row and where the mapped fields are in
// it. It is immutable once made and shared by the file's rows.
type csvHeader struct {
	names []string
	keys  [][]byte     // the names as JSON strings, for Doc.Raw
	col   [nFields]int // the column of each field; -1 when absent
	sum   uint64       // the hash of names, which Raw.Sum adds to each row's
}

// newCSVHeader maps names to fields (matchColumn): an exact match first,
// else the one ignoring case and surrounding spaces. Two or more of those,
// and no exact match, are an error naming them.
func (r *Reader) newCSVHeader(origin string, names []string) (*csvHeader, error) {
	h := &csvHeader{names: names, keys: encodedKeys(uniqueNames(names)...), sum: sumStrings(names...)}
	for f, w := range r.names {
		i, clash := matchColumn(names, w)
		if clash != nil {
			return nil, fmt.Errorf("%s: %s", origin, clashMessage("columns", clash, w, "", field(f)))
		}
		h.col[f] = i
	}
	return h, nil
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

// csvSource reads the rows of a CSV or TSV file.
type csvSource struct {
	r      *Reader
	rows   *csvRows
	header *csvHeader
	want   [nFields]string
	origin string
	line   int // the last line of the last row read
	obuf   []byte
}

func newCSVSource(r *Reader, rd io.Reader, origin string, comma rune, limit int) *csvSource {
	chunk := 64 << 10
	if r.cfg.bufSize < 4096 {
		chunk = r.cfg.bufSize // a small buffer in tests reaches the limit with small rows
	}
	return &csvSource{r: r, rows: newCSVRows(rd, byte(comma), int64(limit), chunk), want: r.names, origin: origin}
}

func (s *csvSource) close() {}

func (s *csvSource) next() (Raw, error) {
	if s.header == nil {
		if err := s.readHeader(); err != nil {
			return Raw{}, err
		}
	}
	row, err := s.rows.read()
	switch {
	case err == io.EOF:
		return Raw{}, io.EOF
	case errors.Is(err, errRowTooLong):
		return Raw{}, fmt.Errorf("reading %s: the row after line %d is over %d bytes and never ends (an unclosed quote?)", s.origin, s.line, s.rows.max)
	case err != nil:
		return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
	}
	s.line = row.last
	s.obuf = appendOrigin(s.obuf[:0], s.origin, row.first)
	origin := string(s.obuf)
	switch row.kind {
	case rowTooLarge:
		return Raw{Origin: origin, kind: rawTooLarge, size: row.size}, nil
	case rowRunOnLarge:
		return Raw{Origin: origin, kind: rawMalformed, note: fmt.Sprintf("a quoted field holds a quote that is neither doubled nor its end "+
			"(seen on line %d) after the row passed the limit of %d bytes: the row runs on to line %d, and lines %d to %d are not read",
			row.stray, s.rows.max, row.last, row.first, row.last)}, nil
	case rowRunOn:
		fields, ok := lenientFields(row.line, s.rows.comma)
		if ok && len(fields) == len(s.header.names) {
			return Raw{Origin: origin, kind: rawCSV, fields: fields, header: s.header}, nil
		}
		note := runOnNote(row, len(fields), ok, len(s.header.names))
		if !ok && row.stray > 0 {
			// Its quoted field goes on past the line and ends further on:
			// the lines up to there are that field's, not rows. The row is
			// read whole, to the field's end, and skipped, so that no row
			// is made of a text's middle. (A field never closed is no
			// field's end: reading goes on at the next line.)
			s.rows.readWhole()
			whole, err := s.rows.read()
			if err != nil {
				return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
			}
			s.line = whole.last
			if whole.kind == rowRunOn { // the field is never closed: no end to read to
				return Raw{Origin: origin, kind: rawMalformed, note: runOnNote(whole, 0, false, len(s.header.names))}, nil
			}
			note = runOnCause(row) + fmt.Sprintf("; read alone, the line ends inside a quoted field; read to that field's end, "+
				"lines %d to %d are not read", row.first, whole.last)
		}
		return Raw{Origin: origin, kind: rawMalformed, note: note}, nil
	}
	return Raw{Origin: origin, kind: rawCSV, fields: row.fields, header: s.header}, nil
}

// runOnNote says why a row that ran on is skipped: read alone, its first
// line has n fields, not the header's want, or a quoted field not closed
// on it (ok false), and the line reading goes on at, unless the row was
// the input's last.
func runOnNote(row *csvRow, n int, ok bool, want int) string {
	msg := runOnCause(row) + "; "
	if ok {
		msg += fmt.Sprintf("read alone, the line has %d fields, the header has %d", n, want)
	} else {
		msg += "read alone, the line ends inside a quoted field"
	}
	if row.atEnd { // no line is left to read
		return msg
	}
	return msg + fmt.Sprintf("; reading goes on at line %d", row.first+1)
}

// runOnCause says why row ran on past its first line.
func runOnCause(row *csvRow) string {
	if row.stray > 0 {
		return fmt.Sprintf("a quoted field holds a quote that is neither doubled nor its end (seen on line %d), so the row runs on past line %d", row.stray, row.first)
	}
	return fmt.Sprintf("a quoted field opened on line %d is never closed", row.open)
}

func (s *csvSource) readHeader() error {
	row, err := s.rows.read()
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, errRowTooLong) || err == nil && (row.kind == rowTooLarge || row.kind == rowRunOnLarge):
		return fmt.Errorf("reading %s: the header row is over %d bytes", s.origin, s.rows.max)
	case err != nil:
		return fmt.Errorf("reading %s: header: %w", s.origin, err)
	}
	names := row.fields
	if row.kind == rowRunOn {
		var ok bool
		if names, ok = lenientFields(row.line, s.rows.comma); !ok {
			return fmt.Errorf("reading %s: header: %s, and read alone, line %d ends inside a quoted field", s.origin, runOnCause(row), row.first)
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	s.r.seen.add(seen)
	if f, ok := s.r.missing(seen, true); ok {
		fe := s.r.fieldError(f, names,
			fmt.Sprintf("%s: no %q column (the %s) in the header (columns: %s)", s.origin, s.want[f], fieldRoles[f], quoteList(names)))
		if fe.Likely() == "" && looksLikeRow(names) {
			fe.noHeader = true
			fe.msg = fmt.Sprintf("%s: no %q column (the %s): the first line, read as the header, looks like a row of data "+
				"(fields: %s)", s.origin, s.want[f], fieldRoles[f], quoteList(abbreviated(names)))
		}
		return fe
	}
	h, err := s.r.newCSVHeader(s.origin, names)
	if err != nil {
		return err
	}
	s.r.noteUnread(s.origin, seen, true, nil)
	s.line = row.last
	s.header = h
	s.rows.want = len(names)
	return nil
}

// looksLikeRow reports whether names, a CSV file's first line, looks like
// a row of data rather than a header: a field holds more than five words
// (a text), or at least half its fields not empty hold no letter (numbers,
// dates), a year of four digits not counted, as a header names year
// columns (country,2019,2020,summary).
func looksLikeRow(names []string) bool {
	data, filled := 0, 0
	for _, n := range names {
		n = strings.TrimSpace(n)
		if len(strings.Fields(n)) > 5 {
			return true
		}
		if n == "" {
			continue
		}
		filled++
		if !strings.ContainsFunc(n, unicode.IsLetter) && !isYear(n) {
			data++
		}
	}
	return data > 0 && 2*data >= filled
}

// isYear reports whether n is a year of four digits (1000 to 2999).
func isYear(n string) bool {
	if len(n) != 4 || (n[0] != '1' && n[0] != '2') {
		return false
	}
	return strings.Trim(n, "0123456789") == ""
}

// abbreviated returns names with each over 40 bytes cut to its first
// words and "…".
func abbreviated(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if len(n) > 40 {
			cut := strings.LastIndexByte(n[:40], ' ')
			if cut <= 0 {
				cut = 40
				for cut > 0 && !utf8.RuneStart(n[cut]) {
					cut--
				}
			}
			n = n[:cut] + "…"
		}
		out[i] = n
	}
	return out
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
	// The fields are cut from one string of the whole row: those a run
	// keeps past the record (the document table's id, title, URL and
	// source) are copied, so that they do not keep the row's text alive,
	// about a whole row a document (the text is dropped once sketched).
	if id := get(fID); id != "" {
		doc.ID = strings.Clone(id)
	}
	doc.Title, doc.Text, doc.URL, doc.Source = strings.Clone(get(fTitle)), get(fText), strings.Clone(get(fURL)), strings.Clone(get(fSource))
	var unread string
	doc.Date, unread = r.date(get(fDate), doc.Origin, raw.seq)
	rec := r.finish(doc)
	rec.UnreadDate = unread
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
