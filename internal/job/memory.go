package job

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/dustin/go-humanize"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/tempfile"
)

// MinMemory is the smallest memory budget the command line takes: about
// what a run holds whatever its corpus (reading buffers, the workers'
// sketchers, one share of the spilled band keys and candidate pairs at a
// time) with room for the collector; below it the live heap is past the
// budget from the first documents on (see budgetWatch). Run takes any
// budget, as tests use tiny ones to spill everything.
const MinMemory = 64 << 20

// overShare is the share of the budget the live heap may reach before the
// budget is given up. The pacer's collections come at 1.25× the live heap
// (GOGC=25), so a budget starts to bite at 80 % of it; at 90 % they come
// two and a half times as often, and past it, more often still, the
// collector runs almost without pause, each collection freeing little (the
// live heap is what the run cannot spill: the document table, the
// sketches held, the pairs found).
const overShare = 0.9

// budget sets g to keep a memory budget of limit bytes, spilling to files
// in out's work folder whose names are removed as they are made where the
// system allows (package tempfile: a run killed leaves none there), and
// tells the collector to keep the heap within limit, until the live heap
// passes overShare of it (see budgetWatch); done removes what is left of
// the files and restores the collector's limit.
func budget(out *output.Set, limit int64, g *engine.Grouping) (w *budgetWatch, done func(), err error) {
	work, err := out.WorkDir()
	if err != nil {
		return nil, nil, err
	}
	if err := removeSpills(work); err != nil {
		return nil, nil, err
	}
	g.Memory = limit
	g.Spill = func(name string) (engine.SpillFile, error) {
		return tempfile.Create(work, "spill-"+name+"-*")
	}
	prev := debug.SetMemoryLimit(limit)
	w = watchBudget(limit)
	return w, func() {
		w.stop()
		debug.SetMemoryLimit(prev)
		removeSpills(work) // the names of files not closed, where they could not be removed at once
		os.Remove(work)    // when nothing else is left there
	}, nil
}

// budgetWatch gives up a memory budget too small for a run. After each
// collection it reads the live heap; the first time that is past overShare
// of the budget, it lifts the collector's limit (the pacer's GOGC then
// sizes the heap, as in a run without a budget) and records the live heap,
// which the run reports (Over, engine.Stats.OverBudget). The run goes on
// and gives the same results; it holds more than the budget from then on,
// and the watch records the largest live heap to the end of the run, from
// which advice names a budget that would do.
type budgetWatch struct {
	limit   int64
	over    atomic.Int64 // the live heap when the budget was given up; 0 while kept
	peak    atomic.Int64 // the largest live heap since the budget was given up
	stopped atomic.Bool
	warned  bool // the runner's: the warning was written
}

func watchBudget(limit int64) *budgetWatch {
	w := &budgetWatch{limit: limit}
	runtime.SetFinalizer(&budgetTick{w: w}, (*budgetTick).collected)
	return w
}

// budgetTick is an object nothing refers to: its finalizer runs after each
// collection and sets it again.
type budgetTick struct{ w *budgetWatch }

func (t *budgetTick) collected() {
	if t.w.check(liveHeap()) {
		runtime.SetFinalizer(t, (*budgetTick).collected)
	}
}

// check looks at the live heap after a collection; it reports whether to
// go on watching, which is until stop.
func (w *budgetWatch) check(live int64) bool {
	if w.stopped.Load() {
		return false
	}
	if w.over.Load() != 0 {
		if live > w.peak.Load() {
			w.peak.Store(live)
		}
		return true
	}
	if float64(live) <= overShare*float64(w.limit) {
		return true
	}
	debug.SetMemoryLimit(math.MaxInt64)
	w.peak.Store(live)
	w.over.Store(live)
	return true
}

func (w *budgetWatch) stop() { w.stopped.Store(true) }

// Over returns the live heap at which the budget was given up; 0 while it
// is kept (and for a nil watch: a run without a budget).
func (w *budgetWatch) Over() int64 {
	if w == nil {
		return 0
	}
	return w.over.Load()
}

// warning returns, once, the line that says the budget was given up; ""
// while it is kept and after the first call that returned it. docs is how
// many documents were read.
func (w *budgetWatch) warning(docs int) string {
	over := w.Over()
	if over == 0 || w.warned {
		return ""
	}
	w.warned = true
	return fmt.Sprintf("warning: the memory budget of %s is too small for this run: after %d documents "+
		"the live heap is %s, past %.0f%% of it, where the collector would run without pause; "+
		"the run goes on past the budget, and names one that would do at its end.\n",
		humanize.IBytes(uint64(w.limit)), docs, humanize.IBytes(uint64(over)), 100*overShare)
}

// advice returns the line that names a budget that would have done for
// the run, once it has ended, by the largest live heap the watch saw;
// "" for a run that kept its budget (and for a nil watch). spilled
// reports whether the run sent any sketch to disk.
func (w *budgetWatch) advice(spilled bool) string {
	if w.Over() == 0 {
		return ""
	}
	peak := w.peak.Load()
	held := ""
	if spilled {
		held = fmt.Sprintf(", of which %s could not spill", humanize.IBytes(uint64(peak-w.limit/2)))
	}
	return fmt.Sprintf("warning: the memory budget of %s was too small for this run: its live heap peaked at %s%s; "+
		"--memory %s would do.\n",
		humanize.IBytes(uint64(w.limit)), humanize.IBytes(uint64(peak)), held,
		budgetString(suggestBudget(peak, w.limit, spilled)))
}

// suggestBudget is a budget under which a run that gave up one of limit
// bytes, its live heap peaking at peak, would keep it. Under a budget
// the sketches held take up to half of it (by the engine's reckoning,
// Grouping.Memory): when some spilled, the rest of the peak is what
// cannot spill (the document table, the pairs, buffers), which with half
// of the new budget has to stay within overShare of it; when none
// spilled, the whole peak has to. The figure is rounded up to a quarter of
// the power of two below it, so that it is at most a quarter over, and is
// at least MinMemory.
func suggestBudget(peak, limit int64, spilled bool) int64 {
	need := float64(peak) / overShare
	if spilled {
		need = float64(peak-limit/2) / (overShare - 0.5)
	}
	if need <= MinMemory {
		return MinMemory
	}
	step := int64(1) << (bits.Len64(uint64(need)) - 3)
	return int64(math.Ceil(need/float64(step))) * step
}

// budgetString writes a budget of suggestBudget as --memory takes it, in
// whole GiB or else whole MiB (1280MiB, not 1.2 GiB).
func budgetString(b int64) string {
	if b%(1<<30) == 0 {
		return fmt.Sprintf("%dGiB", b>>30)
	}
	return fmt.Sprintf("%dMiB", (b+1<<20-1)>>20)
}

func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// removeSpills removes the spill files with names, and the folders of
// spill files of older versions, that earlier runs left in the work folder
// work (a run killed where a file's name cannot be removed while it is
// open): no run reads them again, and one run at a time writes an output
// (its lock).
func removeSpills(work string) error {
	old, _ := filepath.Glob(filepath.Join(work, "spill-*"))
	for _, dir := range old {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing what an earlier run spilled: %w", err)
		}
	}
	return nil
}
