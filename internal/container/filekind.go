package container

import "io/fs"

// FileKind names what a path that is neither a regular file nor a
// directory is, by its mode: a pipe (|, /dev/stdin, <(...)) or a FIFO made
// by mkfifo, a character device (/dev/null), another device, a socket.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a pipe or FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file (mode " + m.String() + ")"
}
