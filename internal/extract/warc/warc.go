// Package warc reads WARC files (ISO 28500, versions 0.17 to 1.1), plain
// or gzip-compressed record by record, and parses the HTTP responses their
// response records hold.
//
// The reader is written for untrusted input: header lines and header blocks
// have size limits, a record's declared length is never allocated before
// its bytes arrive, and blocks over Reader.MaxBlock are skipped, not read
// into memory. A malformed record, or bytes where a record should start
// that start none, is reported once (a *DamageError), and the reader
// scans on to the next record.
package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
)

// Limits on untrusted input.
const (
	// MaxHeaderBytes bounds one record's header block.
	MaxHeaderBytes = 64 << 10
	// DefaultMaxBlock is Reader.MaxBlock's default: 32 MiB.
	DefaultMaxBlock = 32 << 20
)

// ErrFormat reports input that is not a WARC record where one should be.
var ErrFormat = errors.New("warc: malformed record")

// CutError reports a stream that ends cut short between two records: the
// reader under it fails with io.ErrUnexpectedEOF before any byte of the
// next record, as a .warc.gz does that ends inside the last member's
// trailer or inside the header of a member (and, when NewReader inflates
// it, one that ends in a few bytes that are no gzip member: a line end,
// NULs). No record is cut short: the records read
// are whole, and the stream cannot tell whether any was lost (nor could it
// of a cut at the very start of a member).
type CutError struct {
	Records int   // the records found before the cut, the last one's Number
	Offset  int64 // where the cut falls in the uncompressed stream
	Err     error // the stream's error
}

// Error says where the stream ends: before its first record, or after
// which record and at what offset.
func (e *CutError) Error() string {
	if e.Records == 0 {
		return fmt.Sprintf("warc: the stream ends cut short before its first record: %v", e.Err)
	}
	return fmt.Sprintf("warc: the stream ends cut short after record %d, at offset %d, before any byte of another: %v",
		e.Records, e.Offset, e.Err)
}

// Unwrap returns the reader's error, io.ErrUnexpectedEOF.
func (e *CutError) Unwrap() error { return e.Err }

// Record is one WARC record.
type Record struct {
	// Version is the record's version line, e.g. "WARC/1.0".
	Version string
	// Header holds the named fields; look them up with Get
	// ("WARC-Type", "WARC-Target-URI", "Content-Type" …).
	Header http.Header
	// Block is the record's content block. It is nil when the block was
	// larger than the reader's MaxBlock (then TooLarge is set).
	Block    []byte
	TooLarge bool
	// Offset is where the record starts in the uncompressed stream.
	Offset int64
	// Number is the record's number in its stream, from 1, counting the
	// records as they are found: a malformed record counts (a
	// *DamageError with Record set), bytes that start no record do not,
	// so that the records after a damaged stretch keep the numbers they
	// would have had when the stretch holds no whole record.
	Number int
}

// Type returns the WARC-Type field, lower-cased: "response", "request",
// "resource", "warcinfo" ….
func (r *Record) Type() string { return strings.ToLower(r.Header.Get("WARC-Type")) }

// TargetURI returns the WARC-Target-URI field, without the angle brackets
// WARC 1.0 writers sometimes put around it.
func (r *Record) TargetURI() string {
	return strings.Trim(strings.TrimSpace(r.Header.Get("WARC-Target-URI")), "<>")
}

// Reader reads records in order. It is not safe for concurrent use.
type Reader struct {
	// MaxBlock is the largest block read into memory; larger blocks are
	// skipped. 0 means DefaultMaxBlock.
	MaxBlock int64

	br      *bufio.Reader
	offset  int64
	records int  // records found: read whole, or malformed (see Record.Number)
	midLine bool // the last line read was over MaxHeaderBytes and is not read to its end
	// pending is the record a scan past damage found, its block not
	// read yet: the next call to Next reads it.
	pending *Record
	// seed is a record whose version line the reader met where a header
	// line should be: the scan past the damage starts at it.
	seed *Record
	// src is the stream under br, which takes bytes given back (unread).
	src *pushback
	err error
}

// NewReader returns a reader of r. A gzip stream (one member per record,
// as .warc.gz files are written, or one member in all) is inflated
// transparently.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	src := &pushback{src: br}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("warc: %w", err)
		}
		src.src = zr
	}
	return &Reader{br: bufio.NewReaderSize(src, 64<<10), src: src}, nil
}

// pushback reads bytes given back (buf) before those of src.
type pushback struct {
	buf []byte
	src io.Reader
}

func (p *pushback) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.src.Read(b)
}

// unread gives b back to the stream: the next bytes read are b, then those
// the reader held, then the rest of the stream.
func (r *Reader) unread(b []byte) {
	held, _ := r.br.Peek(r.br.Buffered())
	r.src.buf = slices.Concat(b, held, r.src.buf)
	r.br.Reset(r.src)
	r.offset -= int64(len(b))
}

// Next returns the next record, or io.EOF after the last one.
//
// A malformed record (a header line that is no field, a header over
// MaxHeaderBytes, a Content-Length that is no length, a block followed
// straight by bytes that start no record, as a block shorter than its
// Content-Length says is), or bytes where a record should start that
// start none after a record that ends well (junk), is a *DamageError:
// the reader has scanned on to the next record, which the next call
// returns (see DamageError for how it is found), or, when none follows,
// the next call returns io.EOF. A record the stream ends inside is an
// ErrFormat that is io.ErrUnexpectedEOF too, a stream cut short between
// records a *CutError, and an error of the stream under the records is
// returned as it is; after those, and after io.EOF, every later call
// returns the same error.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	var rec *Record
	var err error
	if r.pending != nil {
		rec, r.pending = r.pending, nil
		err = r.block(rec)
	} else {
		rec, err = r.next()
	}
	if d := (*DamageError)(nil); errors.As(err, &d) {
		if d.End {
			r.err = io.EOF
		}
		return nil, err
	}
	if err != nil {
		r.err = err
		return nil, err
	}
	r.records++
	rec.Number = r.records
	return rec, nil
}

// next reads the next record; where it finds damage, it scans on to the
// record after it (see damage).
func (r *Reader) next() (*Record, error) {
	if err := r.skipLineEnds(); err != nil {
		return nil, err
	}
	start := r.offset
	line, err := r.line()
	switch {
	case isDamage(err): // a line over the limit: no version line
		return nil, r.damage(&DamageError{Offset: start, Err: err})
	case err != nil && line != "" && !strings.HasPrefix(line, "WARC/") && !strings.HasPrefix("WARC/", line):
		// The stream ends in bytes that start no record, without a
		// line end (padding, "garbage"): junk at the end, not a record
		// cut short.
		return nil, &DamageError{Records: r.records, Offset: start, Next: r.offset, End: true,
			Err: errorAt(start, "want a WARC/ version line, got %q", truncate(line))}
	case err != nil:
		return nil, err
	case !strings.HasPrefix(line, "WARC/"):
		return nil, r.damage(&DamageError{Offset: start, Err: errorAt(start, "want a WARC/ version line, got %q", truncate(line))})
	}
	rec := &Record{Version: line, Offset: start}
	if rec.Header, err = r.header(); err != nil {
		if isDamage(err) {
			return nil, r.damage(&DamageError{Record: rec, Offset: start, Err: err})
		}
		return nil, err
	}
	if _, ok := contentLength(rec.Header); !ok {
		return nil, r.damage(&DamageError{Record: rec, Offset: start, Err: r.errorf("bad Content-Length %q", rec.Header.Get("Content-Length"))})
	}
	return rec, r.block(rec)
}

// contentLength returns a header's Content-Length; ok is false when it
// is missing or no length.
func contentLength(h http.Header) (n int64, ok bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get("Content-Length")), 10, 64)
	return n, err == nil && n >= 0
}

// block reads the block of a record whose header is read, its
// Content-Length valid.
func (r *Reader) block(rec *Record) error {
	length, _ := contentLength(rec.Header)
	limit := r.MaxBlock
	if limit <= 0 {
		limit = DefaultMaxBlock
	}
	if length > limit {
		rec.TooLarge = true
		n, err := io.CopyN(io.Discard, r.br, length)
		r.offset += n
		if err != nil {
			return r.blockError(err)
		}
		return r.blockEnd(rec, length)
	}
	// Read as the bytes arrive: a forged length allocates nothing.
	block, err := io.ReadAll(io.LimitReader(r.br, length))
	r.offset += int64(len(block))
	if err != nil || int64(len(block)) != length {
		return r.blockError(err)
	}
	rec.Block = block
	return r.blockEnd(rec, length)
}

// blockError reports a block that ended early: at the end of the input
// (err nil or io.EOF, or a compressed stream cut short), a malformed
// record; else the stream's own error, which a caller may tell (a
// decompression bound that stopped it).
func (r *Reader) blockError(err error) error {
	if err == nil || err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.cutShort("block")
	}
	return fmt.Errorf("warc: reading the block at offset %d: %w", r.offset, err)
}

func (r *Reader) errorf(format string, args ...any) error {
	return errorAt(r.offset, format, args...)
}

// errorAt returns an ErrFormat saying what is wrong at offset.
func errorAt(offset int64, format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrFormat, offset, fmt.Sprintf(format, args...))
}

// cutShort reports input that ends inside a record's part what: an
// ErrFormat that is io.ErrUnexpectedEOF too.
func (r *Reader) cutShort(what string) error {
	return fmt.Errorf("%w at offset %d: %s cut short: %w", ErrFormat, r.offset, what, io.ErrUnexpectedEOF)
}

// skipLineEnds reads the CRs and LFs between records (the blank lines
// after a block, a file's last line end) up to the next record. It returns
// io.EOF where the stream ends; a *CutError where it fails with
// io.ErrUnexpectedEOF, which a stream of bytes never does but a
// compressed one cut short does; any other error of the stream as it is.
func (r *Reader) skipLineEnds() error {
	for {
		b, err := r.br.ReadByte()
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return &CutError{Records: r.records, Offset: r.offset, Err: err}
		case err != nil:
			return err
		case b != '\r' && b != '\n':
			return r.br.UnreadByte()
		}
		r.offset++
	}
}

// header reads header lines up to the blank line that ends them.
func (r *Reader) header() (http.Header, error) {
	f := fields{h: http.Header{}}
	for {
		start := r.offset
		line, err := r.line()
		if err != nil {
			if err == io.EOF {
				return nil, r.cutShort("header")
			}
			return nil, err
		}
		if isVersion([]byte(line)) {
			// The next record's first line: this header is cut short,
			// and the scan past it starts at that record.
			r.seed = &Record{Version: line, Offset: start}
			return nil, errorAt(start, "header cut short by the next record's version line")
		}
		done, bad := f.add(line)
		switch {
		case bad != "":
			return nil, r.errorf("%s", bad)
		case done:
			return f.h, nil
		}
	}
}

// fields collects the lines of a record's header.
type fields struct {
	h     http.Header
	last  string // the field the last line gave, which a folded line goes on
	total int    // the header's bytes so far, line ends left out
}

// add takes the next line of the header. done is true at the blank line
// that ends it; bad, when not empty, says what is wrong with the line or
// the header.
func (f *fields) add(line string) (done bool, bad string) {
	if f.total += len(line); f.total > MaxHeaderBytes {
		return false, fmt.Sprintf("header over %d bytes", MaxHeaderBytes)
	}
	if line == "" {
		return true, ""
	}
	if (line[0] == ' ' || line[0] == '\t') && f.last != "" {
		vals := f.h[f.last]
		vals[len(vals)-1] += " " + strings.TrimSpace(line)
		return false, ""
	}
	name, val, ok := strings.Cut(line, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return false, fmt.Sprintf("bad header line %q", truncate(line))
	}
	f.last = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name))
	f.h[f.last] = append(f.h[f.last], strings.TrimSpace(val))
	return false, ""
}

// line reads one line, without CRLF or LF, of at most MaxHeaderBytes. A
// line the input ends inside, without its LF, is cut short (the part read
// is returned with the error); a longer line
// is an ErrFormat, read no further than the limit (midLine is set).
func (r *Reader) line() (string, error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.offset += int64(len(chunk))
		buf = append(buf, chunk...)
		if len(buf) > MaxHeaderBytes {
			r.midLine = err == bufio.ErrBufferFull
			return "", r.errorf("line over %d bytes", MaxHeaderBytes)
		}
		switch {
		case err == nil:
			return string(bytes.TrimRight(buf, "\r\n")), nil
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(buf) > 0, errors.Is(err, io.ErrUnexpectedEOF):
			return string(buf), r.cutShort("line") // the part read, for next to tell junk
		default:
			return "", err
		}
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
