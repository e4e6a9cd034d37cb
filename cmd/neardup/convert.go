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
	"slices"
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
	// fields are the names the column flags give the standard fields
	// (standardNames), "" for their own.
	fields [len(standardNames)]string
	// keys, vals, drop and buf are appendOthers': the members of a
	// record, those left out, a value compacted.
	keys     []string
	vals     []json.RawMessage
	drop     []string
	buf      bytes.Buffer
	line     []byte
	maxBytes int // the limit of a record, and of a line of the output
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
	c.fields = [...]string{co.IDField, co.TitleField, co.TextField, co.URLField, co.SourceField, co.DateField}
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
	if err == nil { // dedup notes what it did not read only after a reading that succeeds
		c.reading.WarnNotRead(r)
	}
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
			out := c.o.Out
			if out == "-" {
				out = "the output"
			}
			return fmt.Errorf("%s: its line of JSON is %d bytes, over --max-bytes %d, and a reader of %s would skip it as too large: "+
				"convert (and read %s) with --max-bytes %d or more", rec.Doc.Origin, n, c.maxBytes, out, out, n)
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

// The standard fields a line holds, in its order, each by its standard
// name.
var standardNames = [...]string{"id", "title", "text", "url", "source", "date"}

// appendDoc appends doc as a line of JSON: id, title, text, url, source
// and date (RFC 3339, to the nanosecond, without an offset when read
// without a zone) as dedup read them, the empty ones left out but id and
// text, then the other members of doc.Raw, the record as dedup's
// kept.jsonl holds it (see appendOthers): dedup of the line reads what it
// read of the record.
func (c *converter) appendDoc(b []byte, doc *core.Document) ([]byte, error) {
	var values [len(standardNames)]string
	values[0], values[1], values[2], values[3], values[4] = doc.ID, doc.Title, doc.Text, doc.URL, doc.Source
	if !doc.Date.IsZero() && !core.NoDate(doc.Date) {
		values[5] = core.FormatDate(doc.Date, time.RFC3339Nano)
	}
	var written [len(standardNames)]bool
	b = append(b, '{')
	for i, name := range standardNames {
		if values[i] != "" || name == "id" || name == "text" {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, name...)
			b = append(b, `":`...)
			b = jsonenc.AppendString(b, values[i])
			written[i] = true
		}
	}
	b, err := c.appendOthers(b, doc.Raw, &written)
	if err != nil {
		return b, err
	}
	return append(b, "}\n"...), nil
}

// appendOthers appends the members of the JSON object raw but those that
// hold what appendDoc wrote: of each standard field written, the member
// it was read from (the name its column flag gives, or its own: the
// member of that name, else the one member of it but for case and spaces,
// as the reader matches them); and the member of each standard name,
// which the line holds as read. The others are kept as they are, each
// value compacted: a "Date " beside the "date" read stays. A field not
// written (empty) that another member has but for case or spaces is
// written empty, so that a reader of the line reads it empty, not from
// that member. written says which standard fields appendDoc wrote.
func (c *converter) appendOthers(b []byte, raw []byte, written *[len(standardNames)]bool) ([]byte, error) {
	if len(raw) == 0 {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return b, fmt.Errorf("the record is not a JSON object")
	}
	c.keys, c.vals = c.keys[:0], c.vals[:0]
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
		c.keys, c.vals = append(c.keys, key), append(c.vals, v)
	}
	drop := c.drop[:0]
	for i, name := range standardNames {
		drop = append(drop, name)
		if written[i] {
			if k, ok := readKey(c.keys, cmp.Or(c.fields[i], name)); ok {
				drop = append(drop, k)
			}
		}
	}
	c.drop = drop
	for i, name := range standardNames {
		if written[i] {
			continue
		}
		for _, k := range c.keys {
			if !slices.Contains(drop, k) && strings.EqualFold(strings.TrimSpace(k), name) {
				b = append(b, `,"`+name+`":""`...)
				break
			}
		}
	}
	for i, key := range c.keys {
		if slices.Contains(drop, key) {
			continue
		}
		b = append(b, ',')
		b = jsonenc.AppendString(b, key)
		b = append(b, ':')
		c.buf.Reset()
		if err := json.Compact(&c.buf, c.vals[i]); err != nil {
			return b, err
		}
		b = append(b, c.buf.Bytes()...)
	}
	return b, nil
}

// readKey returns the key among keys the reader reads the field of name
// from: name itself, else the one key that is name but for case and the
// spaces around it; ok is false when there is none, or two or more such.
func readKey(keys []string, name string) (key string, ok bool) {
	if slices.Contains(keys, name) {
		return name, true
	}
	for _, k := range keys {
		if k != key && strings.EqualFold(strings.TrimSpace(k), name) {
			if ok {
				return "", false
			}
			key, ok = k, true
		}
	}
	return key, ok
}
