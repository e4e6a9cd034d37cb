package container

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// MemberDamage is a stretch of a gzip stream of WARC records skipped up
// to the next member: a member whose header or data is damaged, or bytes
// between two members that start none. A WARC file compressed record by
// record, as crawlers write it, is read on past such a stretch, so one
// damaged record does not lose every record after it.
type MemberDamage struct {
	// Offset is where the stretch starts in the compressed stream: the
	// damaged member's first byte, or the first byte after a whole one.
	Offset int64
	// Skipped is the stretch's length in compressed bytes: the next
	// member starts at Offset+Skipped. A member whose checksum is wrong
	// was inflated whole, its bytes passed on; any other stretch yields
	// what was inflated before the damage was found.
	Skipped int64
	// Err is what was wrong at Offset: the gzip reader's error, or
	// ErrNoMember for bytes that start no member.
	Err error
}

// ErrNoMember is MemberDamage.Err of bytes after a whole gzip member that
// start no other.
var ErrNoMember = errors.New("bytes that start no gzip member")

// Error says which compressed bytes were skipped and why.
func (d MemberDamage) Error() string {
	unit := "bytes"
	if d.Skipped == 1 {
		unit = "byte"
	}
	return fmt.Sprintf("%d compressed %s at offset %d read past to the next gzip member (%v)", d.Skipped, unit, d.Offset, d.Err)
}

// gzipMembers reads the members of a gzip stream one after another, as a
// multistream gzip.Reader does, but ends the stream, as gzip(1) does, at
// bytes after a whole member that start no other: zero padding from a tape
// or disk copy, a line end, junk. It reads those bytes to the end of the
// stream and tells how many there are (Options.StrayBytes), where a
// gzip.Reader fails on them (io.ErrUnexpectedEOF under ten bytes,
// gzip.ErrHeader from ten). Bytes that start a member (its two magic bytes,
// or a last byte that is the first of them) must make a whole one: a
// member cut short, or one whose header or data is damaged, fails as a
// gzip.Reader fails, for the reader of the stream to tell as the damage it
// is.
//
// A stream of WARC records (its inflated bytes start "WARC/") is read on
// past damage instead when damaged is set: a member whose header or data
// is damaged, and bytes after a whole member that start none, are skipped
// up to the next member, if one follows, and told to damaged once the
// next member reads; the inflated stream goes on with that member's
// bytes, for the WARC reader to find the next record in, after a line end
// when the damaged member gave bytes (so that its record's start is a
// line's). A member cut
// short by the stream's end, and damage no member follows, fail or end
// the stream as above.
type gzipMembers struct {
	zr       *gzip.Reader
	br       *bufio.Reader // the compressed stream, which zr reads byte by byte: never past a member's end
	cr       *countReader  // what br reads, counting the bytes
	origin   string
	stray    func(origin string, f Format, n int64)
	damaged  func(origin string, d MemberDamage)
	head     []byte        // the first inflated bytes, up to len("WARC/1"): a WARC stream's are its version line
	start    int64         // where the member being read starts
	skip     *MemberDamage // a stretch skipped, told once a member after it reads
	brk      []byte        // a line end to give before the member after a damaged one that gave bytes
	inflated int64         // the bytes the member being read gave
	err      error         // the error that ended the stream, io.EOF at its end
}

// newGzipMembers returns the reader of the members of the gzip stream
// read from cr (through br, the buffer gzip.NewReader would make of it),
// or the gzip.Reader's error on the first member's header. stray, when
// set, is called with origin once the stream ends in stray bytes;
// damaged, when set, with each stretch of a WARC stream skipped.
func newGzipMembers(br *bufio.Reader, cr *countReader, origin string, stray func(string, Format, int64),
	damaged func(string, MemberDamage)) (*gzipMembers, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipMembers{zr: zr, br: br, cr: cr, origin: origin, stray: stray, damaged: damaged}, nil
}

// offset returns where br's next byte is in the compressed stream.
func (g *gzipMembers) offset() int64 { return g.cr.n - int64(g.br.Buffered()) }

// Read reads the inflated bytes of the members in turn; at the end of the
// last, io.EOF.
func (g *gzipMembers) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	for {
		if len(g.brk) > 0 {
			n := copy(p, g.brk)
			g.brk = g.brk[n:]
			return n, nil
		}
		n, err := g.zr.Read(p)
		g.inflated += int64(n)
		if len(g.head) < len("WARC/1") {
			g.head = append(g.head, p[:min(n, len("WARC/1")-len(g.head))]...)
		}
		if n > 0 || err == io.EOF {
			g.tellSkip()
		}
		switch {
		case err == nil:
			return n, nil
		case err == io.EOF:
			err = g.nextMember()
		default:
			err = g.resync(err)
		}
		if err != nil {
			g.err = err
			return n, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// nextMember starts the member after the one that ended whole: io.EOF
// when none follows, after stray bytes or at the end of the stream;
// another error when what follows starts a member that is no whole one,
// or the stream fails.
func (g *gzipMembers) nextMember() error {
	g.start, g.inflated = g.offset(), 0
	head, err := g.br.Peek(2)
	switch {
	case len(head) == 0 && err == io.EOF:
		return io.EOF
	case len(head) < 2 && err != io.EOF:
		return err
	case head[0] == gzipMagic[0] && (len(head) == 1 || head[1] == gzipMagic[1]):
		if err := g.zr.Reset(g.br); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // a magic byte and no more
			}
			return g.resync(err)
		}
		g.zr.Multistream(false)
		return nil
	}
	if g.resyncs(ErrNoMember) {
		return g.resync(ErrNoMember)
	}
	n, err := io.Copy(io.Discard, g.br)
	if err != nil {
		return err
	}
	if g.stray != nil {
		g.stray(g.origin, Gzip, n)
	}
	return io.EOF
}

// resyncs reports whether the stream is read on past the damage err: a
// damaged member or bytes that start none (any error of the gzip reader
// but a member the stream ends inside, or an error of the stream under
// it) in a WARC stream, when damage is told.
func (g *gzipMembers) resyncs(err error) bool {
	damage := !errors.Is(err, io.ErrUnexpectedEOF) && g.cr.err == nil
	return damage && g.damaged != nil && IsWARC(g.head)
}

// resync skips the damage err, which starts at the current member's
// start, up to the next member, and starts it (nil). It returns err when
// the stream is not read on past damage, or no member follows: then a
// stretch of bytes that start no member ends the stream as stray bytes
// do (io.EOF), and damage is the stream's error, as without resync.
func (g *gzipMembers) resync(err error) error {
	if !g.resyncs(err) {
		return err
	}
	if g.skip == nil {
		g.skip = &MemberDamage{Offset: g.start, Err: err}
		if g.inflated > 0 {
			// What the damaged member gave ends in a line end, so that the
			// WARC reader finds the record the next member starts.
			g.brk = []byte("\r\n")
		}
	}
	for {
		found, rerr := g.seekMember()
		if rerr != nil {
			return rerr
		}
		if !found {
			first := g.skip
			g.skip = nil
			if !errors.Is(first.Err, ErrNoMember) {
				return first.Err
			}
			if g.stray != nil {
				g.stray(g.origin, Gzip, g.offset()-first.Offset)
			}
			return io.EOF
		}
		g.start = g.offset()
		if err := g.zr.Reset(g.br); err == nil {
			g.zr.Multistream(false)
			g.inflated = 0
			return nil
		}
		// Bytes that looked like a member's header and are none: look on
		// after them.
	}
}

// seekMember discards the compressed bytes up to the next that may start
// a member, from br's next byte on: gzip's magic bytes and method, and
// flags whose reserved bits are clear. found is false at the stream's end.
func (g *gzipMembers) seekMember() (found bool, err error) {
	for {
		head, err := g.br.Peek(4)
		if len(head) < 4 {
			if err == io.EOF {
				_, err = g.br.Discard(len(head))
				return false, err
			}
			return false, err
		}
		if head[0] == gzipMagic[0] && head[1] == gzipMagic[1] && head[2] == gzipMagic[2] && head[3]&0xe0 == 0 {
			return true, nil
		}
		if _, err := g.br.ReadByte(); err != nil {
			return false, eofIsNone(err)
		}
	}
}

// eofIsNone returns nil for io.EOF: the stream's end is no error.
func eofIsNone(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// tellSkip tells the stretch skipped before the member that reads now.
func (g *gzipMembers) tellSkip() {
	if g.skip == nil {
		return
	}
	d := *g.skip
	g.skip = nil
	d.Skipped = g.start - d.Offset
	g.damaged(g.origin, d)
}

// Close closes the gzip.Reader.
func (g *gzipMembers) Close() error { return g.zr.Close() }
