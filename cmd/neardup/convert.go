package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/jsonenc"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
)

// convertCmd is `neardup convert`: the inputs, read as dedup reads them,
// written as JSON Lines.
type convertCmd struct {
	Inputs        []string `type:"operands" arg:"" name:"input" help:"Inputs as neardup dedup reads them: JSONL, JSON, CSV/TSV, Parquet, text, HTML, WARC, feeds, directories, archives; - for stdin."`
	Out           string   `short:"o" required:"" help:"The JSON Lines file to write: .jsonl, .jsonl.gz or .jsonl.zst (compressed by its extension), or - for stdout. Written to a temporary name and renamed when complete."`
	Rejects       string   `help:"Also write the records skipped, one JSON object a line as dedup's rejects.jsonl holds them, to this file."`
	OnDuplicateID string   `name:"on-duplicate-id" default:"fail" enum:"fail,skip,rename" help:"A document whose id an earlier one has: fail stops at it, naming both places (the default, as dedup); skip leaves it out (with the records skipped); rename gives it the id with #2 (#3 ...) appended."`
	IDScope       string   `name:"id-scope" default:"run" enum:"run,file" help:"Where ids are unique: run (every input) or file (a document's id becomes FILE#ID, as dedup --id-scope file names it; dedup the converted file without it)."`
	inputFlags
}

// Validate refuses an output of a format convert does not write; kong
// calls it after parsing.
func (c *convertCmd) Validate() error {
	if c.Out == "-" || output.Special(c.Out) {
		return nil
	}
	if f, _ := output.KeptFormat(c.Out); f == "" || f == "parquet" {
		return usageError{fmt.Sprintf("-o %s: convert writes JSON Lines: name a file ending .jsonl, .jsonl.gz or .jsonl.zst, or - for stdout", c.Out)}
	}
	return nil
}

// Run reads the flags as dedup reads them and converts.
func (c *convertCmd) Run(g *globals, kctx *kong.Context) error {
	c.noteGiven(kctx)
	co, err := c.corpusOptions()
	if err != nil {
		return err
	}
	if c.Rejects != "" && (c.Rejects == "-" || sameFile(c.Rejects, c.Out)) {
		return usageError{fmt.Sprintf("--rejects %s: name a file other than the output", c.Rejects)}
	}
	if err := refuseInputAsOutput(c.Inputs, inputWalk{}, outputFile{"-o", c.Out}, outputFile{"--rejects", c.Rejects}); err != nil {
		return err
	}
	o := convertOptions{Inputs: c.Inputs, Out: c.Out, Rejects: c.Rejects, Corpus: co, Strict: c.Strict,
		IDs: job.IDNamer{Scope: c.IDScope, OnDuplicate: c.OnDuplicateID}, Warn: visibleLines{os.Stderr}, MaxWarnings: c.maxWarnings()}
	if !g.quiet {
		o.Progress = os.Stderr
	}
	return runConvert(g.ctx, o)
}

// convertOptions are what runConvert reads and writes.
type convertOptions struct {
	Inputs  []string
	Out     string // a JSON Lines file (compressed by its extension) or "-"
	Rejects string // the file of the records skipped; "" writes none
	Corpus  corpus.Options
	Strict  bool
	// IDs names the documents as a dedup run of its Scope and
	// OnDuplicate does.
	IDs job.IDNamer
	// Progress receives the progress and summary lines; nil prints none.
	Progress io.Writer
	// Warn receives a line per record skipped, up to MaxWarnings (as
	// job.Options.MaxWarnings: negative warns of none).
	Warn        io.Writer
	MaxWarnings int
}

// converter carries a conversion's state.
type converter struct {
	o       convertOptions
	r       *corpus.Reader
	meter   *progress.Meter
	reading *job.Reading // the warnings and notes of a run's reading
	// renamedFrom holds, of each id given to a record whose own id
	// repeated (--on-duplicate-id rename), that own id.
	renamedFrom map[string]string
	read        int
	written     int
	skipped     map[core.SkipReason]int
	drop        []string // the names of the record's fields written under the standard names
	line        []byte
	maxBytes    int // the limit of a record, and of a line of the output
}

// runConvert reads the inputs as neardup dedup does and writes each
// document it would compare as a JSON object on a line: its id as the run
// names it, title, text, url, source and date as read, then the record's
// other fields as dedup's kept.jsonl would hold them. Out (and Rejects)
// are written to temporary files renamed when complete: a failed run
// leaves neither.
func runConvert(ctx context.Context, o convertOptions) error {
	r, err := job.OpenReading(o.Inputs, o.Corpus) // leaving out an earlier run's results, as dedup does
	if err != nil {
		return err
	}
	defer r.Close()
	r.StopWith(ctx)
	o.IDs.Reader = r
	co := o.Corpus
	c := &converter{o: o, r: r, meter: progress.New(o.Progress), skipped: map[core.SkipReason]int{},
		maxBytes: cmp.Or(max(co.MaxBytes, 0), corpus.DefaultMaxBytes)}
	for _, f := range []string{co.IDField, co.TitleField, co.TextField, co.URLField, co.SourceField, co.DateField,
		"id", "title", "text", "url", "source", "date"} {
		if f != "" {
			c.drop = append(c.drop, f)
		}
	}
	var warn io.Writer
	if o.Warn != nil {
		warn = c.meter.Lines(o.Warn)
	}
	c.reading = job.NewReading(warn, o.MaxWarnings, o.Strict)
	c.meter.Stage("converting")
	if o.Rejects == "" {
		err = c.writeOut(ctx, nil)
	} else {
		err = output.WriteAtomic(o.Rejects, func(w *bufio.Writer) error { return c.writeOut(ctx, w) })
	}
	c.reading.WarnNotRead(r)
	c.meter.End(c.read, err)
	if err != nil {
		return err
	}
	if o.Progress != nil {
		skipped, why := reasonsNote(c.skipped)
		note := ""
		if skipped > 0 {
			note = fmt.Sprintf(", %d skipped (%s)", skipped, why)
			if o.Rejects == "" {
				note += "; --rejects FILE lists them"
			}
		}
		fmt.Fprintf(o.Progress, "%s read, %d written%s → %s\n", count(c.read, "record", "records"), c.written, note, o.Out)
	}
	return nil
}

// writeOut writes the output file, and the records skipped to rejects
// when it is not nil.
func (c *converter) writeOut(ctx context.Context, rejects *bufio.Writer) error {
	if c.o.Out != "-" {
		return output.WriteAtomic(c.o.Out, func(w *bufio.Writer) error { return c.convert(ctx, w, rejects) })
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := c.convert(ctx, w, rejects); err != nil {
		return err
	}
	return w.Flush()
}

// convert reads every record and writes those dedup compares to w,
// compressed as the output's name says.
func (c *converter) convert(ctx context.Context, w *bufio.Writer, rejects *bufio.Writer) error {
	var dst io.Writer = w
	zw, err := output.Compressor(c.o.Out, w)
	if err != nil {
		return err
	}
	if zw != nil {
		dst = zw
	}
	var enc *json.Encoder
	if rejects != nil {
		enc = json.NewEncoder(rejects)
		enc.SetEscapeHTML(false)
	}
	for {
		if c.read%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := c.r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		c.read++
		c.reading.Take(&rec)
		if c.read%1024 == 0 {
			done, total := c.r.Progress()
			c.meter.Update(c.read, done, total)
		}
		if rec.Skip == core.SkipNone {
			if rec, err = c.name(rec); err != nil {
				return err
			}
		}
		if rec.Skip != core.SkipNone {
			if err := c.skip(rec, enc); err != nil {
				return err
			}
			continue
		}
		if c.line, err = c.appendDoc(c.line[:0], &rec.Doc); err != nil {
			return fmt.Errorf("%s: %w", rec.Doc.Origin, err)
		}
		if n := len(c.line) - 1; n > c.maxBytes {
			// JSON escaping grows a record (a tab becomes \t): a reader of
			// the output of the same limit would skip the line.
			return fmt.Errorf("%s: its line of JSON is %d bytes, over --max-bytes %d, and a reader of %s would skip it as too large: "+
				"convert (and read %s) with --max-bytes %d or more", rec.Doc.Origin, n, c.maxBytes, c.o.Out, c.o.Out, n)
		}
		if _, err := dst.Write(c.line); err != nil {
			return err
		}
		c.written++
	}
	if c.written == 0 {
		return job.NoDocuments(c.read, c.skipped, c.r.FieldsSeen())
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// name gives rec's document the id dedup gives it, and does with a
// repeated id what the options say: fail with dedup's error, skip the
// record as dedup does (job.SkipDuplicateID), or rename it, warning.
func (c *converter) name(rec corpus.Record) (corpus.Record, error) {
	own := c.o.IDs.Own(&rec)
	id, kept, repeat := c.o.IDs.Name(&rec)
	switch {
	case repeat && kept:
		return rec, job.RepeatError(id, c.o.IDs.First(id), &rec, c.r, c.o.IDs.Scope)
	case repeat:
		rec.Skip, rec.Err = job.SkipDuplicateID, &corpus.RecordError{Origin: rec.Doc.Origin, Field: cmp.Or(c.o.Corpus.IDField, "id"),
			Reason: job.SkipDuplicateID, Msg: fmt.Sprintf("id %q repeats the id of %s", id, c.o.IDs.First(id))}
		return rec, nil
	case id != own:
		c.reading.Renamed(rec.Doc.Origin, own, c.o.IDs.First(own), c.renamedFrom[own], id)
		if c.renamedFrom == nil {
			c.renamedFrom = map[string]string{}
		}
		c.renamedFrom[id] = own
	}
	rec.Doc.ID = id
	return rec, nil
}

// skip counts a record skipped, writes it to rejects (when not nil) as
// dedup's rejects.jsonl holds it, and warns as dedup does, or in strict
// mode fails with dedup's error.
func (c *converter) skip(rec corpus.Record, rejects *json.Encoder) error {
	c.skipped[rec.Skip]++
	if rejects != nil {
		if err := rejects.Encode(output.RejectRecord(rec)); err != nil {
			return fmt.Errorf("writing %s: %w", c.o.Rejects, err)
		}
	}
	where := "the summary counts them"
	if c.o.Rejects != "" {
		where = c.o.Rejects + " lists them"
	}
	return c.reading.Skip(rec, where)
}

// appendDoc appends doc as a line of JSON: id, title, text, url, source
// and date (RFC 3339, to the nanosecond, without an offset when read
// without a zone) as dedup read them, the empty ones left out but id and
// text, then every other member of doc.Raw, the record as dedup's
// kept.jsonl holds it, but those of the names the fields were read from
// and of the six names (in any case): dedup of the line reads what it
// read of the record.
func (c *converter) appendDoc(b []byte, doc *core.Document) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = jsonenc.AppendString(b, doc.ID)
	for _, f := range [...]struct{ name, v string }{{"title", doc.Title}, {"text", doc.Text}, {"url", doc.URL}, {"source", doc.Source}} {
		if f.v != "" || f.name == "text" {
			b = append(b, `,"`+f.name+`":`...)
			b = jsonenc.AppendString(b, f.v)
		}
	}
	if !doc.Date.IsZero() && !core.NoDate(doc.Date) {
		b = append(b, `,"date":`...)
		b = jsonenc.AppendString(b, core.FormatDate(doc.Date, time.RFC3339Nano))
	}
	b, err := c.appendOthers(b, doc.Raw)
	if err != nil {
		return b, err
	}
	return append(b, "}\n"...), nil
}

// appendOthers appends the members of the JSON object raw that appendDoc
// does not write under the standard names, each value compacted.
func (c *converter) appendOthers(b []byte, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return b, fmt.Errorf("the record is not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return b, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return b, err
		}
		if c.dropped(key) {
			continue
		}
		b = append(b, ',')
		b = jsonenc.AppendString(b, key)
		b = append(b, ':')
		var buf bytes.Buffer
		if err := json.Compact(&buf, v); err != nil {
			return b, err
		}
		b = append(b, buf.Bytes()...)
	}
	return b, nil
}

// dropped reports whether a member of a record is one appendDoc writes
// under a standard name: one a field was read from, or of a standard
// name, in any case, spaces around it or not (as the reader matches them).
func (c *converter) dropped(key string) bool {
	k := strings.TrimSpace(key)
	for _, d := range c.drop {
		if strings.EqualFold(k, d) {
			return true
		}
	}
	return false
}
