package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeTells says whether pipeHolds tells how many bytes a pipe holds.
const pipeTells = true

// pipeHolds returns how many bytes written into the pipe w are not read
// yet.
func pipeHolds(w *os.File) (int, error) {
	return unix.IoctlGetInt(int(w.Fd()), unix.TIOCINQ)
}
