package corpus

import (
	"fmt"
	"slices"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract"
)

// Options choose the format and the field mapping. The zero value reads
// every supported format with the field names id, title, text, url, source
// and date and a 10 MiB limit per record.
type Options struct {
	// Format forces the record format of every input: "jsonl", "json",
	// "csv", "tsv", "txt", "html", "warc", "sgml" or "feed"
	// (container.Parse). Empty chooses by extension and, for an unknown
	// extension, by the content. Compression and archives (.gz, .zst, .zip
	// …) are recognised either way.
	Format string
	// FormatOnly, with Format set, reads only the streams of that format:
	// one whose name, or else whose first bytes, say another (a member
	// "a.csv" or "arr.json" of an archive read as "jsonl") is not read,
	// and is counted with the files not read for their names (Unlisted).
	// A stream that says no format is read as Format says. For a reader
	// that reads one format alone, and would read the others' lines as
	// malformed records of it (the Beam pipeline reads JSON Lines).
	FormatOnly bool
	// IDField, TitleField, TextField, URLField, SourceField and DateField
	// name the JSON keys or CSV header columns of each part of a document.
	// Empty means id, title, text, url, source and date. A name matches
	// exactly, or else ignoring case (and, for CSV, surrounding spaces). In
	// JSON, a name with dots is a path into nested objects
	// ("_source.title": the title key of the _source object), or, in a
	// record without its first key, a key with those dots.
	IDField, TitleField, TextField, URLField, SourceField, DateField string
	// Named lists the fields whose names the caller gave explicitly (a
	// flag such as --date-col given), by their default names: "id",
	// "title", "text", "url", "source", "date". A field named so is an
	// explicit choice even under its default name (--date-col date): a
	// Parquet column of a type it does not read is an error, as under a
	// name of its own. A URL, source or date under its default name, not
	// named, is read as JSON Lines reads such a value (left out with a
	// warning; dates not read). Empty: none was given.
	Named []string
	// MaxBytes limits a record (a JSONL line, a CSV row, a text file, a
	// Reuters story, a web page), in bytes: a larger record is skipped as
	// too-large without being held in memory, so that memory is bounded by
	// it, and so is the title plus text of every document. Zero or negative
	// means 10 MiB, the one default of every command.
	MaxBytes int
	// SinglePass promises that Rewind will not be called, so standard input
	// (and an OpenReader stream) is read without being copied to a
	// temporary file: for an endless stream, such as a crawler's output
	// piped into an incremental run. A zip archive cannot be read from such
	// a stream. Files can be rewound either way.
	SinglePass bool
	// Charset, when set, is the charset of every text, CSV and TSV input
	// ("latin1", "windows-1251" ...), converted to UTF-8; empty reads UTF-8
	// and detects the charset of a file that is not. JSON Lines is always
	// UTF-8; web pages declare their own.
	Charset string
	// MaxStreamCopy bounds, in bytes, the copies of the streams read once
	// (standard input, a named pipe or a process substitution, an
	// OpenReader stream), which a Reader keeps in temporary files for
	// Rewind: all of them together. A stream that would take the copies
	// past it ends reading with a *StreamCopyError naming it; what was
	// copied is removed by Close. It keeps a stream that never ends from
	// filling the disk. Zero or negative means DefaultMaxStreamCopy; with
	// SinglePass nothing is copied, and nothing bounded.
	MaxStreamCopy int64
	// MaxInflate and MaxRatio bound decompression: the bytes one
	// compressed stream may inflate to, and how many times its compressed
	// size (see container.Options). Zero means the container defaults.
	MaxInflate, MaxRatio int64
	// Exclude, when set, names files met while walking a directory that
	// are not inputs (the run's own output, say).
	Exclude func(path string) bool
	// IndexIDs skips, as malformed, a record whose id no stored document
	// can have (core.BadID: blank, "." or "..", over core.MaxIDBytes
	// bytes, holding a control character), for the inputs of an index, which refuses such
	// ids so that the HTTP API can name every document it holds; and a
	// record whose URL names another scheme than http or https
	// (core.ForeignURL), which an index refuses too.
	IndexIDs bool
	// TextWhole makes a text or Markdown file (plain, compressed or an
	// archive's member) one document whose text is the whole file, its
	// first line too, without a title: for neardup diff, which compares
	// what a text file holds. False: its first non-blank line is the title
	// and the rest the text.
	TextWhole bool
	// Waiting, when set, is told when the JSON Lines records of a stream
	// read once (SinglePass: standard input, a pipe) that arrived before
	// it paused lack a field the reader is told to read (the text, or one
	// a flag named): the check of the field names then reads on, to a
	// record that holds it, 100 records (8 MiB) or the stream's end, and a writer
	// waiting for its first records to be stored would otherwise hear
	// nothing. It is called at most once a stream, with a message naming
	// the stream, the field and the fields seen, without a line end.
	Waiting func(message string)
	// Extract controls how HTML pages and the pages of WARC files become
	// documents: site rules, the shortest article kept (MinChars, 500
	// characters by default), and the size, element and time limits of one
	// page. The zero value is extract's defaults, but for the size limit of
	// a page, which is MaxBytes above unless Extract.MaxBytes is set.
	Extract extract.Options
}

// DefaultMaxBytes is the record size limit when Options.MaxBytes is zero.
const DefaultMaxBytes = 10 << 20

// DefaultMaxStreamCopy is Options.MaxStreamCopy's default: 32 GiB, more
// than the JSON Lines of the ten million news articles a run of neardup
// dedup on one machine is sized for (about 25 GB), and a bound on what a
// stream that never ends takes of the disk.
const DefaultMaxStreamCopy int64 = 32 << 30

// The record formats Options.Format accepts are those package container's
// table names (container.Parse), among them these.
const (
	FormatHTML = "html" // a whole file is one web page
	FormatWARC = "warc" // a WARC file, one document per response or resource record
)

// field indexes the parts of a document a record maps.
type field int

const (
	fID field = iota
	fTitle
	fText
	fURL
	fSource
	fDate
	nFields
)

// withDefaults fills zero fields and checks Format.
func (o Options) withDefaults() (Options, error) {
	if _, ok := container.Parse(o.Format); !ok && o.Format != "" {
		return o, fmt.Errorf("corpus: unknown format %q (want %s)", o.Format, container.RecordFormats())
	}
	fill := func(s *string, def string) {
		if *s == "" {
			*s = def
		}
	}
	fill(&o.IDField, "id")
	fill(&o.TitleField, "title")
	fill(&o.TextField, "text")
	fill(&o.URLField, "url")
	fill(&o.SourceField, "source")
	fill(&o.DateField, "date")
	for _, n := range o.Named {
		if !slices.Contains(defaultNames[:], n) {
			return o, fmt.Errorf("corpus: Named: unknown field %q (want id, title, text, url, source or date)", n)
		}
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxStreamCopy <= 0 {
		o.MaxStreamCopy = DefaultMaxStreamCopy
	}
	return o, nil
}

// named reports whether the caller named the field f explicitly (Named),
// or gave it a name other than its default.
func (o Options) named(f field) bool {
	return o.names()[f] != defaultNames[f] || slices.Contains(o.Named, defaultNames[f])
}

// names returns the field names in field order.
func (o Options) names() [nFields]string {
	return [nFields]string{o.IDField, o.TitleField, o.TextField, o.URLField, o.SourceField, o.DateField}
}
