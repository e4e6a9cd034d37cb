//go:build unix

package output

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// lock is a held lock file: an advisory lock (flock) on it, which the
// system drops when the process ends however it ends, so a lock left by a
// killed run is never in the way.
type lock struct {
	f    *os.File
	path string
}

// acquire takes the lock file at path for the output directory name, or
// fails at once naming the process that holds it.
func acquire(path, name string) (*lock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("%s: creating the lock file %s: %w", name, path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder, _ := os.ReadFile(path)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				who := "another neardup run"
				if pid, err := strconv.Atoi(string(bytes.TrimSpace(holder))); err == nil {
					who = fmt.Sprintf("another neardup run (process %d)", pid)
				}
				return nil, fmt.Errorf("%s: %s is writing its results there (lock %s); wait for it to end or choose another directory", name, who, path)
			}
			return nil, fmt.Errorf("%s: locking %s: %w", name, path, err)
		}
		// The holder before us may have removed the file after we opened
		// it: then we hold a lock on a file no one else will see. Retry.
		fst, err1 := f.Stat()
		pst, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(fst, pst) {
			f.Close()
			continue
		}
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return &lock{f: f, path: path}, nil
	}
}

// release removes the lock file and drops the lock; it may be called more
// than once.
func (l *lock) release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path) // while still held, so no one locks the file removed
	l.f.Close()
	l.f = nil
}

// lockTemp takes an advisory lock on f, a temporary file WriteAtomic
// writes, held until f is closed or the process ends however it ends: a
// later run takes such a file whose lock it can take for a killed run's
// (removeDeadTemps).
func lockTemp(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errTempTaken
	}
	return err
}

// errTempTaken is lockTemp's error when another process holds the lock:
// a run's cleanup (removeDead), which removes the file.
var errTempTaken = errors.New("output: the temporary file is locked by another run")

// removeDead removes the temporary file at path when no process holds
// its lock: the run that wrote it ended before renaming it. It is
// removed while locked, so that no run takes it meanwhile.
func removeDead(path string) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		os.Remove(path)
	}
}
