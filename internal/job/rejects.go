package job

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
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
// the batch kept it, and the method compared it.
func (run *runner) kept(ord int) bool {
	if !run.b.Kept(ord) {
		return false
	}
	_, skipped := slices.BinarySearch(run.notCompared, ord)
	return !skipped
}

// reject writes a line of rejects.jsonl for a record the reader skipped.
func (run *runner) reject(rec corpus.Record) error {
	r := &output.Reject{ID: rec.Doc.ID, Reason: string(rec.Skip), Error: errText(rec.Err)}
	origin := rec.Doc.Origin
	var re *corpus.RecordError
	if errors.As(rec.Err, &re) {
		origin, r.Field, r.Error = re.Origin, re.Field, re.Msg
	}
	if r.ID == origin {
		r.ID = "" // no id was read: the origin stands in for it
	}
	place(r, origin)
	return run.out.Reject(r)
}

// rejectDoc writes a line of rejects.jsonl for a document the method did
// not compare.
func (run *runner) rejectDoc(doc *core.Document, why core.SkipReason) error {
	r := &output.Reject{ID: doc.ID, Reason: string(why), Error: "not compared: " + skipText(why)}
	if r.ID == doc.Origin {
		r.ID = ""
	}
	place(r, doc.Origin)
	return run.out.Reject(r)
}

func skipText(why core.SkipReason) string {
	switch why {
	case core.SkipTooShort:
		return "too short to compare"
	case core.SkipNoUnits:
		return "no words or sentences left to compare once the text is analysed (punctuation, numbers or stop words only)"
	}
	return string(why)
}

// place sets the file and the line (or a Parquet file's row) of a reject
// from its origin, "file:17"; an origin without a number is the file.
func place(r *output.Reject, origin string) {
	r.File = origin
	i := strings.LastIndexByte(origin, ':')
	if i < 0 {
		return
	}
	n, err := strconv.Atoi(origin[i+1:])
	if err != nil || n <= 0 {
		return
	}
	r.File = origin[:i]
	if container.ByName(container.Inner(r.File)) == container.Parquet {
		r.Row = n
	} else {
		r.Line = n
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
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
