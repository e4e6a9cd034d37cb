//go:build !unix

package container

import "io/fs"

// dirKey tells one directory, or file, from another: its path, links resolved.
type dirKey struct {
	path string
}

// keyOf returns the key of the directory or file at path.
func keyOf(path string, _ fs.FileInfo) dirKey {
	return dirKey{path: resolvedPath(path)}
}
