package job

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/dedup"
	"github.com/neardup/neardup/internal/corpus"
)

// outputs are the files of a run, written under temporary names and renamed
// into place only when the run succeeds, so a failed run leaves the previous
// results untouched.
type outputs struct {
	dir  string
	tmp  map[string]*os.File
	kept *bufio.Writer
}

func newOutputs(dir string) (*outputs, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating output directory: %w", err)
	}
	o := &outputs{dir: dir, tmp: map[string]*os.File{}}
	for _, name := range []string{PairsFile, ClustersFile, KeptFile, StatsFile} {
		f, err := os.CreateTemp(dir, "."+name+".*.tmp")
		if err != nil {
			o.abort()
			return nil, fmt.Errorf("creating %s: %w", filepath.Join(dir, name), err)
		}
		o.tmp[name] = f
	}
	o.kept = bufio.NewWriterSize(o.tmp[KeptFile], 1<<20)
	return o, nil
}

// abort removes the temporary files; after commit it does nothing.
func (o *outputs) abort() {
	for name, f := range o.tmp {
		f.Close()
		os.Remove(f.Name())
		delete(o.tmp, name)
	}
}

// commit writes pairs, clusters and stats, then renames every file into place.
func (o *outputs) commit(res *dedup.Result, st dedup.Stats) error {
	if err := o.kept.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", KeptFile, err)
	}
	if err := writeLines(o.tmp[PairsFile], res.Pairs); err != nil {
		return fmt.Errorf("writing %s: %w", PairsFile, err)
	}
	if err := writeLines(o.tmp[ClustersFile], res.Clusters); err != nil {
		return fmt.Errorf("writing %s: %w", ClustersFile, err)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err == nil {
		_, err = o.tmp[StatsFile].Write(append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", StatsFile, err)
	}
	for _, name := range []string{PairsFile, ClustersFile, KeptFile, StatsFile} {
		f := o.tmp[name]
		if err := errors.Join(f.Chmod(0o644), f.Sync(), f.Close()); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		if err := os.Rename(f.Name(), filepath.Join(o.dir, name)); err != nil {
			return err
		}
		delete(o.tmp, name)
	}
	return nil
}

func writeLines[T any](f *os.File, items []T) error {
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
			return err
		}
	}
	return w.Flush()
}

// secondPass reads the input again: it writes each kept document's record
// unchanged and gives the batch the text its evidence quotes.
func (run *runner) secondPass(ctx context.Context, out *outputs) error {
	start := time.Now()
	if err := run.r.Rewind(); err != nil {
		return fmt.Errorf("reading the input a second time: %w", err)
	}
	run.meter.Stage("writing")
	ord, seen := 0, 0
	work := func(_ int, raw corpus.Raw) corpus.Record { return run.r.Decode(raw) }
	err := ordered(ctx, run.r.NextRaw, run.o.Workers, work, func(rec corpus.Record) error {
		seen++
		if rec.Skip != core.SkipNone {
			return nil
		}
		id := ord
		ord++
		if run.b.NeedsText(id) {
			run.b.Explain(id, &rec.Doc)
		}
		if run.wanted[rec.Doc.ID] {
			run.docs[rec.Doc.ID] = rec.Doc
		}
		if run.b.Kept(id) {
			if _, err := out.kept.Write(append(rec.Doc.Raw, '\n')); err != nil {
				return fmt.Errorf("writing %s: %w", KeptFile, err)
			}
		}
		if seen%1024 == 0 {
			done, total := run.r.Progress()
			run.meter.Update(seen, done, total)
		}
		return nil
	})
	run.meter.Done(seen)
	run.seconds["write"] = time.Since(start).Seconds()
	if err == nil && (seen != run.read || ord != run.b.Len()) {
		err = fmt.Errorf("the input changed while it was read: %d records the first time, %d the second", run.read, seen)
	}
	return err
}
