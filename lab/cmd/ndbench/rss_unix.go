//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns a finished process's peak resident set size in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes there
	}
	return ru.Maxrss * 1024 // KiB on Linux and the BSDs
}
