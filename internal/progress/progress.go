// Package progress owns the progress line long jobs print on stderr:
// documents done, documents per second and, when the input's size is known,
// the share done and the time left.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Meter prints progress to a writer: on a terminal one line redrawn in
// place a few times a second, elsewhere (a log file, CI) a line every
// ten seconds. A nil *Meter prints nothing, so callers need no checks.
// Its methods are safe for concurrent use.
type Meter struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	stage    string
	start    time.Time
	last     time.Time
	interval time.Duration
	drawn    bool
}

// New returns a Meter writing to w, or nil when w is nil.
func New(w io.Writer) *Meter {
	if w == nil {
		return nil
	}
	m := &Meter{w: w, interval: 10 * time.Second}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			m.tty, m.interval = true, 200*time.Millisecond
		}
	}
	return m
}

// Stage starts a named stage; its rate is measured from now.
func (m *Meter) Stage(name string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endLine()
	m.stage, m.start = name, time.Now()
	m.last = m.start
}

// Update reports docs done in this stage and, when total > 0, the bytes done
// of total for the share and time left. It prints only when the interval
// has passed.
func (m *Meter) Update(docs int, done, total int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if now.Sub(m.last) < m.interval {
		return
	}
	m.last = now
	m.print(now, docs, done, total)
}

// Done prints the stage's final line.
func (m *Meter) Done(docs int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.print(time.Now(), docs, 0, 0)
	m.endLine()
}

func (m *Meter) print(now time.Time, docs int, done, total int64) {
	el := now.Sub(m.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(docs) / el
	}
	line := fmt.Sprintf("%s: %d docs, %.0f docs/s, %s", m.stage, docs, rate, now.Sub(m.start).Round(time.Second))
	if total > 0 && done > 0 {
		frac := min(float64(done)/float64(total), 1)
		left := time.Duration(el * (1 - frac) / frac * float64(time.Second)).Round(time.Second)
		line += fmt.Sprintf(", %.0f%%, ETA %s", frac*100, left)
	}
	if m.tty {
		fmt.Fprintf(m.w, "\r\033[K%s", line)
		m.drawn = true
		return
	}
	fmt.Fprintln(m.w, line)
}

func (m *Meter) endLine() {
	if m.tty && m.drawn {
		fmt.Fprintln(m.w)
		m.drawn = false
	}
}
