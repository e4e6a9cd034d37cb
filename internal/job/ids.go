package job

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
)

// What Options.OnDuplicateID may say. Fail is the default: the outputs
// name documents by id, and an id read twice is either the same record
// read twice (skip is right) or shards that number their records alike
// (--id-scope file is right, or rename); which one, a run cannot tell, so
// it stops at the first repeat, as soon as it is read, naming both places
// and the two ways on.
const (
	DuplicateFail   = "fail"
	DuplicateSkip   = "skip"
	DuplicateRename = "rename"
)

// SkipDuplicateID is the reason rejects.jsonl gives for a document left
// out because its id repeats an earlier one's (Options.OnDuplicateID skip).
const SkipDuplicateID core.SkipReason = "duplicate-id"

// ErrDuplicateID marks the error of a run ended by a repeated id.
var ErrDuplicateID = errors.New("job: a repeated id")

func checkIDOptions(o Options) error {
	switch o.OnDuplicateID {
	case "", DuplicateFail, DuplicateSkip, DuplicateRename:
	default:
		return fmt.Errorf("job: OnDuplicateID %q: want fail, skip or rename", o.OnDuplicateID)
	}
	switch o.IDScope {
	case "", "run", "file":
	default:
		return fmt.Errorf("job: IDScope %q: want run or file", o.IDScope)
	}
	return nil
}

// scopeID makes a record's id "file#id" when ids are unique within their
// file only (Options.IDScope "file").
func (run *runner) scopeID(rec *corpus.Record) {
	if run.o.IDScope == "file" {
		rec.SetID(fileScopedID(rec, run.r))
	}
}

// fileScopedID is the id of rec's document, read by r, when ids are unique
// within their file only: "file#id", the file named as r names a record
// by its origin (corpus.Reader.FileID: relative to the directory holding
// the input given, however it was given; with r nil, as the origin names
// it). A record skipped, or without an id of its own (named by its origin:
// corpus.Reader.NamedByOrigin; with r nil, an id that is its origin),
// keeps its id: its origin is unique.
func fileScopedID(rec *corpus.Record, r *corpus.Reader) string {
	if rec.Skip != core.SkipNone || namedByOrigin(&rec.Doc, r) {
		return rec.Doc.ID
	}
	file := fileOf(rec.Doc.Origin)
	if r != nil {
		file = r.FileID(file)
	}
	return file + "#" + rec.Doc.ID
}

// namedByOrigin reports whether d, read by r, has no id of its own (see
// fileScopedID).
func namedByOrigin(d *core.Document, r *corpus.Reader) bool {
	return d.ID == d.Origin || r != nil && r.NamedByOrigin(d)
}

// fileOf returns the file of an origin: the origin without its line
// number ("a.jsonl" of "a.jsonl:3", "a.json" of "a.json:1#2").
func fileOf(origin string) string {
	if i := strings.LastIndexByte(origin, ':'); i >= 0 {
		num, _, _ := strings.Cut(origin[i+1:], "#") // "a.json:1#2": the second value on line 1
		if _, err := strconv.Atoi(num); err == nil {
			return origin[:i]
		}
	}
	return origin
}

// renamedID is the id Options.OnDuplicateID rename tries for the n-th
// holder of id (n from 2 on): "id#n".
func renamedID(id string, n int) string { return id + "#" + strconv.Itoa(n) }

// IDNamer gives the documents of a corpus, read in order, the ids a run
// of the same IDScope and OnDuplicateID gives them, without a batch: a
// command that looks documents up by the ids of a run's results (neardup
// diff --corpus) finds "4#2" as the run named it. The zero value names as
// a run of the defaults does. An IDNamer is not safe for concurrent use.
type IDNamer struct {
	// Scope and OnDuplicate are Options.IDScope and Options.OnDuplicateID.
	Scope, OnDuplicate string
	// Reader is the corpus's reader, which tells a document without an id
	// of its own (corpus.Reader.NamedByOrigin), kept as it is under Scope
	// "file"; nil takes a document whose id is its origin for one.
	Reader *corpus.Reader
	taken  map[string]string // the origin of each id given
}

// Name returns the id of rec's document in the results of a run that read
// the records before it as n did. kept is false for a record the run
// leaves out: one skipped (its id as read), or one whose id repeats under
// OnDuplicateID skip. Under fail, where a run stops at a repeated id, the
// id is given again, and repeat says so.
func (n *IDNamer) Name(rec *corpus.Record) (id string, kept, repeat bool) {
	if rec.Skip != core.SkipNone {
		return rec.Doc.ID, false, false
	}
	id = n.Own(rec)
	if n.taken == nil {
		n.taken = map[string]string{}
	}
	if _, ok := n.taken[id]; ok {
		switch n.OnDuplicate {
		case DuplicateSkip:
			return id, false, true
		case DuplicateRename:
			k := 2
			for n.has(renamedID(id, k)) {
				k++
			}
			id = renamedID(id, k)
		default:
			return id, true, true
		}
	}
	n.taken[id] = rec.Doc.Origin
	return id, true, false
}

// has reports whether id was given.
func (n *IDNamer) has(id string) bool {
	_, ok := n.taken[id]
	return ok
}

// First returns the origin of the document Name gave id, "" when it gave
// none: the earlier place a repeat of id names.
func (n *IDNamer) First(id string) string { return n.taken[id] }

// Own returns the id of rec's document before a repeat is renamed: its id
// as read, "file#id" under Scope "file" (a record skipped keeps its id).
func (n *IDNamer) Own(rec *corpus.Record) string {
	if n.Scope == "file" && rec.Skip == core.SkipNone {
		return fileScopedID(rec, n.Reader)
	}
	return rec.Doc.ID
}

// add adds a document to the batch, doing with a repeated id what
// Options.OnDuplicateID says; added is false for a document left out.
func (run *runner) add(it *item) (added bool, err error) {
	doc := &it.rec.Doc
	err = run.b.Add(doc, it.sketch)
	var dup *engine.DuplicateIDError
	if !errors.As(err, &dup) {
		return err == nil, err
	}
	stored := dup.First // as the batch holds it, for scopeHelps
	dup = placesApart(dup, &it.rec, run.r)
	switch run.o.OnDuplicateID {
	case DuplicateSkip:
		run.skippedAt = append(run.skippedAt, run.read-1)
		field := cmp.Or(run.o.Corpus.IDField, "id")
		// The record as read, so that its place is told as the reader
		// told it (a Parquet file's row, Record.Row), skipped.
		rec := it.rec
		rec.Skip, rec.Err = SkipDuplicateID, &corpus.RecordError{Origin: doc.Origin, Field: field,
			Reason: SkipDuplicateID, Msg: fmt.Sprintf("id %q repeats the id of %s", dup.ID, dup.First)}
		return false, run.skip(rec)
	case DuplicateRename:
		// The warning names the document that kept the id: the first
		// repeat, not one of the renamed ids tried after it ("4#2").
		id, first := doc.ID, dup.First
		var taken *engine.DuplicateIDError
		for n := 2; ; n++ {
			doc.ID = renamedID(id, n)
			err = run.b.Add(doc, it.sketch)
			if !errors.As(err, &taken) {
				break
			}
		}
		if err != nil {
			return false, err
		}
		if run.renamed == nil {
			run.renamed, run.renamedFrom = map[int]string{}, map[string]string{}
		}
		run.renamed[run.b.Len()-1] = doc.ID
		run.warner.renamed(dup.Origin, id, first, run.renamedFrom[id], doc.ID)
		run.renamedFrom[doc.ID] = id
		return true, nil
	}
	return false, &duplicateError{dup, run.o.IDScope != "file" && scopeHelps(dup.ID, stored, &it.rec, run.r)}
}

// scopeHelps reports whether Options.IDScope "file" would give two ids to
// rec and the earlier document of its id, read at first: one of them has
// an id of its own (made "file#id"; an id named by its origin is kept),
// and when both have, they are of two files.
func scopeHelps(id, first string, rec *corpus.Record, r *corpus.Reader) bool {
	own := !namedByOrigin(&rec.Doc, r)
	ownFirst := !namedByOrigin(&core.Document{ID: id, Origin: first}, r)
	if own != ownFirst {
		return true
	}
	return own && fileOf(rec.Doc.Origin) != fileOf(first)
}

// placesApart returns dup with its two places told apart when they are
// written alike (two members of one name in an archive, standard input and
// a file given as "stdin", two JSON objects on one line), as r tells them
// (corpus.Reader.Places): "f4.tar/a.txt (member 2 of f4.tar)" repeats the
// id of "f4.tar/a.txt (an earlier member of that name)"; else dup.
func placesApart(dup *engine.DuplicateIDError, rec *corpus.Record, r *corpus.Reader) *engine.DuplicateIDError {
	if dup.Origin != dup.First {
		return dup
	}
	this, earlier := "", ""
	if r != nil {
		this, earlier = r.Places(rec)
	}
	d := *dup
	if this != "" {
		d.Origin += " (" + this + ")"
	}
	d.First += " (" + cmp.Or(earlier, "an earlier record read there") + ")"
	return &d
}

// duplicateError is the error of a run ended by a repeated id: it is
// ErrDuplicateID, and says what else can be done. scope: --id-scope file
// would tell the two documents apart (scopeHelps), and is not given.
type duplicateError struct {
	dup   *engine.DuplicateIDError
	scope bool
}

func (e *duplicateError) Error() string {
	if !e.scope {
		return e.dup.Error() + " (--on-duplicate-id skip leaves such documents out, rename renames them)"
	}
	return e.dup.Error() + " (--on-duplicate-id skip leaves such documents out, rename renames them; --id-scope file makes ids unique within their file only)"
}

func (e *duplicateError) Is(target error) bool { return target == ErrDuplicateID }

func (e *duplicateError) Unwrap() error { return e.dup }

// RepeatError is the error a run of OnDuplicateID fail stops with at rec,
// read by r, whose id repeats that of the document read at first: the
// two places told apart as the run tells them, and the ways on it names
// (IDScope "file" among them when scope is not "file" and it would help).
// A command that names documents as a run does (neardup convert) fails
// with it where the run would.
func RepeatError(id, first string, rec *corpus.Record, r *corpus.Reader, scope string) error {
	dup := placesApart(&engine.DuplicateIDError{ID: id, Origin: rec.Doc.Origin, First: first}, rec, r)
	return &duplicateError{dup, scope != "file" && scopeHelps(id, first, rec, r)}
}
