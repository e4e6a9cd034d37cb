package job

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/dustin/go-humanize"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
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

// budget sets g to keep a memory budget of limit bytes, spilling to a new
// folder in out's work folder, and tells the collector to keep the heap
// within limit, until the live heap passes overShare of it (see
// budgetWatch); done removes the folder and restores the collector's
// limit.
func budget(out *output.Set, limit int64, g *engine.Grouping) (w *budgetWatch, done func(), err error) {
	work, err := out.WorkDir()
	if err != nil {
		return nil, nil, err
	}
	if err := removeSpills(work); err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp(work, "spill-")
	if err != nil {
		return nil, nil, fmt.Errorf("creating a folder to spill to: %w", err)
	}
	g.Memory = limit
	g.Spill = func(name string) (engine.SpillFile, error) {
		return os.Create(filepath.Join(dir, name))
	}
	prev := debug.SetMemoryLimit(limit)
	w = watchBudget(limit)
	return w, func() {
		w.stop()
		debug.SetMemoryLimit(prev)
		os.RemoveAll(dir)
		os.Remove(work) // when nothing else is left there
	}, nil
}

// budgetWatch gives up a memory budget too small for a run. After each
// collection it reads the live heap; the first time that is past overShare
// of the budget, it lifts the collector's limit (the pacer's GOGC then
// sizes the heap, as in a run without a budget) and records the live heap,
// which the run reports (Over, engine.Stats.OverBudget). The run goes on
// and gives the same results; it holds more than the budget from then on.
type budgetWatch struct {
	limit   int64
	over    atomic.Int64 // the live heap when the budget was given up; 0 while kept
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
// go on watching.
func (w *budgetWatch) check(live int64) bool {
	if w.stopped.Load() || w.over.Load() != 0 {
		return false
	}
	if float64(live) <= overShare*float64(w.limit) {
		return true
	}
	debug.SetMemoryLimit(math.MaxInt64)
	w.over.Store(live)
	return false
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
// many documents were read, share the part of the input read (0 when not
// known).
func (w *budgetWatch) warning(docs int, share float64) string {
	over := w.Over()
	if over == 0 || w.warned {
		return ""
	}
	w.warned = true
	return fmt.Sprintf("warning: the memory budget of %s is too small for this run: after %d documents "+
		"the live heap is %s, past %.0f%% of it, where the collector would run without pause; "+
		"the run goes on past the budget. A budget of %s would do.\n",
		humanize.IBytes(uint64(w.limit)), docs, humanize.IBytes(uint64(over)), 100*overShare,
		humanize.IBytes(uint64(suggestBudget(over, share))))
}

// suggestBudget is a budget for a run whose live heap passed overShare of
// the one given at live bytes with share of its input read: twice the
// live heap projected for the whole input (spilling keeps half of a
// budget for what does not spill), rounded up to a power of two.
func suggestBudget(live int64, share float64) int64 {
	need := 2 * float64(live)
	if share > 0 && share < 1 {
		need /= share
	}
	b := int64(MinMemory)
	for float64(b) < need {
		b *= 2
	}
	return b
}

func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// removeSpills removes the folders earlier runs spilled to in the work
// folder work and did not remove (a run killed): no run reads them again,
// and one run at a time writes an output (its lock).
func removeSpills(work string) error {
	old, _ := filepath.Glob(filepath.Join(work, "spill-*"))
	for _, dir := range old {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing what an earlier run spilled: %w", err)
		}
	}
	return nil
}
