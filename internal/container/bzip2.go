package container

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// bzip2Streams reads a bzip2 file, one stream after another as
// compress/bzip2 does, but ends it, as bzip2(1) does ("trailing garbage
// after EOF ignored"), at bytes after a whole stream that start no other:
// zero padding from a tape or disk copy, a line end, junk. Another stream
// starts with a bzip2 header, "BZh" and a block size (1 to 9), and bytes
// that do not (a single byte but "B"; "BZ" and a third byte but "h";
// "BZh" and a fourth byte that is no digit 1 to 9) are stray. It reads
// them to the end of the file and tells how many there are
// (Options.StrayBytes), where compress/bzip2 fails on them ("bad magic
// value in continuation file", "unexpected EOF"), as gzipMembers does of a
// gzip file. A stream cut short or damaged, or bytes that are a bzip2
// header, or the start of one at the file's end ("B", "BZ", "BZh"), but
// make no stream, fail as compress/bzip2 fails, as bzip2(1) fails on them.
type bzip2Streams struct {
	zr     io.Reader
	br     *byteCounter // the compressed file, which zr reads byte by byte
	origin string
	stray  func(origin string, f Format, n int64)
	err    error // the error that ended the file, io.EOF at its end
}

// newBzip2Streams returns the reader of the streams of the bzip2 file br,
// whose first bytes are a bzip2 header (see bzip2Header). stray, when
// set, is called with origin once the file ends in stray bytes.
func newBzip2Streams(br *bufio.Reader, origin string, stray func(origin string, f Format, n int64)) *bzip2Streams {
	cr := &byteCounter{br: br}
	return &bzip2Streams{zr: bzip2.NewReader(cr), br: cr, origin: origin, stray: stray}
}

// Read reads the decompressed bytes of the streams in turn; after the last
// (and stray bytes, if any), io.EOF.
func (b *bzip2Streams) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.zr.Read(p)
	if k := b.strayRead(err); k > 0 {
		m, cerr := io.Copy(io.Discard, b.br.br)
		if cerr != nil {
			b.err = cerr
			return n, cerr
		}
		if b.stray != nil {
			b.stray(b.origin, Bzip2, k+m)
		}
		err = io.EOF
	}
	if err != nil {
		b.err = err
	}
	return n, err
}

// strayRead returns how many bytes after a whole stream compress/bzip2
// read before it failed with err on them as the start of no stream, or 0
// when err is no such failure. compress/bzip2 reads, after a stream, two
// bytes it wants to be "BZ", then a byte it wants to be "h", then one it
// wants to be a block size. The file's first header was checked before
// reading (bzip2Header), so that its errors on a header are of the
// header of a stream after another.
func (b *bzip2Streams) strayRead(err error) int64 {
	var se bzip2.StructuralError
	switch {
	case errors.As(err, &se) && se == "bad magic value in continuation file":
		return 2 // no "BZ"
	case errors.As(err, &se) && se == "non-Huffman entropy encoding":
		return 3 // "BZ", no "h"
	case errors.As(err, &se) && se == "invalid compression level":
		return 4 // "BZh", no block size
	case err == io.ErrUnexpectedEOF && b.br.oneAfterStream():
		return 1 // one byte, which starts no "BZ"
	}
	return 0
}

// bzip2Header reports whether head starts as a bzip2 stream does: "BZh"
// and a block size, "1" to "9" (hundreds of kB).
func bzip2Header(head []byte) bool {
	return len(head) >= 4 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9'
}

// The 48-bit magic numbers that start a bzip2 block and that end a
// stream (before its 32-bit checksum); neither is aligned on a byte but
// in a stream's first block, just after its header.
const (
	bzip2BlockMagic = 0x314159265359 // "1AY&SY"
	bzip2EndMagic   = 0x177245385090
)

// isBzip2 reports whether head, a stream's first bytes, is a bzip2
// stream's: a bzip2 header and a first block whose header holds what
// one can (a block not randomised, as no bzip2 since 0.9.5 writes one,
// and a start pointer inside the block), or the end of an empty stream.
// A text that starts with a header's letters ("BZh91AY&SY" and more
// text) is no bzip2: printable characters in the pointer's place point
// past any block.
func isBzip2(head []byte) bool {
	if !bzip2Header(head) || len(head) < 10 {
		return false
	}
	switch magic := uint64(binary.BigEndian.Uint16(head[4:]))<<32 | uint64(binary.BigEndian.Uint32(head[6:])); {
	case magic == bzip2EndMagic:
		return true
	case magic != bzip2BlockMagic || len(head) < 18:
		return false
	}
	w := binary.BigEndian.Uint32(head[14:]) // after the block's checksum
	randomised, start := w>>31, w>>7&(1<<24-1)
	return randomised == 0 && start < uint32(head[3]-'0')*100000
}

// bzip2HeaderError says why a file named or found to be bzip2 is read as
// none: it is empty, ends inside its header, or starts otherwise.
func bzip2HeaderError(origin string, head []byte) error {
	switch {
	case len(head) == 0:
		return fmt.Errorf("reading %s: an empty file (0 bytes), not a bzip2 stream", origin)
	case len(head) < 4 && bytes.HasPrefix([]byte("BZh"), head[:min(len(head), 3)]):
		return fmt.Errorf("reading %s: not a complete bzip2 stream: it ends after %d bytes, inside the bzip2 header", origin, len(head))
	}
	return fmt.Errorf(`reading %s: not a bzip2 stream: it starts %q, where a bzip2 stream starts "BZh1" to "BZh9"`, origin, head[:min(len(head), 4)])
}

// byteCounter is a bufio.Reader that counts the bytes read from it: an
// io.ByteReader, so that compress/bzip2 reads it byte by byte, never past
// what it decodes. It keeps the last bytes read, and whether a read
// met the end, for oneAfterStream.
type byteCounter struct {
	br   *bufio.Reader
	n    int64
	last [12]byte // the last bytes read, last[n%12] the oldest
	end  bool     // a ReadByte met the end of the file
}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	for _, b := range p[:n] {
		c.last[c.n%int64(len(c.last))] = b
		c.n++
	}
	return n, err
}

func (c *byteCounter) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.last[c.n%int64(len(c.last))] = b
		c.n++
	}
	c.end = err == io.EOF
	return b, err
}

// oneAfterStream reports whether the file ended after one byte that
// follows a whole stream and is not "B": the 11 bytes before it end in a
// stream's end (bzip2EndMagic and a checksum, then up to 7 bits of zero
// padding to a byte). compress/bzip2 fails such a file with
// io.ErrUnexpectedEOF, as it fails one cut short inside a stream, where
// those bytes end as that only by a chance of one in 2⁴⁵.
func (c *byteCounter) oneAfterStream() bool {
	if !c.end || c.n < int64(len(c.last)) {
		return false
	}
	var t [12]byte // the last bytes in order
	for i := range t {
		t[i] = c.last[(c.n+int64(i))%int64(len(t))]
	}
	if t[11] == 'B' {
		return false // a next stream's first byte, cut short
	}
	hi := binary.BigEndian.Uint64(t[:8])
	for pad := range 8 { // the magic starts at bit 8-pad of t[0]
		if t[10]&(1<<pad-1) == 0 && hi>>(8+pad)&(1<<48-1) == bzip2EndMagic {
			return true
		}
	}
	return false
}
