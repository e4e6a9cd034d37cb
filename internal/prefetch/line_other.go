//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// line does nothing where no prefetch instruction is wired in.
func line(unsafe.Pointer) {}
