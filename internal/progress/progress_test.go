package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
