package output

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/report"
)

// Earlier reports whether the file or directory at path, met in an input
// directory, is by its content what a run of dedup wrote: a result
// directory (holdsSet), or a file of a name the walk reads that opens as a
// report (report.Wrote), a titles file or a similarity matrix (wroteExtra).
// A reading leaves it out, whatever -o its run writes and wherever the
// earlier run wrote it, as extract leaves out the files it wrote: it holds
// results, not documents. Only a file named as HTML, CSV or JSON, the
// formats those files are, is opened, and at most a few hundred bytes of it
// read: a walk of text files opens none twice.
func Earlier(path string) bool {
	switch container.ByName(filepath.Base(path)) {
	case container.HTML, container.CSV, container.JSON, container.JSONL:
		if wroteFile(path) {
			return true
		}
	}
	return holdsSet(path)
}

// wroteFile reports whether the regular file at path opens as a report, a
// titles file or a similarity matrix.
func wroteFile(path string) bool {
	// Told before opening: a named pipe's open waits for a writer.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, max(report.HeadBytes, extraHeadBytes))
	n, _ := io.ReadFull(f, head)
	return report.Wrote(head[:n]) || wroteExtra(head[:n])
}

// WithoutEarlier returns exclude (a reader's Exclude, nil for none) with
// Earlier: what either names is left out.
func WithoutEarlier(exclude func(path string) bool) func(path string) bool {
	return func(p string) bool { return exclude != nil && exclude(p) || Earlier(p) }
}

// titlesHeader is the first line of every titles file (Titles).
const titlesHeader = "a,b,score,title_a,title_b\n"

// matrixStart is how every similarity matrix file opens (Matrix).
const matrixStart = `{"format":"sparse-rows","method":`

// wroteExtra reports whether a file that opens with head (its first
// bytes, at least extraHeadBytes of them when it is that long) is a titles
// file (its header row) or a similarity matrix (its first keys) that a set
// wrote.
func wroteExtra(head []byte) bool {
	return bytes.HasPrefix(head, []byte(titlesHeader)) || bytes.HasPrefix(head, []byte(matrixStart))
}

// extraHeadBytes is how many of a file's first bytes wroteExtra needs.
const extraHeadBytes = max(len(titlesHeader), len(matrixStart))

// holdsSet reports whether dir is a directory holding a result set: its
// manifest (ManifestFile), which a set writes and nothing else does. A
// later run leaves it out whole, its kept.jsonl with it.
func holdsSet(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, ManifestFile))
	return err == nil && st.Mode().IsRegular()
}
