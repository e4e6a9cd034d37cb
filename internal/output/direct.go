package output

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// blockSize is the alignment of direct writes: of their memory, their
// length and their place in the file. 4,096 bytes is a multiple of the
// logical block size of the devices and file systems that take them.
const blockSize = 4096

// blockWriter is the buffered writer of a main file of the set. Where the
// file system takes direct I/O (openDirect), it writes whole blocks from an
// aligned buffer straight to the device, and the last partial block
// through the page cache once direct I/O is turned off: a run writes
// gigabytes it does not read again, and filling fresh page-cache pages
// with them cost more CPU than the rest of the writing (on the virtual
// machines measured, first touches of memory are slow). Elsewhere it is a
// plain buffered writer. Like bufio.Writer, its first error is returned
// from then on.
type blockWriter struct {
	f      *os.File
	direct bool
	buf    []byte // aligned to blockSize; len is what is buffered
	err    error
}

// newBlockWriter returns a writer to f with a buffer of size bytes, a
// multiple of blockSize; direct says f was opened for direct I/O.
func newBlockWriter(f *os.File, direct bool, size int) *blockWriter {
	b := make([]byte, size+blockSize)
	off := int(uintptr(unsafe.Pointer(&b[0])) & (blockSize - 1))
	if off > 0 {
		off = blockSize - off
	}
	return &blockWriter{f: f, direct: direct, buf: b[off : off : off+size]}
}

// Write writes p.
func (w *blockWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 && w.err == nil {
		c := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+c]
		n, p = n+c, p[c:]
		if len(w.buf) == cap(w.buf) {
			w.writeOut(len(w.buf))
		}
	}
	return n, w.err
}

// WriteByte writes c.
func (w *blockWriter) WriteByte(c byte) error {
	_, err := w.Write([]byte{c})
	return err
}

// writeOut writes the first n bytes of the buffer, n a multiple of
// blockSize unless direct I/O is off, and keeps the rest.
func (w *blockWriter) writeOut(n int) {
	if w.err != nil || n == 0 {
		return
	}
	_, err := w.f.Write(w.buf[:n])
	if err != nil && w.direct && errors.Is(err, syscall.EINVAL) {
		// A file system that opens files for direct I/O but refuses
		// the writes: write through the page cache instead.
		if err = directOff(w.f); err == nil {
			w.direct = false
			_, err = w.f.Write(w.buf[:n])
		}
	}
	if err != nil {
		w.err = err
		return
	}
	rest := copy(w.buf[:cap(w.buf)], w.buf[n:])
	w.buf = w.buf[:rest]
}

// Flush writes what is buffered. It ends direct I/O: nothing more may be
// written after it.
func (w *blockWriter) Flush() error {
	if w.direct {
		w.writeOut(len(w.buf) / blockSize * blockSize)
		if w.err == nil {
			w.err = directOff(w.f)
			w.direct = false
		}
	}
	w.writeOut(len(w.buf))
	return w.err
}
