package job

import (
	"context"
	"fmt"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// commit writes pairs, clusters and stats, and puts every file in place.
func commit(out *output.Set, res *engine.Result, st engine.Stats) error {
	for i := range res.Pairs {
		if err := out.Pair(&res.Pairs[i]); err != nil {
			return err
		}
	}
	for i := range res.Clusters {
		if err := out.Cluster(&res.Clusters[i]); err != nil {
			return err
		}
	}
	if err := out.Stats(st); err != nil {
		return err
	}
	return out.Commit()
}

// secondPass reads the input again: it writes each kept document's record
// unchanged and gives the batch the text its evidence quotes.
func (run *runner) secondPass(ctx context.Context, out *output.Set) error {
	start, cpu := time.Now(), cpuSeconds()
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
		if _, ok := run.titles[rec.Doc.ID]; ok {
			run.titles[rec.Doc.ID] = rec.Doc.Title
		}
		if run.o.Matrix != "" {
			run.ids = append(run.ids, rec.Doc.ID)
		}
		if run.b.Kept(id) {
			if err := out.KeptRaw(rec.Doc.Raw); err != nil {
				return err
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
	run.cpu["write"] = cpuSeconds() - cpu
	if err == nil && (seen != run.read || ord != run.b.Len()) {
		err = fmt.Errorf("the input changed while it was read: %d records the first time, %d the second", run.read, seen)
	}
	return err
}
