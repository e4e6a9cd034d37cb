//go:build amd64 || arm64

package prefetch

import "unsafe"

// line requests the cache line holding p (PREFETCHT0 or PRFM PLDL1KEEP).
//
//go:noescape
func line(p unsafe.Pointer)
