package dedup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// ordBits is how many low bits of an ordinal number a record within its
// input: an ordinal is input<<ordBits | record, which orders documents as
// the batch numbers them, the inputs in turn, each from its first record.
const ordBits = 40

// input is one file to read, with its place among the inputs and the name
// the ids of its records without one start with: as many of its path's
// last elements as tell it from the other inputs (container.IDNames), as
// the batch names them.
type input struct {
	Index  int64
	Path   string
	IDName string
}

// doc is what later stages need of a document: its id, the text length and
// date the representative policies read, and the detail part of its sketch
// that verification reads.
type doc struct {
	ID     string
	Length int64
	Date   int64 // Unix seconds; 0 when unknown
	Detail []byte
}

// member is a document of a bucket: its ordinal, and whether it looks for
// candidates among the members before it (minhash.Stages.Searches).
type member struct {
	Ord      int64
	Searches bool
}

// keyed is a document on its way to the buckets: its member and its
// candidate keys.
type keyed struct {
	Member member
	Keys   []uint32
}

// Counter names of the statistics the stages count (see stats.go).
const (
	countRead        = "read"
	countDocuments   = "documents"
	countSkipped     = "skipped:" // + the reason
	countCandidates  = "candidates"
	countCopies      = "copies"
	countUnreadDates = "dates-not-read"
	countUnlisted    = "files-not-read"
	countGzipStray   = "gzip-stray-bytes"
	countBzip2Stray  = "bzip2-stray-bytes"
	// An example of what an input held that was not read: the prefix, the
	// input's index (exampleOf), then the first of the input's (a name, or
	// a value with its origin), counted 0. The statistics keep the one of
	// the first input, the example neardup dedup gives, however the runner
	// splits the inputs.
	exampleUnreadDate = "e.g. dates-not-read:"
	exampleUnlisted   = "e.g. files-not-read:"
	exampleGzipStray  = "e.g. gzip-stray-bytes:"
	exampleBzip2Stray = "e.g. bzip2-stray-bytes:"
	countPairs        = "pairs:"   // + the label
	countRecords      = "records:" // + the input's index: its records
)

// exampleOf names the count that carries input i's example of a kind: its
// index written in 19 digits, so that the least name is the first input's.
func exampleOf(kind string, i int64, example string) string {
	return fmt.Sprintf("%s%019d:%s", kind, i, example)
}

// exampleText returns the example an exampleOf name carries.
func exampleText(name string) string {
	_, ex, _ := strings.Cut(name, ":")
	_, ex, _ = strings.Cut(ex, ":")
	return ex
}

// recordsOf names the count of the records of input i.
func recordsOf(i int64) string { return countRecords + strconv.FormatInt(i, 10) }

// The pipeline's counters (Beam metrics, which the runner reports): what
// the shuffles carry, for sizing a cluster (docs/scale.md).
var (
	lineBytes      = beam.NewCounter("neardup", "line_bytes")
	detailBytes    = beam.NewCounter("neardup", "detail_bytes")
	bandKeys       = beam.NewCounter("neardup", "band_keys")
	candidatePairs = beam.NewCounter("neardup", "candidate_pairs")
	unsettled      = beam.NewCounter("neardup", "unsettled_links")
)

// readFn reads one input with the batch's own reader (package corpus), so
// that each record is decoded, checked and skipped as the batch does, and
// sketches its documents. A bad record is counted by its reason, listed in
// rejects.jsonl, and never fails the job.
type readFn struct {
	Method   methodConfig
	Fields   Fields
	MaxBytes int
	// MinChars is the stub rule's minimum length (Options.MinChars).
	MinChars int
	// Copies says whether documents are keyed by engine.CopyKeyOf on
	// their way to the buckets, for copiesFn; else by "".
	Copies bool

	sketch sketchFunc
	limits output.Limits // named in rejects.jsonl
}

func (fn *readFn) Setup() error {
	st, err := fn.Method.stages()
	if err != nil {
		return err
	}
	fn.sketch = st.newSketcher()
	// minhash and simhash, the pipeline's methods, skip under no limit of
	// their own: the stub rule's alone.
	fn.limits = output.LimitsOf(nil, fn.MinChars)
	return nil
}

// emits are where readFn sends what it makes of each record.
type emits struct {
	docs    func(int64, doc)
	lines   func(int64, []byte)
	keys    func(string, keyed)
	rejects func(line)
	counts  func(string, int64)
}

// ProcessElement emits, for each document of the input: its doc by
// ordinal, its JSON line by ordinal (for kept.jsonl), and its member with
// its candidate keys (by its CopyKey under Copies); for each record not
// compared, its
// line of rejects.jsonl; a count of each record read; and at the end the
// input's number of records (countRecords), which places its documents
// among the shards of the output.
func (fn *readFn) ProcessElement(ctx context.Context, in input, docs func(int64, doc), lines func(int64, []byte),
	keys func(string, keyed), rejects func(line), counts func(string, int64)) error {
	fs, err := filesystem.New(ctx, in.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	f, err := fs.OpenRead(ctx, in.Path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", in.Path, err)
	}
	defer f.Close()
	r, err := corpus.OpenReaderNamed(in.Path, in.IDName, f, fn.corpusOptions())
	if err != nil {
		return err
	}
	defer r.Close()
	e := emits{docs, lines, keys, rejects, counts}
	for rec := int64(0); ; rec++ {
		raw, err := r.NextRaw()
		if err == io.EOF {
			if n, first := r.UnreadDates(); n > 0 {
				counts(countUnreadDates, int64(n))
				counts(exampleOf(exampleUnreadDate, in.Index, first), 0)
			}
			if n, first := r.Unlisted(); n > 0 {
				counts(countUnlisted, int64(n))
				counts(exampleOf(exampleUnlisted, in.Index, first), 0)
			}
			if n, first := r.StrayBytes(container.Gzip); n > 0 {
				counts(countGzipStray, int64(n))
				counts(exampleOf(exampleGzipStray, in.Index, first), 0)
			}
			if n, first := r.StrayBytes(container.Bzip2); n > 0 {
				counts(countBzip2Stray, int64(n))
				counts(exampleOf(exampleBzip2Stray, in.Index, first), 0)
			}
			counts(recordsOf(in.Index), rec)
			return nil
		}
		if fe := (*corpus.FieldError)(nil); errors.As(err, &fe) {
			// The runner passes on the message alone: its hint goes in it,
			// on the line after, as neardup dedup prints it.
			return fmt.Errorf("%w\n%s", err, fe.Hint())
		}
		if err != nil {
			return err // the file cannot be read on: the runner retries it
		}
		if err := fn.record(ctx, in.Index<<ordBits|rec, raw, r.Decode(raw), e); err != nil {
			return err
		}
	}
}

// record counts, sketches and emits one record.
func (fn *readFn) record(ctx context.Context, ord int64, raw corpus.Raw, rec corpus.Record, e emits) error {
	e.counts(countRead, 1)
	if rec.Skip != core.SkipNone {
		e.counts(countSkipped+string(rec.Skip), 1)
		return reject(ord, output.RejectRecord(rec), e.rejects)
	}
	e.counts(countDocuments, 1)
	d := doc{ID: rec.Doc.ID, Length: int64(min(len(rec.Doc.Text), 1<<31-1))}
	if !rec.Doc.Date.IsZero() {
		d.Date = rec.Doc.Date.Unix()
	}
	skip := engine.StubSkip(&rec.Doc, fn.MinChars)
	var keys []uint32
	var searches bool
	if skip == core.SkipNone {
		d.Detail, keys, searches, skip = fn.sketch(&rec.Doc)
	}
	if skip != core.SkipNone {
		e.counts(countSkipped+string(skip), 1)
		e.counts(countNotKept, 1) // a document not compared is not kept
		e.docs(ord, d)
		return reject(ord, output.RejectDocument(&rec, skip, fn.limits), e.rejects)
	}
	// Only a document compared goes to kept.jsonl, as in the batch: one
	// skipped, whatever the reason, is listed among the rejects.
	e.lines(ord, raw.JSONLine())
	lineBytes.Inc(ctx, int64(len(raw.JSONLine())))
	e.docs(ord, d)
	detailBytes.Inc(ctx, int64(len(d.Detail)))
	bandKeys.Inc(ctx, int64(len(keys)))
	var by string
	if fn.Copies {
		k := engine.CopyKeyOf(&rec.Doc)
		by = string(k[:])
	}
	e.keys(by, keyed{Member: member{Ord: ord, Searches: searches}, Keys: slices.Clone(keys)})
	return nil
}

// reject emits the line of rejects.jsonl of the record of ordinal ord.
func reject(ord int64, r *output.Reject, emit func(line)) error {
	b, err := encodeLine(r)
	if err != nil {
		return err
	}
	emit(line{Key: ord, Line: b})
	return nil
}

// corpusOptions are the reader's options: JSON Lines alone, read once. An
// archive's member whose name says another format (a.csv, b.json, c.txt)
// is not read, and counted as a file not read, as the batch counts the
// members it does not read (a .png): read as JSON Lines, each of its
// lines was a malformed record.
func (fn *readFn) corpusOptions() corpus.Options {
	f := fn.Fields
	return corpus.Options{Format: "jsonl", FormatOnly: true, SinglePass: true, MaxBytes: fn.MaxBytes,
		IDField: f.ID, TitleField: f.Title, TextField: f.Text, URLField: f.URL, SourceField: f.Source, DateField: f.Date}
}
