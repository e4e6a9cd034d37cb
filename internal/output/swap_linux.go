package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameExchange swaps the names a and b atomically (renameat2 with
// RENAME_EXCHANGE), or answers errNoExchange where the file system cannot.
func renameExchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
