//go:build unix

package corpus

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fifoOf makes a named pipe at path that one writer fills with content
// once, as `cat file > fifo &` does. The writer is released at the end of
// the test whether or not the pipe was read.
func fifoOf(t *testing.T, path, content string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // blocks until a reader opens it
		if err != nil {
			return
		}
		f.WriteString(content)
		f.Close()
	}()
	t.Cleanup(func() {
		// A reader that never came: open it so that the writer goes on.
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		<-done
	})
}

// unblock ends a read of the named pipe at path that waits for a writer
// to open it: it opens the pipe for writing and closes it.
func unblock(path string) {
	if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// TestNamedPipeReadOnce pins the bug where a named pipe given as input
// (mkfifo, a shell's <(zcat x.gz)) was opened again for the second pass:
// the open waited for a writer forever, or the second pass read nothing
// ("the input changed while it was read"), and a zip in one failed. It is
// read once and copied aside, as standard input is.
func TestNamedPipeReadOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	jsonl := "{\"text\":\"1\"}\n{\"text\":\"2\"}\n"
	fifoOf(t, "lines", jsonl)
	fifoOf(t, "archive", zipOf(t, member{"a.jsonl", "{\"text\":\"z\"}\n"}, member{"b.txt", "B\nb"}))

	type result struct {
		first, second []rec
		err           error
	}
	got := make(chan result, 1)
	go func() {
		var res result
		defer func() { got <- res }()
		r, err := open([]string{"lines", "archive"}, nil, Options{}, config{})
		if err != nil {
			res.err = err
			return
		}
		defer r.Close()
		if res.first, res.err = drain(t, r); res.err != nil {
			return
		}
		if res.err = r.Rewind(); res.err != nil {
			return
		}
		res.second, res.err = drain(t, r)
	}()
	var res result
	select {
	case res = <-got:
	case <-time.After(2 * time.Minute): // a hang, not a slow read
		t.Error("the second pass waits for a writer of the named pipe")
		unblock(filepath.Join(dir, "lines"))
		unblock(filepath.Join(dir, "archive"))
		res = <-got
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.first) != 4 {
		t.Errorf("first pass: %d records, want 4: %v", len(res.first), res.first)
	}
	if diff := cmp.Diff(res.first, res.second); diff != "" {
		t.Errorf("second pass (-first +second):\n%s", diff)
	}
}

// endless gives JSON Lines records without end, as `yes` would.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	line := fmt.Sprintf("{\"id\":\"r%d\",\"text\":\"A record of a stream that never ends.\"}\n", e.n)
	e.n++
	return copy(p, line), nil
}

// endlessFifo makes a named pipe at path that a writer fills with records
// without end, as `yes '{...}' > fifo &` does, until its reader is gone.
func endlessFifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // blocks until a reader opens it
		if err != nil {
			return
		}
		defer f.Close()
		if _, err := io.Copy(f, &endless{}); err != nil {
			return // EPIPE: the reader closed it
		}
	}()
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close() // a reader that never came, or one gone: the writer ends
		}
		<-done
	})
}

// TestStreamCopyBounded: the copies of the streams read once (standard
// input, named pipes) are bounded together by MaxStreamCopy. Past it,
// reading ends with a StreamCopyError naming the stream, whether it is
// being read or copied to its end for Rewind, and Close removes the
// copies. Regression: a pipe that never ends was copied without bound,
// filling the disk.
func TestStreamCopyBounded(t *testing.T) {
	// Well above what opening a stream reads ahead: charsetHead (64 KiB)
	// and up to a pipe's worth more. At 64 KiB, a pipe whose writer got
	// ahead went past the bound before the records to read before Rewind
	// were read (the test failed now and then, under load).
	const max = 1 << 20
	lines := func(n int) string {
		var b strings.Builder
		io.CopyN(&b, &endless{}, int64(n))
		s := b.String()
		return s[:strings.LastIndexByte(s, '\n')+1]
	}
	for _, tc := range []struct {
		name   string
		stdin  string // "" for none
		pipe   bool   // a named pipe that never ends
		rewind int    // records read before Rewind; 0 reads to the end
		origin string // the stream the error names
	}{
		{name: "a named pipe that never ends", pipe: true, origin: "endless"},
		{name: "copied to its end for Rewind", pipe: true, rewind: 3, origin: "endless"},
		{name: "standard input and a pipe together", stdin: lines(max - 1000), pipe: true, origin: "endless"},
		{name: "standard input alone, past the bound", stdin: lines(max + 1000), origin: "stdin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			var paths []string
			cfg := config{stdin: strings.NewReader(tc.stdin)}
			if tc.stdin != "" {
				paths = append(paths, "-")
			}
			if tc.pipe {
				endlessFifo(t, "endless")
				paths = append(paths, "endless")
			}
			r, err := open(paths, nil, Options{MaxStreamCopy: max}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Closed before the pipe's writer is waited for (cleanups run
			// last first), so that a failure below ends the test rather
			// than leaving the writer blocked on a reader still open.
			t.Cleanup(func() { r.Close() })
			if tc.rewind > 0 {
				for range tc.rewind {
					if _, err := r.NextRaw(); err != nil {
						t.Fatal(err)
					}
				}
				err = r.Rewind()
			} else {
				_, err = drain(t, r)
			}
			var sc *StreamCopyError
			if !errors.As(err, &sc) || sc.Origin != tc.origin || sc.Max != max {
				t.Fatalf("reading: %v, want a StreamCopyError of %s", err, tc.origin)
			}
			if want := tc.origin + ": refused: the streams read once"; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q, want it to start %q", err, want)
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			left, _ := os.ReadDir(tmp)
			var size int64
			for _, e := range left {
				if info, err := e.Info(); err == nil {
					size += info.Size()
				}
			}
			if len(left) != 0 {
				t.Errorf("%d temporary files (%d bytes) left after Close", len(left), size)
			}
		})
	}
}

// TestStreamCopyWriteFails: a stream whose copy cannot be written (a full
// disk) ends reading with the copy's error, whatever the stream's reader
// makes of it: a next pass would read less than this one.
func TestStreamCopyWriteFails(t *testing.T) {
	var b strings.Builder
	io.CopyN(&b, &endless{}, 64<<10)
	s := b.String()
	r, err := open([]string{"-"}, nil, Options{}, config{stdin: strings.NewReader(s[:strings.LastIndexByte(s, '\n')+1]), bufSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.NextRaw(); err != nil {
		t.Fatal(err)
	}
	r.inputs[0].tee.Close() // writes fail from here on, as on a full disk
	_, err = drain(t, r)
	if err == nil || !strings.HasPrefix(err.Error(), "copying stdin for a second pass: ") {
		t.Fatalf("reading: %v, want the copy's error", err)
	}
}
