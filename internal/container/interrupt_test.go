//go:build unix

package container

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// deadline bounds the wait for a read or an open to give up once its
// context ends: far more than it takes; one that waits for input ignoring
// the context never returns.
const deadline = 20 * time.Second

var errStopped = errors.New("stopped by a test")

// isStopped reports whether err is what a read or an open gives when a
// context canceled with errStopped made it give up: the cause, saying
// so, and context.Canceled.
func isStopped(err error) bool {
	return err != nil && err.Error() == errStopped.Error() && errors.Is(err, errStopped) && errors.Is(err, context.Canceled)
}

// gate is a reader whose reads wait for what a test sends them: each says
// on entered that it is under way, and on read that it returned.
type gate struct {
	entered chan struct{}
	data    chan string
	read    chan struct{}
}

func (g *gate) Read(p []byte) (int, error) {
	g.entered <- struct{}{}
	n := copy(p, <-g.data)
	g.read <- struct{}{}
	return n, nil
}

// A read that waits for input returns the context's cause once it ends,
// as context.Canceled too (regression: a signal while dedup waited for
// standard input was "stopped by an error" on the progress line, but
// "interrupted" during a file's read), and so does every read after it; what the read left under way gets
// later never reaches the caller's buffer (regression: a read of standard
// input no signal ended).
func TestInterruptibleGivesUpWaiting(t *testing.T) {
	g := &gate{entered: make(chan struct{}, 1), data: make(chan string, 1), read: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancelCause(t.Context())
	r := Interruptible(ctx, g)
	g.data <- "first"
	p := make([]byte, 16)
	if n, err := r.Read(p); err != nil || string(p[:n]) != "first" {
		t.Fatalf("read %q, %v; want first", p[:n], err)
	}
	<-g.entered
	<-g.read
	clear(p)
	got := make(chan error, 1)
	go func() {
		_, err := r.Read(p) // waits: nothing sent
		got <- err
	}()
	<-g.entered
	cancel(errStopped)
	select {
	case err := <-got:
		if !isStopped(err) {
			t.Fatalf("read: %v, want %v and %v", err, errStopped, context.Canceled)
		}
	case <-time.After(deadline):
		t.Fatalf("the read waits %s after the context ended", deadline)
	}
	// The read left under way gets these bytes, into its own buffer.
	g.data <- "late"
	<-g.read
	if !bytes.Equal(p, make([]byte, 16)) {
		t.Errorf("the caller's buffer holds %q, read after the read gave up", p)
	}
	if n, err := r.Read(p); n != 0 || !isStopped(err) {
		t.Errorf("read after the end: %d, %v; want 0, %v", n, err, errStopped)
	}
	select {
	case <-g.entered:
		t.Error("read again after the end")
	default:
	}
}

// A context that never ends leaves the reader as it is.
func TestInterruptibleWithoutEnd(t *testing.T) {
	var r io.Reader = bytes.NewReader(nil)
	if got := Interruptible(context.Background(), r); got != r {
		t.Errorf("got %T, want the reader itself", got)
	}
}

// Opening a named pipe that no writer opens gives up when the context
// ends; the open left under way closes the file it gets.
func TestOpenInterruptibleGivesUpWaitingForAWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	opening := make(chan struct{})
	open := func(path string) (*os.File, error) {
		close(opening)
		return os.Open(path)
	}
	got := make(chan error, 1)
	go func() {
		f, err := openInterruptible(ctx, fifo, open)
		if f != nil {
			f.Close()
		}
		got <- err
	}()
	<-opening
	cancel(errStopped)
	select {
	case err := <-got:
		if !isStopped(err) {
			t.Fatalf("open: %v, want %v and %v", err, errStopped, context.Canceled)
		}
	case <-time.After(deadline):
		t.Fatalf("the open waits %s after the context ended", deadline)
	}
	// A writer ends the open left under way, which closes its file: the
	// writer's write then fails, no reader left.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for end := time.Now().Add(deadline); ; {
		if _, err := w.Write([]byte("x")); errors.Is(err, syscall.EPIPE) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the pipe opened after the context ended is still open")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A context ended already opens nothing: no opening left under way holds
// a named pipe open for reading (regression: the opening was started all
// the same, on a goroutine of its own).
func TestOpenInterruptibleAfterTheEnd(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errStopped)
	opened := make(chan string, 1)
	open := func(path string) (*os.File, error) {
		opened <- path
		return nil, errors.New("not opened in this test")
	}
	f, err := openInterruptible(ctx, "a-file", open)
	if f != nil || !isStopped(err) {
		t.Fatalf("open: %v, %v; want nil, %v and %v", f, err, errStopped, context.Canceled)
	}
	runtime.Gosched() // lets an opening started, if any, run
	select {
	case path := <-opened:
		t.Errorf("%s opened after the context ended", path)
	default:
	}
}

// endless gives the same bytes forever, as a pipe that always has some.
type endless struct{ data []byte }

func (e endless) Read(p []byte) (int, error) { return copy(p, e.data), nil }

// BenchmarkInterruptible reads 64 KiB at a time, as a pipe gives them,
// through Interruptible (a goroutine and a copy a read) and directly.
func BenchmarkInterruptible(b *testing.B) {
	data := bytes.Repeat([]byte("a line of text\n"), 64<<10/15)
	p := make([]byte, len(data))
	for _, bc := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"direct", func(r io.Reader) io.Reader { return r }},
		{"interruptible", func(r io.Reader) io.Reader { return Interruptible(b.Context(), r) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := bc.wrap(endless{data})
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := r.Read(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
