package corpus

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/tempfile"
)

// countReader adds the bytes read to n.
type countReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// countReaderAt adds the bytes read to n.
type countReaderAt struct {
	r io.ReaderAt
	n *atomic.Int64
}

func (c *countReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// startTee starts the copy of a stream, on its first pass.
func (r *Reader) startTee(in *input) error {
	if in.tee != nil {
		return nil
	}
	f, err := tempfile.Create("", "neardup-corpus-*")
	if err != nil {
		return fmt.Errorf("copying %s for a second pass: %w", in.origin, err)
	}
	in.tee = f
	in.sink = &boundedCopy{r: r, in: in}
	return nil
}

// boundedCopy writes to a stream's copy (input.tee) what is read of it,
// refusing what would take the Reader's copies past Options.MaxStreamCopy,
// and all after it or after a write that failed: the Reader's copyErr,
// which ends reading whatever the stream's reader makes of the error.
type boundedCopy struct {
	r  *Reader
	in *input
}

func (b *boundedCopy) Write(p []byte) (int, error) {
	if b.r.copyErr == nil && b.r.copied+int64(len(p)) > b.r.opts.MaxStreamCopy {
		b.r.copyErr = &StreamCopyError{Origin: b.in.origin, Max: b.r.opts.MaxStreamCopy}
	}
	if b.r.copyErr != nil {
		return 0, b.r.copyErr
	}
	n, err := b.in.tee.Write(p)
	b.r.copied += int64(n)
	if err != nil {
		// A copy cut short (a full disk) would make the next pass read
		// less than this one.
		b.r.copyErr = fmt.Errorf("copying %s for a second pass: %w", b.in.origin, err)
		return n, b.r.copyErr
	}
	return n, nil
}

// StreamCopyError is the error of a stream read once (standard input, a
// named pipe) that gives more than its copy for the next pass may hold:
// the copies of all such streams together pass Options.MaxStreamCopy.
type StreamCopyError struct {
	Origin string // the stream: "stdin", the pipe's path
	Max    int64  // Options.MaxStreamCopy
}

func (e *StreamCopyError) Error() string {
	return fmt.Sprintf("%s: refused: the streams read once (standard input, pipes), copied to temporary files for a second pass, "+
		"give more than %d bytes together (a stream that never ends?)", e.Origin, e.Max)
}

// openPipe opens an input that can be read once only (input.pipe) as a
// stream: it is read, and copied aside for the next pass, as standard
// input is, and never opened again. A named pipe no writer opens blocks
// here, as it would cat(1), until r.stop ends (see StopWith).
func (r *Reader) openPipe(in *input) error {
	f, err := container.OpenInterruptible(r.stop, in.path)
	if err != nil {
		return err
	}
	in.pipe, in.held, in.stream, in.ready = false, f, &onceEOF{r: f}, container.Arrived(f)
	if r.stop != nil {
		in.stream = container.Interruptible(r.stop, in.stream)
	}
	return nil
}

// drain copies the rest of a stream, whose copy is then read in its place.
func (r *Reader) drain(in *input) error {
	if in.stream == nil {
		return nil
	}
	if err := r.startTee(in); err != nil {
		return err
	}
	_, err := io.Copy(in.sink, in.stream)
	if sc := (*StreamCopyError)(nil); errors.As(err, &sc) {
		return err
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", in.origin, err)
	}
	info, err := in.tee.Stat()
	if err != nil {
		return fmt.Errorf("copying %s for a second pass: %w", in.origin, err)
	}
	if in.held != nil {
		in.held.Close() // only read: closing loses nothing
		in.held = nil
	}
	in.stream, in.sink, in.size = nil, nil, info.Size()
	r.unknown--
	r.sized(in, in.size)
	return nil
}

// onceEOF ends a stream at its first io.EOF and does not read it again: a
// terminal would wait for more input.
type onceEOF struct {
	r   io.Reader
	eof bool
}

func (o *onceEOF) Read(p []byte) (int, error) {
	if o.eof {
		return 0, io.EOF
	}
	n, err := o.r.Read(p)
	if err == io.EOF {
		o.eof = true
	}
	return n, err
}

// reopen drains a stream and returns its copy, for a zip archive read from
// a stream. The copy stays open, the Reader's to close.
func (r *Reader) reopen(in *input) (io.ReaderAt, int64, error) {
	if err := r.drain(in); err != nil {
		return nil, 0, err
	}
	return io.NewSectionReader(in.tee, 0, in.size), in.size, nil
}

// gzipCutError is the fatal error of a gzip file that ends before its
// first member's header is whole, empty or cut there: it says so of the
// file, naming it as the Reader's other errors do, in place of what the
// format read under the gzip stream made of its first read, which counted
// what was never there or blamed another layer ("reading a.html.gz: an
// empty file, no gzip header: unexpected EOF after 0 bytes", "reading
// a.tar.gz: tar archive: an empty file, ..."). It wraps the
// container.HeaderCutError, and so io.ErrUnexpectedEOF.
type gzipCutError struct{ cut *container.HeaderCutError }

func (e *gzipCutError) Error() string {
	return fmt.Sprintf("reading %s: %v", e.cut.Origin, e.cut)
}

func (e *gzipCutError) Unwrap() error { return e.cut }

// plainCut is err, a fatal error of NextRaw, or the gzipCutError of the
// gzip file it holds a cut header of; never one that is io.EOF (see
// notEOF).
func plainCut(err error) error {
	var cut *container.HeaderCutError
	if errors.As(err, &cut) {
		return &gzipCutError{cut}
	}
	if errors.Is(err, io.EOF) {
		return notEOF{err}
	}
	return err
}

// notEOF is a fatal error that wraps io.EOF, the end of a file read too
// soon (a Parquet file of three bytes fails "reading magic header of
// parquet file: EOF"), as one that is not io.EOF: NextRaw's caller reads
// io.EOF as the end of the inputs, and would end the run without the
// inputs after it, and without an error. It is whatever else err is.
type notEOF struct{ err error }

// Error is err's message.
func (e notEOF) Error() string { return e.err.Error() }

// Is reports whether err is target, io.EOF aside.
func (e notEOF) Is(target error) bool { return target != io.EOF && errors.Is(e.err, target) }

// As finds target in err's chain.
func (e notEOF) As(target any) bool { return errors.As(e.err, target) }
