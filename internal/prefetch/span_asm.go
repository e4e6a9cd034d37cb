//go:build amd64 || arm64

package prefetch

import "unsafe"

// span requests the cache lines holding the n bytes from p (n > 0): one
// call for the whole span, since assembly is not inlined.
//
//go:noescape
func span(p unsafe.Pointer, n int)
