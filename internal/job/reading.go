package job

import (
	"io"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/output"
)

// Reading is what a command that reads the inputs record by record as a
// run reads them, without a run (neardup convert), shares with Run and
// Feed: the reader set-up, the warnings of records skipped and renamed,
// the strict error, and the notes of what the inputs held that was not
// read, said once at the end. A Reading is not safe for concurrent use.
type Reading struct {
	warner warner
	notes  notes
}

// OpenReading opens inputs as Run opens them: its walk of an input
// directory leaves out what an earlier run wrote there (output.Earlier),
// besides what o.Exclude leaves out.
func OpenReading(inputs []string, o corpus.Options) (*corpus.Reader, error) {
	o.Exclude = output.WithoutEarlier(o.Exclude)
	return corpus.Open(inputs, o)
}

// NewReading returns the Reading that warns on w (nil: of nothing) of
// up to maxWarnings records, as Options.MaxWarnings says (0:
// DefaultMaxWarnings, negative: none), and, when strict, fails at the
// first record skipped.
func NewReading(w io.Writer, maxWarnings int, strict bool) *Reading {
	return &Reading{warner: warner{w: w, max: warnLimit(maxWarnings), strict: strict}}
}

// Take counts the notes of rec, a record read (a date not read, a site
// rule that matched nothing), for WarnNotRead.
func (rd *Reading) Take(rec *corpus.Record) { rd.notes.take(rec) }

// Skip warns of rec, a record skipped, up to the limit, where says where
// the records skipped are counted or listed; in strict mode it returns
// the error that stops the reading (ErrStrict).
func (rd *Reading) Skip(rec corpus.Record, where string) error { return rd.warner.skip(rec, where) }

// Renamed warns, as a run does, that the record at origin, whose own id
// repeats the id of the document at first, is id in the results
// (OnDuplicateID rename); from, when not "", is the own id of an earlier
// record renamed to own.
func (rd *Reading) Renamed(origin, own, first, from, id string) {
	rd.warner.renamed(origin, own, first, from, id)
}

// WarnNotRead says once what r's inputs held that was not read, as a run
// says it at the end of its reading: directories of nothing read, files
// not read, dates not read, damaged WARC files, stray bytes, fields not
// found.
func (rd *Reading) WarnNotRead(r *corpus.Reader) { warnNotRead(rd.warner.w, r, &rd.notes) }
