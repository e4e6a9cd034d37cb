package corpus

import (
	"bytes"
	"errors"
	"io"
)

// errRowTooLong stops reading a CSV row over the size limit that never ends.
var errRowTooLong = errors.New("corpus: CSV row too long")

// rowKind says what csvRows.read found.
type rowKind uint8

const (
	rowFields   rowKind = iota // fields are the row's
	rowTooLarge                // the row is over the limit; size says how large
	// rowRunOn: a quoted field holds a quote that is neither doubled nor
	// its end (or is never closed) and goes on past its line, so the row
	// would take in the rows below. line is the row's first line, to be
	// read again alone; reading goes on at the line after it.
	rowRunOn
	// rowRunOnLarge: as rowRunOn, but seen after the row passed the limit,
	// when its lines are no longer held: the row is read to its end and
	// not kept.
	rowRunOnLarge
)

// csvRow is one row of a CSV file as csvRows.read finds it. Its slices
// are valid until the next read.
type csvRow struct {
	kind   rowKind
	fields []string // rowFields: the fields, owned by the caller
	line   []byte   // rowRunOn: the first line, without its line end
	first  int      // the line the row starts on (from 1)
	last   int      // the line it ends on
	stray  int      // the line of the quote that ran it on; 0: a field never closed
	open   int      // the line its last quoted field opens on
	size   int64    // its bytes, without the line end after it
	atEnd  bool     // rowRunOn: no line follows its first line but blank ones
}

// csvRows cuts a CSV or TSV stream into rows by RFC 4180, as spreadsheets
// write it, with the leniency of hand-made files:
//
//   - A line ends at LF, CRLF or a lone CR (old Mac files); a line holding
//     nothing is skipped. A quoted field keeps its line ends as they are.
//   - A quote in a field that does not start with one is a quote.
//   - A quote in a quoted field that is neither doubled nor followed by a
//     separator or a line end is kept as it is ("a " b" reads a " b).
//     But when the field then goes on past its line end, the quote more
//     likely closed the field (a text that opens with a quotation,
//     "We will win," he said): the row is returned as rowRunOn and only
//     its first line is taken, to be read again by lenientFields, so that
//     the rows below are read as rows.
//
// A row is held in memory up to max bytes; past them it is read to its end
// (its quotes counted as above) and returned as rowTooLarge. A row past the
// limit whose quoted field never closes fails with errRowTooLong.
//
// With plain set (a TSV file) a quote opens a quoted field only when the
// field is well-formed (wellQuoted): every quote inside it doubled and its
// closing quote followed by a tab or a line end, within 64 KiB, as
// Python's csv module, pandas and spreadsheets write a field that holds a
// quote, a tab or a line end. Any other field is read as it is written,
// up to the next separator or line end, as the text/tab-separated-values
// format writes it.
type csvRows struct {
	rd    io.Reader
	in    []byte // read and not yet cut: in[pos:]
	pos   int
	rerr  error // the error that ended rd; io.EOF at its end
	chunk int   // bytes one Read asks for

	comma byte
	plain bool  // a TSV file: only a well-formed quoted field is quoted
	max   int64 // bytes a row may hold in memory
	line  int   // the line of in[pos] (from 1)

	// The row being read.
	raw      []byte // its bytes up to max: the first line, and the rest to read again
	buf      []byte // its fields' bytes, one after another
	ends     []int  // the end of each field in buf
	size     int64  // its bytes
	over     bool   // size passed max: raw and buf are not whole
	firstLen int64  // the length of its first line, once past it; -1 before
	restAt   int64  // where its second line starts
	eol      bool   // a line end ended it
	// runOnLarge: a quoted field ran on after the row passed the limit.
	runOnLarge bool
	crossed    bool // the quoted field being read went past a line end
	strayed    bool // it holds a quote that is neither doubled nor its end
	row        csvRow
	// whole: the row being read is not cut after its first line however
	// its quoted fields run on (see readWhole); runOnFirst is the first
	// line, with its line end, of the row last returned as rowRunOn.
	whole      bool
	runOnFirst []byte
	// want is the header's count of fields, once read. A TSV row read
	// with a quoted field and not of want fields is read again with its
	// quotes as written (literal set), when its first line so read has
	// want fields: a text opening with a quote that another field's
	// closing quote seems to close, a tab or lines later (MSRP's
	// "Of course, ... anxious.), is not one field.
	want      int
	literal   bool
	sawQuoted bool // the TSV row being read holds a quoted field
}

func newCSVRows(rd io.Reader, comma byte, max int64, chunk int) *csvRows {
	return &csvRows{rd: rd, comma: comma, max: max, chunk: chunk, line: 1}
}

// fill makes in[pos] readable; it reports false at the end of the input.
func (c *csvRows) fill() bool {
	for c.pos == len(c.in) {
		if c.rerr != nil {
			return false
		}
		if cap(c.in) < c.chunk {
			c.in = make([]byte, 0, c.chunk)
		}
		n, err := c.rd.Read(c.in[:c.chunk])
		c.in, c.pos = c.in[:n], 0
		c.rerr = err
	}
	return true
}

// unread puts b back in front of the input, with the line it starts on.
func (c *csvRows) unread(b []byte, line int) {
	if len(b) > 0 {
		c.in = append(append(make([]byte, 0, len(b)+len(c.in)-c.pos), b...), c.in[c.pos:]...)
		c.pos = 0
	}
	c.line = line
}

// err returns the read error that ended the input, nil at its end.
func (c *csvRows) err() error {
	if c.rerr == io.EOF {
		return nil
	}
	return c.rerr
}

// take adds b, bytes of the row, to raw, and to the field being read when
// field is set.
func (c *csvRows) take(b []byte, field bool) {
	c.size += int64(len(b))
	if c.over {
		return
	}
	if c.size > c.max {
		c.over = true
		return
	}
	c.raw = append(c.raw, b...)
	if field {
		c.buf = append(c.buf, b...)
	}
}

// lineEnd reads the line end at in[pos] (LF, CR or CRLF) and returns it.
func (c *csvRows) lineEnd() []byte {
	c.line++
	if c.in[c.pos] == '\n' {
		c.pos++
		return lf
	}
	c.pos++
	if c.fill() && c.in[c.pos] == '\n' {
		c.pos++
		return crlf
	}
	return cr
}

var (
	lf    = []byte("\n")
	crlf  = []byte("\r\n")
	cr    = []byte("\r")
	quote = []byte(`"`)
)

// skipBlank skips lines that hold nothing; it reports false at the end
// of the input.
func (c *csvRows) skipBlank() bool {
	for c.fill() {
		if b := c.in[c.pos]; b != '\n' && b != '\r' {
			return true
		}
		c.lineEnd()
	}
	return false
}

// read returns the next row: io.EOF at the end of the input,
// errRowTooLong for a row past the limit that never ends, or the error
// of the underlying reader.
func (c *csvRows) read() (*csvRow, error) {
	if !c.skipBlank() {
		if err := c.err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	c.raw, c.buf, c.ends = c.raw[:0], c.buf[:0], c.ends[:0]
	c.size, c.over, c.firstLen, c.restAt, c.eol, c.runOnLarge = 0, false, -1, 0, false, false
	c.row = csvRow{first: c.line}
	c.sawQuoted = false
	literal := c.literal
	defer func() { c.whole, c.literal = false, false }()
	for {
		var quoted bool
		if c.fill() && c.in[c.pos] == '"' && (!c.plain || !literal && c.wellQuoted()) {
			c.pos++
			c.take(quote, false)
			quoted = true
			c.row.open = c.line
		}
		var more bool
		var err error
		if quoted {
			c.sawQuoted = c.plain
			more, err = c.quoted()
		} else {
			more = c.unquoted()
		}
		if err != nil {
			return nil, err
		}
		if c.row.kind == rowRunOn {
			return c.runOn()
		}
		c.ends = append(c.ends, len(c.buf))
		if !more {
			break
		}
	}
	if err := c.err(); err != nil && c.pos == len(c.in) {
		return nil, err
	}
	if c.sawQuoted && c.want > 0 && len(c.ends) != c.want && !c.over {
		first := c.raw
		if c.firstLen >= 0 {
			first = c.raw[:c.firstLen]
		}
		if 1+bytes.Count(first, []byte{c.comma}) == c.want {
			c.unread(append(append([]byte(nil), c.raw...), '\n'), c.row.first)
			c.literal = true
			return c.read()
		}
	}
	return c.end()
}

// tsvQuoteLook is how far past its opening quote wellQuoted looks for the
// end of a TSV field in quotes: 64 KiB.
const tsvQuoteLook = 64 << 10

// wellQuoted reports whether the TSV field at in[pos], which opens with a
// quote, is a well-formed quoted field, as Python's csv module and pandas
// write one that holds a quote, a tab or a line end: every quote inside
// it doubled and its closing quote followed by a tab, a line end or the
// end of the input, lines later or not, within tsvQuoteLook bytes. Any
// other field that opens with a quote is read as it is written ("the
// witness", of ...). It reads ahead without taking the bytes.
func (c *csvRows) wellQuoted() bool {
	for k := 1; k <= tsvQuoteLook; k++ { // in[pos+k], as readMore may move in
		for c.pos+k+1 >= len(c.in) { // in[pos+k] and the byte after it are wanted
			if !c.readMore() {
				break
			}
		}
		i := c.pos + k
		switch {
		case i >= len(c.in): // never closed
			return false
		case c.in[i] != '"':
		case i+1 == len(c.in): // a closing quote at the end of the input
			return true
		case c.in[i+1] == '"':
			k++
		default:
			b := c.in[i+1]
			return b == '\t' || b == '\n' || b == '\r'
		}
	}
	return false
}

// readMore reads on after the end of in, keeping in[pos:]; it reports
// false at the end of the input.
func (c *csvRows) readMore() bool {
	if c.rerr != nil {
		return false
	}
	n := len(c.in) - c.pos
	if cap(c.in)-len(c.in) < c.chunk {
		b := make([]byte, n, 2*n+c.chunk)
		copy(b, c.in[c.pos:])
		c.in, c.pos = b, 0
	}
	got, err := c.rd.Read(c.in[len(c.in) : len(c.in)+c.chunk])
	c.in = c.in[:len(c.in)+got]
	c.rerr = err
	return true
}

// unquoted reads a field that does not start with a quote, and the
// separator or line end after it; it reports whether a field follows.
func (c *csvRows) unquoted() bool {
	for c.fill() {
		in := c.in[c.pos:]
		i := 0
		for i < len(in) && in[i] != c.comma && in[i] != '\n' && in[i] != '\r' {
			i++
		}
		c.take(in[:i], true)
		c.pos += i
		if i < len(in) {
			return c.fieldEnd()
		}
	}
	return false
}

// fieldEnd reads the separator or line end at in[pos] that ends a field
// and reports whether a field follows.
func (c *csvRows) fieldEnd() bool {
	if c.in[c.pos] == c.comma {
		c.take(c.in[c.pos:c.pos+1], false)
		c.pos++
		return true
	}
	c.lineEnd()
	c.eol = true
	return false
}

// quoted reads a quoted field from after its opening quote, and the
// separator or line end after it; it reports whether a field follows. It
// sets row.kind to rowRunOn when the field runs on.
func (c *csvRows) quoted() (bool, error) {
	c.crossed, c.strayed = false, false
	for c.row.kind != rowRunOn {
		if !c.fill() {
			return false, c.unclosed()
		}
		in := c.in[c.pos:]
		i := 0
		for i < len(in) && in[i] != '"' && in[i] != '\n' && in[i] != '\r' {
			i++
		}
		c.take(in[:i], true)
		c.pos += i
		switch {
		case i == len(in):
		case in[i] != '"':
			c.crossLine()
		default:
			c.pos++
			c.take(quote, false)
			switch {
			case !c.fill():
				return false, nil
			case c.in[c.pos] == '"':
				c.pos++
				c.take(quote, true)
			case c.in[c.pos] == c.comma || c.in[c.pos] == '\n' || c.in[c.pos] == '\r':
				return c.fieldEnd(), nil
			default:
				c.strayQuote()
			}
		}
	}
	return false, nil
}

// crossLine reads a line end inside a quoted field. The field runs on when
// it holds a stray quote.
func (c *csvRows) crossLine() {
	at := c.size
	c.take(c.lineEnd(), true)
	first := c.firstLen < 0
	if first {
		c.firstLen, c.restAt = at, c.size
	}
	c.crossed = true
	if c.strayed {
		c.ranOn(first)
	}
}

// strayQuote notes a quote in a quoted field that is neither doubled nor
// the field's end: it is kept, and the field runs on when it has gone past
// a line end.
func (c *csvRows) strayQuote() {
	if !c.over {
		c.buf = append(c.buf, '"')
	}
	if !c.strayed && !c.runOnLarge {
		c.row.stray = c.line
	}
	c.strayed = true
	if c.crossed {
		c.ranOn(false)
	}
}

// ranOn notes that the field being read runs on: the row is cut after its
// first line when the bytes after that line are held (all are while the
// row is within the limit; none were read when the line has just ended),
// else it is read to its end and refused whole.
func (c *csvRows) ranOn(lineEnded bool) {
	if c.whole {
		return
	}
	if c.over && !lineEnded {
		c.runOnLarge = true
		return
	}
	c.row.kind = rowRunOn
}

// unclosed ends a quoted field at the end of the input: the row runs on,
// whether or not a line end came before the end (a last line cut short),
// its first line to be read alone, also when it is read whole (readWhole):
// a field never closed has no end to read to. Past the limit, it never
// ends; read whole, it is read to the end of the input.
func (c *csvRows) unclosed() error {
	if err := c.err(); err != nil {
		return err
	}
	switch {
	case c.over && c.whole:
		return nil
	case c.over:
		return errRowTooLong
	}
	if c.firstLen < 0 { // the row is its first line, with no line end
		c.firstLen, c.restAt = c.size, c.size
	}
	c.row.kind, c.row.stray = rowRunOn, 0
	return nil
}

// runOn returns a row that ran on: its first line, to be read alone, when
// it is held; and puts back the bytes read after it.
func (c *csvRows) runOn() (*csvRow, error) {
	c.row.last = c.row.first
	if c.firstLen > c.max {
		// Only a first line over the limit passes it before the row is
		// seen to run on: nothing after the line was read.
		c.row.kind, c.row.size = rowTooLarge, c.firstLen
		c.line = c.row.first + 1
		return &c.row, nil
	}
	c.row.line = c.raw[:c.firstLen]
	c.runOnFirst = c.raw[:c.restAt]
	var rest []byte
	if !c.over { // else nothing was read after the line
		rest = c.raw[c.restAt:]
	}
	c.unread(rest, c.row.first+1)
	c.row.atEnd = !c.skipBlank()
	return &c.row, nil
}

// readWhole puts back the first line of the row last returned as
// rowRunOn, which read alone is no row, so that the next read takes that
// row whole: to the end of its quoted field as a quote in a quoted field
// is read when the row does not run on, its stray quotes kept. The lines
// of such a row are then one record, not rows made of a text's middle.
// When the field is never closed, the next read returns the row as
// rowRunOn again, its stray 0, and reading goes on at its second line.
func (c *csvRows) readWhole() {
	c.unread(c.runOnFirst, c.line-1)
	c.whole = true
}

// end returns the row read whole.
func (c *csvRows) end() (*csvRow, error) {
	c.row.size = c.size
	c.row.last = c.line
	if c.eol {
		c.row.last--
	}
	switch {
	case c.runOnLarge:
		c.row.kind = rowRunOnLarge
	case c.over:
		c.row.kind = rowTooLarge
	default:
		c.row.kind = rowFields
		s := string(c.buf)
		fields := make([]string, len(c.ends))
		start := 0
		for i, e := range c.ends {
			fields[i] = s[start:e]
			start = e
		}
		c.row.fields = fields
	}
	return &c.row, nil
}

// lenientFields cuts line, one line without its line end, into fields the
// way Python's csv module reads a quote that closes a quoted field without
// ending it: the field is the quoted part and what follows it up to the
// next separator. Such a field is kept as it is written, quotes and all
// ("We will win," he said); a quoted field that a separator or the line's
// end follows reads as usual. ok is false when a quoted field is not
// closed on the line.
func lenientFields(line []byte, comma byte) (fields []string, ok bool) {
	for {
		var f []byte
		var n int
		if len(line) > 0 && line[0] == '"' {
			if f, n, ok = lenientQuoted(line, comma); !ok {
				return nil, false
			}
		} else {
			n = indexOr(line, comma, len(line))
			f = line[:n]
		}
		fields = append(fields, string(f))
		if n == len(line) {
			return fields, true
		}
		line = line[n+1:] // after the separator
	}
}

// lenientQuoted reads the field at the start of line, which opens with a
// quote, for lenientFields. It returns the field, its length in line (a
// separator or the line's end follows it) and whether it is closed.
func lenientQuoted(line []byte, comma byte) (field []byte, n int, ok bool) {
	var f []byte
	from := 1 // the start of the quoted part not yet in f
	for i := 1; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		switch {
		case i+1 < len(line) && line[i+1] == '"': // a doubled quote
			f = append(f, line[from:i+1]...)
			i++
			from = i + 1
		case i+1 == len(line) || line[i+1] == comma:
			return append(f, line[from:i]...), i + 1, true
		default: // the field goes on, as written, to the next separator
			n := i + 1 + indexOr(line[i+1:], comma, len(line)-i-1)
			return line[:n], n, true
		}
	}
	return nil, 0, false
}

// indexOr returns the index of the first c in b, or def when b holds none.
func indexOr(b []byte, c byte, def int) int {
	if i := bytes.IndexByte(b, c); i >= 0 {
		return i
	}
	return def
}

// firstLine returns b up to its first line end, a CSV file's header line:
// LF, CRLF or a lone CR; ok is false when b holds none.
func firstLine(b []byte) (line []byte, ok bool) {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return b[:i], true
	}
	return b, false
}
