// Package tempfile owns the temporary files neardup writes outside its
// outputs (a stream's copy for a second pass, spill files, archives copied
// for random access): files that leave nothing behind when the process is
// killed, wherever the system allows it.
package tempfile

import (
	"errors"
	"os"
)

// File is a temporary file open for reading and writing, read and written
// through the open file only. Where the system lets the name of an open
// file be removed (Unix), Create removes it at once: the file's bytes live
// until it is closed, and a run killed (kill -9, a crash, the power cut)
// leaves nothing in the directory. Where it does not (Windows), the name
// stays until Close removes it, and a run killed leaves the file.
type File struct {
	*os.File
	named  bool // the name is still in the directory: Close removes it
	closed bool
}

// Create creates a new temporary file in dir (os.TempDir() for ""), its
// name made of pattern as os.CreateTemp makes it, and removes its name
// where the system allows (see File). Name still returns the name it had.
func Create(dir, pattern string) (*File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &File{File: f, named: os.Remove(f.Name()) != nil}, nil
}

// Named reports whether the file's name is still in its directory, until
// Close: false where the system let Create remove it.
func (f *File) Named() bool { return f.named }

// Close closes the file, which frees its bytes, and removes its name when
// Create could not. It is safe to call twice.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	err := f.File.Close()
	if f.named {
		if rerr := os.Remove(f.Name()); !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		f.named = false
	}
	return err
}

// CreateNamed is Create keeping the file's name until Close, for a file
// that must be opened again by its name (a library that opens files by
// path only, where no other path reaches an open file).
func CreateNamed(dir, pattern string) (*File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &File{File: f, named: true}, nil
}
