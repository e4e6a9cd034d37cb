// Package job owns a whole `neardup dedup` run: it reads the inputs once to
// sketch every document, runs the batch pipeline, reads them a second time
// to write the de-duplicated corpus and complete the evidence, and writes
// the output files as one set (package output).
package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/internal/report"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/tfidf"
)

// Options configure a run. Inputs and Out are required.
type Options struct {
	Inputs []string // files, directories or "-" for stdin
	Out    string   // output directory, created if missing
	// Kept names the de-duplicated corpus in Out, and by its extension its
	// format: kept.jsonl (the default), kept.jsonl.gz, kept.jsonl.zst or
	// kept.parquet (see output.Options).
	Kept   string
	Corpus corpus.Options // formats and field mapping
	// Method is the detection method's options; nil means the default
	// method with its defaults.
	Method engine.Config
	// Keep is the representative policy; "" means the method's own.
	Keep cluster.Policy
	// Link is how a document joins a cluster; "" means cluster.Any.
	Link cluster.Linking
	// Window, when positive, pairs only documents dated at most this far
	// apart (undated documents pair with any).
	Window time.Duration
	// MinChars is the minimum length of a text compared (see
	// engine.Grouping); 0 means the default, negative none.
	MinChars int
	// SimilarIsCopy clusters the documents of similar pairs as those of
	// duplicates, so that only one of them is kept (engine.Grouping).
	SimilarIsCopy bool
	// Strict makes the first bad record fatal instead of skipped.
	Strict bool
	// OnDuplicateID says what becomes of a document whose id an earlier
	// one has: DuplicateFail ("", the default) ends the run at it, naming
	// both places; DuplicateSkip leaves it out (in rejects.jsonl, reason
	// duplicate-id); DuplicateRename gives it the id with "#2" ("#3" ...)
	// appended.
	OnDuplicateID string
	// IDScope "file" makes ids unique within their file only: a document's
	// id becomes "file#id" (the file relative to the directory holding
	// its input, as a record without an id is named), for shards
	// that each number their records from 0. "" (or "run"): ids are as read.
	IDScope string
	// Memory, when positive, is the run's memory budget in bytes: past
	// half of it, sketches and band keys go to files in the output's work
	// folder (see engine.Grouping.Memory), and the collector is told to
	// keep the heap within it (debug.SetMemoryLimit). The results are those
	// of a run without one. 0 means no budget.
	Memory int64
	// Resume keeps checkpoints of the first reading in the output's work
	// folder and, when the folder holds those of an interrupted run of the
	// same inputs and options, continues from the last (see
	// checkpoint.go); other inputs or options are refused. The results are
	// those of a run never interrupted.
	Resume bool
	// CheckpointEvery is how many records Resume's checkpoints are apart;
	// 0 means DefaultCheckpointEvery.
	CheckpointEvery int
	// Workers is the number of sketching goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress receives the progress line; nil prints none.
	Progress io.Writer
	// Warn receives one line per skipped record (up to MaxWarnings);
	// nil prints none.
	Warn io.Writer
	// MaxWarnings caps the warning lines; 0 means DefaultMaxWarnings, a
	// negative number none.
	MaxWarnings int
	// Report, if set, is the path of an HTML report of the largest
	// clusters with each member's diff against its representative.
	Report string
	// ReportLimits bound the clusters and members the report shows, and
	// with them the texts held in memory; the zero value means the
	// report's defaults.
	ReportLimits report.Limits
	// ReportMore says in the report how to see what its limits leave out.
	ReportMore string
	// TitlesCSV, if set, is the path of a CSV file of the titles of the
	// duplicate pairs: columns a, b (the ids), score, title_a, title_b.
	TitlesCSV string
	// Matrix, if set, is the path of a JSON file of the similarity matrix
	// of the reported pairs over the documents they hold, at most
	// MatrixLimit of them: past that the run writes its other results
	// and ends with a *MatrixError.
	Matrix string
	// wrapBatch, when set (by a test), wraps the run's batch, to see what
	// the run asks of it.
	wrapBatch func(engine.Batch) engine.Batch
	// newMeter, when set (by a test), makes the meter of Progress in place
	// of progress.New: one that draws as on a terminal.
	newMeter func(io.Writer) *progress.Meter
}

// newMeter returns the meter of the progress writer w: made by byTest,
// when a test set one, else by progress.New.
func newMeter(w io.Writer, byTest func(io.Writer) *progress.Meter) *progress.Meter {
	if byTest != nil {
		return byTest(w)
	}
	return progress.New(w)
}

// ErrStrict marks the error that ends a strict run at its first bad record
// (errors.Is); the error reads as the record's own, where it is and why,
// and wraps it (a *corpus.RecordError).
var ErrStrict = errors.New("job: bad record in strict mode")

// strictError is the error that ends a strict run at the bad record err.
type strictError struct{ err error }

func (e *strictError) Error() string {
	return e.err.Error() + " (--strict stops at the first bad record)"
}

// Unwrap returns ErrStrict and the record's error.
func (e *strictError) Unwrap() []error { return []error{ErrStrict, e.err} }

// Run executes the job and returns its statistics. Its walk of an input
// directory leaves out its own output set and what an earlier run wrote
// there (output.Earlier). A *MatrixError comes with the statistics of a run
// whose results are in place but for the matrix; any other error with
// none, the previous results left as they were.
func Run(ctx context.Context, o Options) (engine.Stats, error) {
	if len(o.Inputs) == 0 {
		return engine.Stats{}, errors.New("job: no input")
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	o.MaxWarnings = warnLimit(o.MaxWarnings)
	if err := checkIDOptions(o); err != nil {
		return engine.Stats{}, err
	}
	if o.Method == nil {
		o.Method = methods.Default()
	}
	spec, err := methods.Lookup(o.Method.Method())
	if err != nil {
		return engine.Stats{}, err
	}
	// The output directory is locked and the extra files' paths checked
	// before any work; what is written there is not read as input.
	var extras []string
	for _, p := range []string{o.Report, o.TitlesCSV, o.Matrix} {
		if p != "" {
			extras = append(extras, p)
		}
	}
	out, err := output.CreateWith(o.Out, output.Options{Kept: o.Kept, Removed: true, Rejects: true}, extras...)
	if err != nil {
		return engine.Stats{}, err
	}
	defer out.Abort()
	g := engine.Grouping{Keep: o.Keep, Link: o.Link, Window: o.Window, MinChars: o.MinChars, SimilarIsCopy: o.SimilarIsCopy}
	var watch *budgetWatch
	if o.Memory > 0 {
		var done func()
		watch, done, err = budget(out, o.Memory, &g)
		if err != nil {
			return engine.Stats{}, err
		}
		defer done()
	}
	b, err := spec.NewBatchWith(o.Method, g)
	if err != nil {
		return engine.Stats{}, err
	}
	if o.wrapBatch != nil {
		b = o.wrapBatch(b)
	}
	defer b.Close()
	co := o.Corpus
	co.Exclude = out.Excludes
	if prev := o.Corpus.Exclude; prev != nil {
		co.Exclude = func(p string) bool { return out.Excludes(p) || prev(p) }
	}
	co.Exclude = output.WithoutEarlier(co.Exclude)
	var ck *checkpointer
	if o.Resume {
		if ck, err = openCheckpoints(o, co, out, o.Progress); err != nil {
			return engine.Stats{}, err
		}
		defer ck.close()
	}
	r, err := corpus.Open(o.Inputs, co)
	if err != nil {
		return engine.Stats{}, err
	}
	defer r.Close()
	r.StopWith(ctx) // a signal ends a wait for standard input too
	// The collector runs at 1.25× the live heap (GOGC=25) unless GOGC is
	// set, with more room while the inputs are read (see gcPacer).
	pacer := startGCPacer(r.Progress)
	defer pacer.stop()

	// Warnings are written while the meter draws, each on a line of its
	// own.
	meter := newMeter(o.Progress, o.newMeter)
	o.Warn = meter.Lines(o.Warn)
	run := &runner{o: o, b: b, r: r, out: out, meter: meter, seconds: map[string]float64{}, cpu: map[string]float64{},
		skipped: map[core.SkipReason]int{}, started: time.Now(), pacer: pacer, budget: watch,
		Reading: Reading{warner: warner{w: o.Warn, max: o.MaxWarnings, strict: o.Strict}}, ck: ck, limits: output.LimitsOf(o.Method, o.MinChars)}
	if err := run.sketchAll(ctx); err != nil {
		return engine.Stats{}, err
	}
	pacer.readingDone()
	run.WarnNotRead(r)
	if run.b.Len() == 0 {
		return engine.Stats{}, NoDocuments(run.read, run.skipped, r.FieldsSeen())
	}
	if err := run.finish(ctx); err != nil {
		return engine.Stats{}, withKinds(err, r)
	}
	if run.o.Report != "" || run.o.TitlesCSV != "" {
		run.wantTexts(b.Result())
	}
	// The statistics are built once (it takes a pass over the documents),
	// after the second reading, whose texts they may quote (the sentences
	// method's boilerplate), and before the results' progress, which
	// counts their pairs.
	if run.linesOnly() {
		// Nothing the results say depends on the second reading: they
		// are written while it copies the kept lines.
		results := startResults(ctx, out, b)
		err := run.secondPass(ctx, out, true)
		var st engine.Stats
		if err == nil {
			st = run.stats()
			run.warnOf(&st)
		}
		if err = errors.Join(err, results.wait(err != nil, run, pairsOf(&st))); err != nil {
			return engine.Stats{}, err
		}
		run.measured(&st)
		matrixErr, err := run.writeMatrix(out, st.Method)
		if err != nil {
			return engine.Stats{}, err
		}
		if err := commitWith(out, st); err != nil {
			return engine.Stats{}, err
		}
		return st, run.ended(matrixErr)
	}
	if err := run.secondPass(ctx, out, false); err != nil {
		return engine.Stats{}, err
	}
	st := run.stats()
	run.warnOf(&st)
	if err := run.writeResults(ctx, out, pairsOf(&st)); err != nil {
		return engine.Stats{}, err
	}
	run.measured(&st)
	if run.o.Report != "" || run.o.TitlesCSV != "" {
		// with the evidence the second reading completed
		if err := run.extras(out, b.Result(), st); err != nil {
			return engine.Stats{}, err
		}
	}
	matrixErr, err := run.writeMatrix(out, st.Method)
	if err != nil {
		return engine.Stats{}, err
	}
	if err := commitWith(out, st); err != nil {
		return engine.Stats{}, err
	}
	return st, run.ended(matrixErr)
}

// commitWith writes stats.json and puts the result set in place; a set
// whose stats could not be written is not put in place.
func commitWith(out *output.Set, st engine.Stats) error {
	if err := out.Stats(st); err != nil {
		return err
	}
	return out.Commit()
}

// committed removes the checkpoints of a run whose results are in place,
// and the work folder when nothing else is left in it. A run that did not
// resume removes those an earlier run left there too: it replaced the
// results they led to, and they would only take disk space, or resume a
// later run toward results no longer wanted. So does a run without a
// memory budget with the sketches an earlier, killed run spilled (a run
// with one removed them when it started: removeSpills).
func (run *runner) committed() error {
	work := run.out.WorkPath()
	if run.budget == nil {
		if err := removeSpills(work); err != nil {
			return err
		}
	}
	if run.ck == nil {
		if err := os.RemoveAll(filepath.Join(work, "checkpoint")); err != nil {
			return fmt.Errorf("removing an earlier run's checkpoints: %w", err)
		}
		os.Remove(work)
		return nil
	}
	if err := run.ck.remove(); err != nil {
		return fmt.Errorf("removing the checkpoints: %w", err)
	}
	os.Remove(filepath.Dir(run.ck.dir))
	return nil
}

// ended is the error of a run whose results are in place: committed's,
// else matrixErr when the matrix was not written (nil for none).
func (run *runner) ended(matrixErr *MatrixError) error {
	if err := run.committed(); err != nil || matrixErr == nil {
		return err
	}
	return matrixErr
}

// runner carries one run's state between its stages.
type runner struct {
	o       Options
	b       engine.Batch
	out     *output.Set
	r       *corpus.Reader
	meter   *progress.Meter
	seconds map[string]float64
	cpu     map[string]float64 // CPU seconds by stage
	read    int
	skipped map[core.SkipReason]int
	// skippedAt are the input indexes of the records the first reading
	// skipped, in order: the second reading skips them undecoded.
	skippedAt []int
	// lineDocs counts the documents read from JSONL lines.
	lineDocs int
	// sums holds the sum of every record of the first reading
	// (corpus.Raw.Sum), by its index in the input: the second reading
	// fails at a record that is not the one compared.
	sums []uint64
	// limits are those the method and Options.MinChars skip documents
	// under, named in rejects.jsonl.
	limits output.Limits
	// schema is the Parquet schema every document was read with; nil when
	// one was read from another format or another schema (mixed).
	schema *parquet.Schema
	mixed  bool
	// renamed holds the ids given to documents whose ids repeated
	// (Options.OnDuplicateID rename), by ordinal, for the second reading.
	renamed map[int]string
	// renamedFrom holds, of each id given so, the id it was renamed from:
	// a later record holding it as its own is told so.
	renamedFrom map[string]string
	pacer       *gcPacer
	// budget watches the memory budget (Options.Memory); nil without one.
	budget *budgetWatch
	// Reading warns of the records skipped and renamed, and its notes
	// count those of the records taken, those replayed from a checkpoint
	// too (their journal entries hold them).
	Reading
	// ck writes the checkpoints of the first reading (Options.Resume);
	// nil without.
	ck      *checkpointer
	started time.Time
	// wanted names the documents the report shows; docs collects them in
	// the second reading.
	wanted map[string]bool
	docs   map[string]core.Document
	// titles collects the titles of the documents in duplicate pairs, for
	// Options.TitlesCSV.
	titles map[string]string
}

// item is one record on its way through the workers.
type item struct {
	rec    corpus.Record
	sketch engine.Sketch
	line   bool            // the record is a JSONL line
	schema *parquet.Schema // the record is a Parquet row of this schema
	// index and detail are the sketch's encoding, for a checkpoint; err
	// the encoder's.
	index, detail []byte
	err           error
	// because says why the document is not compared (output.Limits.Why),
	// "" for one compared: said while its text is at hand, and kept in the
	// checkpoint's journal, which holds no text.
	because string
	// sum is the record's corpus.Raw.Sum.
	sum uint64
}

// sketchAll is the first pass: read, decode and sketch in parallel, add in
// input order.
func (run *runner) sketchAll(ctx context.Context) error {
	start, cpu := time.Now(), cpuSeconds()
	run.meter.Plan(runPlan(false)...)
	run.meter.Stage("reading")
	sketchers := make([]*engine.Sketcher, run.o.Workers)
	for i := range sketchers {
		sketchers[i] = run.b.NewSketcher()
	}
	if err := run.replay(ctx); err != nil {
		run.meter.End(run.read, err)
		return err
	}
	stopTicks := run.tickProgress()
	work := func(w, _ int, raw corpus.Raw, it *item) {
		it.rec, it.line, it.sum = run.r.Decode(raw), raw.JSONLine() != nil, raw.Sum()
		run.scopeID(&it.rec)
		_, it.schema = raw.ParquetRow()
		if it.rec.Skip == core.SkipNone {
			it.sketch = sketchers[w].Sketch(&it.rec.Doc)
			if skip := it.sketch.Skip(); skip != core.SkipNone {
				it.because = run.limits.Why(&it.rec.Doc, skip)
			}
			if run.ck != nil {
				it.index, it.detail, it.err = run.b.Encode(it.sketch)
			}
		}
	}
	// The records are read into the chunks' buffers: take keeps nothing
	// of a record's bytes.
	err := ordered(ctx, run.r.NextRawIn, run.o.Workers, work, func(it *item) error {
		if it.err != nil {
			return it.err
		}
		if err := ctx.Err(); err != nil {
			return err // the records read ahead are not taken: a checkpoint holds none after the stop
		}
		var entry []byte
		if run.ck != nil {
			entry = run.ck.encode(it)
		}
		if err := run.take(it); err != nil {
			return err
		}
		if run.ck != nil {
			return run.ck.write(entry, run.read)
		}
		return nil
	})
	if err == nil && run.ck != nil {
		err = run.ck.checkpoint(run.read, true)
	}
	stopTicks()
	run.meter.End(run.read, err)
	run.seconds["read_and_sketch"] = time.Since(start).Seconds()
	run.cpu["read_and_sketch"] = cpuSeconds() - cpu
	return err
}

// take takes a record of the first reading: counts it, adds its document
// to the batch or records why not.
func (run *runner) take(it *item) error {
	run.read++
	run.sums = append(run.sums, it.sum)
	run.notes.take(&it.rec)
	if it.rec.Skip != core.SkipNone {
		run.skippedAt = append(run.skippedAt, run.read-1)
		return run.skip(it.rec)
	}
	if added, err := run.add(it); err != nil || !added {
		return err
	}
	run.noteSchema(it.schema)
	if skip := it.sketch.Skip(); skip != core.SkipNone {
		// Not compared: like the records the reader skipped, it is in
		// rejects.jsonl, and not in the kept file (engine.Batch.Kept).
		if err := run.rejectDoc(&it.rec, skip, it.because); err != nil {
			return err
		}
	}
	if it.line {
		run.lineDocs++
	}
	if run.read%1024 == 0 {
		done, total := run.r.Progress()
		run.meter.Update(run.read, done, total)
		run.warnBudget()
	}
	return nil
}

// tickProgress reports the share of the input read to the meter five
// times a second (as often as it prints on a terminal) until the function
// it returns is called, which waits for the last report: besides the
// reports made every 1024 documents, so that a long read that yields no
// document (a large zip member checked before any record of it is read)
// shows as it goes rather than as nothing and then 100%.
func (run *runner) tickProgress() (stop func()) {
	if run.meter == nil {
		return func() {}
	}
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(time.Second / 5)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				run.meter.Tick(run.r.Progress())
			}
		}
	}()
	return func() { close(done); <-ended }
}

// warnBudget says once, on the warning writer, that the memory budget was
// given up (see budgetWatch).
func (run *runner) warnBudget() {
	if run.budget == nil || run.o.Warn == nil {
		return
	}
	if w := run.budget.warning(run.b.Len()); w != "" {
		fmt.Fprint(run.o.Warn, w)
	}
}

// replay takes the records of the checkpoint a run resumes from, as the
// journal holds them, reading past them in the input.
func (run *runner) replay(ctx context.Context) error {
	if run.ck == nil || run.ck.replay == nil {
		return nil
	}
	for range run.ck.resume.Records {
		if run.read%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		raw, err := run.r.NextRaw()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("--resume: the inputs end before the %d records of the checkpoint in %s", run.ck.resume.Records, run.ck.dir)
		}
		if err != nil {
			return err
		}
		it, err := run.ck.next(run.b)
		if err != nil {
			return err
		}
		it.line, it.sum = raw.JSONLine() != nil, raw.Sum()
		_, it.schema = raw.ParquetRow()
		if err := run.take(&it); err != nil {
			return err
		}
	}
	run.ck.replay = nil
	return nil
}

// ctxEvery is how many records are replayed between two looks at the
// context.
const ctxEvery = 256

// runPlan is the stages of a run and their expected lengths relative to
// the first reading's, for the time left of the whole run: matching takes a
// few percent of it; the second reading about half of it when records are
// decoded again, a fifth when JSONL lines are only copied (linesOnly).
func runPlan(linesOnly bool) []progress.Step {
	write := 0.5
	if linesOnly {
		write = 0.2
	}
	return []progress.Step{{Name: "reading", Weight: 1}, {Name: "matching", Weight: 0.05}, {Name: "writing", Weight: write}}
}

// skip records a bad record in rejects.jsonl, warns, and in strict mode
// fails the run.
func (run *runner) skip(rec corpus.Record) error {
	run.skipped[rec.Skip]++
	if err := run.reject(rec); err != nil {
		return err
	}
	return run.warner.skip(rec, "rejects.jsonl lists them")
}

// DefaultMaxWarnings is Options.MaxWarnings (and FeedOptions') when it is
// 0: the warning lines of skipped records a run prints at most.
const DefaultMaxWarnings = 20

// warnLimit is the cap on warning lines that Options.MaxWarnings (and
// FeedOptions') asks for: 0 means DefaultMaxWarnings, a negative number
// none (one line then says where the skipped records are counted).
func warnLimit(n int) int {
	switch {
	case n == 0:
		return DefaultMaxWarnings
	case n < 0:
		return 0
	}
	return n
}

// warner warns about records that could not be read, up to a limit, or
// fails at the first one in strict mode.
type warner struct {
	w      io.Writer // nil warns of nothing
	max    int
	strict bool
	warned int
}

// skip warns about rec; where says where the skipped records are counted.
func (wr *warner) skip(rec corpus.Record, where string) error {
	if wr.strict {
		return &strictError{rec.Err}
	}
	if wr.w != nil {
		switch {
		case wr.warned < wr.max:
			fmt.Fprintf(wr.w, "warning: skipped: %v\n", rec.Err)
		case wr.warned == wr.max && wr.max == 0:
			fmt.Fprintf(wr.w, "warning: records skipped; %s\n", where)
		case wr.warned == wr.max:
			fmt.Fprintf(wr.w, "warning: more records skipped; %s\n", where)
		}
		wr.warned++
	}
	return nil
}

// renamed warns, up to the limit, that the record at origin, whose own
// id repeats the id of the document at first, is id in the results
// (Options.OnDuplicateID rename). from, when not "", is the own id of an
// earlier record that was renamed to own: ids are given in reading order,
// so an id renamed to earlier is taken, though this record holds it as
// its own.
func (wr *warner) renamed(origin, own, first, from, id string) {
	if wr.w == nil || wr.warned >= wr.max {
		return
	}
	if from != "" {
		fmt.Fprintf(wr.w, "warning: renamed: %s: id %q is the id %s was renamed to earlier (its own, %q, "+
			"repeated); it is %q in the results\n", origin, own, first, from, id)
	} else {
		fmt.Fprintf(wr.w, "warning: renamed: %s: id %q repeats the id of %s; it is %q in the results\n", origin, own, first, id)
	}
	wr.warned++
}

// notes counts what the records taken held that was not read, each with
// the first: dates no layout reads (corpus.Record.UnreadDate) and pages a
// site rule's body matched nothing on (corpus.Record.RuleMiss).
type notes struct{ dates, misses counted }

// take counts the notes of rec.
func (n *notes) take(rec *corpus.Record) {
	n.dates.add(rec.UnreadDate)
	n.misses.add(rec.RuleMiss)
}

// counted counts notes, keeping the first.
type counted struct {
	n     int
	first string
}

// add counts note, unless it is "".
func (c *counted) add(note string) {
	if note == "" {
		return
	}
	if c.n == 0 {
		c.first = note
	}
	c.n++
}

// warnNotRead says once what the inputs held that was not read: the
// directories given that hold no file to read, files for their names (a
// directory of pages with their images, say), dates in no form the reader
// knows, the bytes after the last record of a WARC file cut short between
// records, the bytes that start no record in a WARC file, the stray bytes
// after the last member of a gzip file or the last stream of a bzip2 file,
// and pages a site rule's body matched nothing on. The dates and pages are
// taken's, the notes of the records taken (replayed from a checkpoint
// too), where r's count those of the records it decoded, in this process
// and ahead of a run that stopped.
func warnNotRead(w io.Writer, r *corpus.Reader, taken *notes) {
	if w == nil {
		return
	}
	for _, d := range r.EmptyDirs() {
		fmt.Fprintf(w, "warning: %s: nothing read from this directory; the other inputs are read\n", d)
	}
	if n, first := r.Unlisted(); n > 0 {
		fmt.Fprintf(w, "warning: files not read: %d, their names not of a format neardup reads (e.g. %s); "+
			"a file named by its own path is read whatever its name\n", n, first)
	}
	if taken.dates.n > 0 {
		fmt.Fprintf(w, "warning: dates not read: %d (e.g. %s); their documents count as undated\n", taken.dates.n, taken.dates.first)
	}
	if n, first := r.CutWARCs(); n > 0 {
		fmt.Fprintf(w, "warning: WARC files whose compressed stream is cut short after a whole record: %d (e.g. %s); "+
			"every record up to there is read; what follows is no whole compressed member (a member cut in its header or "+
			"trailer) and is ignored: a download cut short may have lost the records after it\n", n, first)
	}
	if n, first := r.DamagedWARCs(); n > 0 {
		fmt.Fprintf(w, "warning: WARC files holding bytes that start no record, after a record that ends well, or a damaged "+
			"gzip member: %d (e.g. %s); they are skipped up to the next record, and the records around them are read, "+
			"numbered as found: a record whose start is among them is lost\n", n, first)
	}
	if n, first := r.Detected(); n > 0 {
		fmt.Fprintf(w, "warning: files not in UTF-8, read in the charset detected from their bytes: %d (e.g. %s); "+
			"detection is unsure on short texts in Latin charsets: if their accented letters read wrong, --charset names the right one\n", n, first)
	}
	for _, f := range []container.Format{container.Gzip, container.Bzip2} {
		if n, first := r.StrayBytes(f); n > 0 {
			fmt.Fprintln(w, corpus.StrayWarning(f, n, first))
		}
	}
	for _, u := range r.UnreadFields() {
		fmt.Fprintf(w, "warning: %s: no %q field, so no %ss are read; %s\n", u.Origin, u.Name, u.Field, corpus.FlagHint(u.Field, u.Alias))
	}
	for _, c := range r.IgnoredColumns() {
		fmt.Fprintf(w, "warning: %s: column %q is %s, not a string, so no %ss are read; %s NAME reads the %s from a string column\n",
			c.Origin, c.Name, c.Type, c.Field, corpus.FieldFlags[c.Field], c.Field)
	}
	if taken.misses.n > 0 {
		fmt.Fprintf(w, "warning: pages where a site rule's body matched nothing: %d, extracted without it (e.g. %s)\n",
			taken.misses.n, taken.misses.first)
	}
}

// warnUnweighted says when documents had terms but none that weighs
// anything, so that a run over copies of one text does not pass for a
// corpus without duplicates, and what weighs such terms in st's method.
func warnUnweighted(w io.Writer, st *engine.Stats) {
	if w == nil || st.Unweighted == 0 {
		return
	}
	why := "a term every document holds weighs 0 under tfidf's --weighting tm, as in a corpus of copies of one text; " +
		"--weighting smooth weighs it"
	if st.Method != tfidf.Name {
		why = fmt.Sprintf("a term every document holds weighs 0 under %s's weightings, as in a corpus of copies of one text; "+
			"--method minhash or sentences compares such texts", st.Method)
	}
	fmt.Fprintf(w, "warning: documents whose every term weighs nothing: %d; they pair with nothing (%s)\n", st.Unweighted, why)
}

// warnOf gives the warnings of a run's figures st: documents that pair
// with nothing (no weight, no source, only boilerplate, too short) and a
// cluster that chains stories.
func (run *runner) warnOf(st *engine.Stats) {
	w := run.o.Warn
	warnUnweighted(w, st)
	warnNoSource(w, st.NoSource)
	warnBoilerplate(w, st)
	warnTooShort(w, st, run.skipped[core.SkipTooShort], run.limits)
	warnChained(w, st)
}

// warnNoSource says that n documents compared by rarewords, across
// sources, have no source where others have one: they are counted as one
// source of their own and compared with the others.
func warnNoSource(w io.Writer, n int) {
	if w == nil || n == 0 {
		return
	}
	fmt.Fprintf(w, "warning: rarewords: documents without a source: %d; they are counted as one source of their own, "+
		"compared with the other sources' documents\n", n)
}

// warnBoilerplate says when documents of the sentences method held only
// boilerplate sentences, so that a run over many copies of one story (more
// than --max-sentence-docs) does not pass for a corpus without duplicates,
// and what changes it.
func warnBoilerplate(w io.Writer, st *engine.Stats) {
	if w == nil || st.Boilerplate == nil || st.Boilerplate.Documents == 0 {
		return
	}
	fmt.Fprintf(w, "warning: documents whose every sentence is boilerplate: %d; they pair with nothing (a sentence in "+
		"more than --max-sentence-docs %d documents is boilerplate and ignored, as are the sentences of a story copied "+
		"more often than that; a higher --max-sentence-docs, or --method minhash, compares them)\n",
		st.Boilerplate.Documents, st.Boilerplate.MaxDocs)
}

// chainedMembers and chainedShare bound the largest cluster a run leaves
// without a warning: at least chainedMembers members that are over
// chainedShare of its documents are rarely one story's copies, and often
// other stories that pairs chain together (tfidf's tiered rule on wire
// notices of one template made one cluster of 39 % of Reuters-21578).
const (
	chainedMembers = 50
	chainedShare   = 0.05
	// A member of the largest cluster paired with hubLinks of its members
	// or more, with at least hubShare of them and with hubOver times as
	// many as its members have at the median, is named in that warning:
	// the text the others are paired through (a page of a site's footer;
	// a second such page is paired as often, and named neither would be by
	// the runner-up's count), where a chain, its members paired about
	// alike, has none.
	hubLinks = 10
	hubShare = 0.25
	hubOver  = 2
)

// warnChained says when the largest cluster holds a share of the
// documents that one story's copies seldom make, naming the options that
// keep chained stories apart: what the clusters say is worth a look
// before the kept documents are used.
func warnChained(w io.Writer, st *engine.Stats) {
	n := st.LargestCluster
	if w == nil || n < chainedMembers || float64(n) <= chainedShare*float64(st.Documents) {
		return
	}
	stricter := "a higher --threshold"
	if st.Method == tfidf.Name || st.Method == rarewords.Name {
		stricter = "a stricter --rule"
	}
	hub := ""
	if st.HubLinks >= hubLinks && float64(st.HubLinks) >= hubShare*float64(n) && st.HubLinks >= hubOver*st.HubMedian {
		hub = fmt.Sprintf("; %q is paired with %d of them, and if its text is one many documents hold (a footer, a page "+
			"without its article, a template), it is what links them", st.Hub, st.HubLinks)
	}
	fmt.Fprintf(w, "warning: the largest cluster holds %d of the %d documents (%.0f%%): if they are not copies of one "+
		"story, their pairs chain other stories together%s (neardup diff shows why two were paired; --link majority, or %s, "+
		"keeps chained stories apart)\n", n, st.Documents, 100*float64(n)/float64(st.Documents), hub, stricter)
}

// warnTooShort says when every document was too short to compare, and
// which option sets that length, so that a run that compared nothing does
// not pass for a corpus without duplicates. read is how many of st's
// too-short skips are records skipped while reading (pages whose extracted
// text is too short), which are no documents; l are the run's limits,
// which the hint quotes.
func warnTooShort(w io.Writer, st *engine.Stats, read int, l output.Limits) {
	if w == nil || st.Documents < 2 || st.Skipped[core.SkipTooShort]-read < st.Documents {
		return
	}
	hint := fmt.Sprintf("a text under --min-text %d characters (white space not counted) is compared by no method", l.MinText)
	if st.Method == "rarewords" && l.MinWords > 0 {
		hint = fmt.Sprintf("rarewords skips documents of fewer than --min-words %d words, as its recipe does", l.MinWords)
	}
	fmt.Fprintf(w, "warning: every document is too short to compare (%s); %s\n", strconv.Itoa(st.Documents), hint)
}

// NoDocuments is the error of a run that read no document it could use:
// how many records it read, why each was skipped, and the fields it saw.
func NoDocuments(read int, skipped map[core.SkipReason]int, fields []string) error {
	if read == 0 {
		return errors.New("no documents: the inputs hold no records")
	}
	reasons := make([]string, 0, len(skipped))
	for r, n := range skipped {
		reasons = append(reasons, fmt.Sprintf("%d %s", n, r))
	}
	slices.Sort(reasons)
	msg := fmt.Sprintf("no documents: %d records read, every one skipped (%s)", read, strings.Join(reasons, ", "))
	if len(fields) > 0 {
		q := make([]string, len(fields))
		for i, f := range fields {
			q[i] = strconv.Quote(f)
		}
		msg += "; fields seen: " + strings.Join(q, ", ")
	}
	return errors.New(msg)
}

func (run *runner) finish(ctx context.Context) error {
	start, cpu := time.Now(), cpuSeconds()
	run.meter.Stage("matching")
	// done is the most documents a report said were matched (a method may
	// report from its workers): an interrupted stage names those, not all
	// the documents there are.
	var done atomic.Int64
	err := run.b.Finish(ctx, func(n int) {
		for old := done.Load(); int64(n) > old && !done.CompareAndSwap(old, int64(n)); old = done.Load() {
		}
		run.meter.Update(n, int64(n), int64(run.b.Len()))
		run.warnBudget()
	})
	matched := int(done.Load())
	if err == nil {
		matched = run.b.Len()
	}
	run.meter.End(matched, err)
	run.warnBudget()
	run.seconds["candidates_verify_group"] = time.Since(start).Seconds()
	run.cpu["candidates_verify_group"] = cpuSeconds() - cpu
	return err
}

// stats builds the run's statistics from the finished batch's, which
// takes a pass over the documents (build them once); measured adds what is
// measured to the end.
func (run *runner) stats() engine.Stats {
	st := run.b.Stats()
	st.Read = run.read
	st.Unlisted, st.UnlistedExample = run.r.Unlisted()
	st.UnreadDates, st.UnreadDatesExample = run.notes.dates.n, run.notes.dates.first
	st.CutWARCs, _ = run.r.CutWARCs()
	st.DamagedWARCs, st.DamagedWARCsExample = run.r.DamagedWARCs()
	st.GzipStrayBytes, st.GzipStrayBytesExample = run.r.StrayBytes(container.Gzip)
	st.Bzip2StrayBytes, st.Bzip2StrayBytesExample = run.r.StrayBytes(container.Bzip2)
	st.SkippedReading = maps.Clone(run.skipped)
	for k, v := range run.skipped {
		st.Skipped[k] += v
	}
	return st
}

// measured sets in st the run's times, its peak memory and whether it went
// over its budget, as they are when the results are written; a run that
// went over says what budget would have done.
func (run *runner) measured(st *engine.Stats) {
	st.Seconds, st.CPUSeconds = run.seconds, run.cpu
	st.PeakRSS = peakRSS()
	st.OverBudget = run.budget.Over()
	if w := run.budget.advice(st.Spilled > 0); w != "" && run.o.Warn != nil {
		fmt.Fprint(run.o.Warn, w)
	}
}

// KindsError is an error of a run whose documents need a source that they
// have not (a *rarewords.SourceError), with the kinds of records the
// inputs held: a message can then say how each kind is given one.
type KindsError struct {
	Err   error
	Kinds corpus.Kinds
}

func (e *KindsError) Error() string { return e.Err.Error() }

// Unwrap returns the error the kinds are of.
func (e *KindsError) Unwrap() error { return e.Err }

// withKinds wraps err in a *KindsError with the kinds of records r read
// when it is a *rarewords.SourceError; other errors are returned as they
// are.
func withKinds(err error, r *corpus.Reader) error {
	if se := (*rarewords.SourceError)(nil); errors.As(err, &se) {
		return &KindsError{Err: err, Kinds: r.Kinds()}
	}
	return err
}
