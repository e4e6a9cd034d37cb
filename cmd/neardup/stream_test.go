//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMaxStream: dedup stops reading a pipe that never ends once standard
// input and pipes, copied aside for the second pass, give more than
// --max-stream, saying so of the pipe; the temporary copy is removed and
// the results of an earlier run in -o are left as they were. Regression:
// the copy grew without bound, filling the disk.
func TestMaxStream(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	runOK(t, "dedup", filepath.Join("..", "..", "examples", "news.jsonl"), "-o", out)
	before, err := os.ReadFile(filepath.Join(out, "kept.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "news.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	line := []byte(`{"text":"A record of a stream that never ends, as yes(1) would write it."}` + "\n")
	done := make(chan struct{})
	go func() { // `yes '{...}' > fifo`
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		io.Copy(w, &repeat{line: line})
	}()
	t.Cleanup(func() {
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close() // a reader that never came: the writer goes on, and ends
		}
		<-done
	})
	tmp := t.TempDir()
	cmd := child(t, "dedup", "-q", fifo, "-o", out, "--max-stream", "1MiB")
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want 1; stderr:\n%s", err, stderr.String())
	}
	want := "neardup: " + fifo + ": stopped: standard input and pipes, read once and copied to temporary files for the second pass, " +
		"give more than 1MiB together (--max-stream; a stream that never ends?); give a larger --max-stream, or the input as a file\n"
	if !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to end:\n%s", stderr.String(), want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	after, err := os.ReadFile(filepath.Join(out, "kept.jsonl"))
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the earlier run's kept.jsonl changed (%v)", err)
	}
	if code, _, stderr := runChild(t, "dedup", "-q", fifo, "-o", out, "--max-stream", "0"); code != 2 || !strings.Contains(stderr, `--max-stream "0"`) {
		t.Errorf("--max-stream 0: exit %d, stderr %q; want 2, a usage error", code, stderr)
	}
}

// repeat reads line over and over.
type repeat struct {
	line []byte
	off  int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}
