package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// DamageError reports a damaged stretch of a stream, and that the reader
// has scanned past it: a malformed record (Record set: its header not a
// header, or its block followed by bytes that start no record, as a block
// shorter than its Content-Length says is), or bytes where a record should
// start that start none, after a record that ended well. The stretch runs
// from Offset to the next record found, at Next, or to the end of the
// stream (End). The next
// record is the first line after the damage that begins one: "WARC/" and
// a version of digits ("WARC/1.0", "WARC/1.1", "WARC/0.18") alone on a
// line, then a header whose lines are fields, that ends in a blank line
// within MaxHeaderBytes and gives a Content-Length. The scan holds one
// line at a time, and none longer than MaxHeaderBytes.
//
// A stretch can hold a record whose version line is damaged, and a block
// can hold a line that reads as a record's start (a page about WARC files
// quoting one): the scan cannot tell. A record whose Content-Length is too
// large takes in what follows it up to that length, records too, before
// any damage shows; a block held is cut where the next record starts in
// it (cutAtRecord), and no damage is told.
type DamageError struct {
	// Records counts the records found before the damage (see
	// Record.Number).
	Records int
	// Record is the malformed record the damage starts with, numbered
	// Records+1, its block nil and its Header nil unless read whole; nil
	// when the damage starts with no version line.
	Record *Record
	// Offset is where the damage starts in the uncompressed stream, and
	// Next where the record after it starts, or where the stream ends.
	Offset, Next int64
	// End is set when no record follows the damage.
	End bool
	// Err says what is wrong: an ErrFormat.
	Err error
}

// Error says what is wrong, and which bytes the reader skipped.
func (e *DamageError) Error() string {
	if e.End {
		return fmt.Sprintf("%v (%d bytes from offset %d skipped, to the end of the stream: no record follows)",
			e.Err, e.Next-e.Offset, e.Offset)
	}
	return fmt.Sprintf("%v (%d bytes from offset %d skipped, up to the next record at offset %d)",
		e.Err, e.Next-e.Offset, e.Offset, e.Next)
}

// Unwrap returns what is wrong, an ErrFormat.
func (e *DamageError) Unwrap() error { return e.Err }

// lookAhead is how far past a block the reader looks for the end of its
// record.
const lookAhead = 64

// blockEnd checks that a record's block, just read, ends where the record
// does: the next bytes are line ends, then a record or the stream's end;
// or a line end or more (the "\r\n\r\n" that ends a record, or less)
// and anything, which the next call tells as junk if it starts no record,
// unless the block holds the start of another record (see cutAtRecord: a
// Content-Length too large whose block happens to end before a line end).
// A block followed straight by bytes that start no record is not
// the length its Content-Length says (or bytes were lost or added after
// it): the record is damaged, and the reader scans on from there. Nothing
// is read; an error of the stream is met again by the next read.
func (r *Reader) blockEnd(rec *Record, length int64) error {
	b, _ := r.br.Peek(lookAhead)
	rest := bytes.TrimLeft(b, "\r\n")
	if len(rest) == 0 || bytes.HasPrefix(rest, []byte("WARC/")) {
		return nil
	}
	lineEnd := bytes.Count(b[:len(b)-len(rest)], []byte("\n")) >= 1
	switch at := r.cutAtRecord(rec); {
	case at == len(rec.Block) && lineEnd:
		return nil
	case at == len(rec.Block):
	case at >= 0:
		rec.Block, rec.TooLarge = nil, false
		return r.damage(&DamageError{Record: rec, Offset: rec.Offset, Err: r.errorf("the block of %d bytes its Content-Length "+
			"declares holds another record's start after %d bytes, where no record ends: the record is damaged", length, at)})
	default:
		return nil
	}
	rec.Block, rec.TooLarge = nil, false
	return r.damage(&DamageError{Record: rec, Offset: rec.Offset, Err: r.errorf("the block of %d bytes its Content-Length declares "+
		"is followed by bytes that start no record: the length is wrong, or the record damaged", length)})
}

// cutAtRecord mends a record whose Content-Length is too large, its block
// held: the block took in the start of the next record. When the block
// holds, at its start or after a line end, a version line followed by
// header lines (to the block's end, or to a blank line after a
// Content-Length: the next record's start), or ends in the start of a
// version line that the bytes after the block go on as a record's start
// ("WAR" in the block, "C/1.0" and a header after it), the rest from there
// is read again as the stream's next bytes. When a blank line ends what
// comes before it, as it ends a record, the block is cut there, its line
// ends left out, and cutAtRecord returns -1; else (a record cut short
// inside, bytes of it lost) the record is damaged, and cutAtRecord returns
// where in the block the next record starts. When the block holds no
// record's start it returns the block's length.
func (r *Reader) cutAtRecord(rec *Record) int {
	b := rec.Block
	if len(b) > 0 && recordStart(b) {
		r.unread(b)
		return 0
	}
	for i := 0; i < len(b); {
		j := bytes.Index(b[i:], []byte("\nWARC/"))
		if j < 0 {
			break
		}
		start := i + j + 1
		i = start
		if recordStart(b[start:]) {
			return r.cutAt(rec, start)
		}
	}
	// The block's last line, when it may be a version line cut by the
	// block's end.
	start := bytes.LastIndexByte(b, '\n') + 1
	if tail := b[start:]; len(tail) > 0 && len(tail) <= maxVersionLine &&
		(bytes.HasPrefix(tail, []byte("WARC/")) || bytes.HasPrefix([]byte("WARC/"), tail)) {
		after, _ := r.br.Peek(lookAhead)
		if recordStart(slices.Concat(tail, after)) {
			return r.cutAt(rec, start)
		}
	}
	return len(b)
}

// cutAt is cutAtRecord's cut of rec's block where the next record starts
// in it, at start.
func (r *Reader) cutAt(rec *Record, start int) int {
	b := rec.Block
	r.unread(b[start:])
	if before := bytes.TrimSuffix(b[:start], []byte("\n")); !bytes.HasSuffix(before, []byte("\n")) && !bytes.HasSuffix(before, []byte("\n\r")) {
		return start
	}
	rec.Block = bytes.TrimRight(b[:start], "\r\n")
	return -1
}

// recordStart reports whether b begins as a record does: a version line,
// then header lines that are fields, to b's end (a line cut there aside)
// or to a blank line within MaxHeaderBytes after a Content-Length.
func recordStart(b []byte) bool {
	line, b, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !isVersion(line) {
		return false
	}
	f := fields{h: http.Header{}}
	for {
		line, b, ok = bytes.Cut(b, []byte("\n"))
		if !ok {
			return true // the header goes on past the block
		}
		done, bad := f.add(string(bytes.TrimRight(line, "\r")))
		switch {
		case bad != "":
			return false
		case done:
			_, ok := contentLength(f.h)
			return ok
		}
	}
}

// isDamage reports an error the reader scans past: malformed input, not
// input that ends.
func isDamage(err error) bool {
	return errors.Is(err, ErrFormat) && !errors.Is(err, io.ErrUnexpectedEOF)
}

// damage reports d, whose Record, Offset and Err are set, and scans on
// to the next record, which the next call to Next returns. An error of
// the stream met in the scan is returned instead.
func (r *Reader) damage(d *DamageError) error {
	d.Records = r.records
	if d.Record != nil {
		r.records++
		d.Record.Number = r.records
	}
	next, err := r.resync()
	switch {
	case err != nil:
		return err
	case next == nil:
		d.Next, d.End = r.offset, true
	default:
		d.Next, r.pending = next.Offset, next
	}
	return d
}

// resync scans for the next record (see DamageError), and returns it with
// its header read, its block not; nil when the stream ends first, whole or
// cut short.
func (r *Reader) resync() (*Record, error) {
	var rec *Record // the record the last version line may start
	var f fields
	if r.seed != nil {
		rec, f, r.seed = r.seed, fields{h: http.Header{}}, nil
	}
	for {
		start := r.offset
		if rec == nil || r.midLine {
			rec = nil
			line, err := r.skipLine()
			if err != nil {
				return nil, endOf(err)
			}
			if isVersion(line) {
				rec, f = &Record{Version: string(line), Offset: start}, fields{h: http.Header{}}
			}
			continue
		}
		line, err := r.line()
		switch {
		case isDamage(err): // a line over the limit
			rec = nil
			continue
		case err != nil:
			return nil, endOf(err)
		case isVersion([]byte(line)):
			rec, f = &Record{Version: line, Offset: start}, fields{h: http.Header{}}
			continue
		}
		done, bad := f.add(line)
		switch {
		case bad != "":
			rec = nil
		case done:
			if _, ok := contentLength(f.h); ok {
				rec.Header = f.h
				return rec, nil
			}
			rec = nil
		}
	}
}

// endOf returns nil for an error that ends the stream (io.EOF, or a cut:
// io.ErrUnexpectedEOF), else err.
func endOf(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	return err
}

// skipLine reads to the end of the line, its bytes no further than the
// reader's buffer, and returns the line, without its line end, when it is
// short enough to be a version line and starts as one ("WARC/"); else nil.
// The rest of a line read in part (midLine) is no line of its own.
// The line returned is valid until the next read.
func (r *Reader) skipLine() ([]byte, error) {
	var first []byte
	whole := !r.midLine
	r.midLine = false
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.offset += int64(len(chunk))
		switch {
		case err == bufio.ErrBufferFull:
			whole = false
			continue
		case err != nil:
			return nil, err
		case whole && len(chunk) <= maxVersionLine && bytes.HasPrefix(chunk, []byte("WARC/")):
			first = bytes.TrimRight(chunk, "\r\n")
		}
		return first, nil
	}
}

// maxVersionLine bounds the version lines a scan looks at, line end and
// spaces included.
const maxVersionLine = 32

// isVersion reports a WARC version line: "WARC/", digits, a dot, digits,
// and nothing else but spaces at the end.
func isVersion(line []byte) bool {
	v, ok := bytes.CutPrefix(bytes.TrimRight(line, " \t\r\n"), []byte("WARC/"))
	if !ok {
		return false
	}
	major, minor, ok := bytes.Cut(v, []byte("."))
	return ok && digits(major) && digits(minor)
}

// digits reports a non-empty run of ASCII digits.
func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
