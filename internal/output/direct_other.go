//go:build !linux

package output

import "os"

// openDirect creates the file at path for writing; direct I/O is used on
// Linux only.
func openDirect(path string) (*os.File, bool, error) {
	f, err := os.Create(path)
	return f, false, err
}

// directOff does nothing where direct I/O is not used.
func directOff(*os.File) error { return nil }
