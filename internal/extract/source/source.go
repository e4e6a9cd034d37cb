// Package source reads crawled pages out of the inputs they come in: single
// files, directories, and whatever package container finds in zip and tar
// archives and gzip files, in any nesting (a .tar.gz, an .html.gz inside a
// zip); a WARC file gives a page for each response (HTTP) and resource
// record, with its URL and HTTP header. Containers are recognised by their
// names and their content.
//
// Walk hands every page to a callback in input order. A page that cannot
// be read (a symbolic link to nothing or a directory not readable, met in
// a directory, included), or an archive member the walk refuses (a name
// leaving the archive, a decompression bomb), reaches the callback with
// Err set, and the walk goes on; only a missing top-level input, a cancelled context or
// the callback's own error stop it.
package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract/warc"
)

// Page is one page read from an input.
type Page struct {
	// ID names the page: its path relative to the directory holding the
	// input given (see container.RelativeID); "archive/inner/path" inside
	// an archive; "file.warc#N" for the N-th record (from 1) of a WARC file,
	// counting records as they are found (warc.Record.Number: bytes
	// between records that start none do not count).
	// Paths are written as container.PathName writes them (a name not
	// UTF-8 with \xHH escapes), as package corpus names documents, so
	// that a page keeps its id from extract to dedup.
	ID string
	// URL is the WARC-Target-URI of a WARC record, else empty.
	URL string
	// ContentType is the HTTP Content-Type of a WARC response (or the
	// record's own for a resource record), else empty.
	ContentType string
	// Status is the HTTP status of a WARC response, else 0.
	Status int
	// Body is the page's bytes: charset untouched, transfer and content
	// codings of WARC responses removed. Nil when TooLarge or Err.
	Body []byte
	// TooLarge is set when the page is over Options.MaxBytes.
	TooLarge bool
	// Err says why the page could not be read.
	Err error
}

// Options control reading. The zero value works.
type Options struct {
	// MaxBytes is the largest page body read into memory; larger pages
	// are handed on with TooLarge set, and not read further. 0 means
	// 10 MiB.
	MaxBytes int
	// MaxInflate and MaxRatio bound decompression (container.Options);
	// 0 means the container defaults.
	MaxInflate, MaxRatio int64
	// Exclude, when set, names files met while walking a directory that
	// are not inputs (the run's own output file, say).
	Exclude func(path string) bool
	// Cut, when set, is called, from Walk's goroutine, with the id of each
	// WARC stream cut short after a whole record, before any byte of the
	// next (a .warc.gz ending in a gzip member cut in its header or
	// trailer): its records are pages as any, and the bytes after the last
	// are ignored (they cut no page, but a download cut there may have lost
	// pages after them). A stream cut so before its first record is a
	// failed page.
	Cut func(id string, err *warc.CutError)
	// Damaged, when set, is called, from Walk's goroutine, once for each
	// stretch of a WARC stream of bytes where a record should start that
	// start none (what follows a record shorter than its Content-Length
	// says, junk), with the stream's id and the error saying where the
	// stretch is (a stream may hold several): they are skipped
	// up to the next record, and the records after them are pages as any.
	// A malformed record is a failed page instead, and so is a stream
	// that holds no record at all (its id the stream's).
	Damaged func(id string, err *warc.DamageError)
	// DamagedMembers, when set, is called, from Walk's goroutine, once
	// for each stretch of a .warc.gz skipped: a damaged gzip member, or
	// bytes between members that start none (container.MemberDamage),
	// with the stream's id. The records after it are pages as any;
	// without it, the stream ends at such damage (a failed page, or stray
	// bytes).
	DamagedMembers func(id string, d container.MemberDamage)
	// Stray, when set, is called, from Walk's goroutine, with the id of
	// each gzip or bzip2 file (or such a stream in an archive) read to an
	// end in n bytes after its last whole gzip member or bzip2 stream that
	// start no other (zero padding, a line end, junk; see
	// container.Options.StrayBytes), and its format (container.Gzip or
	// container.Bzip2): its pages are read, and those bytes ignored.
	Stray func(id string, f container.Format, n int64)
	// Stdin is what the input "-" reads; nil means os.Stdin. Its pages
	// are named as a file's named "stdin" would be: "stdin", "stdin#3"
	// of a WARC stream, "stdin/a/b.html" of an archive (copied to a
	// temporary file first when it is a zip).
	Stdin io.Reader
}

// DefaultMaxBytes is Options.MaxBytes when it is 0.
const DefaultMaxBytes = 10 << 20

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	return o
}

// errStop carries the callback's error out of the walk.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }
func (e errStop) Unwrap() error { return e.err }

// ErrStdinTwice is Walk's error when "-" is given more than once: standard
// input can be read once.
var ErrStdinTwice = errors.New("source: standard input (-) given twice")

// Walk reads the pages of every path (a file, a directory, walked in
// lexical order, or "-" for opts.Stdin) and calls fn for each, in order.
// It returns fn's first error, the context's error, or an error for a
// path that does not exist. It is List followed by Listing.Walk.
func Walk(ctx context.Context, paths []string, opts Options, fn func(Page) error) error {
	l, err := List(paths, opts)
	if err != nil {
		return err
	}
	return l.Walk(ctx, opts, fn)
}

// Listing holds the files of the paths of a walk, each directory walked
// once: what a caller checks before reading (package corpus's CheckGiven:
// no file given twice) is what Listing.Walk reads, whatever changes in the
// directories between the two.
type Listing struct {
	inputs []listed
	err    error    // the first path that could not be listed, for Walk
	empty  []string // see Empty
}

// Empty returns, for each directory given that holds no file to read
// beside other inputs that do, the message that says so: not an error (the
// other inputs are read), a warning. A Listing of nothing else to read
// fails its Walk with the first directory's container.NoFilesError.
func (l *Listing) Empty() []string { return l.empty }

// listed is one path of a Listing: as given (container.PathName), its
// name in ids, and its files.
type listed struct {
	path, name string
	files      []container.File
}

// List lists the files of every path as Walk reads them (opts.Exclude
// leaves files out; "-" stands for opts.Stdin). It returns ErrStdinTwice
// when "-" is given more than once. A path that cannot be listed (not
// there, a directory holding no file) is no error of List: it has no
// files (Files), and Listing.Walk returns its error before reading any
// page.
func List(paths []string, opts Options) (*Listing, error) {
	l := &Listing{}
	names := container.IDNames(paths) // escaped after the working directory is joined
	stdin := false
	read := false     // some input holds a file to read
	var noFiles error // the first directory that holds none
	for i, p := range paths {
		if p == "-" {
			if stdin {
				return nil, ErrStdinTwice
			}
			stdin, read = true, true
			l.inputs = append(l.inputs, listed{p, names[i], []container.File{{Path: p, Size: -1}}})
			continue
		}
		fs, err := container.List(p, container.ListOptions{AnyName: true, Exclude: opts.Exclude})
		if nf := (*container.NoFilesError)(nil); errors.As(err, &nf) {
			l.empty = append(l.empty, nf.Error())
			if noFiles == nil {
				noFiles = err
			}
			err = nil
		}
		if err != nil && l.err == nil {
			l.err = err
		}
		l.inputs = append(l.inputs, listed{container.PathName(p), names[i], fs})
		read = read || len(fs) > 0
	}
	if !read && noFiles != nil && l.err == nil {
		l.err, l.empty = noFiles, nil
	}
	return l, nil
}

// Files returns the files listed of each path, in the order given: none
// for "-" and for a path that could not be listed.
func (l *Listing) Files() [][]container.File {
	files := make([][]container.File, len(l.inputs))
	for i, in := range l.inputs {
		if in.path != "-" {
			files[i] = in.files
		}
	}
	return files
}

// Walk reads the pages of the files listed and calls fn for each, in
// order, as the package's Walk does; opts is as given to List (its Exclude
// unused). It returns the error of the first path that could not be listed
// before reading any page.
func (l *Listing) Walk(ctx context.Context, opts Options, fn func(Page) error) error {
	if l.err != nil {
		return l.err
	}
	w := &walker{ctx: ctx, opts: opts.withDefaults(), fn: fn}
	for _, in := range l.inputs {
		w.given, w.name = in.path, in.name
		if err := w.files(in.files); err != nil {
			return err
		}
	}
	return nil
}

// files reads the pages of the files of one input.
func (w *walker) files(files []container.File) error {
	for _, f := range files {
		err := w.file(f)
		var stop errStop
		if errors.As(err, &stop) {
			return stop.err
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type walker struct {
	ctx  context.Context
	opts Options
	fn   func(Page) error
	// given is the input being walked, as given (container.PathName),
	// and name its name in ids.
	given, name string
}

// emit hands a page to the callback, its ID relative to the input given.
func (w *walker) emit(p Page) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	p.ID = container.RelativeID(w.given, w.name, p.ID)
	if err := w.fn(p); err != nil {
		return errStop{err}
	}
	return nil
}

// file reads the pages of one input.
func (w *walker) file(f container.File) error {
	if f.Err != nil { // met in a directory, not reachable
		return w.emit(Page{ID: container.PathName(f.Path), Err: f.Err})
	}
	top, closeTop, err := w.open(f)
	if err != nil {
		return w.emit(Page{ID: container.PathName(f.Path), Err: err})
	}
	defer closeTop()
	co := container.Options{MaxInflate: w.opts.MaxInflate, MaxRatio: w.opts.MaxRatio, AnyName: true}
	if w.opts.Stray != nil {
		co.StrayBytes = func(origin string, f container.Format, n int64) {
			w.opts.Stray(container.RelativeID(w.given, w.name, origin), f, n)
		}
	}
	if w.opts.DamagedMembers != nil {
		co.DamagedMembers = func(origin string, d container.MemberDamage) {
			w.opts.DamagedMembers(container.RelativeID(w.given, w.name, origin), d)
		}
	}
	cw := container.New(top, co)
	defer cw.Close()
	for {
		m, err := cw.Next()
		switch {
		case err == io.EOF:
			return nil
		case err != nil: // a damaged container: a failed page, and the walk goes on
			if err := w.emit(Page{ID: top.ID, Err: err}); err != nil {
				return err
			}
			continue
		case m.Skip != nil:
			err = w.emit(Page{ID: m.Origin, Err: m.Skip})
		case m.Format == container.WARC:
			err = w.warc(m.Origin, m.R)
		default:
			err = w.page(m.Origin, m.R)
		}
		if err != nil {
			return err
		}
	}
}

// open returns the container input of a file, or of standard input for
// "-" (read as a stream: a zip in it is copied to a temporary file), and
// what closes it. Standard input and a named pipe, which may wait for
// input that does not come, give up when the walk's context ends
// (container.Interruptible).
func (w *walker) open(f container.File) (container.Top, func(), error) {
	if f.Path == "-" {
		stdin := w.opts.Stdin
		if stdin == nil {
			stdin = os.Stdin
		}
		stdin = container.Interruptible(w.ctx, stdin)
		return container.Top{Origin: "stdin", ID: "stdin", Name: "stdin", R: stdin, Size: -1}, func() {}, nil
	}
	open := os.Open
	if f.Stream {
		open = func(path string) (*os.File, error) { return container.OpenInterruptible(w.ctx, path) }
	}
	fh, err := open(f.Path)
	if err != nil {
		return container.Top{}, nil, err
	}
	name := container.PathName(f.Path) // a name not UTF-8 with \xHH escapes, as in ids
	top := container.Top{Origin: name, ID: name, Name: name, R: fh, Size: f.Size}
	if !f.Stream { // a named pipe has no random access: a zip in it is copied
		top.At = func() (io.ReaderAt, int64, error) { return fh, f.Size, nil }
	} else {
		top.R = container.Interruptible(w.ctx, fh)
	}
	return top, func() { fh.Close() }, nil
}

// page reads a whole stream as one page; a page over the limit is not read
// further.
func (w *walker) page(id string, r io.Reader) error {
	body, err := io.ReadAll(io.LimitReader(r, min(int64(w.opts.MaxBytes), math.MaxInt64-1)+1))
	switch {
	case container.IsLimit(err), container.IsDamage(err):
		return nil // the walk reports the stream it stopped, or the archive cut inside it
	case err != nil:
		return w.emit(Page{ID: id, Err: container.CutAfter(err, int64(len(body)))})
	case len(body) > w.opts.MaxBytes:
		return w.emit(Page{ID: id, TooLarge: true})
	}
	return w.emit(Page{ID: id, Body: body})
}

// warc reads the response and resource records of a WARC stream; other
// record types (request, metadata, warcinfo, revisit …) are not pages.
// A damaged stretch of the stream is reported (a failed page, or
// Options.Damaged), and the records after it read.
func (w *walker) warc(id string, r io.Reader) error {
	wr, err := warc.NewReader(r)
	if err != nil {
		return w.emit(Page{ID: id, Err: err})
	}
	wr.MaxBlock = min(int64(w.opts.MaxBytes), math.MaxInt64-64<<10) + 64<<10 // room for the HTTP header
	n := 0                                                                   // the last record's number
	for {
		rec, err := wr.Next()
		var cut *warc.CutError
		var damage *warc.DamageError
		errors.As(err, &cut)
		errors.As(err, &damage)
		switch {
		case err == io.EOF, container.IsLimit(err), container.IsDamage(err):
			return nil
		case cut != nil && cut.Records > 0:
			if w.opts.Cut != nil {
				w.opts.Cut(container.RelativeID(w.given, w.name, id), cut)
			}
			return nil
		case cut != nil: // nothing read of the stream: it fails as a whole
			return w.emit(Page{ID: id, Err: err})
		case damage != nil:
			n, err = w.damaged(id, n, damage)
		case err != nil:
			return w.emit(Page{ID: fmt.Sprintf("%s#%d", id, n+1), Err: err})
		default:
			n = rec.Number
			err = w.recordPage(id, rec)
		}
		if err != nil {
			return err
		}
	}
}

// damaged reports damage met in the WARC stream id after record n, and
// returns the last record's number: a malformed record is a failed page,
// and so is the stream when it holds no record at all; bytes that start
// no record are told to Options.Damaged.
func (w *walker) damaged(id string, n int, d *warc.DamageError) (int, error) {
	switch {
	case d.Record != nil:
		return d.Record.Number, w.emit(Page{ID: fmt.Sprintf("%s#%d", id, d.Record.Number), URL: d.Record.TargetURI(), Err: d})
	case d.Records == 0 && d.End:
		return n, w.emit(Page{ID: id, Err: d})
	}
	if w.opts.Damaged != nil {
		w.opts.Damaged(container.RelativeID(w.given, w.name, id), d)
	}
	return n, nil
}

// recordPage hands on the page a record of the WARC stream id holds, if
// any.
func (w *walker) recordPage(id string, rec *warc.Record) error {
	p, ok := w.record(rec)
	if !ok {
		return nil
	}
	p.ID = fmt.Sprintf("%s#%d", id, rec.Number)
	return w.emit(p)
}

// record turns a WARC record into a page; ok is false for records that do
// not hold one.
func (w *walker) record(rec *warc.Record) (p Page, ok bool) {
	isHTTP, ok := rec.HoldsPage()
	if !ok {
		return p, false
	}
	p.URL = rec.TargetURI()
	switch {
	case rec.TooLarge:
		p.TooLarge = true
		return p, true
	case !isHTTP:
		p.ContentType = rec.Header.Get("Content-Type")
		p.Body = rec.Block
		return p, true
	}
	resp, truncated, err := warc.ParseResponse(rec.Block, w.opts.MaxBytes)
	if err != nil {
		p.Err = err
		return p, true
	}
	p.Status, p.ContentType = resp.Status, resp.Header.Get("Content-Type")
	if truncated {
		p.TooLarge = true
		return p, true
	}
	p.Body, p.Err = warc.DecodeBody(resp.Body, resp.Header.Get("Content-Encoding"), w.opts.MaxBytes)
	if errors.Is(p.Err, warc.ErrTooLarge) {
		p.Body, p.Err, p.TooLarge = nil, nil, true
	}
	return p, true
}
