package job

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/internal/server/api"
	"github.com/neardup/neardup/method/rarewords"
)

// FeedOptions configure a run that reads inputs into an index: `neardup
// index add` (Query false) or `neardup index query` (Query true).
type FeedOptions struct {
	// Add adds (or, with Query, checks) the documents of docs in chunks
	// of Chunk, sketching them with Workers goroutines, and calls onMatch
	// with each one's match, in order, once its chunk commits: the public
	// Index.AddSeq. waiting is its AddOptions.Waiting: true after the last
	// document read before the input paused (standard input that waits),
	// whose chunk then commits, or after a *neardup.RecordError item that
	// stands for a skipped record last before the pause.
	Add func(ctx context.Context, docs iter.Seq2[core.Document, error], onMatch func(*neardup.Match) error, waiting func() bool) error
	// Query checks the documents without storing them.
	Query bool
	// Replace makes a document replace a stored one of the same ID.
	Replace bool
	// Chunk is how many documents one transaction adds; a document is
	// stored, and reported on Out, when its chunk commits. 0 means 1000.
	Chunk int
	// Workers is the number of decoding and sketching goroutines; 0 means
	// GOMAXPROCS.
	Workers int
	// Out receives one JSON line a document (an api.Result, as the HTTP
	// API answers), in input order; nil prints none.
	Out io.Writer
	// OnlyMatches prints only the documents with matches.
	OnlyMatches bool
	// Limit stops after this many records; 0 reads them all.
	Limit int
	// Sources says that the index's method compares documents of
	// different sources (rarewords, made without SameSource): the
	// documents stored and compared without a source are counted
	// (FeedStats.NoSource) and warned of.
	Sources bool
	// Progress, Warn, MaxWarnings and Strict are as in Options.
	Progress    io.Writer
	Warn        io.Writer
	MaxWarnings int
	Strict      bool
	// newMeter is Options.newMeter.
	newMeter func(io.Writer) *progress.Meter
}

// FeedStats summarise a feed run.
type FeedStats struct {
	Read      int `json:"records_read"`
	Added     int `json:"added"`
	Replaced  int `json:"replaced"`
	Unchanged int `json:"unchanged,omitempty"`
	// Superseded counts the documents a later one of their id replaced in
	// the same add (status superseded): not stored.
	Superseded int `json:"superseded,omitempty"`
	Exists     int `json:"existing"`
	// Conflicts counts the documents not stored because their ids are
	// stored with other content (status conflict).
	Conflicts int `json:"conflicts,omitempty"`
	// UnnamedConflicts counts those of Conflicts that have no id of their
	// own, named by where they were read (corpus.Reader.NamedByOrigin):
	// ids of their own would keep them apart. The others' own ids name
	// stored documents.
	UnnamedConflicts int `json:"conflicts_without_ids,omitempty"`
	// NoSource counts the documents stored and compared without a source
	// (rarewords.SourceOf), under FeedOptions.Sources.
	NoSource int `json:"-"`
	// Unnamed counts the documents without an id of their own, named by
	// where they were read (corpus.Reader.NamedByOrigin).
	Unnamed int `json:"documents_without_ids,omitempty"`
	Checked int `json:"checked"`
	// Skipped counts, by reason, the records neither stored nor checked:
	// those skipped while reading (malformed, empty ...) and those Add
	// skipped (status skipped).
	Skipped map[core.SkipReason]int `json:"skipped"`
	// NotCompared counts, by reason, the documents stored or checked
	// (counted in Added, Checked ...) that the method did not compare:
	// too short, no units.
	NotCompared map[core.SkipReason]int `json:"not_compared,omitempty"`
	Unlisted    int                     `json:"files_not_read,omitempty"`
	UnreadDates int                     `json:"dates_not_read,omitempty"`
	CutWARCs    int                     `json:"warc_files_cut_after_a_record,omitempty"`
	// DamagedWARCs counts the WARC files holding bytes that start no
	// record (corpus.Reader.DamagedWARCs).
	DamagedWARCs int `json:"warc_files_with_bytes_that_start_no_record,omitempty"`
	// GzipStrayBytes and Bzip2StrayBytes count the gzip and the bzip2
	// files that end in stray bytes (corpus.Reader.StrayBytes).
	GzipStrayBytes  int     `json:"gzip_files_with_stray_bytes,omitempty"`
	Bzip2StrayBytes int     `json:"bzip2_files_with_stray_bytes,omitempty"`
	Duplicates      int     `json:"duplicate_pairs"`
	Similar         int     `json:"similar_pairs"`
	Seconds         float64 `json:"seconds"`
}

// OpenFeed opens the inputs of a Feed run for a single reading (no
// temporary copy for a second one), leaving out of its walk what a dedup
// run wrote (output.Earlier). A command opens them before the index, so
// that an input that is missing or unreadable fails before an index is
// created or changed.
func OpenFeed(inputs []string, o corpus.Options) (*corpus.Reader, error) {
	if len(inputs) == 0 {
		return nil, errors.New("job: no input")
	}
	o.SinglePass = true
	return OpenReading(inputs, o)
}

// Feed reads r (opened by OpenFeed) to its end, decoding in parallel, and
// hands the documents, in input order, to o.Add, which adds (or checks)
// them in chunks; the records of standard input or a pipe that waits are
// handed on as they arrive (corpus.Reader.Pending), not held for more; it prints each match and counts them. A strict run
// (FeedOptions.Strict) stops at the first bad record once the documents
// before it are added and printed, however they are chunked. ctx ending
// ends it at once, also while it waits for standard input or a pipe
// (corpus.Reader.StopWith): the chunks committed stay. The caller closes r.
func Feed(ctx context.Context, r *corpus.Reader, o FeedOptions) (FeedStats, error) {
	r.StopWith(ctx)
	st := FeedStats{Skipped: map[core.SkipReason]int{}}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Chunk <= 0 {
		o.Chunk = 1000
	}
	o.MaxWarnings = warnLimit(o.MaxWarnings)
	// Warnings are written while the meter draws, each on a line of its
	// own.
	meter := newMeter(o.Progress, o.newMeter)
	o.Warn = meter.Lines(o.Warn)
	f := &feeder{ctx: ctx, o: o, r: r, st: &st, meter: meter, started: time.Now(),
		Reading: Reading{warner: warner{w: o.Warn, max: o.MaxWarnings, strict: o.Strict}}}
	if o.Out != nil {
		// On the terminal the meter draws on, a line printed clears its
		// line first, as a warning does.
		f.out = bufio.NewWriterSize(meter.Lines(o.Out), 64<<10)
		// Each line is encoded on its own and written whole: a reader of
		// the output never sees half a line, even of a process killed.
		f.enc = json.NewEncoder(&f.line)
		f.enc.SetEscapeHTML(false)
	}
	f.meter.Stage(map[bool]string{false: "adding", true: "checking"}[o.Query])
	next := r.NextRaw
	if o.Limit > 0 {
		n := 0
		next = func() (corpus.Raw, error) {
			if n++; n > o.Limit {
				return corpus.Raw{}, io.EOF
			}
			return r.NextRaw()
		}
	}
	// The records are decoded in parallel, in input order; the bad ones
	// are counted and warned of here, the documents handed on.
	docs := func(yield func(core.Document, error) bool) {
		stopped := false
		pause := false // the next record consumed is the last before the input waits
		err := orderedLive(ctx, unbuffered(next), r.Pending, func() { pause = true }, o.Workers,
			func(_, _ int, raw corpus.Raw, rec *corpus.Record) { *rec = r.Decode(raw) },
			func(rec *corpus.Record) error {
				f.mu.Lock()
				f.st.Read++
				f.notes.take(rec)
				if rec.Skip != core.SkipNone {
					f.st.Skipped[rec.Skip]++
					f.mu.Unlock()
					if err := f.warner.skip(*rec, "the summary counts them by reason"); err != nil || !pause {
						return err
					}
					// The last record before the input waits: the chunk of
					// those before it commits now, Add told by a skipped
					// record (it was warned of here).
					pause, f.waiting = false, true
					f.pausedAt.Store(int64(f.usable))
					if !yield(core.Document{}, &neardup.RecordError{Origin: rec.Doc.Origin, Reason: rec.Skip, Msg: "skipped"}) {
						stopped = true
						return errStopped
					}
					return nil
				}
				f.origins = append(f.origins, rec.Doc.Origin)
				f.unsourced = append(f.unsourced, o.Sources && rarewords.SourceOf(&rec.Doc) == "")
				if f.r.NamedByOrigin(&rec.Doc) && recordOfFile(rec.Doc.Origin) {
					if f.st.Unnamed++; f.st.Unnamed == 1 {
						f.unnamed = rec.Doc.ID
					}
				}
				f.mu.Unlock()
				f.usable++
				if pause {
					// Its chunk commits, and its line is printed, while
					// the input waits.
					pause, f.waiting = false, true
					f.pausedAt.Store(int64(f.usable))
				}
				if !yield(rec.Doc, nil) {
					stopped = true
					return errStopped
				}
				return nil
			})
		if err != nil && !stopped {
			yield(core.Document{}, err)
		}
	}
	err := o.Add(ctx, docs, f.report, func() bool {
		w := f.waiting
		f.waiting = false
		return w
	})
	err = withKinds(err, r)
	if f.out != nil {
		// The lines held are of documents stored (or checked), also
		// when the run stopped after them.
		if ferr := f.flushOut(); err == nil {
			err = ferr
		}
	}
	// The records' notes are counted of those taken: the workers decode
	// ahead of a run that stops (at a bad record, in strict mode).
	f.WarnNotRead(r)
	if o.Warn != nil && !o.Query && st.Unnamed > 0 {
		fmt.Fprintf(o.Warn, "warning: documents without an id of their own: %d, named by where they were read (e.g. %s): "+
			"such names depend on the inputs given, and a file of the same name added in another run gets the same ones, "+
			"which the index takes for the documents stored under them (reported conflict, or replaced with --replace); "+
			"give each record an id (an \"id\" field, or the field or column --id-col names)\n", st.Unnamed, f.unnamed)
	}
	if !errors.As(err, new(*rarewords.SourceError)) {
		warnNoSource(o.Warn, st.NoSource)
	}
	st.Unlisted, _ = r.Unlisted()
	st.UnreadDates = f.notes.dates.n
	st.CutWARCs, _ = r.CutWARCs()
	st.DamagedWARCs, _ = r.DamagedWARCs()
	st.GzipStrayBytes, _ = r.StrayBytes(container.Gzip)
	st.Bzip2StrayBytes, _ = r.StrayBytes(container.Bzip2)
	if err == nil && f.usable == 0 {
		err = NoDocuments(st.Read, st.Skipped, r.FieldsSeen())
	}
	f.meter.End(st.Read, err)
	st.Seconds = time.Since(f.started).Seconds()
	return st, err
}

// feeder collects sketched documents into chunks and applies them.
type feeder struct {
	ctx      context.Context
	o        FeedOptions
	r        *corpus.Reader
	st       *FeedStats
	meter    *progress.Meter
	started  time.Time
	mu       sync.Mutex // guards st: records are read as matches are reported
	usable   int        // records read as documents
	Reading             // the warnings and notes of the records read
	reported int        // matches reported
	out      *bufio.Writer
	enc      *json.Encoder // encodes into line
	line     bytes.Buffer
	// origins are the origins of the documents handed on and not
	// reported yet, in order (a report is of the first of them); unnamed
	// is the id of the first document without an id of its own.
	origins []string
	unnamed string
	// unsourced says, for each of origins, whether the document has no
	// source under FeedOptions.Sources.
	unsourced []bool
	// waiting is set, on the goroutine that reads the documents, after the
	// last one read before the input waited, for Add to commit its chunk
	// (FeedOptions.Add's waiting); pausedAt is how many documents had been
	// read then, so that report flushes the output once it has reported
	// them.
	waiting  bool
	pausedAt atomic.Int64
	// paired holds the pairs counted, each once, when documents replace
	// stored ones (FeedOptions.Replace): a document replaced after its
	// partner was is paired with it again, as the partner was with it.
	paired map[[2]string]bool
}

// report counts and prints one document's match, and flushes the output
// and updates the progress at the end of each chunk.
func (f *feeder) report(m *neardup.Match) error {
	f.mu.Lock()
	f.count(m)
	read := f.st.Read
	var origin string
	if len(f.origins) > 0 {
		origin, f.origins[0] = f.origins[0], ""
		f.origins = f.origins[1:]
		if f.unsourced[0] && m.Skip == "" && (m.Status == neardup.Added || m.Status == neardup.Replaced) {
			f.st.NoSource++
		}
		f.unsourced = f.unsourced[1:]
	}
	unnamed := m.Status == neardup.Conflict && f.r != nil && f.r.NamedByOrigin(&core.Document{ID: m.ID, Origin: origin})
	if unnamed {
		f.st.UnnamedConflicts++
	}
	f.mu.Unlock()
	if m.Status == neardup.Conflict {
		f.conflict(m, origin, unnamed)
	}
	if f.enc != nil && (!f.o.OnlyMatches || len(m.Pairs) > 0) {
		f.line.Reset()
		if err := f.enc.Encode(api.ResultOf(m)); err != nil {
			return fmt.Errorf("writing matches: %w", err)
		}
		if f.out.Available() < f.line.Len() && f.out.Buffered() > 0 {
			if err := f.out.Flush(); err != nil {
				return fmt.Errorf("writing matches: %w", err)
			}
		}
		if _, err := f.out.Write(f.line.Bytes()); err != nil {
			return fmt.Errorf("writing matches: %w", err)
		}
	}
	if f.reported++; f.reported%f.o.Chunk != 0 && int64(f.reported) != f.pausedAt.Load() {
		return nil
	}
	if f.out != nil {
		if err := f.flushOut(); err != nil {
			return err
		}
	}
	done, total := f.r.Progress()
	f.meter.Update(read, done, total)
	return nil
}

// conflict warns of a document not stored because its ID is stored with
// other content; origin is where it was read, unnamed whether the ID is
// made of it (the record has no id of its own). The stored document's
// origin is not known: an index keeps none.
func (f *feeder) conflict(m *neardup.Match, origin string, unnamed bool) {
	if f.o.Warn == nil {
		return
	}
	where := fmt.Sprintf("id %q", m.ID)
	if origin != "" && origin != m.ID {
		where = fmt.Sprintf("%s: id %q", origin, m.ID)
	} else if origin != "" {
		where = origin
	}
	// An id made of where the record was read names whatever is read
	// there: another record at that place collides. A record's own id
	// names one document: this is a new version of it, or the input gives
	// two documents one id.
	advice := "give it an id of its own (--id-col names the field that holds ids), or add it with --replace to replace the stored one"
	if !unnamed {
		advice = "add it with --replace if it is a new version of the stored one; if it is another document, the id its input " +
			"gives it is the stored one's: give it an id that no other document has"
	}
	fate := "this one is not stored"
	if f.o.Query { // nothing is: its matches are those it would have in the stored one's place
		fate = "its matches are those it would have in the stored one's place, and index add would not store it"
	}
	fmt.Fprintf(f.o.Warn, "warning: conflict: %s: a document of this id is stored already (by an earlier add, or earlier in this one; an index keeps no origins) "+
		"with another %s: %s; %s\n", where, andList(m.Differs), fate, advice)
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return "content"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

func (f *feeder) flushOut() error {
	if err := f.out.Flush(); err != nil {
		return fmt.Errorf("writing matches: %w", err)
	}
	return nil
}

func (f *feeder) count(m *neardup.Match) {
	switch m.Status {
	case neardup.Added:
		f.st.Added++
	case neardup.Replaced:
		f.st.Replaced++
	case neardup.Unchanged:
		f.st.Unchanged++
	case neardup.Superseded:
		f.st.Superseded++
	case neardup.Exists:
		f.st.Exists++
	case neardup.Conflict:
		f.st.Conflicts++
	case neardup.Checked:
		f.st.Checked++
	}
	switch {
	case m.Skip == core.SkipNone:
	case m.Status == neardup.Skipped: // not stored
		f.st.Skipped[m.Skip]++
	default: // stored or checked all the same: counted above
		if f.st.NotCompared == nil {
			f.st.NotCompared = map[core.SkipReason]int{}
		}
		f.st.NotCompared[m.Skip]++
	}
	for _, p := range m.Pairs {
		if f.o.Replace {
			key := [2]string{min(p.A, p.B), max(p.A, p.B)}
			if f.paired[key] {
				continue
			}
			if f.paired == nil {
				f.paired = map[[2]string]bool{}
			}
			f.paired[key] = true
		}
		if p.Label == core.Duplicate {
			f.st.Duplicates++
		} else {
			f.st.Similar++
		}
	}
}

// recordOfFile reports whether origin names a record inside a file (its
// line, "news.jsonl:17", or its record, "crawl.warc.gz#3"), which an id
// field could have named, rather than a whole file (a .txt or .html page),
// whose path is the only name it can have.
func recordOfFile(origin string) bool {
	i := strings.LastIndexAny(origin, ":#")
	if i < 0 || i == len(origin)-1 {
		return false
	}
	for _, c := range origin[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
