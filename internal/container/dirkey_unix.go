//go:build unix

package container

import (
	"io/fs"
	"syscall"
)

// dirKey tells one directory, or file, from another: its device and inode.
type dirKey struct {
	dev, ino uint64
	path     string // where the system gives neither
}

// keyOf returns the key of the directory or file at path, of info.
func keyOf(path string, info fs.FileInfo) dirKey {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return dirKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return dirKey{path: resolvedPath(path)}
}
