package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// launcher starts children: the ndbench binary itself (or, in tests, the
// test binary) with args prefixed to "child SPEC".
type launcher struct {
	exe    string
	prefix []string
	// stderr receives the child's progress; nil keeps only its tail for
	// error messages.
	stderr io.Writer
}

// usage is what one child run cost, from the parent's clock and the
// child's rusage.
type usage struct {
	Wall    time.Duration
	CPU     time.Duration // user + system
	PeakRSS int64         // bytes; 0 where the platform does not say
}

// tailSize is how much of a quiet child's stderr is kept for its error.
const tailSize = 4 << 10

// run starts spec in a child process, waits for it and returns its result
// and usage.
func (l launcher) run(ctx context.Context, spec childSpec) (childResult, usage, error) {
	spec.Progress = l.stderr != nil
	arg, err := json.Marshal(spec)
	if err != nil {
		return childResult{}, usage{}, err
	}
	args := append(append([]string{}, l.prefix...), "child", string(arg))
	cmd := exec.CommandContext(ctx, l.exe, args...)
	var stdout bytes.Buffer
	tail := &tailWriter{max: tailSize}
	cmd.Stdout = &stdout
	cmd.Stderr = tail
	if l.stderr != nil {
		cmd.Stderr = io.MultiWriter(l.stderr, tail)
	}
	start := time.Now()
	err = cmd.Run()
	u := usage{Wall: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		u.CPU = ps.UserTime() + ps.SystemTime()
		u.PeakRSS = peakRSS(ps)
	}
	if err != nil {
		return childResult{}, u, fmt.Errorf("%s child: %w: %s", spec.Kind, err, strings.TrimSpace(tail.String()))
	}
	var res childResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return childResult{}, u, fmt.Errorf("%s child: reading its result: %w", spec.Kind, err)
	}
	return res, u, nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailWriter) String() string { return string(t.buf) }

// isTerminal reports whether f is a character device.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
