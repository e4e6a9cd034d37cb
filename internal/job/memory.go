package job

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// budget sets g to keep a memory budget of limit bytes, spilling to a new
// folder in out's work folder, and tells the collector to keep the heap
// within limit; done removes the folder and restores the collector's
// limit.
func budget(out *output.Set, limit int64, g *engine.Grouping) (done func(), err error) {
	work, err := out.WorkDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(work, "spill-")
	if err != nil {
		return nil, fmt.Errorf("creating a folder to spill to: %w", err)
	}
	g.Memory = limit
	g.Spill = func(name string) (engine.SpillFile, error) {
		return os.Create(filepath.Join(dir, name))
	}
	prev := debug.SetMemoryLimit(limit)
	return func() {
		debug.SetMemoryLimit(prev)
		os.RemoveAll(dir)
		os.Remove(work) // when nothing else is left there
	}, nil
}
