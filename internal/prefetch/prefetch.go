// Package prefetch asks the processor to bring memory into its caches ahead
// of use, without waiting for it: a loop that is about to read scattered
// data (the vectors of the next candidates, say) requests it while it works
// on the current item, so that the cache misses overlap the work instead of
// stalling it one after another. A request is a hint: it never faults, and
// on processors without an instruction for it nothing happens.
package prefetch

import "unsafe"

// lineSize is the cache line size assumed: 64 bytes on the processors the
// project runs on.
const lineSize = 64

// Value requests the cache line holding *p.
func Value[T any](p *T) { line(unsafe.Pointer(p)) }

// Slice requests every cache line holding s's elements.
func Slice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	n := len(s) * int(unsafe.Sizeof(s[0]))
	for off := 0; off < n; off += lineSize {
		line(unsafe.Add(p, off))
	}
	line(unsafe.Add(p, n-1)) // the last line, when s does not start on one
}
