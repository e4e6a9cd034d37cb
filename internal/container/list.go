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
	// Stream reports a path given that is no regular file but can be read
	// once only: a named pipe (FIFO), a character device, a process
	// substitution's /dev/fd/N. Size is -1; a caller that reads its inputs
	// twice keeps a copy of the first reading, as of standard input.
	Stream bool
	// Err, when set, says why a file or directory met in a directory
	// cannot be read (a symbolic link to nothing, a loop of links, a
	// directory not readable); the caller reports it and reads the rest.
	Err error
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
// when it is a file (whatever its name; File.Stream when it is no regular
// file, such as a named pipe), else the regular files of the
// directory tree (following symbolic links to files, and the path itself
// when it is a link to a directory), skipping names that start with ".".
// A file or directory in the tree that cannot be reached is listed with
// Err set; only the path itself missing or unreadable is an error. A
// directory holding nothing to read is a *NoFilesError: a caller may
// report it and read its other inputs.
func List(p string, o ListOptions) ([]File, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return []File{{Path: p, Size: -1, Stream: true}}, nil
		}
		return []File{{Path: p, Size: info.Size()}}, nil
	}
	root := p
	if li, err := os.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 && !os.IsPathSeparator(p[len(p)-1]) {
		root = p + string(filepath.Separator) // the walk follows a root link only when it ends so
	}
	var files []File
	err = filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			if q == root || d == nil {
				return err
			}
			files = append(files, File{Path: q, Err: err}) // a directory not readable
			return nil
		}
		if q != root && (strings.HasPrefix(d.Name(), ".") || d.IsDir() && o.Exclude != nil && o.Exclude(q)) {
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
			// A link to nothing, a loop of links: told, not fatal.
			files = append(files, File{Path: q, Err: err})
			return nil
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
		return nil, &NoFilesError{Dir: p}
	}
	return files, nil
}

// NoFilesError is List's error for a directory that holds no file to
// read: none, or only files of names not in the table of formats (not
// counted as read), hidden or excluded ones.
type NoFilesError struct {
	Dir string // as given to List
}

func (e *NoFilesError) Error() string { return fmt.Sprintf("%s: no %s files", e.Dir, extList()) }

// extList lists the extensions read, for messages: ".txt, .md, ... or .tar".
func extList() string {
	exts := Extensions()
	return strings.Join(exts[:len(exts)-1], ", ") + " or " + exts[len(exts)-1]
}

// IDNames returns, for each input given on the command line, the name its
// ids start with (see RelativeID): its last path element ("bbc.tar.gz" of
// "/data/bbc.tar.gz", "crawl" of "crawl/"), or as many of its last
// elements as tell it from the other inputs ("d1/a.txt" and "d2/a.txt"); a
// path given twice keeps its whole form. "-" (stdin) has none.
func IDNames(given []string) []string {
	elems := make([][]string, len(given))
	for i, g := range given {
		if g == "" || g == "-" {
			continue
		}
		elems[i] = strings.Split(filepath.ToSlash(filepath.Clean(mustAbs(g))), "/")
	}
	last := func(e []string, k int) string { return strings.Join(e[max(0, len(e)-k):], "/") }
	names := make([]string, len(given))
	for i, e := range elems {
		if e == nil {
			continue
		}
		for k := 1; k <= len(e); k++ {
			names[i] = last(e, k)
			clash := false
			for j, f := range elems {
				if j != i && f != nil && last(f, len(f)) != last(e, len(e)) && last(f, k) == names[i] {
					clash = true
				}
			}
			if !clash {
				break
			}
		}
	}
	return names
}

// RelativeID returns the id of what origin names, origin being a path met
// under the input given on the command line ("/data/bbc.tar.gz/bbc/1.txt",
// "/data/news.jsonl:17", "crawl/a.warc#3"), with name (see IDNames) in
// place of the path given: "bbc.tar.gz/bbc/1.txt", "news.jsonl:17",
// "crawl/a.warc#3", whether the input was named by an absolute or a
// relative path. An origin outside given is returned as it is.
func RelativeID(given, name, origin string) string {
	if given == "" || given == "-" || name == "" || !strings.HasPrefix(origin, given) {
		return origin
	}
	rest := origin[len(given):]
	if rest != "" && !strings.HasSuffix(given, "/") && !strings.HasSuffix(given, string(filepath.Separator)) &&
		strings.IndexByte("/:#"+string(filepath.Separator), rest[0]) < 0 {
		return origin // another name that starts alike: "a.jsonl" of "a.jsonl.gz"
	}
	rest = strings.TrimLeft(filepath.ToSlash(rest), "/")
	switch {
	case rest == "":
		return name
	case rest[0] == ':' || rest[0] == '#':
		return name + rest
	}
	return name + "/" + rest
}

// mustAbs returns the absolute form of a path, or the path when the
// working directory is unknown.
func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
