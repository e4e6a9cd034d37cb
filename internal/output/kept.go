package output

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/jsonenc"
)

// Options choose the files of a set beyond pairs, clusters and stats. The
// zero value writes kept.jsonl and no other file.
type Options struct {
	// Kept names the de-duplicated corpus in the output directory; its
	// extension says its format: .jsonl (the default, kept.jsonl), .jsonl.gz
	// or .jsonl.zst (JSON Lines compressed with gzip or Zstandard), .parquet.
	Kept string
	// Removed adds removed.jsonl: a line for each document left out of the
	// kept file as a copy, {"id","cluster","kept"}.
	Removed bool
	// Rejects adds rejects.jsonl: a line for each record not compared (see
	// Set.Reject).
	Rejects bool
}

// keptNames are the names Options.Kept may take.
var keptNames = []string{"kept.jsonl", "kept.jsonl.gz", "kept.jsonl.zst", "kept.parquet"}

// KeptNames lists the names the kept file may take, for messages and
// help.
func KeptNames() []string { return slices.Clone(keptNames) }

// kept returns the kept file's name.
func (o Options) kept() string {
	if o.Kept == "" {
		return KeptFile
	}
	return o.Kept
}

// KeptFormat returns the format of the kept file a name asks for: "jsonl",
// "jsonl.gz", "jsonl.zst" or "parquet"; ok is false for another name.
func KeptFormat(name string) (format string, ok bool) {
	for _, f := range []string{"jsonl.gz", "jsonl.zst", "jsonl", "parquet"} {
		if strings.HasSuffix(strings.ToLower(name), "."+f) {
			return f, true
		}
	}
	return "", false
}

func (o Options) check() error {
	if o.Kept == "" {
		return nil
	}
	if !slices.Contains(keptNames, o.Kept) {
		return fmt.Errorf("the kept file is named %q; it may be %s", o.Kept, strings.Join(keptNames, ", "))
	}
	return nil
}

// names returns the main files of a set of these options.
func (o Options) names() []string {
	names := []string{PairsFile, ClustersFile, o.kept(), StatsFile}
	if o.Removed {
		names = append(names, RemovedFile)
	}
	if o.Rejects {
		names = append(names, RejectsFile)
	}
	return names
}

// keptFormat sets up f to write the kept file name: compressed by its
// extension, or in Parquet.
func (f *file) keptFormat(name string) error {
	if format, _ := KeptFormat(name); format == "parquet" {
		f.pq = &parquetKept{w: f.w}
		return nil
	}
	zw, err := Compressor(name, f.w)
	if err != nil || zw == nil {
		return err
	}
	f.out, f.z = zw, zw
	return nil
}

// Compressor returns the writer that compresses a JSON Lines file of this
// name into w, as the kept file is written: gzip for .jsonl.gz, Zstandard
// for .jsonl.zst; nil for a name that is not compressed. Close ends the
// compressed stream (not w). Compressed files of one kind concatenated
// are one valid file of that kind.
func Compressor(name string, w io.Writer) (io.WriteCloser, error) {
	switch format, _ := KeptFormat(name); format {
	case "jsonl.gz":
		return gzip.NewWriterLevel(w, gzip.DefaultCompression)
	case "jsonl.zst":
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	}
	return nil, nil
}

// KeptParquet reports whether the kept file is Parquet: its records are
// written with Keep, each with its document or its Parquet row.
func (s *Set) KeptParquet() bool { return s.files[s.opts.kept()].pq != nil }

// KeepSchema sets the schema of a Parquet kept file: the records are rows
// of that schema, copied as they are (ParquetRow). Unset (or nil), the
// kept file has the columns of keptRow and each record's JSON. It must be
// called before the first Keep.
func (s *Set) KeepSchema(schema *parquet.Schema) {
	if pq := s.files[s.opts.kept()].pq; pq != nil {
		pq.schema = schema
	}
}

// Keep writes a record of the de-duplicated corpus: line, the record as a
// JSON object, to kept.jsonl (compressed or not); to kept.parquet, row when
// KeepSchema set a schema (row is then a row of it), else doc's fields
// and line.
func (s *Set) Keep(line []byte, row parquet.Row, doc *core.Document) error {
	f := s.files[s.opts.kept()]
	if f.pq == nil {
		return s.KeptRaw(line)
	}
	if err := f.pq.write(line, row, doc); err != nil {
		return fmt.Errorf("writing %s: %w", s.opts.kept(), err)
	}
	return nil
}

// keptRow is a row of a Parquet kept file whose records are not all rows
// of one Parquet schema: the document's fields and the record as read.
type keptRow struct {
	ID     string `parquet:"id"`
	Title  string `parquet:"title"`
	Text   string `parquet:"text"`
	URL    string `parquet:"url"`
	Source string `parquet:"source"`
	Date   string `parquet:"date"` // RFC 3339 in UTC, without an offset when read without a zone; "" when undated
	// Record is the record as a JSON object, as kept.jsonl would hold it.
	Record string `parquet:"record"`
}

// parquetRowGroupBytes is about the most a row group of a Parquet kept file
// holds: the writer keeps a row group in memory until it is flushed.
const parquetRowGroupBytes = 64 << 20

// parquetKept writes a Parquet kept file, zstd-compressed, in row groups of
// about parquetRowGroupBytes.
type parquetKept struct {
	w      io.Writer
	schema *parquet.Schema             // the rows' schema; nil: keptRow
	pw     *parquet.GenericWriter[any] // rows of schema
	gw     *parquet.GenericWriter[keptRow]
	bytes  int // held in the row group being written
}

func (p *parquetKept) start() {
	if p.pw != nil || p.gw != nil {
		return
	}
	if p.schema != nil {
		p.pw = parquet.NewGenericWriter[any](p.w, p.schema, parquet.Compression(&parquet.Zstd))
	} else {
		p.gw = parquet.NewGenericWriter[keptRow](p.w, parquet.Compression(&parquet.Zstd))
	}
}

func (p *parquetKept) write(line []byte, row parquet.Row, doc *core.Document) error {
	p.start()
	if p.pw != nil {
		if row == nil {
			return errors.New("a record that is not a row of the kept file's Parquet schema")
		}
		if _, err := p.pw.WriteRows([]parquet.Row{row}); err != nil {
			return err
		}
		for _, v := range row {
			p.bytes += 8 + len(v.Bytes())
		}
	} else {
		k := keptRow{ID: doc.ID, Title: doc.Title, Text: doc.Text, URL: doc.URL, Source: doc.Source, Record: string(line)}
		if d := doc.Date; !d.IsZero() {
			if d.Location() != core.NoZone {
				d = d.UTC()
			}
			k.Date = core.FormatDate(d, "2006-01-02T15:04:05Z07:00")
		}
		if _, err := p.gw.Write([]keptRow{k}); err != nil {
			return err
		}
		p.bytes += len(k.Title) + len(k.Text) + len(k.Record) + len(k.ID) + 64
	}
	if p.bytes >= parquetRowGroupBytes {
		p.bytes = 0
		return p.flush()
	}
	return nil
}

func (p *parquetKept) flush() error {
	if p.pw != nil {
		return p.pw.Flush()
	}
	return p.gw.Flush()
}

func (p *parquetKept) close() error {
	p.start()
	if p.pw != nil {
		return p.pw.Close()
	}
	return p.gw.Close()
}

// Cluster writes a line of clusters.jsonl and, when the set has
// removed.jsonl, a line there for each member but the representative.
func (s *Set) Cluster(c *core.Cluster) error {
	if err := s.line(ClustersFile, c); err != nil {
		return err
	}
	if !s.opts.Removed {
		return nil
	}
	f := s.files[RemovedFile]
	for _, m := range c.Members {
		if m == c.Representative {
			continue
		}
		f.buf = AppendRemoved(f.buf[:0], m, c)
		if _, err := f.out.Write(f.buf); err != nil {
			return fmt.Errorf("writing %s: %w", RemovedFile, err)
		}
	}
	return nil
}

// AppendRemoved appends the line of removed.jsonl of member id of cluster
// c, which is not its representative: {"id","cluster","kept"}.
func AppendRemoved(dst []byte, id string, c *core.Cluster) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonenc.AppendString(dst, id)
	dst = append(dst, `,"cluster":`...)
	dst = strconv.AppendInt(dst, c.ID, 10)
	dst = append(dst, `,"kept":`...)
	dst = jsonenc.AppendString(dst, c.Representative)
	return append(dst, "}\n"...)
}

// Reject is a line of rejects.jsonl: a record not compared.
type Reject struct {
	File   string `json:"file"`           // the file (or archive member) it is in
	Line   int    `json:"line,omitempty"` // its line, in a line format (JSONL, CSV ...)
	Row    int    `json:"row,omitempty"`  // its row, from 1, in a Parquet file
	ID     string `json:"id,omitempty"`   // its id, when one was read
	Reason string `json:"reason"`         // the skip reason: empty, too-large, too-short ...
	Field  string `json:"field,omitempty"`
	Error  string `json:"error"` // what is wrong, as the warning says it
}

// RejectRecord is the line of rejects.jsonl of a record the reader
// skipped: where it is, its id when one was read, its reason and what is
// wrong, as the warning says it.
func RejectRecord(rec corpus.Record) *Reject {
	r := &Reject{ID: rec.Doc.ID, Reason: string(rec.Skip)}
	if rec.Err != nil {
		r.Error = rec.Err.Error()
	}
	origin := rec.Doc.Origin
	var re *corpus.RecordError
	if errors.As(rec.Err, &re) {
		origin, r.Field, r.Error = re.Origin, re.Field, re.Msg
	}
	if r.ID == origin {
		r.ID = "" // no id was read: the origin stands in for it
	}
	r.place(origin, rec.Row)
	return r
}

// RejectDocument is the line of rejects.jsonl of the document of a record
// the method did not compare, for the reason why, under the run's limits
// lim: its error names the limit the document fell under and the flag that
// sets it ("not compared: fewer than 201 words (--min-words)"). Its id is
// the document's as the run names it, its origin ("news.jsonl:17") when
// the record has none of its own, as an export of an index names it.
func RejectDocument(rec *corpus.Record, why core.SkipReason, lim Limits) *Reject {
	return RejectNotCompared(rec, why, lim.Why(&rec.Doc, why))
}

// RejectNotCompared is RejectDocument's line with the words of its error
// given, because, as Limits.Why said them of the document's text when it
// was read. dedup writes every line of a document it did not compare so,
// the words kept from the reading: a run resumed from a checkpoint
// replays its documents without their texts, and takes them from the
// journal.
func RejectNotCompared(rec *corpus.Record, why core.SkipReason, because string) *Reject {
	r := &Reject{ID: rec.Doc.ID, Reason: string(why), Error: "not compared: " + because}
	r.place(rec.Doc.Origin, rec.Row)
	return r
}

// place sets the file and the line (or, when row is set, a Parquet file's
// row) of r from an origin, "file:17" (or "file:17#2", the second record
// that starts on line 17); an origin without a number is the file.
func (r *Reject) place(origin string, row bool) {
	r.File = origin
	i := strings.LastIndexByte(origin, ':')
	if i < 0 {
		return
	}
	num, _, _ := strings.Cut(origin[i+1:], "#") // "a.json:1#2": the second value on line 1
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return
	}
	r.File = origin[:i]
	if row {
		r.Row = n
	} else {
		r.Line = n
	}
}

// Reject writes a line of rejects.jsonl.
func (s *Set) Reject(r *Reject) error {
	if !s.opts.Rejects {
		return errors.New("output: the set has no rejects.jsonl")
	}
	return s.line(RejectsFile, r)
}
