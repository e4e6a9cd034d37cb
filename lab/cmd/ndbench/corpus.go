package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/lab/internal/gen"
)

// corpusSpec names a generated corpus: its sources, size and seed.
type corpusSpec struct {
	Reuters string `json:"reuters,omitempty"` // directory of .sgm files
	BBC     string `json:"bbc,omitempty"`     // bbc.tar.gz or its directory
	N       int    `json:"n"`
	Seed    uint64 `json:"seed"`
}

// corpusFiles are a generated corpus on disk.
type corpusFiles struct {
	Dir    string    `json:"dir"`
	Docs   string    `json:"docs"`
	Truth  string    `json:"truth"`
	Bytes  int64     `json:"bytes"` // size of Docs
	Cached bool      `json:"cached"`
	Gen    gen.Stats `json:"gen"`
	// GenSeconds is how long generation took (when it was made).
	GenSeconds float64 `json:"gen_seconds"`
}

// The files of a corpus directory; metaFile is written last and marks the
// corpus complete.
const (
	docsFile  = "docs.jsonl"
	truthFile = "truth.jsonl"
	metaFile  = "corpus.json"
)

// key names the corpus directory: size, seed, which sources and a hash of
// their paths, sizes and modification times, so a changed source makes a
// new corpus.
func (s corpusSpec) key() (string, error) {
	h := fnv.New64a()
	names := ""
	for _, src := range []struct{ name, path string }{{"reuters", s.Reuters}, {"bbc", s.BBC}} {
		if src.path == "" {
			continue
		}
		abs, err := filepath.Abs(src.path)
		if err != nil {
			return "", err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00", src.name, abs, fi.Size(), fi.ModTime().UnixNano())
		names += "-" + src.name
	}
	return fmt.Sprintf("corpus-n%d-seed%d%s-%08x", s.N, s.Seed, names, uint32(h.Sum64())), nil
}

// ensureCorpus returns the corpus of spec under work, generating it first
// unless a complete one is there. It says what it does on log; meter, when
// not nil, shows generation progress.
func ensureCorpus(spec corpusSpec, work string, log io.Writer, meter *progress.Meter) (corpusFiles, error) {
	key, err := spec.key()
	if err != nil {
		return corpusFiles{}, err
	}
	dir := filepath.Join(work, key)
	if cf, err := readMeta(dir); err == nil {
		cf.Cached = true
		return cf, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return corpusFiles{}, err
	}
	start := time.Now()
	bases, err := loadBases(spec)
	if err != nil {
		return corpusFiles{}, err
	}
	fmt.Fprintf(log, "ndbench: generating %d documents from %d base texts into %s\n", spec.N, len(bases), dir)
	opts := gen.Options{N: spec.N, Seed: spec.Seed}
	if meter != nil {
		meter.Stage("gen")
		opts.Progress = func(n int) { meter.Update(n, int64(n), int64(spec.N)) }
	}
	cf := corpusFiles{Dir: dir, Docs: filepath.Join(dir, docsFile), Truth: filepath.Join(dir, truthFile)}
	cf.Gen, err = generate(bases, opts, cf.Docs, cf.Truth)
	if err != nil {
		return corpusFiles{}, err
	}
	meter.Done(cf.Gen.Documents)
	cf.GenSeconds = time.Since(start).Seconds()
	fi, err := os.Stat(cf.Docs)
	if err != nil {
		return corpusFiles{}, err
	}
	cf.Bytes = fi.Size()
	return cf, writeMeta(dir, cf)
}

func loadBases(spec corpusSpec) ([]gen.Base, error) {
	var bases []gen.Base
	if spec.Reuters != "" {
		b, err := gen.LoadReuters(spec.Reuters)
		if err != nil {
			return nil, err
		}
		bases = append(bases, b...)
	}
	if spec.BBC != "" {
		b, err := gen.LoadBBC(spec.BBC)
		if err != nil {
			return nil, err
		}
		bases = append(bases, b...)
	}
	return bases, nil
}

// generate writes the corpus to temporary files and renames them into
// place when complete.
func generate(bases []gen.Base, opts gen.Options, docsPath, truthPath string) (gen.Stats, error) {
	var st gen.Stats
	err := writeFile(docsPath, func(docs io.Writer) error {
		return writeFile(truthPath, func(truth io.Writer) error {
			var err error
			st, err = gen.Generate(bases, opts, docs, truth)
			return err
		})
	})
	return st, err
}

// writeFile runs write on a buffered temporary file next to path and
// renames it to path when write succeeds.
// A device or pipe (/dev/stdout) is refused: the rename would replace it.
func writeFile(path string, write func(io.Writer) error) error {
	if output.Special(path) {
		return fmt.Errorf("%s is not a regular file (a device or a pipe): give the path of a file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := errors.Join(bw.Flush(), f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(f.Name(), path)
}

func readMeta(dir string) (corpusFiles, error) {
	b, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return corpusFiles{}, err
	}
	var cf corpusFiles
	if err := json.Unmarshal(b, &cf); err != nil {
		return corpusFiles{}, err
	}
	// The directory may have moved since; the names inside it have not.
	cf.Dir, cf.Docs, cf.Truth = dir, filepath.Join(dir, docsFile), filepath.Join(dir, truthFile)
	for _, p := range []string{cf.Docs, cf.Truth} {
		if _, err := os.Stat(p); err != nil {
			return corpusFiles{}, err
		}
	}
	return cf, nil
}

func writeMeta(dir string, cf corpusFiles) error {
	return writeFile(filepath.Join(dir, metaFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(cf)
	})
}
