package dedup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic writes a file through write: to a temporary name in the same
// directory first, renamed to path only when everything is written, so a
// failed run never leaves a partial file.
func writeAtomic(path string, write func(w *bufio.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("dedup: writing %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	err = f.Chmod(0o644) // CreateTemp makes it private; this is an output for the user
	if err == nil {
		err = write(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("dedup: writing %s: %w", path, err)
	}
	return nil
}
