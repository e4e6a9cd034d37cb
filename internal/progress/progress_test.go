package progress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestMeterLines(t *testing.T) {
	var b bytes.Buffer
	m := New(&b)
	m.Stage("reading")
	m.Update(10, 1, 4) // within the interval: silent
	if b.Len() != 0 {
		t.Fatalf("printed before the interval passed: %q", b.String())
	}
	m.interval = 0
	m.start = m.start.Add(-2 * time.Second)
	m.Update(100, 1, 4)
	m.Done(200)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines: %q", len(lines), b.String())
	}
	if !strings.HasPrefix(lines[0], "reading: 100 docs, ") || !strings.Contains(lines[0], "25%, ETA") {
		t.Errorf("progress line %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "reading: 200 docs") || strings.Contains(lines[1], "ETA") {
		t.Errorf("final line %q", lines[1])
	}
}

func TestNilMeterIsSilent(t *testing.T) {
	m := New(nil)
	m.Stage("x")
	m.Update(1, 1, 1)
	m.Done(1) // no panic
}

// TestMeterRunETA: with the run planned, the time left is the run's: the
// rest of the stage and the stages after it, by the first stage's length.
func TestMeterRunETA(t *testing.T) {
	var b bytes.Buffer
	m := New(&b)
	m.interval = 0
	m.Plan(Step{"reading", 1}, Step{"matching", 0.5}, Step{"writing", 1})
	m.Stage("reading")
	m.start = m.start.Add(-10 * time.Second)
	m.Update(100, 1, 2) // half read in 10 s: 10 s left, then 10 s and 20 s
	m.Done(200)
	m.Stage("matching")
	m.first = 20 * time.Second // as if reading took 20 s
	m.start = m.start.Add(-5 * time.Second)
	m.Update(50, 1, 2) // half matched in 5 s: 5 s left, then 20 s
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines: %q", len(lines), b.String())
	}
	if !strings.HasSuffix(lines[0], "50%, ETA 40s for the run") {
		t.Errorf("reading: %q, want 40s left for the run", lines[0])
	}
	if !strings.HasSuffix(lines[2], "50%, ETA 25s for the run") {
		t.Errorf("matching: %q, want 25s left for the run", lines[2])
	}
}

// TestMeterEnd: a stage ended by an error or by the user does not say it
// finished (after Ctrl-C the last line claimed the stage done).
func TestMeterEnd(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, "reading: 7 docs, "},
		{context.Canceled, "reading: interrupted after 7 docs, "},
		{fmt.Errorf("stage: %w", context.Canceled), "reading: interrupted after 7 docs, "},
		{errors.New("disk full"), "reading: stopped by an error after 7 docs, "},
	} {
		var b bytes.Buffer
		m := New(&b)
		m.Stage("reading")
		m.End(7, tc.err)
		if !strings.HasPrefix(b.String(), tc.want) || strings.Count(b.String(), "\n") != 1 {
			t.Errorf("error %v: %q, want one line starting %q", tc.err, b.String(), tc.want)
		}
	}
}

// TestLinesStartOnTheirOwn writes warnings through Lines between the
// updates of a meter on a terminal and wants each on a screen line of its
// own, the meter's line drawn anew below them: a warning was written on
// the end of the progress line ("…, 3swarning: skipped: …").
func TestLinesStartOnTheirOwn(t *testing.T) {
	var b bytes.Buffer
	m := NewTerminal(&b, 0)
	warn := m.Lines(&b)
	m.Stage("reading")
	m.Update(100, 1, 4)
	fmt.Fprintln(warn, "warning: skipped: a.jsonl:3: empty")
	fmt.Fprintln(warn, "warning: skipped: a.jsonl:4: empty")
	m.Update(150, 2, 4)
	m.Done(200)
	fmt.Fprintln(warn, "warning: dates not read: 1")
	got := screen(b.String())
	if len(got) != 4 || got[0] != "warning: skipped: a.jsonl:3: empty" || got[1] != "warning: skipped: a.jsonl:4: empty" ||
		!strings.HasPrefix(got[2], "reading: 200 docs, ") || got[3] != "warning: dates not read: 1" {
		t.Errorf("the screen holds %q, want the two warnings, the stage's last line and the warning after it", got)
	}
	if w := New(&b).Lines(&b); w != io.Writer(&b) {
		t.Errorf("Lines of a meter not on a terminal is %T, want the writer as it is", w)
	}
	// A file that is no terminal (standard output sent to a file) never
	// shows the meter's line.
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := m.Lines(f); w != io.Writer(f) {
		t.Errorf("Lines of a file that is no terminal is %T, want the file as it is", w)
	}
	if w := m.Lines(nil); w != nil {
		t.Errorf("Lines(nil) is %v, want nil", w)
	}
}

// screen is what a terminal shows of out, line by line: a carriage return
// goes back to the line's start, ESC [K clears the line from there.
func screen(out string) []string {
	var lines []string
	var line []rune
	col := 0
	for i := 0; i < len(out); {
		switch {
		case out[i] == '\r':
			col = 0
			i++
		case strings.HasPrefix(out[i:], "\033[K"):
			line = line[:col]
			i += len("\033[K")
		case out[i] == '\n':
			lines = append(lines, string(line))
			line, col = nil, 0
			i++
		default:
			r, n := utf8.DecodeRuneInString(out[i:])
			if col < len(line) {
				line[col] = r
			} else {
				line = append(line, r)
			}
			col++
			i += n
		}
	}
	if len(line) > 0 {
		lines = append(lines, string(line))
	}
	return lines
}

// Tick prints the share done with the docs the stage's last Update gave,
// between updates: a read of no document that takes long shows as it goes.
func TestMeterTick(t *testing.T) {
	var b bytes.Buffer
	m := New(&b)
	m.interval = 0
	m.Stage("reading")
	m.Tick(1, 4)
	m.Update(100, 2, 4)
	m.Tick(3, 4)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "reading: 0 docs") || !strings.Contains(lines[0], "25%") ||
		!strings.HasPrefix(lines[2], "reading: 100 docs") || !strings.Contains(lines[2], "75%") {
		t.Errorf("lines %q", lines)
	}
	New(nil).Tick(1, 2) // a nil Meter prints nothing
}
