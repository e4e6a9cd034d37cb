// Package prefetch asks the processor to bring memory into its caches ahead
// of use, without waiting for it: a loop that is about to read scattered
// data (the vectors of the next candidates, say) requests it while it works
// on the current item, so that the cache misses overlap the work instead of
// stalling it one after another. A request is a hint: it never faults, and
// on processors without an instruction for it nothing happens.
package prefetch

import "unsafe"

// Value requests the cache lines holding *p.
func Value[T any](p *T) { request(unsafe.Pointer(p), int(unsafe.Sizeof(*p))) }

// Slice requests every cache line holding s's elements.
func Slice[T any](s []T) {
	request(unsafe.Pointer(unsafe.SliceData(s)), len(s)*int(unsafe.Sizeof(*unsafe.SliceData(s))))
}

// request requests the lines holding the n bytes from p, if any.
func request(p unsafe.Pointer, n int) {
	if n > 0 {
		span(p, n)
	}
}
