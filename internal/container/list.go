package container

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// File is a file to read, given by the caller or found in a directory.
type File struct {
	Path string // to open
	Size int64
	// Stream reports a path given that can be read once only: a named pipe
	// (FIFO), a process substitution's /dev/fd/N (a pipe). Size is -1; a
	// caller that reads its inputs twice keeps a copy of the first
	// reading, as of standard input.
	Stream bool
	// Key tells the file from another (its device and inode, where the
	// system gives them), whatever path reaches it; zero for a Stream or
	// an Err.
	Key FileKey
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

// MissingError is List's error for a path that names nothing (or a
// symbolic link to nothing): an input given that is not there, a mistake
// in the command line. It is fs.ErrNotExist.
type MissingError struct {
	Path string
}

func (e *MissingError) Error() string { return PathName(e.Path) + ": no such file or directory" }

// Is reports whether target is fs.ErrNotExist.
func (e *MissingError) Is(target error) bool { return target == fs.ErrNotExist }

// List returns the files a path names, in lexical order: the path itself
// when it is a file (whatever its name; File.Stream when it is a pipe),
// else the regular files of the directory
// tree, skipping names that start with ".". Symbolic links are followed,
// to files and to directories alike, the path itself or one met in the
// tree; a directory already walked (the same device and inode: a link to
// a directory above, two links to one) is not walked again, nor is a file
// already listed read again (a symbolic or a hard link to it met later in
// the walk: the path met first names it). A file or directory in the tree
// that cannot be reached (a symbolic link to nothing, a loop of links, a
// directory walked already, a file listed already, one not readable) is
// listed with Err set, whatever its name; only the path itself missing (a
// *MissingError) or unreadable is an error. A directory holding nothing
// to read is a *NoFilesError: a caller may report it and read its other
// inputs.
func List(p string, o ListOptions) ([]File, error) {
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &MissingError{Path: p}
	}
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		// A pipe gives its bytes once. A device is read as a file: it
		// gives them again (/dev/null), or is told apart as binary at its
		// first bytes (/dev/zero) rather than copied aside without end.
		if info.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0 {
			return []File{{Path: p, Size: -1, Stream: true}}, nil
		}
		return []File{{Path: p, Size: info.Size(), Key: FileKey{keyOf(p, info)}}}, nil
	}
	l := &lister{o: o, walked: map[dirKey]string{}, listed: map[dirKey]listedFile{}}
	l.walked[keyOf(p, info)] = p
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, err
	}
	l.entries(p, entries)
	if len(l.files) == 0 {
		return nil, &NoFilesError{Dir: p, AnyName: o.AnyName}
	}
	return l.files, nil
}

// lister walks a directory tree for List.
type lister struct {
	o      ListOptions
	files  []File
	walked map[dirKey]string     // the directories walked, by device and inode, and where
	listed map[dirKey]listedFile // the files listed, by device and inode
}

// entries lists the entries of the directory dir, in lexical order.
func (l *lister) entries(dir string, entries []fs.DirEntry) {
	for _, d := range entries {
		if strings.HasPrefix(d.Name(), ".") {
			continue // hidden: neither read nor walked
		}
		q := filepath.Join(dir, d.Name())
		if l.o.Exclude != nil && l.o.Exclude(q) {
			continue
		}
		if d.IsDir() {
			if info, err := d.Info(); err == nil {
				l.dir(q, info)
			}
			continue
		}
		if d.Type()&fs.ModeSymlink != 0 {
			l.link(q)
			continue
		}
		if d.Type().IsRegular() {
			l.file(q, false)
		}
	}
}

// dir walks the directory q, unless walked already.
func (l *lister) dir(q string, info fs.FileInfo) {
	k := keyOf(q, info)
	if first, ok := l.walked[k]; ok {
		l.files = append(l.files, File{Path: q, Err: &WalkedError{Dir: first}})
		return
	}
	l.walked[k] = q
	entries, err := os.ReadDir(q)
	if err != nil {
		l.files = append(l.files, File{Path: q, Err: err}) // a directory not readable
	}
	l.entries(q, entries)
}

// link lists what the symbolic link q names: a file, a directory walked,
// or, for a link to nothing or a loop of links, q with Err set.
func (l *lister) link(q string) {
	info, err := os.Stat(q)
	switch {
	case err != nil:
		l.files = append(l.files, File{Path: q, Err: err})
	case info.IsDir():
		if l.o.Exclude != nil {
			if to, err := filepath.EvalSymlinks(q); err == nil && l.o.Exclude(to) {
				return // a link to an excluded directory (a run's output)
			}
		}
		l.dir(q, info)
	case info.Mode().IsRegular():
		l.file(q, true)
	}
}

// file lists the regular file q (or, byLink, a link to one) when its name
// is read, unless listed already through another path. A file is named by
// its own path rather than a link's, wherever the walk meets them (a link
// "latest.txt" met before "real/wire.txt"), so that its id does not move
// when the link is pointed elsewhere; of two hard links, by the first met.
func (l *lister) file(q string, byLink bool) {
	if !l.o.AnyName && !Listed(filepath.Base(q)) {
		if l.o.Unlisted != nil {
			l.o.Unlisted(q)
		}
		return
	}
	info, err := os.Stat(q) // follows a symbolic link
	if err != nil {
		l.files = append(l.files, File{Path: q, Err: err}) // gone since
		return
	}
	k := keyOf(q, info)
	if first, ok := l.listed[k]; ok {
		if first.byLink && !byLink {
			link := l.files[first.at].Path
			l.files[first.at].Path = q
			l.listed[k] = listedFile{at: first.at}
			for _, f := range l.files { // other links to it, met since, named the link read
				if e, ok := f.Err.(*ListedError); ok && e.File == link {
					e.File = q
				}
			}
			l.files = append(l.files, File{Path: link, Err: &ListedError{File: q}})
			return
		}
		l.files = append(l.files, File{Path: q, Err: &ListedError{File: l.files[first.at].Path}})
		return
	}
	l.listed[k] = listedFile{at: len(l.files), byLink: byLink}
	l.files = append(l.files, File{Path: q, Size: info.Size(), Key: FileKey{k}})
}

// listedFile is where a walk listed a file: its index in the files listed
// and whether by a symbolic link.
type listedFile struct {
	at     int
	byLink bool
}

// FileKey tells one file from another (see File.Key); comparable.
type FileKey struct{ k dirKey }

// KeyOf returns the Key List gives the file at path, whose info os.Stat
// returned: for a caller that stats its files itself.
func KeyOf(path string, info fs.FileInfo) FileKey { return FileKey{keyOf(path, info)} }

// WalkedError is the Err of a directory met in a walk that was walked
// already, through another path: a symbolic link to a directory above it
// (a loop), or a second link to one directory. It is not walked again.
type WalkedError struct {
	Dir string // the path it was walked by
}

func (e *WalkedError) Error() string {
	return fmt.Sprintf("the directory %s, walked already: not walked again (a loop of links, or two links to one directory)", e.Dir)
}

// ListedError is the Err of a file met in a walk that was listed already,
// through another path: a symbolic link to a file of the walk, or a second
// hard link to one file. It is not read again: its records would be their
// own duplicates.
type ListedError struct {
	File string // the path it was listed by
}

func (e *ListedError) Error() string {
	return fmt.Sprintf("the file %s, read already: not read again (a symbolic link to it, or a second hard link to one file)", PathName(e.File))
}

// NoFilesError is List's error for a directory that holds no file to
// read: none, or only files of names not in the table of formats (not
// counted as read), hidden or excluded ones.
type NoFilesError struct {
	Dir string // as given to List
	// AnyName is ListOptions.AnyName: files of every name were looked for.
	AnyName bool
}

func (e *NoFilesError) Error() string {
	if e.AnyName {
		return fmt.Sprintf("%s: no files (names starting with \".\" are skipped)", e.Dir)
	}
	return fmt.Sprintf("%s: no %s files", e.Dir, extList())
}

// extList lists the extensions read, for messages: ".txt, .md, ... or .tar".
func extList() string {
	exts := Extensions()
	return strings.Join(exts[:len(exts)-1], ", ") + " or " + exts[len(exts)-1]
}

// IDNames returns, for each input given on the command line, the name its
// ids start with (see RelativeID): its last path element ("bbc.tar.gz" of
// "/data/bbc.tar.gz", "crawl" of "crawl/"), or as many of its last
// elements as tell it from the other inputs ("d1/a.txt" and "d2/a.txt"); a
// path given twice keeps its whole form. "-" (stdin) has none. The paths
// are taken as given, not written by PathName: each is made absolute
// first, then written so, so that a working directory whose name is not
// UTF-8, or holds "\x", is escaped in ids as any other element is.
func IDNames(given []string) []string {
	elems := make([][]string, len(given))
	for i, g := range given {
		if g == "" || g == "-" {
			continue
		}
		elems[i] = strings.Split(filepath.ToSlash(PathName(filepath.Clean(mustAbs(g)))), "/")
	}
	last := func(e []string, k int) string { return strings.Join(e[max(0, len(e)-k):], "/") }
	// holder maps each ending of a path given (its last k elements) to the
	// one whole path that ends so, or to clash when two or more do (one
	// path given twice is one): linear in the paths, where comparing each
	// with every other took minutes for thousands of files given.
	const clash = "\x00"
	holder := map[string]string{}
	for _, e := range elems {
		whole := last(e, len(e))
		for k := 1; k <= len(e); k++ {
			end := last(e, k)
			if h, ok := holder[end]; !ok {
				holder[end] = whole
			} else if h != whole {
				holder[end] = clash
			}
		}
	}
	names := make([]string, len(given))
	for i, e := range elems {
		if e == nil {
			continue
		}
		whole := last(e, len(e))
		for k := 1; k <= len(e); k++ {
			if names[i] = last(e, k); holder[names[i]] == whole {
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

// resolvedPath is path made absolute, its links followed, or path when
// that fails.
func resolvedPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// PathName returns a file's path, or an archive member's name, as text,
// for origins and ids: the path itself when it is UTF-8 and holds no
// "\x", else each element of it (a file's or directory's name, between
// separators) that is not UTF-8 or holds "\x" written with each byte that
// is not UTF-8 as \xHH and each backslash as \\ ("\xe9t\xe9.txt" for
// "été.txt" in Latin-1, "caf\\xe9.txt" for a name that is those
// characters), the others as they are. Two names that differ in bytes not
// UTF-8 keep different ids, where U+FFFD would make "été" and "étà" one;
// and no name is written as another is: an element written escaped holds
// "\x", one written as it is holds none, and an escaped one reads back to
// its bytes alone. A path given, its elements escaped alone, stays the
// start of the paths under it.
func PathName(p string) string {
	if utf8.ValidString(p) && !strings.Contains(p, `\x`) {
		return p
	}
	var b strings.Builder
	for {
		i := strings.IndexAny(p, pathSeparators)
		if i < 0 {
			writeElement(&b, p)
			return b.String()
		}
		writeElement(&b, p[:i])
		b.WriteByte(p[i])
		p = p[i+1:]
	}
}

// pathSeparators are the bytes that part the elements of a path.
const pathSeparators = "/" + string(filepath.Separator)

// writeElement writes one element of a path as PathName does.
func writeElement(b *strings.Builder, e string) {
	if utf8.ValidString(e) && !strings.Contains(e, `\x`) {
		b.WriteString(e)
		return
	}
	for i := 0; i < len(e); {
		c, size := utf8.DecodeRuneInString(e[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\x%02x`, e[i])
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteString(e[i : i+size])
		}
		i += size
	}
}
