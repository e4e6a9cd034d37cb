//go:build !linux

package main

import "os"

// pipeTells says whether pipeHolds tells how many bytes a pipe holds: not
// on this system.
const pipeTells = false

// pipeHolds returns 0: this system does not tell how many bytes written
// into a pipe are not read yet.
func pipeHolds(w *os.File) (int, error) { return 0, nil }
