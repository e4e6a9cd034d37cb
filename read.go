package neardup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/output"
)

// ReadOptions choose the format of the inputs of ReadFiles and Read and
// which of their fields make a document. The zero value reads every format
// `neardup dedup` reads, chosen by each file's extension (or content), with
// the fields id, title, text, url, source and date.
type ReadOptions struct {
	// Format forces the record format of every input: "jsonl", "json",
	// "csv", "tsv", "txt", "html", "warc", "sgml", "feed" or "parquet". Empty chooses
	// by extension and, for an unknown one, by the content. Compressed
	// files and archives (.gz, .zst, .zip, .tar …) are read either way.
	Format string
	// IDField, TitleField, TextField, URLField, SourceField and DateField
	// name the JSON keys or CSV columns of each part of a document; empty
	// means id, title, text, url, source and date. A name matches exactly,
	// or else ignoring case. In JSON, a name with dots is a path into
	// nested objects ("_source.title": the title key of the _source
	// object), or, in a record without its first key, a key with those
	// dots. A record without an id gets its origin ("file:line") as its ID.
	IDField, TitleField, TextField, URLField, SourceField, DateField string
	// MaxBytes limits a record, in bytes: a larger one is skipped as
	// too-large without being held in memory. 0 means 10 MiB.
	MaxBytes int
	// Charset is the charset of every text, CSV and TSV input ("latin1",
	// "windows-1251" …); empty reads UTF-8 and detects the charset of a
	// file that is not.
	Charset string
}

// corpus gives the reader's options of o; a walk of a directory leaves out
// what a dedup run wrote there (output.Earlier), as dedup's does.
func (o ReadOptions) corpus() corpus.Options {
	return corpus.Options{Format: o.Format, IDField: o.IDField, TitleField: o.TitleField, TextField: o.TextField,
		URLField: o.URLField, SourceField: o.SourceField, DateField: o.DateField, MaxBytes: o.MaxBytes,
		Charset: o.Charset, SinglePass: true, Exclude: output.Earlier}
}

// RecordError says why a record of an input could not be read as a
// document. ReadFiles and Read yield it with the document's ID and
// Origin, as far as they were read, and go on with the next record;
// DedupSeq counts it as skipped for its Reason.
type RecordError struct {
	// Origin is where the record is: "file:line" for JSON Lines and CSV,
	// the path of a file, "archive.zip/member.txt" inside an archive.
	Origin string
	// Field is the JSON key or CSV column at fault; empty for the whole
	// record.
	Field string
	// Reason is the skip reason: malformed, invalid-utf8, binary, empty,
	// too-large or refused. One a caller's own sequence yields without a
	// Reason is counted as "other".
	Reason SkipReason
	// Msg says what is wrong.
	Msg string
}

// Error reads "origin: field "name": msg", or "origin: msg".
func (e *RecordError) Error() string {
	if e.Field == "" {
		return e.Origin + ": " + e.Msg
	}
	return fmt.Sprintf("%s: field %q: %s", e.Origin, e.Field, e.Msg)
}

// ReadFiles returns the documents of the files and directories at paths,
// in order, as `neardup dedup` reads them, one record at a time: the
// sequence holds no more than the record it yields. A record that cannot
// be read as a document comes with a *RecordError naming its file and line;
// an input that cannot be read (missing, or failing while read) with an
// error that ends the sequence. Each range over the sequence reads the
// files anew, so it can serve as Options.Reread too. It stops early when
// ctx is done, yielding ctx's error, also while it waits for standard input
// ("-") or a named pipe: the read under way is then left to a goroutine of
// its own, and what it reads is dropped.
func ReadFiles(ctx context.Context, paths []string, o ReadOptions) iter.Seq2[Document, error] {
	return func(yield func(Document, error) bool) {
		if len(paths) == 0 {
			yield(Document{}, errors.New("neardup: no input files"))
			return
		}
		r, err := corpus.Open(paths, o.corpus())
		if err != nil {
			yield(Document{}, err)
			return
		}
		defer r.Close()
		r.StopWith(ctx)
		records(ctx, r, yield)
	}
}

// Read returns the documents of one stream, as ReadFiles does for a file:
// name stands for it in origins and IDs, and its extension, if any,
// chooses the format ("upload.jsonl.gz"). An empty name, or "-", is
// "stdin", as `neardup dedup -` names standard input ("stdin:2"). The
// sequence can be ranged over once; Read does not close r. A nil r yields
// an error. It stops when ctx is done, yielding ctx's error, before its
// next record; a read that r blocks in (a pipe or a connection that sends
// nothing) is not abandoned, as r stays the caller's: closing r, or a
// deadline on it, ends that read.
func Read(ctx context.Context, name string, r io.Reader, o ReadOptions) iter.Seq2[Document, error] {
	if name == "" || name == "-" {
		name = "stdin"
	}
	return func(yield func(Document, error) bool) {
		if r == nil {
			yield(Document{}, fmt.Errorf("neardup: %s: no stream to read (a nil io.Reader)", name))
			return
		}
		cr, err := corpus.OpenReader(name, r, o.corpus())
		if err != nil {
			yield(Document{}, err)
			return
		}
		defer cr.Close()
		records(ctx, cr, yield)
	}
}

// records yields every record of r.
func records(ctx context.Context, r *corpus.Reader, yield func(Document, error) bool) {
	for {
		if err := ctx.Err(); err != nil {
			yield(Document{}, err)
			return
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			yield(Document{}, err)
			return
		}
		var ok bool
		if rec.Skip != "" {
			ok = yield(rec.Doc, recordError(rec))
		} else {
			ok = yield(rec.Doc, nil)
		}
		if !ok {
			return
		}
	}
}

// recordError is the RecordError of a skipped record.
func recordError(rec corpus.Record) error {
	var re *corpus.RecordError
	if errors.As(rec.Err, &re) {
		return &RecordError{Origin: re.Origin, Field: re.Field, Reason: re.Reason, Msg: re.Msg}
	}
	msg := "not read"
	if rec.Err != nil {
		msg = rec.Err.Error()
	}
	return &RecordError{Origin: rec.Doc.Origin, Reason: rec.Skip, Msg: msg}
}
