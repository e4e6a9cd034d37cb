package container

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is a file to read, given by the caller or found in a directory.
type File struct {
	Path string // to open
	Size int64
}

// ListOptions control List.
type ListOptions struct {
	// AnyName lists every file of a directory; else only those whose names
	// are in the table of formats.
	AnyName bool
	// Exclude, when set, names files and directories met in a directory
	// that are not inputs (a run's own output, say); a directory excluded
	// is not walked.
	Exclude func(path string) bool
	// Unlisted, when set, is called with each file of a directory that is
	// not listed because its name is not in the table of formats (not for
	// hidden or excluded ones), so that a caller can say what it left.
	Unlisted func(path string)
}

// List returns the files a path names, in lexical order: the path itself
// when it is a file (whatever its name), else the regular files of the
// directory tree (following symbolic links to files), skipping names that
// start with ".". A directory holding nothing to read is an error.
func List(p string, o ListOptions) ([]File, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []File{{Path: p, Size: info.Size()}}, nil
	}
	var files []File
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if q != p && (strings.HasPrefix(d.Name(), ".") || d.IsDir() && o.Exclude != nil && o.Exclude(q)) {
			if d.IsDir() {
				return filepath.SkipDir // hidden or excluded: not walked
			}
			return nil
		}
		if d.IsDir() || (o.Exclude != nil && o.Exclude(q)) {
			return nil
		}
		if !o.AnyName && !Listed(d.Name()) {
			if o.Unlisted != nil {
				if info, err := os.Stat(q); err == nil && info.Mode().IsRegular() {
					o.Unlisted(q)
				}
			}
			return nil
		}
		info, err := os.Stat(q) // follows a symbolic link
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		files = append(files, File{Path: q, Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no %s files", p, extList())
	}
	return files, nil
}

// extList lists the extensions read, for messages: ".txt, .md, ... or .tar".
func extList() string {
	exts := Extensions()
	return strings.Join(exts[:len(exts)-1], ", ") + " or " + exts[len(exts)-1]
}
