package job

import (
	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/output"
)

// The kept file holds the documents that were compared and kept; every
// record not compared is left out of it, whatever the reason, and listed
// in rejects.jsonl with that reason: those the reader could not use (empty,
// not UTF-8, too large, malformed ...) and those the method could not
// compare (too short, no units left once punctuation and stop words go).
// A document never compared may be a copy of another, and a de-duplicated
// corpus should not say otherwise; rejects.jsonl says where each is.

// kept reports whether the document of ordinal ord goes to the kept file:
// the batch kept it (engine.Batch.Kept: the method compared it, and it is
// in no cluster or represents its cluster).
func (run *runner) kept(ord int) bool { return run.b.Kept(ord) }

// reject writes a line of rejects.jsonl for a record the reader skipped.
func (run *runner) reject(rec corpus.Record) error {
	return run.out.Reject(output.RejectRecord(rec))
}

// rejectDoc writes a line of rejects.jsonl for a document the method did
// not compare for the reason why, because as output.Limits.Why said it of
// the document's text (item.because).
func (run *runner) rejectDoc(rec *corpus.Record, why core.SkipReason, because string) error {
	return run.out.Reject(output.RejectNotCompared(rec, why, because))
}

// noteSchema notes the Parquet schema of a document's record (nil for a
// record of another format): a Parquet kept file copies the rows as they
// are when every document is a row of one schema.
func (run *runner) noteSchema(s *parquet.Schema) {
	switch {
	case run.mixed:
	case s == nil:
		run.mixed = true
	case run.schema == nil:
		run.schema = s
	case run.schema != s && !parquet.EqualNodes(run.schema, s):
		run.mixed = true
	}
}
