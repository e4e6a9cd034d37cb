//go:build unix

package container

import (
	"os"

	"golang.org/x/sys/unix"
)

// Arrived returns a func that reports whether f, a stream (standard
// input, a pipe), has bytes that no read took yet, or its end: whether a
// read would return without waiting. It asks without waiting itself, and
// leaves f's mode alone. nil when f cannot be asked (see Top.Ready).
func Arrived(f *os.File) func() bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return func() bool {
		ready := true // a question that fails waits, as a read would
		rc.Control(func(fd uintptr) {
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, 0)
			ready = err != nil || n > 0
		})
		return ready
	}
}
