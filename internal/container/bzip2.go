package container

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"io"
)

// bzip2Streams reads a bzip2 file, one stream after another as
// compress/bzip2 does, but ends it, as bzip2(1) does ("trailing garbage
// after EOF ignored"), at bytes after a whole stream that start no other:
// zero padding from a tape or disk copy, junk. It reads them to the end of
// the file and tells how many there are (Options.StrayBytes), where
// compress/bzip2 fails on them ("bad magic value in continuation file"),
// as gzipMembers does of a gzip file. A stream cut short or damaged fails
// as compress/bzip2 fails.
type bzip2Streams struct {
	zr     io.Reader
	br     *byteCounter // the compressed file, which zr reads byte by byte
	origin string
	stray  func(origin string, n int64)
	err    error // the error that ended the file, io.EOF at its end
}

// bzip2Stray is compress/bzip2's error for bytes after a whole stream
// that do not start with another's "BZ".
const bzip2Stray = bzip2.StructuralError("bad magic value in continuation file")

// Read reads the decompressed bytes of the streams in turn; after the last
// (and stray bytes, if any), io.EOF.
func (b *bzip2Streams) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.zr.Read(p)
	var se bzip2.StructuralError
	if errors.As(err, &se) && se == bzip2Stray {
		// compress/bzip2 has read the two bytes that are no "BZ".
		m, cerr := io.Copy(io.Discard, b.br.br)
		if cerr != nil {
			b.err = cerr
			return n, cerr
		}
		if b.stray != nil {
			b.stray(b.origin, 2+m)
		}
		err = io.EOF
	}
	if err != nil {
		b.err = err
	}
	return n, err
}

// byteCounter is a bufio.Reader that counts the bytes read from it: an
// io.ByteReader, so that compress/bzip2 reads it byte by byte, never past
// what it decodes.
type byteCounter struct {
	br *bufio.Reader
	n  int64
}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *byteCounter) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}
