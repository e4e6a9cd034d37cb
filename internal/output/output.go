// Package output owns the files of a run's results: pairs.jsonl,
// clusters.jsonl, kept.jsonl and stats.json in one directory, written under
// temporary names and put in place only when every one is complete, so a
// failed run leaves the previous results untouched.
package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/neardup/neardup/core"
)

// The files of a result set.
const (
	PairsFile    = "pairs.jsonl"
	ClustersFile = "clusters.jsonl"
	KeptFile     = "kept.jsonl"
	StatsFile    = "stats.json"
)

var files = []string{PairsFile, ClustersFile, KeptFile, StatsFile}

// Set is a result set being written. Write each part, then Commit; Abort
// (safe after Commit) removes what was written.
type Set struct {
	dir string
	tmp map[string]*os.File
	w   map[string]*bufio.Writer
	enc map[string]*json.Encoder
}

// Create starts a result set in dir, creating dir when missing.
func Create(dir string) (*Set, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating output directory: %w", err)
	}
	s := &Set{dir: dir, tmp: map[string]*os.File{}, w: map[string]*bufio.Writer{}, enc: map[string]*json.Encoder{}}
	for _, name := range files {
		f, err := os.CreateTemp(dir, "."+name+".*.tmp")
		if err != nil {
			s.Abort()
			return nil, fmt.Errorf("creating %s: %w", filepath.Join(dir, name), err)
		}
		s.tmp[name] = f
		s.w[name] = bufio.NewWriterSize(f, 1<<20)
		e := json.NewEncoder(s.w[name])
		e.SetEscapeHTML(false)
		s.enc[name] = e
	}
	return s, nil
}

// Pair writes a line of pairs.jsonl.
func (s *Set) Pair(p *core.Pair) error { return s.line(PairsFile, p) }

// Cluster writes a line of clusters.jsonl.
func (s *Set) Cluster(c *core.Cluster) error { return s.line(ClustersFile, c) }

// KeptRaw writes a line of kept.jsonl: a record as read, a JSON object.
func (s *Set) KeptRaw(raw []byte) error {
	w := s.w[KeptFile]
	w.Write(raw)
	if err := w.WriteByte('\n'); err != nil {
		return fmt.Errorf("writing %s: %w", KeptFile, err)
	}
	return nil
}

// Kept writes a line of kept.jsonl encoding v.
func (s *Set) Kept(v any) error { return s.line(KeptFile, v) }

// Stats writes stats.json, indented.
func (s *Set) Stats(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		_, err = s.w[StatsFile].Write(append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", StatsFile, err)
	}
	return nil
}

func (s *Set) line(name string, v any) error {
	if err := s.enc[name].Encode(v); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// Commit flushes every file to disk and renames each into place.
func (s *Set) Commit() error {
	for _, name := range files {
		f := s.tmp[name]
		if err := errors.Join(s.w[name].Flush(), f.Chmod(0o644), f.Sync(), f.Close()); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	for _, name := range files {
		if err := os.Rename(s.tmp[name].Name(), filepath.Join(s.dir, name)); err != nil {
			return err
		}
		delete(s.tmp, name)
	}
	return nil
}

// Abort removes the temporary files; after Commit it does nothing.
func (s *Set) Abort() {
	for name, f := range s.tmp {
		f.Close()
		os.Remove(f.Name())
		delete(s.tmp, name)
	}
}
