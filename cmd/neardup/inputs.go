package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/job"
)

// inputFlags are how every command that reads documents reads them.
type inputFlags struct {
	formatFlags
	IDCol     string `name:"id-col" default:"id" help:"Field or column holding the document id."`
	TitleCol  string `name:"title-col" default:"title" help:"Field or column holding the title."`
	TextCol   string `name:"text-col" default:"text" help:"Field or column holding the body text (in JSON, a dotted name is a path into nested objects: _source.body)."`
	URLCol    string `name:"url-col" default:"url" help:"Field or column holding the URL."`
	SourceCol string `name:"source-col" default:"source" help:"Field or column holding the source (publisher)."`
	DateCol   string `name:"date-col" default:"date" help:"Field or column holding the date."`
	readFlags
	MinChars    int  `name:"min-chars" default:"${default_min_chars}" help:"HTML and WARC inputs: skip pages with less article text than this many characters (a Chinese, Japanese or Korean one counting three) as too short; 0 keeps them."`
	Strict      bool `help:"Stop at the first bad record instead of skipping it."`
	Workers     int  `short:"j" help:"Reading and sketching goroutines (default: one per CPU)."`
	MaxWarnings int  `default:"${default_max_warnings}" help:"Warn about at most this many skipped records on stderr; 0 warns of none (one line says where they are counted)."`

	named []string // the fields a column flag names on the command line (see noteGiven)
}

// noteGiven records which fields the command line names by their flags
// (--date-col date), given a name, even the default one: an explicit
// choice (corpus.Options.Named). A flag given empty (--date-col "") names
// the default column as no flag does. Run calls it with kong's context.
func (f *inputFlags) noteGiven(kctx *kong.Context) {
	f.named = nil
	for _, c := range []struct {
		flag, field string
		value       *string
	}{
		{"id-col", "id", &f.IDCol}, {"title-col", "title", &f.TitleCol}, {"text-col", "text", &f.TextCol},
		{"url-col", "url", &f.URLCol}, {"source-col", "source", &f.SourceCol}, {"date-col", "date", &f.DateCol},
	} {
		if *c.value != "" && onCommandLine(kctx, c.flag) {
			f.named = append(f.named, c.field)
		}
	}
}

// formatFlags say what an input holds: its format and charset. Every
// command that reads documents has them (dedup, index add and query
// through inputFlags, diff).
type formatFlags struct {
	Format  string      `enum:",${formats}" default:"" help:"Input format: ${formats}; default: by extension and content."`
	Charset charsetName `help:"Charset of text, CSV and TSV inputs (e.g. latin1, windows-1251); default: UTF-8, or detected for a file that is not. JSONL is always UTF-8."`
}

// readFlags bound what is read of an input and say how a page becomes a
// document, for every command that reads documents (dedup, index add and
// query through inputFlags, diff).
type readFlags struct {
	MaxBytes byteSize `default:"${max_bytes}" help:"Skip records (a JSONL line, a CSV row, a text file, a web page) larger than this many bytes, or a size such as 10MiB; they are not read into memory (a Parquet row is, with its page, before it is skipped)."`
	decompressFlags
	Rules string `help:"HTML and WARC inputs: site rules (YAML) for article extraction, as for neardup extract."`
}

// charsetName is --charset: a charset's WHATWG or IANA name.
type charsetName string

// Validate refuses a name no decoder knows; kong calls it after parsing.
func (c *charsetName) Validate() error { return corpus.CheckCharset(string(*c)) }

// apply sets the format and charset of o.
func (f *formatFlags) apply(o *corpus.Options) {
	o.Format, o.Charset = f.Format, string(f.Charset)
}

// apply checks the flags and sets the limits and site rules of o.
func (f *readFlags) apply(o *corpus.Options) error {
	if f.MaxBytes <= 0 {
		return usageError{fmt.Sprintf("--max-bytes must be positive, not %d", f.MaxBytes)}
	}
	if err := f.decompressFlags.check(); err != nil {
		return err
	}
	o.MaxBytes, o.MaxInflate, o.MaxRatio = int(f.MaxBytes), int64(f.MaxInflate), f.MaxRatio
	if f.Rules != "" {
		rs, err := loadRules(f.Rules)
		if err != nil {
			return err
		}
		o.Extract.Rules = rs
	}
	return nil
}

// onCommandLine reports whether the command line gives the flag of a
// name. kong's Value.Set cannot tell: a default sets it too.
func onCommandLine(kctx *kong.Context, name string) bool {
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == name {
			return true
		}
	}
	return false
}

// corpusOptions are the reader's options the flags give, after checking the
// flags of every command that reads documents.
func (f *inputFlags) corpusOptions() (corpus.Options, error) {
	o := corpus.Options{IDField: f.IDCol, TitleField: f.TitleCol, TextField: f.TextCol,
		URLField: f.URLCol, SourceField: f.SourceCol, DateField: f.DateCol, Named: f.named}
	f.formatFlags.apply(&o)
	switch {
	case f.MaxWarnings < 0:
		return o, usageError{fmt.Sprintf("--max-warnings must be 0 or more, not %d", f.MaxWarnings)}
	case f.Workers < 0:
		return o, usageError{fmt.Sprintf("--workers must be 0 or more (0: one per CPU), not %d", f.Workers)}
	}
	if err := f.readFlags.apply(&o); err != nil {
		return o, err
	}
	return o, f.extractOptions(&o.Extract)
}

// maxWarnings is --max-warnings as the job takes it: there 0 means the
// default and a negative number none.
func (f *inputFlags) maxWarnings() int {
	if f.MaxWarnings == 0 {
		return -1
	}
	return f.MaxWarnings
}

// openInputs opens the inputs of `index add` or `index query`: before the
// index, so that a missing input fails before an index is created.
func (f *inputFlags) openInputs(inputs []string) (*corpus.Reader, error) {
	co, err := f.corpusOptions()
	if err != nil {
		return nil, err
	}
	co.Waiting = warnWaiting
	return job.OpenFeed(inputs, co)
}

// warnWaiting tells, on stderr, that the records a stream gave before it
// paused lack a field the command reads (corpus.Options.Waiting).
func warnWaiting(msg string) { fmt.Fprintf(visibleLines{os.Stderr}, "warning: %s\n", msg) }

// extractOptions sets how short a page's article may be (readFlags.apply
// set its site rules).
func (f *inputFlags) extractOptions(o *extract.Options) error {
	if f.MinChars < 0 {
		return usageError{fmt.Sprintf("--min-chars must be 0 or more (0 keeps every page), not %d", f.MinChars)}
	}
	o.MinChars = f.MinChars
	if o.MinChars == 0 {
		o.MinChars = -1 // the flag's 0 keeps short pages; the library's 0 means its default
	}
	return nil
}

// decompressFlags bound decompression, for every command that reads
// compressed files or archives.
type decompressFlags struct {
	MaxInflate byteSize `name:"max-inflate" default:"${default_max_inflate}" help:"Refuse a compressed file or archive member that inflates past this many bytes, or a size such as 4GiB."`
	MaxRatio   int64    `name:"max-ratio" default:"${default_max_ratio}" help:"Refuse a compressed file or archive member that inflates to more than this many times its compressed size (past 1 MiB): a decompression bomb."`
}

func (f decompressFlags) check() error {
	switch {
	case f.MaxInflate <= 0:
		return usageError{fmt.Sprintf("--max-inflate must be positive, not %d", f.MaxInflate)}
	case f.MaxRatio <= 0:
		return usageError{fmt.Sprintf("--max-ratio must be positive, not %d", f.MaxRatio)}
	}
	return nil
}

// outputFile is a file a command writes, by the flag that names it.
type outputFile struct{ flag, path string }

// inputWalk says which files of an input directory a command reads, for
// refuseInputAsOutput.
type inputWalk struct {
	anyName bool   // every name (extract); else the names of the table of formats
	outDir  string // dedup's -o: not read (the reader's Exclude); "" for none
	// own reports whether an existing output file is one a previous run
	// wrote: the reader's Exclude leaves it out, and the run replaces it.
	// nil: none is.
	own func(path string) bool
}

// refuseInputAsOutput refuses an output file that is an input: one given
// on the command line, however either path is written (a relative path, a
// link), or a file of an input directory (at any depth) that its walk
// reads, unless a previous run wrote it (w.own). The run would leave it out
// of its reading, or read it, then replace it with its results. It costs a
// few stats: no directory is walked.
func refuseInputAsOutput(inputs []string, w inputWalk, outs ...outputFile) error {
	for _, o := range outs {
		if o.path == "" || o.path == "-" {
			continue
		}
		ost, err := os.Stat(o.path)
		if errors.Is(err, fs.ErrNotExist) && w.own == nil {
			// A new file is no input yet, but one a later run of the
			// command reads, when an input directory's walk would read it
			// and nothing tells it apart as an output.
			if in := w.dirReading(inputs, o.path); in != "" {
				return usageError{fmt.Sprintf("%s %s is a file of the input directory %s, one a later run would read: name a file outside %s", o.flag, o.path, in, in)}
			}
			continue
		}
		if err != nil || !ost.Mode().IsRegular() {
			continue // a device is written in place
		}
		for _, in := range inputs {
			if st, err := os.Stat(in); in != "-" && err == nil && os.SameFile(st, ost) {
				return usageError{fmt.Sprintf("%s %s is the input %s: the run would replace it with its results; name another file", o.flag, o.path, in)}
			}
		}
		if in := w.dirReading(inputs, o.path); in != "" {
			return usageError{fmt.Sprintf("%s %s is a file of the input directory %s, one the run would read: the run would replace it with its results; name a file outside %s", o.flag, o.path, in, in)}
		}
	}
	return nil
}

// dirReading returns the input directory whose walk reads the file path
// (existing, or to be made) and for which it is no output of a previous
// run, or "". A file met through a link inside the directory is not found
// here (the reader's Exclude leaves it out).
func (w inputWalk) dirReading(inputs []string, path string) string {
	p, err := resolvedNew(path)
	if err != nil || w.outDir != "" && within(p, w.outDir) {
		return ""
	}
	for _, in := range inputs {
		if in == "-" || !isDir(in) {
			continue
		}
		d, err := resolved(in)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(d, p)
		if err != nil || !filepath.IsLocal(rel) || !w.reads(rel) {
			continue
		}
		if w.own != nil && w.own(path) {
			return ""
		}
		return in
	}
	return ""
}

// reads reports whether the walk of a directory reads the file at rel in
// it: no element of rel is hidden, and the name is one read.
func (w inputWalk) reads(rel string) bool {
	for _, e := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(e, ".") {
			return false
		}
	}
	return w.anyName || container.Listed(filepath.Base(rel))
}

// within reports whether the resolved path p is dir or lies in it.
func within(p, dir string) bool {
	d, err := resolved(dir)
	if err != nil {
		return false // a new directory holds nothing
	}
	return p == d || strings.HasPrefix(p, d+string(filepath.Separator))
}

// refuseInputInOutputDir refuses an output directory (dedup's -o) that is
// one of the inputs or holds one, however either path is written: the
// results replace the whole directory, an input in it with them. An input
// that holds the directory is read without it (the reader's Exclude).
func refuseInputInOutputDir(inputs []string, dir string) error {
	d, err := resolved(dir)
	if err != nil {
		return nil // a new directory holds nothing
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		p, err := resolved(in)
		if err != nil {
			continue
		}
		if p == d {
			return usageError{fmt.Sprintf("-o %s is the input %s: the results replace the whole directory; give -o another directory", dir, in)}
		}
		if strings.HasPrefix(p, d+string(filepath.Separator)) {
			return usageError{fmt.Sprintf("-o %s holds the input %s: the results replace the whole directory, the input with them; give -o another directory", dir, in)}
		}
	}
	return nil
}

// resolved is path made absolute, its links followed.
func resolved(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// resolvedNew is resolved of path when it exists, and else the resolved
// path of its parent directory joined with its name: where a file made at
// path is.
func resolvedNew(path string) (string, error) {
	p, err := resolved(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return p, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := resolved(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// sameFile reports whether the output paths a and b name one file,
// however each is written (a relative path, a link, "-" and /dev/stdout):
// the same regular file when both exist (two devices, such as standard
// output and standard error on one terminal, are written in place and
// lose nothing), else the same resolved path.
func sameFile(a, b string) bool {
	if a == "-" {
		a = "/dev/stdout"
	}
	if b == "-" {
		b = "/dev/stdout"
	}
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return sa.Mode().IsRegular() && sb.Mode().IsRegular() && os.SameFile(sa, sb)
	}
	ra, errA := resolvedNew(a)
	rb, errB := resolvedNew(b)
	return errA == nil && errB == nil && ra == rb
}

// givenInput returns a *container.MissingError, a mistake in the command
// line, when path, an input named on it, is not there ("-", standard
// input, always is), and another error when it cannot be looked up.
func givenInput(path string) error {
	if path == "-" {
		return nil
	}
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &container.MissingError{Path: path}
	}
	return err
}
