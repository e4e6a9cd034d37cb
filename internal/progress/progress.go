// Package progress owns the progress line long jobs print on stderr:
// documents done, documents per second and, when the input's size is known,
// the share done and the time left: of the stage, or of the whole run when
// the run's stages are planned (Plan).
package progress

import (
	"context"
	"errors"
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
	docs     int // the docs the stage's last Update reported, for Tick
	// plan is the run's stages and their expected durations relative to
	// the first's; first is how long the first took (or, while it runs, is
	// expected to take); at is the index in plan of the current stage.
	plan  []Step
	first time.Duration
	at    int
}

// Step is a stage of a planned run: its name, and how long it is expected
// to take relative to the first stage (1 for the first itself).
type Step struct {
	Name   string
	Weight float64
}

// Plan declares the stages of the run to come, in order, so that the time
// left printed is that of the whole run: the rest of the current stage and
// the expected length of the stages after it, each its Weight times the
// first stage's length. It may be called again to correct the weights of
// the stages not started (their names must stay).
func (m *Meter) Plan(steps ...Step) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.plan = steps
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

// NewTerminal returns a Meter that draws on w as on a terminal whatever w
// is, its one line redrawn in place at an update at most every interval
// (0: at every update; New's on a terminal, 200ms): for a writer that
// passes what it is given on to a terminal, which New tells only of an
// *os.File. It returns nil when w is nil.
func NewTerminal(w io.Writer, interval time.Duration) *Meter {
	if w == nil {
		return nil
	}
	return &Meter{w: w, tty: true, interval: interval}
}

// Lines returns the writer to write lines to w through while the meter may
// be drawing, where w goes to the screen the meter draws on (warnings on
// stderr): each write first clears the line the meter drew, so that what
// it writes starts a line of its own, and the meter draws its line anew
// below at its next update. Each write is to end its last line. A nil
// Meter, or one not on a terminal, whose lines are whole, returns w as it
// is (nil for nil); so does a file that is no terminal (standard output
// sent to a file or a pipe), which the meter's line never reaches.
func (m *Meter) Lines(w io.Writer) io.Writer {
	if m == nil || !m.tty || w == nil {
		return w
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			return w
		}
	}
	return lines{m, w}
}

// lines is the writer Lines returns.
type lines struct {
	m *Meter
	w io.Writer
}

func (l lines) Write(p []byte) (int, error) {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	if l.m.drawn {
		fmt.Fprint(l.m.w, "\r\033[K")
		l.m.drawn = false
	}
	return l.w.Write(p)
}

// Stage starts a named stage; its rate is measured from now.
func (m *Meter) Stage(name string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endLine()
	now := time.Now()
	if m.stage != "" && len(m.plan) > 0 && m.plan[0].Name == m.stage && m.first == 0 {
		m.first = now.Sub(m.start)
	}
	m.stage, m.start, m.docs = name, now, 0
	m.last = m.start
	for i, st := range m.plan {
		if st.Name == name {
			m.at = i
		}
	}
}

// End prints the stage's final line: as Done when err is nil, else saying
// that the stage was interrupted (err is, or wraps, context.Canceled: the
// user stopped the run) or stopped by an error, so that the last line
// never claims a stage finished that did not.
func (m *Meter) End(docs int, err error) {
	if m == nil {
		return
	}
	if err == nil {
		m.Done(docs)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	how := "stopped by an error"
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		how = "interrupted"
	}
	line := fmt.Sprintf("%s: %s after %d docs, %s", m.stage, how, docs, time.Since(m.start).Round(time.Second))
	m.write(line)
	m.endLine()
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
	m.docs = docs
	now := time.Now()
	if now.Sub(m.last) < m.interval {
		return
	}
	m.last = now
	m.print(now, docs, done, total)
}

// Tick reports the bytes done of total, as Update does, with the docs the
// stage's last Update reported: for a caller that reports between
// documents, while reading one takes long (a large zip member checked
// before any document of it is read). It prints only when the interval
// has passed.
func (m *Meter) Tick(done, total int64) {
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
	m.print(now, m.docs, done, total)
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
		left := time.Duration(el * (1 - frac) / frac * float64(time.Second))
		if len(m.plan) > 0 && m.plan[m.at].Name == m.stage {
			line += fmt.Sprintf(", %.0f%%, ETA %s for the run", frac*100, m.runLeft(left, time.Duration(el/frac*float64(time.Second))).Round(time.Second))
		} else {
			line += fmt.Sprintf(", %.0f%%, ETA %s", frac*100, left.Round(time.Second))
		}
	}
	m.write(line)
}

// runLeft is the time left in the run: left in the current stage, whose
// whole length is expected to be whole, and the stages planned after it.
func (m *Meter) runLeft(left, whole time.Duration) time.Duration {
	first := m.first
	if m.at == 0 {
		first = whole
	}
	for _, st := range m.plan[m.at+1:] {
		left += time.Duration(st.Weight * float64(first))
	}
	return left
}

func (m *Meter) write(line string) {
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
