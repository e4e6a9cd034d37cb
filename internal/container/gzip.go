package container

import (
	"bufio"
	"io"

	"github.com/klauspost/compress/gzip"
)

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
type gzipMembers struct {
	zr     *gzip.Reader
	br     *bufio.Reader // the compressed stream, which zr reads byte by byte: never past a member's end
	origin string
	stray  func(origin string, f Format, n int64)
	err    error // the error that ended the stream, io.EOF at its end
}

// newGzipMembers returns the reader of the members of the gzip stream br,
// or the gzip.Reader's error on the first member's header. stray, when
// set, is called with origin once the stream ends in stray bytes.
func newGzipMembers(br *bufio.Reader, origin string, stray func(origin string, f Format, n int64)) (*gzipMembers, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipMembers{zr: zr, br: br, origin: origin, stray: stray}, nil
}

// Read reads the inflated bytes of the members in turn; at the end of the
// last, io.EOF.
func (g *gzipMembers) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			if err != nil {
				g.err = err
			}
			return n, err
		}
		if err := g.nextMember(); err != nil {
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
			return err
		}
		g.zr.Multistream(false)
		return nil
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

// Close closes the gzip.Reader.
func (g *gzipMembers) Close() error { return g.zr.Close() }
