package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/extract/source"
	"github.com/neardup/neardup/internal/extract/warc"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/internal/watch"
)

// extractCmd is `neardup extract`: web pages in, articles out.
type extractCmd struct {
	Inputs []string `type:"operands" arg:"" name:"input" help:"HTML files, directories, zip/tar/gzip/zstd/bzip2 archives, WARC files (.warc, .warc.gz), - for standard input; recognised by content."`
	Out    string   `short:"o" default:"-" help:"Write one JSON record per page here; - is stdout."`

	Rules         string         `help:"Site rules (YAML): body selectors, parts to drop, boilerplate, article URL patterns."`
	MinChars      int            `default:"${default_min_chars}" help:"Skip pages with less text than this many characters (a Chinese, Japanese or Korean one counting three) as too short; 0 keeps them."`
	MaxBytes      byteSize       `default:"${max_bytes}" help:"Skip pages larger than this many bytes, or a size such as 10MiB (before and after gzip); they are not read into memory."`
	MaxElements   int            `default:"${default_max_elements}" help:"Skip pages with more HTML elements than this."`
	MaxAttributes int            `name:"max-attributes" default:"${default_max_attributes}" help:"Skip pages with more HTML attributes than this."`
	Timeout       watch.Duration `default:"${default_page_timeout}" help:"Give up on a page after this long; it is reported as failed and the run goes on: 20s, 2min (the forms of feeds add --interval; m is minutes)."`
	Workers       int            `short:"j" help:"Pages extracted at once (default: one per CPU)."`
	Articles      bool           `help:"Write articles only, not the records of skipped pages."`
	decompressFlags
}

// extractOptions are runExtract's inputs.
type extractOptions struct {
	Inputs   []string
	Out      string // "-" for stdout
	Batch    extract.Batch
	Source   source.Options
	Articles bool      // omit skipped pages' records
	Log      io.Writer // failed pages; nil for none
	Progress io.Writer // progress line and summary; nil for none
}

// Validate refuses an empty -o, a directory, or a file in a directory that
// does not exist, before any page is read; kong calls it after parsing.
func (c *extractCmd) Validate() error {
	if c.Out == "" {
		return usageError{"-o is empty: name a file, or - for stdout"}
	}
	if c.Out == "-" {
		return nil
	}
	if st, err := os.Stat(c.Out); err == nil && st.IsDir() {
		return usageError{fmt.Sprintf("-o %s is a directory: name a file, or - for stdout", c.Out)}
	}
	if dir := filepath.Dir(c.Out); !isDir(dir) {
		return usageError{fmt.Sprintf("-o %s: there is no directory %s to write it in: create it, or name a file in a directory that exists", c.Out, dir)}
	}
	return nil
}

// loadRules reads the site rules file --rules names, as a mistake in the
// command line (exit 2) when it cannot be read or holds a mistake: a
// file that is not there is named as given, after the flag; a mistake in
// it by the file's line (rules.Load's errors say where).
func loadRules(path string) (*rules.Set, error) {
	rs, err := rules.Load(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && notAFile(pe):
		return nil, usageError{fmt.Sprintf("--rules %s: %v", path, pe.Err)}
	case errors.As(err, &pe): // there but not readable (its permissions): a failure
		return nil, fmt.Errorf("--rules %s: %v", path, pe.Err)
	case err != nil:
		return nil, usageError{err.Error()}
	}
	return rs, nil
}

// notAFile reports whether a file named on the command line is not there
// or is a directory: a mistake in the command line (exit 2), where a file
// there but not readable is a failure (exit 1).
func notAFile(pe *fs.PathError) bool {
	return errors.Is(pe.Err, fs.ErrNotExist) || errors.Is(pe.Err, syscall.EISDIR)
}

// isDir reports whether path names a directory (through links).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// Run turns the flags into options.
func (c *extractCmd) Run(g *globals) error {
	for _, f := range []struct {
		flag  string
		value any
		bad   bool
		must  string
	}{
		{"--min-chars", c.MinChars, c.MinChars < 0, "0 or more (0 keeps every page)"},
		{"--max-bytes", c.MaxBytes, c.MaxBytes <= 0, "positive"},
		{"--max-elements", c.MaxElements, c.MaxElements <= 0, "positive"},
		{"--max-attributes", c.MaxAttributes, c.MaxAttributes <= 0, "positive"},
		{"--timeout", time.Duration(c.Timeout), c.Timeout <= 0, "positive"},
		{"--workers", c.Workers, c.Workers < 0, "0 or more (0: one per CPU)"},
	} {
		if f.bad {
			return usageError{fmt.Sprintf("%s must be %s, not %v", f.flag, f.must, f.value)}
		}
	}
	if err := c.decompressFlags.check(); err != nil {
		return err
	}
	if err := refuseInputAsOutput(c.Inputs, inputWalk{anyName: true, own: extractWrote}, outputFile{"-o", c.Out}); err != nil {
		return err
	}
	minChars := c.MinChars
	if minChars == 0 {
		minChars = -1 // the flag's 0 keeps short pages; the library's 0 means its default
	}
	o := extractOptions{
		Inputs: c.Inputs,
		Out:    c.Out,
		Batch: extract.Batch{Workers: c.Workers, Options: extract.Options{
			MinChars: minChars, MaxBytes: int(c.MaxBytes), MaxElements: c.MaxElements, MaxAttributes: c.MaxAttributes, Timeout: time.Duration(c.Timeout)}},
		Source:   source.Options{MaxBytes: int(c.MaxBytes), MaxInflate: int64(c.MaxInflate), MaxRatio: c.MaxRatio},
		Articles: c.Articles,
		Log:      visibleLines{os.Stderr},
	}
	if c.Rules != "" {
		rs, err := loadRules(c.Rules)
		if err != nil {
			return err
		}
		o.Batch.Options.Rules = rs
	}
	if !g.quiet {
		o.Progress = os.Stderr
	}
	defer extract.SetGC()()
	return runExtract(g.ctx, o)
}

// runExtract extracts every page of the inputs and writes the records.
// A file output appears complete or not at all.
func runExtract(ctx context.Context, o extractOptions) error {
	// An input that is not there, or one given twice (standard input,
	// or one file or directory as dedup tells it), fails the run before
	// it starts, without a progress line and a summary of no pages.
	stdin := 0
	for _, in := range o.Inputs {
		if in == "-" {
			if stdin++; stdin > 1 {
				return source.ErrStdinTwice
			}
			continue
		}
		if err := givenInput(in); err != nil {
			return err
		}
	}
	// Neither this run's output nor an earlier one's, nor what dedup
	// wrote, is a page; the caller's Exclude, if any, leaves out files too.
	given, own := o.Source.Exclude, func(string) bool { return false }
	if o.Out != "-" {
		own = isOutput(o.Out)
	}
	o.Source.Exclude = func(p string) bool {
		return given != nil && given(p) || own(p) || earlierOutput(p) || output.Earlier(p)
	}
	// Each directory is walked once: the files checked are those read.
	listing, err := source.List(o.Inputs, o.Source)
	if err != nil {
		return err
	}
	if err := corpus.CheckGiven(o.Inputs, listing.Files()); err != nil {
		return err
	}
	for _, e := range listing.Empty() {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "extract: warning: %s: nothing read from this directory; the other inputs are read\n", e)
		}
	}
	// Told once the walk is over, beside the summary: the walk runs on a
	// goroutine of its own.
	var cuts, strays, damaged []string
	moreDamaged := 0 // past maxDamageLines notes of damage, counted
	o.Source.Cut = func(id string, err *warc.CutError) { cuts = append(cuts, fmt.Sprintf("%s: %v", id, err)) }
	o.Source.Damaged = func(id string, err *warc.DamageError) {
		if len(damaged) == maxDamageLines {
			moreDamaged++
			return
		}
		damaged = append(damaged, damageNote(id, err))
	}
	o.Source.DamagedMembers = func(id string, d container.MemberDamage) {
		if len(damaged) == maxDamageLines {
			moreDamaged++
			return
		}
		damaged = append(damaged, fmt.Sprintf("%s: %v; the records around them are read", id, d))
	}
	o.Source.Stray = func(id string, f container.Format, n int64) { strays = append(strays, id+": "+strayNote(f, n)) }
	return writeAtomic(o.Out, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		meter := progress.New(o.Progress)
		meter.Stage("extract")
		var st extract.Stats
		tooLarge := 0 // pages skipped as too large, the first maxRuleMissLines listed
		walk := func(fn func(source.Page) error) error { return listing.Walk(ctx, o.Source, fn) }
		err := o.Batch.Run(ctx, walk, func(r extract.Result) error {
			st.Add(r)
			meter.Update(st.Pages, 0, 0)
			if r.Err != nil && o.Log != nil {
				msg := r.Err.Error()
				if head, rest, ok := strings.Cut(msg, ": "); ok && (head == r.ID || strings.HasSuffix(head, "/"+r.ID)) {
					msg = rest // the error names the page, by the path given
				}
				fmt.Fprintf(o.Log, "extract: %s: %s\n", r.ID, msg)
			}
			if r.Article.Limit != "" && o.Log != nil {
				if tooLarge++; tooLarge <= maxRuleMissLines {
					fmt.Fprintf(o.Log, "extract: %s: too large: %s\n", r.ID, r.Article.Limit)
				} else if tooLarge == maxRuleMissLines+1 {
					fmt.Fprintf(o.Log, "extract: more pages too large are counted, not listed\n")
				}
			}
			if r.Article.RuleMiss != "" && o.Log != nil && st.RuleMisses <= maxRuleMissLines {
				fmt.Fprintf(o.Log, "extract: %s: %s\n", r.ID, r.Article.RuleMiss)
				if st.RuleMisses == maxRuleMissLines {
					fmt.Fprintf(o.Log, "extract: more pages where a site rule matched nothing are counted, not listed\n")
				}
			}
			if o.Articles && r.Skip != "" {
				return nil
			}
			return enc.Encode(r.Record())
		})
		meter.End(st.Pages, err)
		for _, c := range cuts {
			if o.Log != nil {
				fmt.Fprintf(o.Log, "extract: warning: %s; the pages up to there are read, what follows is ignored: a download cut short may have lost the pages after it\n", c)
			}
		}
		for _, s := range slices.Concat(damaged, strays) {
			if o.Log != nil {
				fmt.Fprintf(o.Log, "extract: warning: %s\n", s)
			}
		}
		if moreDamaged > 0 && o.Log != nil {
			fmt.Fprintf(o.Log, "extract: warning: %d more stretches of bytes that start no WARC record or gzip member, skipped as those above\n", moreDamaged)
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "extract: %s\n", st.String())
			if st.Skipped[extract.SkipFeed] > 0 {
				fmt.Fprintln(o.Progress, "extract: a feed lists articles rather than holding one, so feeds are skipped; neardup dedup and neardup index add read each item of a feed as a document, neardup watch fetches the items' pages")
			}
		}
		return err
	})
}

// damageNote says where in the WARC stream id bytes that start no record
// are, which the reader skipped: "crawl.warc: bytes that start no record,
// after record 4: warc: malformed record at offset 7258: … (…bytes …
// skipped, up to the next record at offset 7400); the records around them
// are read".
func damageNote(id string, err *warc.DamageError) string {
	where := fmt.Sprintf("after record %d", err.Records)
	if err.Records == 0 {
		where = "before its first record"
	}
	return fmt.Sprintf("%s: bytes that start no record, %s: %v; the records around them are read", id, where, err)
}

// strayBytes says n stray bytes: "1 byte", "512 bytes".
// strayNote says what n stray bytes after the last gzip member, or bzip2
// stream (f), are, its verbs agreeing with n: "1 byte after the last gzip
// member, which starts no member (padding, junk), ignored; every page
// before it is read".
func strayNote(f container.Format, n int64) string {
	kind, part := "gzip", "member"
	if f == container.Bzip2 {
		kind, part = "bzip2", "stream"
	}
	verb, them := "start", "them"
	if n == 1 {
		verb, them = "starts", "it"
	}
	return fmt.Sprintf("%s after the last %s %s, which %s no %s (padding, junk), ignored; every page before %s is read",
		strayBytes(n), kind, part, verb, part, them)
}

func strayBytes(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxRuleMissLines is how many pages where a site rule matched nothing
// extract names on stderr; the others are counted in its summary and
// marked in their records (rule_miss).
const maxRuleMissLines = 10

// maxDamageLines is the most warnings of stretches of a WARC stream that
// start no record extract lists; the others are counted.
const maxDamageLines = 20

// isOutput returns a test for the output file at out and the temporary
// files writeAtomic makes for it, so a run never reads its own output:
// its directory is told by identity, however the input and out name it
// (absolute or relative, through a link).
func isOutput(out string) func(string) bool {
	dir, base := filepath.Dir(out), filepath.Base(out)
	dirInfo, dirErr := os.Stat(dir)
	return func(path string) bool {
		if b := filepath.Base(path); b != base && !strings.HasPrefix(b, "."+base+".") {
			return false
		}
		if filepath.Dir(path) == dir {
			return true
		}
		st, err := os.Stat(filepath.Dir(path))
		return dirErr == nil && err == nil && os.SameFile(dirInfo, st)
	}
}

// extractWrote reports whether the file at path is, by its content, what
// extract writes: empty (a run of no pages), or JSON Lines whose first
// record has extract.Record's keys in its order (id, url, title, text,
// date, author, lang, then at most skipped, error and rule_miss), which is
// a previous run's output, that a run into an input directory leaves out
// of its reading and replaces. A corpus of the user's ({"id", "text"}, or
// any other keys or order) is no such file, and is never replaced.
func extractWrote(path string) bool { return extractRecords(path, true) }

// earlierOutput reports whether the file at path, met in an input
// directory, is the output of an earlier run, by its records: JSON Lines
// whose first record is one extract writes (see extractWrote). The walk
// leaves it out, whatever -o the run writes: it holds articles, not a
// page. An empty file is no output here: it is read as a page.
func earlierOutput(path string) bool { return extractRecords(path, false) }

// extractRecords reports whether the file at path opens with a record of
// extract's, or is empty and empty is true. It reads the first record's
// keys one by one, and stops at the first that is not extract's: no more
// of a file of other content is read than that.
func extractRecords(path string, empty bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	if t, err := dec.Token(); err == io.EOF {
		return empty
	} else if d, ok := t.(json.Delim); err != nil || !ok || d != '{' {
		return false
	}
	want := []string{"id", "url", "title", "text", "date", "author", "lang"}
	optional := []string{"skipped", "error", "rule_miss"}
	n := 0
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		switch {
		case err != nil || !ok:
			return false
		case n < len(want) && key != want[n]:
			return false
		case n >= len(want) && (n == len(want)+len(optional) || !slices.Contains(optional, key)):
			return false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		n++
	}
	return n >= len(want)
}

// writeAtomic calls write with stdout when path is "-", else writes path
// as output.WriteAtomic does: a temporary file renamed to path once write
// succeeds, or a device such as /dev/stdout written in place.
func writeAtomic(path string, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriterSize(os.Stdout, 1<<16)
		if err := write(bw); err != nil {
			bw.Flush()
			return err
		}
		return bw.Flush()
	}
	return output.WriteAtomic(path, func(w *bufio.Writer) error { return write(w) })
}
