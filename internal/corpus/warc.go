package corpus

import (
	"errors"
	"fmt"
	"io"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/warc"
)

// warcHeaderRoom is how much a WARC block may exceed the page limit: room
// for the HTTP header before the page.
const warcHeaderRoom = 64 << 10

// warcSource yields the pages of a WARC file: its response records holding
// HTTP and its resource records, numbered like every record of the file
// ("crawl.warc#3" is its third record, as `neardup extract` numbers them),
// counting records as they are found (warc.Record.Number). Other records
// (warcinfo, request, metadata, revisit) are not pages.
//
// A malformed record (a header that is none, a block followed by bytes
// that start no record, as one shorter than its Content-Length says is)
// is a failed page saying which bytes were skipped, and the file is read
// on from the next record (see warc.DamageError); bytes that start no
// record after a record that ends well are no page: the file is noted
// (DamagedWARCs), or, when it holds no record at all, it is a failed page
// of its own name. A record the input ends inside is a failed page, the
// file's last, whether the file is plain or compressed: a .warc.gz cut
// inside a gzip member (a download stopped) keeps the records before the
// cut. A compressed stream cut short after a whole record, before any
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
	n      int          // the number of the last record found
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
		var cut *warc.CutError
		var damage *warc.DamageError
		switch {
		case err == io.EOF:
			s.done = true
			return Raw{}, io.EOF
		case errors.As(err, &cut):
			s.done = true
			if cut.Records == 0 { // nothing read of the file: it fails as a whole
				return s.r.newPage(s.origin, nil, &pageRaw{err: err}), nil
			}
			s.r.noteCut(s.origin, cut.Records)
			return Raw{}, io.EOF
		case errors.As(err, &damage):
			if raw, ok := s.damage(damage); ok {
				return raw, nil
			}
		case err != nil:
			return s.failed(err)
		default:
			s.n = rec.Number
			if p, ok := warcPage(rec); ok {
				return s.r.newPage(fmt.Sprintf("%s#%d", s.origin, s.n), rec.Block, p), nil
			}
		}
	}
}

// damage turns damage the reader scanned past into a failed page: of the
// malformed record it starts with, or of the file when it holds no record
// at all; else it notes the file (ok false).
func (s *warcSource) damage(d *warc.DamageError) (raw Raw, ok bool) {
	switch {
	case d.Record != nil:
		s.n = d.Record.Number
		return s.r.newPage(fmt.Sprintf("%s#%d", s.origin, s.n), nil, &pageRaw{url: d.Record.TargetURI(), err: d}), true
	case d.Records == 0 && d.End:
		return s.r.newPage(s.origin, nil, &pageRaw{err: d}), true
	}
	s.r.noteDamage(s.origin, d)
	return Raw{}, false
}

// failed ends the file at an error of the reader that is no damage: a
// record the file ends inside, a failed page; an error of the stream
// under the records, fatal.
func (s *warcSource) failed(err error) (Raw, error) {
	s.n++
	if s.in.err != nil && !errors.Is(s.in.err, io.ErrUnexpectedEOF) {
		return Raw{}, fmt.Errorf("reading %s: %w after record %d", s.origin, s.in.err, s.n-1)
	}
	s.done = true
	why := "%w (the rest of the file is not read)"
	if errors.Is(err, io.ErrUnexpectedEOF) {
		why = "%w (the file ends inside this record)"
	}
	return s.r.newPage(fmt.Sprintf("%s#%d", s.origin, s.n), nil, &pageRaw{err: fmt.Errorf(why, err)}), nil
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

// noteDamage counts a WARC file that holds bytes that start no record
// after a record that ends well, or before its first (see DamagedWARCs),
// once (the first pass).
func (r *Reader) noteDamage(origin string, d *warc.DamageError) {
	r.noteDamaged(origin, func() string { return fmt.Sprintf("%s, %d bytes at offset %d", origin, d.Next-d.Offset, d.Offset) })
}

// noteDamagedMember counts a .warc.gz holding a damaged gzip member, or
// bytes between members that start none, skipped up to the next member
// (see container.MemberDamage), once (the first pass).
func (r *Reader) noteDamagedMember(origin string, d container.MemberDamage) {
	r.noteDamaged(origin, func() string { return origin + ", " + d.Error() })
}

// noteDamaged counts the WARC file origin as damaged, once, with the
// example example gives when it is the first.
func (r *Reader) noteDamaged(origin string, example func() string) {
	if r.rewound || origin == r.damagedWARCs.last {
		return
	}
	if r.damagedWARCs.n == 0 {
		r.damagedWARCs.first = example()
	}
	r.damagedWARCs.last = origin
	r.damagedWARCs.n++
}

// DamagedWARCs returns how many WARC files the first pass found holding
// bytes where a record should start that start none, after a record that
// ends well (or before the first record, when one follows), or, in a
// .warc.gz, a damaged gzip member or bytes between members that start
// none; and the first with how many bytes and where: "crawl.warc, 512
// bytes at offset 7258", "crawl.warc.gz, 1393 compressed bytes at offset
// 1045 skipped up to the next gzip member (gzip: invalid header)". Those
// bytes are skipped up to the next record (see warc.DamageError) or gzip
// member, and the records around them read, counted as found: a record
// whose version line is among them is lost, and not counted.
func (r *Reader) DamagedWARCs() (n int, first string) {
	return r.damagedWARCs.n, r.damagedWARCs.first
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
		return in, extract.SkipTooLarge, fmt.Sprintf("over %d bytes (--max-bytes)", limit), false
	}
	body, err := warc.DecodeBody(resp.Body, resp.Header.Get("Content-Encoding"), limit)
	switch {
	case errors.Is(err, warc.ErrTooLarge):
		return in, extract.SkipTooLarge, fmt.Sprintf("over %d bytes once inflated (--max-bytes)", limit), false
	case err != nil:
		return in, extract.SkipFailed, err.Error(), false
	}
	in = extract.Input{URL: raw.page.url, ContentType: resp.Header.Get("Content-Type"), Body: body}
	return in, core.SkipNone, "", true
}
