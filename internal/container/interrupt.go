package container

import (
	"context"
	"errors"
	"io"
	"os"
)

// Interruptible returns a reader of r whose Read gives up when ctx ends,
// returning context.Cause(ctx), wrapped with ctx.Err() where it does not
// wrap it already (so errors.Is(err, context.Canceled) holds of a ctx
// canceled with any cause), where a read of r waits for input that may
// never come: standard input from a terminal, or a pipe held open by a
// writer that writes nothing, whose read no signal ends. The read under
// way then goes on, on a goroutine of its own, into a buffer of its own,
// and its bytes, if any come, are dropped: once ctx has ended, every Read
// returns that error, and r is not read again. So ctx ending loses what r
// gives after it, and r must not be read otherwise afterwards. A ctx that
// never ends returns r itself.
//
// Each Read of r runs on a goroutine of its own and is copied into p, so
// that a read left under way never writes into the caller's buffer.
func Interruptible(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	return &interruptible{ctx: ctx, r: r, res: make(chan readResult, 1)}
}

// interruptible is the reader Interruptible returns.
type interruptible struct {
	ctx context.Context
	r   io.Reader
	buf []byte          // the reads' buffer; a read left under way keeps it
	res chan readResult // the result of the read under way; buffered, so that one left under way ends
	err error           // the cause of ctx's end, once a Read returned it
}

// readResult is what one Read of interruptible.r returned.
type readResult struct {
	n   int
	err error
}

func (s *interruptible) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.ctx.Err() != nil {
		s.err = stopErr(s.ctx)
		return 0, s.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if cap(s.buf) < len(p) {
		s.buf = make([]byte, len(p))
	}
	buf, res := s.buf[:len(p)], s.res
	go func() {
		n, err := s.r.Read(buf)
		res <- readResult{n, err}
	}()
	select {
	case got := <-res:
		return copy(p, buf[:got.n]), got.err
	case <-s.ctx.Done():
		// The read under way owns buf from now on: s.buf is not used
		// again, as every later Read returns s.err.
		s.buf, s.err = nil, stopErr(s.ctx)
		return 0, s.err
	}
}

// OpenInterruptible opens path for reading as os.Open does, giving up when
// ctx ends, with the error Interruptible's Read returns: the opening of a
// named pipe blocks until a writer opens it, which may never happen. A ctx
// ended already opens nothing. A file opened after ctx ended is closed, on the
// goroutine that opened it. A nil ctx, or one that never ends, is os.Open.
func OpenInterruptible(ctx context.Context, path string) (*os.File, error) {
	return openInterruptible(ctx, path, os.Open)
}

// openInterruptible is OpenInterruptible opening path with open.
func openInterruptible(ctx context.Context, path string, open func(string) (*os.File, error)) (*os.File, error) {
	if ctx == nil || ctx.Done() == nil {
		return open(path)
	}
	if ctx.Err() != nil {
		return nil, stopErr(ctx)
	}
	type opened struct {
		f   *os.File
		err error
	}
	res := make(chan opened) // unbuffered: a file opened too late is closed by the goroutine
	stopped := make(chan struct{})
	go func() {
		f, err := open(path)
		select {
		case res <- opened{f, err}:
		case <-stopped:
			if f != nil {
				f.Close()
			}
		}
	}()
	select {
	case o := <-res:
		return o.f, o.err
	case <-ctx.Done():
		close(stopped)
		return nil, stopErr(ctx)
	}
}

// stopErr returns the error of a read or an open that ctx, ended, made give
// up: context.Cause(ctx), which says why, that is also ctx.Err()
// (errors.Is(err, context.Canceled)), so that a caller tells a run stopped
// (a signal) from one that failed, whatever the cause. It is nil while ctx
// has not ended.
func stopErr(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, err) {
		return cause
	}
	return stoppedError{cause: cause, ctxErr: err}
}

// stoppedError is a cause of a context's end that does not wrap the
// context's error, wrapped with it.
type stoppedError struct{ cause, ctxErr error }

func (e stoppedError) Error() string   { return e.cause.Error() }
func (e stoppedError) Unwrap() []error { return []error{e.cause, e.ctxErr} }
