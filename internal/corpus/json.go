package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"golang.org/x/text/transform"

	"github.com/neardup/neardup/internal/container"
)

// jsonSource reads a JSON file (.json): JSON values one after another,
// each an object (one record) or an array whose elements are records, in
// any layout: one object pretty-printed over many lines (a crawler's file
// per article), an array of them, or JSON Lines named .json. A record's
// object, compacted onto one line when it spans lines, is its Raw as a
// JSONL line is, so that kept.jsonl stays JSON Lines. Its origin is the line it starts on. No
// record over limit bytes is held in memory.
//
// A file whose start shows JSON Lines (see oneALine) has a damaged line
// cut off at its end: a value that is still open where the next line
// starts another object at its first column, or whose string runs into a
// line break, is one malformed record, and reading goes on at the next
// line, as a .jsonl file's reader does. Any other value runs on until
// its brackets close; one the file ends inside says how many lines it
// took with it.
type jsonSource struct {
	br        *bufio.Reader
	origin    string
	limit     int
	line      int  // the line being read, from 1
	inArray   bool // within a top-level array
	arrayLine int  // the line the top-level array starts on
	started   bool // the layout is known
	lines     bool // the file holds JSON Lines, by its start
	// ready is container.Member.Ready of a stream that may pause: the
	// look at its start takes what has arrived.
	ready     func() bool
	buf       []byte
	obuf      []byte
	lastStart int // the line the last value read started on
	onLine    int // how many values read so far started on lastStart
}

// jsonUTF8 returns br, or, for a JSON or JSON Lines stream that starts
// with a UTF-16 byte-order mark (as Windows Notepad and PowerShell save
// text), a reader of it converted to UTF-8, without the mark, buffered
// as br is.
func jsonUTF8(br *bufio.Reader) *bufio.Reader {
	head, _ := br.Peek(2)
	e, _ := byteOrderMark(head)
	if e == nil {
		return br
	}
	return bufio.NewReaderSize(transform.NewReader(br, e.NewDecoder()), br.Size())
}

func newJSONSource(br *bufio.Reader, origin string, limit int) *jsonSource {
	return &jsonSource{br: br, origin: origin, limit: limit, line: 1}
}

func (s *jsonSource) close() {}

func (s *jsonSource) readErr(err error) error {
	return fmt.Errorf("reading %s: %w at line %d", s.origin, err, s.line)
}

func (s *jsonSource) next() (Raw, error) {
	if !s.started {
		s.started, s.lines = true, s.oneALine()
	}
	for {
		c, err := s.skipSpace()
		if err == io.EOF {
			if s.inArray { // after a whole element: the array is the record cut
				s.inArray = false
				// The array's own line, not a record's that starts on it.
				s.obuf = appendOrigin(s.obuf[:0], s.origin, s.arrayLine)
				return Raw{Origin: string(s.obuf), kind: rawMalformed, note: "the file ends inside an array (no closing ])"}, nil
			}
			return Raw{}, io.EOF
		}
		if err != nil {
			return Raw{}, s.readErr(err)
		}
		switch {
		case s.inArray && c == ']':
			s.inArray = false
			continue
		case s.inArray && c == ',':
			continue
		case !s.inArray && c == '[':
			s.inArray, s.arrayLine = true, s.line
			continue
		}
		return s.value(c)
	}
}

// oneALine reports whether the file, by its start, holds JSON Lines, as
// Sniff tells a stream without a name: it starts with an object that ends
// on its first line, or with a first line broken rather than carried on
// by the lines after (see spansLines).
func (s *jsonSource) oneALine() bool {
	head, _ := container.PeekArrived(s.br, min(sniffLen, s.br.Size()), s.ready)
	t := bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	return len(t) > 0 && t[0] == '{' && !spansLines(t)
}

// skipSpace returns the next byte that is not JSON whitespace.
func (s *jsonSource) skipSpace() (byte, error) {
	for {
		c, err := s.br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		case utf8BOM[0]: // a byte-order mark: files joined with cat
			if next, _ := s.br.Peek(2); !bytes.Equal(next, utf8BOM[1:]) {
				return c, nil
			}
			s.br.Discard(2)
		default:
			return c, nil
		}
	}
}

// value reads the rest of the JSON value that starts with c and returns
// it as a record: an object compacted, anything else as read, for Decode
// to refuse as not an object.
func (s *jsonSource) value(c byte) (Raw, error) {
	start := s.line
	s.buf = s.buf[:0]
	n := 0 // bytes of the value, kept or not
	keep := func(b byte) {
		if n++; n <= s.limit {
			s.buf = append(s.buf, b)
		}
	}
	keep(c)
	depth, inString, escaped := 0, c == '"', false
	switch c {
	case '{', '[':
		depth = 1
	case '"':
	default: // a number or literal ends before a delimiter
		for {
			b, err := s.br.ReadByte()
			if err == io.EOF {
				break
			}
			if err != nil {
				return Raw{}, s.readErr(err)
			}
			if isJSONDelimiter(b) {
				s.br.UnreadByte()
				break
			}
			keep(b)
		}
		return s.record(start, n), nil
	}
	// The rest is scanned a buffered chunk at a time.
	cuts := s.lines && !s.inArray // a line break may end a damaged value
	lineStart, lastNL := false, false
	for depth > 0 || inString {
		chunk, err := s.br.Peek(max(1, s.br.Buffered()))
		if len(chunk) == 0 {
			if err == io.EOF {
				// The one record cut: an array it is in ends with it,
				// not told again.
				s.inArray = false
				end := s.line
				if lastNL {
					end--
				}
				return s.malformed(start, "the file ends inside a JSON value"+linesLost(start, end)), nil
			}
			return Raw{}, s.readErr(err)
		}
		i, cut := 0, ""
	scan:
		for ; i < len(chunk) && (depth > 0 || inString); i++ {
			if lineStart {
				lineStart = false
				// Only where a member of the record would start: an object
				// in an array of the record begins a line when it is
				// pretty-printed without indent (Python's indent=0).
				if chunk[i] == '{' && depth == 1 && !inString {
					cut = "the next line starts an object before this value ends (a missing } or ], or a stray quote)"
					break scan
				}
			}
			if inString && !escaped {
				// A string's bytes up to a quote, backslash or line break
				// change nothing: skipped at once.
				j := stringSpecial(chunk[i:])
				if j < 0 {
					i = len(chunk)
					break
				}
				i += j
			}
			switch b := chunk[i]; {
			case b == '\n':
				s.line++
				if cuts && inString {
					i++
					cut = "a line break inside a string (a missing or stray quote)"
					break scan
				}
				lineStart = cuts
			case escaped:
				escaped = false
			case inString:
				if b == '\\' {
					escaped = true
				} else if b == '"' {
					inString = false
				}
			case b == '"':
				inString = true
			case b == '{' || b == '[':
				depth++
			case b == '}' || b == ']':
				depth--
			}
		}
		if room := s.limit - n; room > 0 {
			s.buf = append(s.buf, chunk[:min(i, room)]...)
		}
		n += i
		s.br.Discard(i)
		if cut != "" {
			return s.malformed(start, cut+linesLost(start, s.line-1)), nil
		}
		lastNL = i > 0 && chunk[i-1] == '\n'
	}
	return s.record(start, n), nil
}

// linesLost says which lines a malformed value from line start to line
// end took with it, when it spans more than one.
func linesLost(start, end int) string {
	if end <= start {
		return ""
	}
	return fmt.Sprintf(": lines %d to %d (%d lines) are not read", start, end, end-start+1)
}

// record returns the value read into buf, n bytes long, that started on
// line start.
func (s *jsonSource) record(start, n int) Raw {
	origin := s.originOf(start)
	if n > s.limit {
		return Raw{Origin: origin, kind: rawTooLarge, size: int64(n)}
	}
	if bytes.ContainsAny(s.buf, "\r\n") { // a value over lines goes onto one
		return Raw{Origin: origin, kind: rawJSON, data: compactJSON(make([]byte, 0, len(s.buf)), s.buf)}
	}
	return Raw{Origin: origin, kind: rawJSON, data: bytes.Clone(s.buf)}
}

// stringSpecial returns the index in b, the inside of a JSON string, of
// the first quote, backslash or line break, or -1.
func stringSpecial(b []byte) int {
	q := bytes.IndexByte(b, '"')
	seg := b
	if q >= 0 {
		seg = b[:q]
	}
	e := bytes.IndexByte(seg, '\\')
	if e >= 0 {
		seg = seg[:e]
	}
	if n := bytes.IndexByte(seg, '\n'); n >= 0 {
		return n
	}
	if e >= 0 {
		return e
	}
	return q
}

// quoteOrBackslash returns the index of the first quote or backslash in
// b, or -1: two searches of one byte, each far faster than bytes.IndexAny.
func quoteOrBackslash(b []byte) int {
	q := bytes.IndexByte(b, '"')
	seg := b
	if q >= 0 {
		seg = b[:q]
	}
	if e := bytes.IndexByte(seg, '\\'); e >= 0 {
		return e
	}
	return q
}

// compactJSON appends src, a JSON value, to dst without the white space
// outside its strings, as json.Compact does, and returns the result. It
// does not check src: Decode does, and reports the value malformed, with
// the offset of the fault in the compacted bytes. Copying a string's bytes
// a run at a time, it is several times faster than json.Compact, which
// took half of the reading goroutine's time on a pretty-printed array.
func compactJSON(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case ' ', '\t', '\r', '\n':
			i++
		case '"':
			j := i + 1 // the string runs to its closing quote
			for j < len(src) {
				k := quoteOrBackslash(src[j:])
				if k < 0 {
					j = len(src)
					break
				}
				j += k + 1
				if src[j-1] == '"' {
					break
				}
				j++ // the byte after a backslash is never a closing quote
			}
			j = min(j, len(src))
			dst = append(dst, src[i:j]...)
			i = j
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// malformed returns a record that says what is wrong at line start.
func (s *jsonSource) malformed(start int, msg string) Raw {
	return Raw{Origin: s.originOf(start), kind: rawMalformed, note: msg}
}

// originOf returns the origin of the next value read, which started on
// line start: "a.json:3", or for the k-th value from the second on that
// starts on one line (an array written on one line, as json.dump writes
// one), "a.json:3#k", so that each has an origin, and an id, of its own.
func (s *jsonSource) originOf(start int) string {
	if start != s.lastStart {
		s.lastStart, s.onLine = start, 0
	}
	s.onLine++
	s.obuf = appendOrigin(s.obuf[:0], s.origin, start)
	if s.onLine > 1 {
		s.obuf = append(s.obuf, '#')
		s.obuf = strconv.AppendInt(s.obuf, int64(s.onLine), 10)
	}
	return string(s.obuf)
}

// isJSONDelimiter reports whether b ends a JSON number or literal.
func isJSONDelimiter(b byte) bool {
	switch b {
	case ' ', '\t', '\r', '\n', ',', ']', '}', '[', '{', '"':
		return true
	}
	return false
}

// buffered reports whether bytes of the stream are held in the buffer:
// the next value, or the start of it.
func (s *jsonSource) buffered() bool { return s.br.Buffered() > 0 }
