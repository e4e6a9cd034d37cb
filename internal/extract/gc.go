package extract

import (
	"os"
	"runtime/debug"
)

// GCPercent is the collector's target (GOGC) for a process that only
// extracts pages, as `neardup extract` does: what it keeps alive is small
// (the pages in flight), and what it lets go is plenty (each page's tree,
// the engine's copies of it, its text), so a collection at three times the
// live heap rather than twice frees as much for half the work, for some
// more memory at the peak (docs/performance.md, "Extraction").
const GCPercent = 200

// SetGC sets the collector's target to GCPercent, unless the environment's
// GOGC sets one (the user's choice stands), and returns a function that
// puts the previous target back. A program that does more than extract
// pages, such as one that also holds an index, keeps Go's default.
func SetGC() (restore func()) {
	if os.Getenv("GOGC") != "" { // an empty GOGC is Go's default, as if unset
		return func() {}
	}
	prev := debug.SetGCPercent(GCPercent)
	return func() { debug.SetGCPercent(prev) }
}
