package container

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// MemberDamage is a stretch of a gzip stream of WARC records skipped up
// to the next member: a member whose header, data or checksum is damaged,
// or bytes between two members that start none. A WARC file compressed
// record by record, as crawlers write it, is read on past such a stretch,
// so one damaged record does not lose every record after it.
type MemberDamage struct {
	// Offset is where the stretch starts in the compressed stream: the
	// damaged member's first byte, or the first byte after a whole one.
	Offset int64
	// Skipped is the stretch's length in compressed bytes: the next
	// member starts at Offset+Skipped. None of its bytes are read: a
	// damaged member held whole (up to maxHeldMember inflated bytes) gives
	// nothing of its record.
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
	why := d.Err.Error()
	var corrupt flate.CorruptInputError
	if errors.As(d.Err, &corrupt) { // its offset counts from the member's deflate data, not the file
		why = fmt.Sprintf("corrupt deflate data %d bytes into the member's data", int64(corrupt))
	}
	return fmt.Sprintf("%d compressed %s at offset %d skipped up to the next gzip member (%s)", d.Skipped, unit, d.Offset, why)
}

// maxHeldMember is the most inflated bytes of one gzip member of a WARC
// stream held until the member ends whole (its checksum right); a longer
// member, a record too large to extract, is passed on as it inflates.
const maxHeldMember = 16 << 20

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
// A stream of WARC records (named .warc.gz, or its first inflated bytes
// start "WARC/") is read on past damage instead when damaged is set. Each member is held,
// inflated, until it ends whole, its checksum right, and only then passed
// on, so that a damaged member gives none of its record. A member whose
// header, data or checksum is damaged, and bytes after a whole member that
// start none, are skipped up to the next member, looked for from the
// damaged member's second byte on (its compressed bytes are kept while
// it is read: damaged data can run on into the next member), and told to
// damaged once a member after them ends whole. A member the stream ends
// inside with no member after its start, and damage that no member
// follows, fail or end the stream as above, what the member gave passed
// on first.
type gzipMembers struct {
	zr      *gzip.Reader
	br      *bufio.Reader // what zr reads, byte by byte: never past a member's end
	tape    *tape         // what br reads: the compressed stream, kept while a WARC stream's member is read
	cr      *countReader  // what tape reads, counting the bytes
	origin  string
	stray   func(origin string, f Format, n int64)
	damaged func(origin string, d MemberDamage)

	named   bool          // the stream is named as WARC records compressed are (.warc.gz)
	warc    bool          // a WARC stream read on past damage: members are held
	decided bool          // whether warc is known: after the first member's first bytes
	held    []byte        // inflated bytes of members ended whole, not yet read
	buf     []byte        // the member being held
	passing bool          // the member being read is passed on as it inflates (too long to hold)
	start   int64         // where the member being read starts
	skip    *MemberDamage // a stretch skipped, told once a member after it ends whole
	err     error         // the error that ended the stream (io.EOF at its end), given once held is read
	mem     []byte        // buf's array, used again for each member once held is read
	reread  int64         // compressed bytes given again after damage (see resync)
	// discard, when set, counts inflated bytes thrown away (a damaged
	// member's) against the bounds of the stream, the limiter's: a stream
	// of damaged members is a decompression bomb as any other.
	discard func(n int64) error
}

// newGzipMembers returns the reader of the members of the gzip stream
// read from cr, or the gzip.Reader's error on the first member's header.
// stray, when set, is called with origin once the stream ends in stray
// bytes; damaged, when set, with each stretch of a WARC stream skipped.
// named says the stream is named .warc.gz.
func newGzipMembers(cr *countReader, origin string, named bool, stray func(string, Format, int64),
	damaged func(string, MemberDamage)) (*gzipMembers, error) {
	t := &tape{src: cr, keep: damaged != nil}
	br := bufio.NewReader(t) // what gzip.NewReader would make of t, which the members' reader peeks at where a member ends
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipMembers{zr: zr, br: br, tape: t, cr: cr, origin: origin, named: named, stray: stray, damaged: damaged}, nil
}

// offset returns where br's next byte is in the compressed stream.
func (g *gzipMembers) offset() int64 { return g.tape.pos - int64(g.br.Buffered()) }

// Read reads the inflated bytes of the members in turn; at the end of the
// last, io.EOF.
func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		switch {
		case len(g.held) > 0:
			n := copy(p, g.held)
			g.held = g.held[n:]
			return n, nil
		case g.err != nil:
			return 0, g.err
		case !g.decided:
			g.decide()
		case g.warc && !g.passing:
			g.hold()
		default:
			if n, err := g.pass(p); n > 0 || err != nil {
				return n, err
			}
		}
	}
}

// decide tells from the stream's name, or else from the first member's
// first bytes, whether the stream holds WARC records, read on past damage.
func (g *gzipMembers) decide() {
	if g.damaged == nil {
		g.decided, g.tape.keep = true, false
		return
	}
	for len(g.buf) < len("WARC/1") && !g.named {
		n, err := g.zr.Read(g.grow())
		g.buf = g.buf[:len(g.buf)+n]
		if err != nil {
			break // met again by hold or pass: the reader keeps it
		}
	}
	g.decided, g.warc = true, IsWARC(g.buf) || g.named
	g.tape.keep = g.warc
	if !g.warc {
		g.tape.kept = nil
	}
	if !g.warc {
		g.held, g.buf = g.buf, nil
	}
}

// grow returns room at the end of buf to inflate into.
func (g *gzipMembers) grow() []byte {
	if cap(g.buf)-len(g.buf) < 32<<10 {
		g.buf = slices.Grow(g.buf, 32<<10)
		g.mem = g.buf[:0]
	}
	return g.buf[len(g.buf):cap(g.buf)]
}

// hold inflates the member being read whole into buf, and hands it on
// (held) once it ends whole; damage is skipped (resync), a member too long
// to hold passed on as it inflates. It is called once held is read, so
// that buf may use mem again.
func (g *gzipMembers) hold() {
	if len(g.buf) == 0 {
		g.buf = g.mem[:0]
	}
	for {
		n, err := g.zr.Read(g.grow())
		g.buf = g.buf[:len(g.buf)+n]
		switch {
		case err == io.EOF:
			g.held, g.buf = g.buf, nil
			g.tellSkip()
			g.err = g.nextMember()
			return
		case err != nil:
			if rerr := g.resync(err); rerr != nil {
				g.held, g.buf, g.err = g.buf, nil, rerr // a cut, or nothing after the damage: as without resync
				return
			}
			if g.discard != nil {
				if derr := g.discard(int64(len(g.buf))); derr != nil {
					g.err = derr
				}
			}
			g.buf = g.buf[:0]
			return
		case len(g.buf) > maxHeldMember:
			g.held, g.buf, g.passing = g.buf, nil, true
			g.tape.keep = false
			return
		}
	}
}

// pass reads the member being read as it inflates: in a stream that is
// not read on past damage, and of a WARC stream's member too long to hold
// (what it gave before damage is passed on already). It may read nothing,
// and no error, where a member ends.
func (g *gzipMembers) pass(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF:
		g.tellSkip()
		err = g.nextMember()
	default:
		err = g.resync(err)
	}
	if err != nil {
		g.err = err
	}
	return n, err
}

// nextMember starts the member after the one that ended whole: io.EOF
// when none follows, after stray bytes or at the end of the stream;
// another error when what follows starts a member that is no whole one,
// or the stream fails.
func (g *gzipMembers) nextMember() error {
	g.passing = false
	g.tape.keep = g.warc
	g.start = g.offset()
	g.tape.start(g.start, g.buffered())
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
// damaged member or bytes that start none in a WARC stream, any error of
// the gzip reader but one of the stream under it. A member the stream
// seems to end inside is looked past too: its damaged data may have run
// on to the stream's end, past members that follow; when none follows,
// it is the cut it seemed.
func (g *gzipMembers) resyncs(err error) bool {
	return g.warc && g.cr.err == nil
}

// resync skips the damage err, which starts at the current member's
// start, up to the next member, and starts it (nil). The next member is
// looked for from the damaged member's second byte on when its bytes were
// kept and the damage is in its header or data (its data may have run on
// into the next member), or its checksum is wrong and no member starts
// where its data ends, within the budget of bytes read again (twice the
// stream read so far, and 1 MiB): past it, from where the damage was
// found, so that crafted candidates cannot make the work grow faster than
// the stream. It
// returns err when the stream is not read on past damage, or no member
// follows: then a stretch of bytes that start no member ends the stream as
// stray bytes do (io.EOF), and damage is the stream's error, as without
// resync.
func (g *gzipMembers) resync(err error) error {
	if !g.resyncs(err) {
		return err
	}
	// A wrong checksum is read where the member's data ends: when a
	// member starts there, the search does not go back into the data,
	// whose stored blocks may hold a gzip member verbatim.
	back := !errors.Is(err, gzip.ErrChecksum) || !g.atMember()
	if g.skip == nil {
		g.skip = &MemberDamage{Offset: g.start, Err: err}
	}
	for {
		if n := g.offset() - g.start; back && g.reread+n <= 2*g.offset()+1<<20 && g.tape.rewind(g.start) {
			g.reread += n
			g.br.Reset(g.tape) // to the member's second byte
		}
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
		g.tape.start(g.start, g.buffered())
		if err := g.zr.Reset(g.br); err == nil {
			g.zr.Multistream(false)
			g.passing, g.tape.keep = false, true
			return nil
		}
		// Bytes that looked like a member's header and are none (a header
		// read on past the next member's start, its name or extra field
		// taking it in): look on from their second byte.
		back = true
	}
}

// atMember reports whether br's next bytes may start a member (see
// seekMember).
func (g *gzipMembers) atMember() bool {
	head, _ := g.br.Peek(4)
	return len(head) == 4 && head[0] == gzipMagic[0] && head[1] == gzipMagic[1] && head[2] == gzipMagic[2] && head[3]&0xe0 == 0
}

// buffered returns the bytes br holds, read from the tape and not yet by
// the gzip reader.
func (g *gzipMembers) buffered() []byte {
	b, _ := g.br.Peek(g.br.Buffered())
	return b
}

// seekMember discards the compressed bytes up to the next that may start
// a member, from br's next byte on: gzip's magic bytes and method,
// and flags whose reserved bits are clear. found is false at the stream's
// end.
func (g *gzipMembers) seekMember() (found bool, err error) {
	for {
		head, err := g.br.Peek(4)
		if len(head) < 4 {
			if err == io.EOF {
				_, err = io.Copy(io.Discard, g.br)
				return false, err
			}
			return false, err
		}
		if g.atMember() {
			return true, nil
		}
		if _, err := g.br.ReadByte(); err != nil {
			return false, err
		}
	}
}

// tellSkip tells the stretch skipped before the member that ended whole.
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

// tape is the compressed stream under br: src, after bytes to be read
// again. While keep is set it keeps the bytes it gave since the member
// being read started (and those br holds past it), so that the search for
// the next member after damage can go back to that member's second byte;
// kept bytes are bounded by maxHeldMember and br's buffer, past which the
// search starts where the damage was found.
type tape struct {
	src   io.Reader
	pos   int64  // the offset in the stream of the next byte given
	again []byte // bytes to give before src's
	kept  []byte // the bytes given from offset base on, while keep
	base  int64
	keep  bool
	lost  bool // bytes from base on were given and not kept
}

// start keeps bytes anew from offset off, a member's start, on: held are
// the bytes from off to pos, which br holds.
func (t *tape) start(off int64, held []byte) {
	if !t.keep {
		t.kept, t.lost = t.kept[:0], true
		return
	}
	t.kept, t.base, t.lost = append(t.kept[:0], held...), off, false
}

// rewind makes the bytes kept from the member that starts at off, but its
// first, the next to give, and reports whether it did: all of them must
// be kept. The first is no member's start, or damage would not have been
// found in it. br must then drop what it holds.
func (t *tape) rewind(off int64) bool {
	if !t.keep || t.lost || off != t.base || len(t.kept) < 2 {
		return false
	}
	t.again = append(slices.Clone(t.kept[1:]), t.again...)
	t.pos = off + 1
	t.kept, t.base = t.kept[:0], t.pos
	return true
}

// Read gives the bytes to be read again first, then src's.
func (t *tape) Read(p []byte) (int, error) {
	var n int
	var err error
	if len(t.again) > 0 {
		n = copy(p, t.again)
		t.again = t.again[n:]
	} else {
		n, err = t.src.Read(p)
	}
	switch {
	case !t.keep || t.lost:
	case len(t.kept)+n > maxHeldMember+64<<10:
		t.kept, t.lost = t.kept[:0], true
	default:
		t.kept = append(t.kept, p[:n]...)
	}
	t.pos += int64(n)
	return n, err
}
