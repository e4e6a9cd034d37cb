package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// kind is what an input holds, known from its extension or its first bytes.
type kind uint8

const (
	kUnknown kind = iota
	kJSONL
	kCSV
	kTSV
	kText
	kMarkdown
	kGzip
	kZip
	kBinary
	kHTML // a web page, one record (html.go)
	kWARC // a WARC file, one record per page (warc.go)
)

// kindOf tells an input's kind from its name's extension.
func kindOf(name string) kind {
	switch strings.ToLower(path.Ext(name)) {
	case ".jsonl", ".ndjson":
		return kJSONL
	case ".csv":
		return kCSV
	case ".tsv":
		return kTSV
	case ".txt":
		return kText
	case ".md", ".markdown":
		return kMarkdown
	case ".gz":
		return kGzip
	case ".zip":
		return kZip
	case ".html", ".htm":
		return kHTML
	case ".warc":
		return kWARC
	}
	return kUnknown
}

// listed reports whether a file found in a directory or archive is read.
func listed(name string) bool { return kindOf(name) != kUnknown }

// maxNesting bounds gzip and zip containers around one stream.
const maxNesting = 4

// leaf is one byte stream to read records from.
type leaf struct {
	origin string // names records and errors: "news.jsonl.gz", "a.zip/b.txt"
	id     string // the id of a whole-file record
	name   string // the name whose extension tells the kind; the origin minus ".gz"
	depth  int    // gzip and zip containers around this stream
	size   int64  // bytes, when known and not compressed; else -1
	// at gives random access for a zip archive; nil inside a container.
	at func() (io.ReaderAt, int64, error)
}

// openInput opens one input for reading.
func (r *Reader) openInput(in *input) (source, error) {
	l := leaf{origin: in.origin, id: in.id, name: in.origin, size: in.size, at: noRandomAccess}
	if in.stream != nil && r.opts.SinglePass {
		return r.openLeaf(l, &countReader{r: in.stream, n: &r.reading})
	}
	if in.stream != nil {
		if err := r.startTee(in); err != nil {
			return nil, err
		}
		l.at = func() (io.ReaderAt, int64, error) { return r.reopen(in) }
		return r.openLeaf(l, &countReader{r: io.TeeReader(in.stream, in.tee), n: &r.reading})
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	l.at = func() (io.ReaderAt, int64, error) { return &countReaderAt{r: f, n: &r.reading}, in.size, nil }
	src, err := r.openLeaf(l, &countReader{r: f, n: &r.reading})
	if err != nil {
		f.Close()
		return nil, err
	}
	return withClose(src, f), nil
}

// openLeaf chooses a stream's kind and returns its records' source.
func (r *Reader) openLeaf(l leaf, rd io.Reader) (source, error) {
	k := kindOf(l.name)
	switch k {
	case kGzip:
		return r.openGzip(l, rd)
	case kZip:
		return r.openZip(l)
	}
	br := r.getBuf(rd)
	src, err := r.openBuffered(k, l, br)
	if err != nil {
		r.putBuf(br)
		return nil, err
	}
	return withClose(src, bufReturn{r, br}), nil
}

// openBuffered goes on with openLeaf once the stream is buffered.
func (r *Reader) openBuffered(k kind, l leaf, br *bufio.Reader) (source, error) {
	if k == kUnknown {
		c, err := container(l, br)
		switch {
		case err != nil:
			return nil, err
		case c == kGzip:
			return r.openGzip(l, br)
		case c == kZip:
			return r.openZip(l)
		}
	}
	if k = r.forced(k); k == kUnknown {
		var err error
		if k, err = r.sniff(l, br); err != nil {
			return nil, err
		}
	}
	if head, _ := br.Peek(3); bytes.Equal(head, utf8BOM) && k != kHTML && k != kWARC {
		br.Discard(3) // a page keeps its mark: it declares the charset
	}
	return r.sourceOf(k, l, br), nil
}

// getBuf returns a read buffer over rd. Buffers are big (a megabyte by
// default) for the speed of line formats, so they are reused from input
// to input rather than made per file.
func (r *Reader) getBuf(rd io.Reader) *bufio.Reader {
	if n := len(r.bufs); n > 0 {
		br := r.bufs[n-1]
		r.bufs = r.bufs[:n-1]
		br.Reset(rd)
		return br
	}
	return bufio.NewReaderSize(rd, r.cfg.bufSize)
}

// putBuf keeps a buffer no longer read for the next input.
func (r *Reader) putBuf(br *bufio.Reader) {
	br.Reset(nil)
	r.bufs = append(r.bufs, br)
}

// bufReturn puts a buffer back when its source is closed.
type bufReturn struct {
	r  *Reader
	br *bufio.Reader
}

func (b bufReturn) Close() error {
	b.r.putBuf(b.br)
	return nil
}

// container tells a gzip stream or zip archive by its magic bytes.
func container(l leaf, br *bufio.Reader) (kind, error) {
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return 0, fmt.Errorf("reading %s: %w after 0 bytes", l.origin, err)
	}
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return kGzip, nil
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return kZip, nil
	}
	return kUnknown, nil
}

// forced applies Options.Format to a stream of kind k.
func (r *Reader) forced(k kind) kind {
	switch r.opts.Format {
	case FormatJSONL:
		return kJSONL
	case FormatCSV:
		return kCSV
	case FormatTSV:
		return kTSV
	case FormatText:
		if k != kMarkdown {
			return kText
		}
	case FormatHTML:
		return kHTML
	case FormatWARC:
		return kWARC
	}
	return k
}

// sourceOf returns the source of a stream whose kind is known.
func (r *Reader) sourceOf(k kind, l leaf, br *bufio.Reader) source {
	limit := 3*r.opts.MaxBytes + r.cfg.slack
	switch k {
	case kJSONL:
		return &lineSource{br: br, origin: l.origin, limit: limit}
	case kCSV:
		return newCSVSource(br, l.origin, ',', limit, r.names)
	case kTSV:
		return newCSVSource(br, l.origin, '\t', limit, r.names)
	case kBinary:
		return &binarySource{origin: l.origin, id: l.id}
	case kHTML:
		return &pageSource{r: r, rd: br, origin: l.origin, size: l.size}
	case kWARC:
		return &warcSource{r: r, rd: br, origin: l.origin}
	case kUnknown: // an empty stream of unknown kind holds no records
		return &binarySource{done: true}
	}
	return &textSource{rd: br, origin: l.origin, id: l.id, md: k == kMarkdown,
		limit: r.opts.MaxBytes + r.cfg.slack, size: l.size}
}

// sniffLen is how much of a stream of unknown kind is looked at.
const sniffLen = 8 << 10

// sniff tells a stream's kind from its first bytes (after a UTF-8
// byte-order mark): a WARC version line means WARC, NUL bytes binary, '{'
// JSONL, an HTML page (isPage) HTML, a first line with the text column CSV
// or TSV, else text.
func (r *Reader) sniff(l leaf, br *bufio.Reader) (kind, error) {
	head, err := br.Peek(min(sniffLen, br.Size()))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return 0, fmt.Errorf("reading %s: %w after 0 bytes", l.origin, err)
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	if isWARC(head) {
		return kWARC, nil
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return kBinary, nil
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(t) == 0:
		return kUnknown, nil
	case t[0] == '{':
		return kJSONL, nil
	case t[0] == '[':
		return 0, fmt.Errorf("%s: a JSON array; write one JSON object per line (JSONL) instead", l.origin)
	case isPage(t):
		return kHTML, nil
	}
	if line, _, ok := bytes.Cut(head, []byte("\n")); ok || err == io.EOF {
		if hasColumn(line, '\t', r.names[fText]) {
			return kTSV, nil
		}
		if hasColumn(line, ',', r.names[fText]) {
			return kCSV, nil
		}
	}
	return kText, nil
}

// hasColumn reports whether a header line split at sep names col.
func hasColumn(line []byte, sep byte, col string) bool {
	for f := range bytes.SplitSeq(trimEOL(line), []byte{sep}) {
		f = bytes.Trim(bytes.TrimSpace(f), `"`)
		if bytes.EqualFold(bytes.TrimSpace(f), []byte(col)) {
			return true
		}
	}
	return false
}

// openGzip decompresses a stream and reads what it holds by the name
// without ".gz".
func (r *Reader) openGzip(l leaf, rd io.Reader) (source, error) {
	if l.depth >= maxNesting {
		return nil, fmt.Errorf("reading %s: more than %d nested gzip or zip containers", l.origin, maxNesting)
	}
	zr, err := gzip.NewReader(rd)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading %s: gzip header: %w", l.origin, err)
	}
	inner := l
	if kindOf(l.name) == kGzip {
		inner.name = l.name[:len(l.name)-len(".gz")]
	}
	inner.depth++
	inner.size = -1
	inner.at = nil
	src, err := r.openLeaf(inner, zr)
	if err != nil {
		zr.Close()
		return nil, err
	}
	return withClose(src, zr), nil
}

// closing is a source that closes more when it is closed.
type closing struct {
	source
	c io.Closer
}

func withClose(s source, c io.Closer) source { return &closing{s, c} }

func (c *closing) close() {
	c.source.close()
	c.c.Close()
}
