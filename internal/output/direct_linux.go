package output

import (
	"os"

	"golang.org/x/sys/unix"
)

// openDirect creates the file at path for writing with direct I/O, or
// without where the file system refuses it; direct says which.
func openDirect(path string) (f *os.File, direct bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|unix.O_DIRECT, 0o666)
	if err == nil {
		return f, true, nil
	}
	f, err = os.Create(path)
	return f, false, err
}

// directOff turns direct I/O off for f.
func directOff(f *os.File) error {
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, fl&^unix.O_DIRECT)
	}
	return err
}
