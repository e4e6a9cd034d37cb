package job

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// commit writes pairs, clusters and stats, and puts every file in place.
// The pairs and clusters are written as the batch builds them, one at a
// time: at a million documents the whole result takes hundreds of
// megabytes, which the run's peak memory would otherwise include.
func commit(out *output.Set, b engine.Batch, st engine.Stats) error {
	if err := b.EachResult(out.Pair, out.Cluster); err != nil {
		return err
	}
	if err := out.Stats(st); err != nil {
		return err
	}
	return out.Commit()
}

// secondPass reads the input again: it writes each kept document's record
// unchanged and gives the batch the text its evidence quotes. A record is
// decoded only when something needs more than its bytes: the batch its
// text, the report, the titles or the matrix its fields, or kept.jsonl a
// record built from it (not a JSONL line). The records the first reading
// skipped are skipped again undecoded.
func (run *runner) secondPass(ctx context.Context, out *output.Set) error {
	start, cpu := time.Now(), cpuSeconds()
	if err := run.r.Rewind(); err != nil {
		return fmt.Errorf("reading the input a second time: %w", err)
	}
	run.meter.Stage("writing")
	fields := run.wanted != nil || run.titles != nil || run.o.Matrix != ""
	ord, seen := 0, 0
	work := func(_, i int, raw corpus.Raw) again {
		k, skipped := slices.BinarySearch(run.skippedAt, i)
		if skipped {
			return again{skip: true}
		}
		// The documents before this record are the records before it
		// but those skipped; the input changed if they are not (checked
		// in order below).
		id := i - k
		a := again{ord: id, line: raw.JSONLine()}
		if a.line == nil || fields || run.b.MayNeedText(id) {
			a.rec, a.line = run.r.Decode(raw), nil
			a.decoded = true
		}
		return a
	}
	err := ordered(ctx, run.r.NextRaw, run.o.Workers, work, func(a again) error {
		seen++
		if a.skip || a.decoded && a.rec.Skip != core.SkipNone {
			return nil
		}
		id := ord
		ord++
		if a.ord != id {
			return fmt.Errorf("the input changed while it was read: the records skipped differ at record %d", seen)
		}
		if a.decoded {
			rec := &a.rec
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
			a.line = rec.Doc.Raw
		}
		if run.b.Kept(id) {
			if err := out.KeptRaw(a.line); err != nil {
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

// again is a record of the second reading: skipped as the first reading
// skipped it, or the document of ordinal ord with its JSONL line, or
// decoded when more than the line is needed.
type again struct {
	skip    bool
	ord     int
	line    []byte
	decoded bool
	rec     corpus.Record
}
