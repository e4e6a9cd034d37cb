//go:build !unix

package output

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

// lock is a held lock file, created exclusively. Where advisory locks are
// not available a lock left by a killed run stays until removed by hand,
// as the error message says.
type lock struct{ path string }

// acquire creates the lock file at path for the output directory name, or
// fails at once when it exists.
func acquire(path, name string) (*lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		holder, _ := os.ReadFile(path)
		return nil, fmt.Errorf("%s: another neardup run (process %s) is writing its results there; wait for it to end or choose another directory (if no run is going on, remove %s)",
			name, string(holder), path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: creating the lock file %s: %w", name, path, err)
	}
	f.WriteString(strconv.Itoa(os.Getpid()))
	f.Close()
	return &lock{path: path}, nil
}

// release removes the lock file; it may be called more than once.
func (l *lock) release() {
	if l == nil || l.path == "" {
		return
	}
	os.Remove(l.path)
	l.path = ""
}

// lockTemp does nothing where advisory locks are not available.
func lockTemp(*os.File) error { return nil }

// errTempTaken is never returned where advisory locks are not available.
var errTempTaken = errors.New("output: the temporary file is locked by another run")

// removeDead leaves a temporary file in place where advisory locks are
// not available: no run can tell a killed run's from a running one's.
func removeDead(string) {}
