package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// writeResults writes the batch's pairs and clusters into out, one at a
// time as the batch builds them: at a million documents the whole result
// takes hundreds of megabytes, which the run's peak memory would otherwise
// include. It stops when ctx is done, and shows its progress as the
// stage "results" (pairs written of the total found).
func (run *runner) writeResults(ctx context.Context, out *output.Set, total int64) error {
	start, cpu := time.Now(), cpuSeconds()
	run.meter.Stage("results")
	r := &results{}
	err := r.write(ctx, out, run.b, func(n int64) {
		if n%4096 == 0 {
			run.meter.Update(run.b.Len(), n, total)
		}
	})
	run.meter.End(run.b.Len(), err)
	run.seconds["write_results"] = time.Since(start).Seconds()
	run.cpu["write_results"] = cpuSeconds() - cpu
	return err
}

// pairsOf returns how many pairs st counts, of every label.
func pairsOf(st *engine.Stats) int64 {
	var n int64
	for _, k := range st.Pairs {
		n += int64(k)
	}
	return n
}

// errStopped ends the writing of results when the run failed meanwhile.
var errStopped = errors.New("job: results no longer wanted")

// results writes pairs.jsonl and clusters.jsonl, and makes them durable, on
// a goroutine of its own while the second reading writes kept.jsonl.
type results struct {
	stop    atomic.Bool
	written atomic.Int64 // pairs written
	done    chan error
}

// write writes the batch's pairs and clusters into out, calling written
// with the count of pairs after each (nil: none). It ends early with
// errStopped when the run failed meanwhile (stop), or with ctx's error
// when the run was stopped.
func (r *results) write(ctx context.Context, out *output.Set, b engine.Batch, written func(n int64)) error {
	check := func() error {
		if r.stop.Load() {
			return errStopped
		}
		return ctx.Err()
	}
	return b.EachResult(func(p *core.Pair) error {
		if err := check(); err != nil {
			return err
		}
		if n := r.written.Add(1); written != nil {
			written(n)
		}
		return out.Pair(p)
	}, func(c *core.Cluster) error {
		if err := check(); err != nil {
			return err
		}
		return out.Cluster(c)
	})
}

// startResults starts writing the batch's results into out on a goroutine
// of its own, and makes them durable; they stop when ctx is done. The
// batch must be finished, and nothing may change it until wait returns.
func startResults(ctx context.Context, out *output.Set, b engine.Batch) *results {
	r := &results{done: make(chan error, 1)}
	go func() {
		err := r.write(ctx, out, b, nil)
		if err == nil {
			err = out.Finish(output.PairsFile, output.ClustersFile)
		}
		r.done <- err
	}()
	return r
}

// wait waits for the results to be written, and returns the error that
// stopped them; stop asks them to end early first (the run failed), and
// then only waits. While it waits for results still being written, the
// run shows the stage "results" and its progress (pairs written of the
// total found), and counts its time.
func (r *results) wait(stop bool, run *runner, total int64) error {
	if stop {
		r.stop.Store(true)
		<-r.done
		return nil
	}
	select {
	case err := <-r.done:
		return err
	default:
	}
	start, cpu := time.Now(), cpuSeconds()
	run.meter.Stage("results")
	tick := time.NewTicker(time.Second / 5)
	defer tick.Stop()
	for {
		select {
		case err := <-r.done:
			run.meter.End(run.b.Len(), err)
			run.seconds["write_results"] = time.Since(start).Seconds()
			run.cpu["write_results"] = cpuSeconds() - cpu
			return err
		case <-tick.C:
			run.meter.Update(run.b.Len(), r.written.Load(), total)
		}
	}
}

// secondPass reads the input again: it writes each kept document's record
// unchanged and gives the batch the text its evidence quotes. A record is
// decoded only when something needs more than its bytes: the batch its
// text, the report or the titles its fields, or kept.jsonl a
// record built from it (not a JSONL line); linesOnly (see runner.linesOnly)
// says none does. The records the first reading skipped are skipped again
// undecoded.
func (run *runner) secondPass(ctx context.Context, out *output.Set, linesOnly bool) error {
	start, cpu := time.Now(), cpuSeconds()
	if err := run.r.Rewind(); err != nil {
		return fmt.Errorf("reading the input a second time: %w", err)
	}
	run.meter.Plan(runPlan(linesOnly)...)
	run.meter.Stage("writing")
	stopTicks := run.tickProgress()
	var (
		ord, seen int
		err       error
	)
	if run.out.KeptParquet() && run.schema != nil && !run.mixed {
		run.out.KeepSchema(run.schema)
	}
	if linesOnly {
		run.pacer.lastStretch()
		seen, ord, err = run.keptLines(ctx, out)
	} else {
		seen, ord, err = run.decodeAgain(ctx, out, run.needFields())
	}
	stopTicks()
	run.meter.End(seen, err)
	run.seconds["write"] = time.Since(start).Seconds()
	run.cpu["write"] = cpuSeconds() - cpu
	if err == nil && (seen != run.read || ord != run.b.Len()) {
		err = fmt.Errorf("the input changed while it was read: %d records the first time, %d the second", run.read, seen)
	}
	return err
}

// needFields reports whether the report or the titles need the documents'
// fields from the second reading (the matrix needs only their ids, which
// the batch holds).
func (run *runner) needFields() bool {
	return run.wanted != nil || run.titles != nil
}

// linesOnly reports whether the second reading needs no record decoded:
// every document is a JSONL line, and nothing needs a text or a field.
func (run *runner) linesOnly() bool {
	return !run.needFields() && run.lineDocs == run.b.Len() && !run.anyText() && !run.out.KeptParquet()
}

// anyText reports whether the batch may need the text of any document.
func (run *runner) anyText() bool {
	for id := range run.b.Len() {
		if run.b.MayNeedText(id) {
			return true
		}
	}
	return false
}

// keptLines is the second reading when no record needs decoding: every
// document is a JSONL line, and nothing needs a text or a field. It reads
// on this goroutine, in the Reader's buffers (corpus.Reader.NextRawShared),
// and writes the lines of the kept documents: nothing is copied or
// decoded, and a run at its largest heap makes no garbage here. It returns
// the records seen and the documents among them.
func (run *runner) keptLines(ctx context.Context, out *output.Set) (seen, ord int, err error) {
	skipped := run.skippedAt
	for ; ; seen++ {
		if seen%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return seen, ord, err
			}
			if seen > 0 {
				done, total := run.r.Progress()
				run.meter.Update(seen, done, total)
			}
		}
		raw, err := run.r.NextRawShared()
		if err == io.EOF {
			return seen, ord, nil
		}
		if err != nil {
			return seen, ord, err
		}
		if err := run.same(seen, raw.Origin, raw.Sum()); err != nil {
			return seen, ord, err
		}
		if len(skipped) > 0 && skipped[0] == seen {
			skipped = skipped[1:]
			continue
		}
		line := raw.JSONLine()
		if line == nil {
			return seen, ord, fmt.Errorf("the input changed while it was read: %s is not the JSONL line it was", raw.Origin)
		}
		if run.kept(ord) {
			if err := out.KeptRaw(line); err != nil {
				return seen, ord, err
			}
		}
		ord++
	}
}

// decodeAgain is the second reading with records to decode, on every
// core (see secondPass). It returns the records seen and the documents
// among them.
func (run *runner) decodeAgain(ctx context.Context, out *output.Set, fields bool) (seen, ord int, err error) {
	parquetOut := out.KeptParquet()
	work := func(_, i int, raw corpus.Raw, a *again) {
		a.origin, a.sum = raw.Origin, raw.Sum()
		k, skipped := slices.BinarySearch(run.skippedAt, i)
		if skipped {
			a.skip = true
			return
		}
		// The documents before this record are the records before it
		// but those skipped; the input changed if they are not (checked
		// in order below).
		id := i - k
		a.ord, a.line = id, raw.JSONLine()
		a.row, _ = raw.ParquetRow()
		if a.line == nil || fields || run.b.MayNeedText(id) || parquetOut {
			a.rec, a.line = run.r.Decode(raw), nil
			a.decoded = true
		}
	}
	err = ordered(ctx, unbuffered(run.r.NextRaw), run.o.Workers, work, func(a *again) error {
		if err := run.same(seen, a.origin, a.sum); err != nil {
			return err
		}
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
			run.scopeID(rec)
			if newID, ok := run.renamed[id]; ok {
				rec.SetID(newID)
			}
			if run.b.NeedsText(id) {
				run.b.Explain(id, &rec.Doc)
			}
			if run.wanted[rec.Doc.ID] {
				run.docs[rec.Doc.ID] = rec.Doc
			}
			if _, ok := run.titles[rec.Doc.ID]; ok {
				run.titles[rec.Doc.ID] = rec.Doc.Title
			}
			a.line = rec.Doc.Raw
		}
		if run.kept(id) {
			if err := out.Keep(a.line, a.row, &a.rec.Doc); err != nil {
				return err
			}
		}
		if seen%1024 == 0 {
			done, total := run.r.Progress()
			run.meter.Update(seen, done, total)
		}
		return nil
	})
	return seen, ord, err
}

// same fails the second reading at the record of index i, named origin,
// when its sum is not the one the first reading saw: the record changed
// since, and what the run would write of it is not what it compared. A
// record past those of the first reading is left to the count's check
// (secondPass).
func (run *runner) same(i int, origin string, sum uint64) error {
	if i < len(run.sums) && run.sums[i] != sum {
		return fmt.Errorf("the input changed while it was read: %s is not the record it was", origin)
	}
	return nil
}

// again is a record of the second reading: skipped as the first reading
// skipped it, or the document of ordinal ord with its JSONL line, or
// decoded when more than the line is needed.
type again struct {
	origin  string // the record's corpus.Raw.Origin
	sum     uint64 // its corpus.Raw.Sum
	skip    bool
	ord     int
	line    []byte
	row     parquet.Row // the record's Parquet row, if it is one
	decoded bool
	rec     corpus.Record
}
