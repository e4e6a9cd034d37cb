//go:build unix

package corpus

import (
	"os"
	"path/filepath"
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
