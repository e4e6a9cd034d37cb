// Package source reads crawled pages out of the containers they come in:
// single files, directories, zip and tar archives, gzip files and WARC
// files (response and resource records, with their URL and HTTP header).
// Containers are recognised by their content, not their names, and nest
// (a .tar.gz, a .warc.gz, an .html.gz inside a zip).
//
// Walk hands every page to a callback in input order. A page that cannot
// be read reaches the callback with Err set, and the walk goes on; only a
// missing top-level input, a cancelled context or the callback's own error
// stop it.
package source

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Page is one page read from an input.
type Page struct {
	// ID names the page: its path; "archive/inner/path" inside an archive;
	// "file.warc#N" for the N-th record (from 1) of a WARC file.
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
	// are handed on with TooLarge set. 0 means 8 MiB.
	MaxBytes int
	// MaxArchive is the largest zip archive read into memory when it is
	// not a plain file (nested in another container). 0 means 512 MiB.
	MaxArchive int64
	// Exclude, when set, names files met while walking a directory that
	// are not inputs (the run's own output file, say).
	Exclude func(path string) bool
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = 8 << 20
	}
	if o.MaxArchive <= 0 {
		o.MaxArchive = 512 << 20
	}
	return o
}

// errStop carries the callback's error out of nested containers.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }
func (e errStop) Unwrap() error { return e.err }

// Walk reads the pages of every path (a file or a directory, walked in
// lexical order) and calls fn for each, in order. It returns fn's first
// error, the context's error, or an error for a path that does not exist.
func Walk(ctx context.Context, paths []string, opts Options, fn func(Page) error) error {
	w := &walker{ctx: ctx, opts: opts.withDefaults(), fn: fn}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return err
		}
	}
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return w.emit(Page{ID: path, Err: err})
			}
			if d.IsDir() {
				return ctx.Err()
			}
			if !d.Type().IsRegular() || (path != p && w.opts.Exclude != nil && w.opts.Exclude(path)) {
				return nil
			}
			return w.file(path)
		})
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
	ctx   context.Context
	opts  Options
	fn    func(Page) error
	depth int // containers open around the current stream
}

// emit hands a page to the callback.
func (w *walker) emit(p Page) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if err := w.fn(p); err != nil {
		return errStop{err}
	}
	return nil
}

// fail reports an unreadable page or container and lets the walk go on.
func (w *walker) fail(id string, err error) error {
	return w.emit(Page{ID: id, Err: err})
}

// file reads one regular file.
func (w *walker) file(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return w.fail(path, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if sniff(br) == kindZip {
		fi, err := f.Stat()
		if err != nil {
			return w.fail(path, err)
		}
		return w.zip(path, f, fi.Size())
	}
	return w.stream(path, br)
}

// kind is what a stream holds.
type kind int

const (
	kindPage kind = iota
	kindGzip
	kindZip
	kindTar
	kindWARC
)

// IsWARC reports whether a stream starting with head is a WARC file, plain
// or gzip-compressed (for gzip, head must be the inflated start; pass the
// raw start and a gzip stream reports false).
func IsWARC(head []byte) bool { return bytes.HasPrefix(head, []byte("WARC/")) }

// sniff looks at a stream's first bytes without consuming them.
func sniff(br *bufio.Reader) kind {
	head, _ := br.Peek(512)
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return kindGzip
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return kindZip
	case IsWARC(head):
		return kindWARC
	case len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
		return kindTar
	}
	return kindPage
}

// stream reads a container or a page from a sequential stream.
func (w *walker) stream(id string, br *bufio.Reader) error {
	switch sniff(br) {
	case kindGzip:
		return w.gzip(id, br)
	case kindZip:
		data, err := readLimited(br, w.opts.MaxArchive)
		if err != nil {
			return w.fail(id, fmt.Errorf("zip archive: %w", err))
		}
		return w.zip(id, bytes.NewReader(data), int64(len(data)))
	case kindTar:
		return w.tar(id, br)
	case kindWARC:
		return w.warc(id, br)
	}
	return w.page(id, br)
}

// page reads a whole stream as one page.
func (w *walker) page(id string, r io.Reader) error {
	body, err := io.ReadAll(io.LimitReader(r, int64(w.opts.MaxBytes)+1))
	switch {
	case err != nil:
		return w.fail(id, err)
	case len(body) > w.opts.MaxBytes:
		return w.emit(Page{ID: id, TooLarge: true})
	}
	return w.emit(Page{ID: id, Body: body})
}

// errTooLarge reports a container over its in-memory limit.
var errTooLarge = errors.New("source: over the size limit")

func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}
