package corpus

import (
	"errors"
	"fmt"
	"io"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/warc"
)

// warcHeaderRoom is how much a WARC block may exceed the page limit: room
// for the HTTP header before the page.
const warcHeaderRoom = 64 << 10

// warcSource yields the pages of a WARC file: its response records holding
// HTTP and its resource records, numbered like every record of the file
// ("crawl.warc#3" is its third record, as `neardup extract` numbers them).
// Other records (warcinfo, request, metadata, revisit) are not pages.
//
// A malformed record is a failed page, and the rest of the file is not
// read: a WARC file has no point to resynchronise at. So is a record the
// input ends inside, whether the file is plain or compressed: a .warc.gz
// cut inside a gzip member (a download stopped) keeps the records before
// the cut. A compressed stream cut short after a whole record, before any
// byte of the next (a warc.CutError: a gzip member cut in its header or
// trailer, or a few bytes after the last member that are none) cuts no
// record: the file is noted (CutWARCs) and its records kept, or, when it
// ends before its first record, it is a failed page of its own name. Any
// other error of the stream under the records (a corrupt gzip stream, a
// read error) is fatal, as in every other format.
type warcSource struct {
	r      *Reader
	rd     io.Reader
	origin string
	in     *errReader   // rd, remembering its error
	wr     *warc.Reader // nil until the first record is read
	n      int          // records read
	done   bool
}

func (s *warcSource) close() {}

func (s *warcSource) next() (Raw, error) {
	if s.done {
		return Raw{}, io.EOF
	}
	if s.wr == nil {
		s.in = &errReader{r: s.rd}
		wr, err := warc.NewReader(s.in)
		if err != nil {
			return Raw{}, fmt.Errorf("reading %s: %w", s.origin, err)
		}
		wr.MaxBlock = int64(s.r.pageLimit()) + warcHeaderRoom
		s.wr = wr
	}
	for {
		rec, err := s.wr.Next()
		if err == io.EOF {
			s.done = true
			return Raw{}, io.EOF
		}
		if cut := (*warc.CutError)(nil); errors.As(err, &cut) {
			s.done = true
			if cut.Records == 0 { // nothing read of the file: it fails as a whole
				return s.r.newPage(s.origin, nil, &pageRaw{err: err}), nil
			}
			s.r.noteCut(s.origin, cut.Records)
			return Raw{}, io.EOF
		}
		s.n++
		id := fmt.Sprintf("%s#%d", s.origin, s.n)
		if err != nil && s.in.err != nil && !errors.Is(s.in.err, io.ErrUnexpectedEOF) {
			return Raw{}, fmt.Errorf("reading %s: %w after record %d", s.origin, s.in.err, s.n-1)
		}
		if err != nil {
			s.done = true
			why := "%w (the rest of the file is not read)"
			if errors.Is(err, io.ErrUnexpectedEOF) {
				why = "%w (the file ends inside this record)"
			}
			return s.r.newPage(id, nil, &pageRaw{err: fmt.Errorf(why, err)}), nil
		}
		if p, ok := warcPage(rec); ok {
			return s.r.newPage(id, rec.Block, p), nil
		}
	}
}

// noteCut counts a WARC file whose compressed stream is cut short after
// record n, once (the first pass).
func (r *Reader) noteCut(origin string, n int) {
	if r.rewound {
		return
	}
	if r.cutWARCs == 0 {
		r.firstCut = fmt.Sprintf("%s after record %d", origin, n)
	}
	r.cutWARCs++
}

// CutWARCs returns how many WARC files the first pass found cut short
// between records, after a whole one and before any byte of the next (a
// warc.CutError: a compressed stream that ends in a gzip member cut in its
// header or trailer; stray bytes after the last member are no cut, see
// StrayBytes), and the first
// ("crawl.warc.gz after record 4"). Their records are read, and what
// follows the last is ignored: no record is cut, so none is skipped.
func (r *Reader) CutWARCs() (n int, first string) {
	return r.cutWARCs, r.firstCut
}

// warcPage describes the page a WARC record holds; ok is false for records
// that hold none.
func warcPage(rec *warc.Record) (p *pageRaw, ok bool) {
	isHTTP, ok := rec.HoldsPage()
	if !ok {
		return nil, false
	}
	p = &pageRaw{url: rec.TargetURI(), tooLarge: rec.TooLarge, http: isHTTP}
	if !isHTTP {
		p.contentType = rec.Header.Get("Content-Type")
	}
	return p, true
}

// errReader remembers the first error other than io.EOF its reader returned.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// httpInput parses the HTTP response of a WARC response record into
// extract's input. ok is false when the page is skipped: reason and msg
// say why (an unreadable response, a status other than 2xx, a body over
// the limit, an unknown content coding).
func (r *Reader) httpInput(raw Raw) (in extract.Input, reason core.SkipReason, msg string, ok bool) {
	limit := r.pageLimit()
	resp, truncated, err := warc.ParseResponse(raw.data, limit)
	switch {
	case err != nil:
		return in, extract.SkipFailed, err.Error(), false
	case resp.Status < 200 || resp.Status > 299:
		return in, extract.SkipHTTPStatus, fmt.Sprintf("HTTP status %d", resp.Status), false
	case truncated:
		return in, extract.SkipTooLarge, fmt.Sprintf("over %d bytes", limit), false
	}
	body, err := warc.DecodeBody(resp.Body, resp.Header.Get("Content-Encoding"), limit)
	switch {
	case errors.Is(err, warc.ErrTooLarge):
		return in, extract.SkipTooLarge, fmt.Sprintf("over %d bytes once inflated", limit), false
	case err != nil:
		return in, extract.SkipFailed, err.Error(), false
	}
	in = extract.Input{URL: raw.page.url, ContentType: resp.Header.Get("Content-Type"), Body: body}
	return in, core.SkipNone, "", true
}
