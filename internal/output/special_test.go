package output

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A device or pipe named as an output is written in place, never replaced
// by a file; a symbolic link keeps pointing where it did, at the new file.
func TestWriteAtomicKeepsDevicesAndLinks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteAtomic(fifo, func(w *bufio.Writer) error { _, err := w.WriteString("through the pipe\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}

	target, link := filepath.Join(dir, "report.txt"), filepath.Join(dir, "latest.txt")
	os.WriteFile(target, []byte("old\n"), 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, func(w *bufio.Writer) error { _, err := w.WriteString("new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new\n" {
		t.Errorf("the link's file holds %q", b)
	}

	if _, err := Create(filepath.Join(dir, "out"), fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a pipe as an extra output: %v", err)
	}
}

// TestWriteAtomicWritersError: an error of the write function (an input
// that cannot be read, say) is returned as it is, not as one of writing
// the output, and no file is left, to a path or a device alike.
func TestWriteAtomicWritersError(t *testing.T) {
	dir := t.TempDir()
	cause := errors.New("in/: no pages")
	for _, path := range []string{filepath.Join(dir, "out.jsonl"), os.DevNull} {
		err := WriteAtomic(path, func(w *bufio.Writer) error {
			w.WriteString("partial")
			return cause
		})
		if err != cause {
			t.Errorf("%s: got %v, want the writer's own error as it is", path, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// A file that cannot be made (its directory missing) is named as given in
// the error, not by the temporary name written first.
func TestWriteAtomicNamesThePathGiven(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "x.jsonl")
	err := WriteAtomic(path, func(*bufio.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "writing "+path+": ") || strings.Contains(err.Error(), ".tmp") ||
		!errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want one of %s, not naming the temporary file", err, path)
	}
}
