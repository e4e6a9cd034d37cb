// Package codec owns the binary encodings of sketches: unsigned varints,
// fixed-width words, sets of sorted integers as Rice-coded gaps, and a Reader
// that decodes them from untrusted bytes, refusing truncated, oversized or
// out-of-order input instead of panicking or allocating without bound.
package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// ErrCorrupt is wrapped by every decoding error.
var ErrCorrupt = errors.New("codec: corrupt data")

// ErrFormat is wrapped, beside ErrCorrupt, by the error of a sketch of
// another format than the one expected: written by another version of the
// method, not damaged on its way.
var ErrFormat = errors.New("codec: sketch of another format")

// AppendUvarint appends v as an unsigned varint.
func AppendUvarint(dst []byte, v uint64) []byte { return binary.AppendUvarint(dst, v) }

// AppendUint64 appends v as 8 little-endian bytes.
func AppendUint64(dst []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(dst, v) }

// AppendUint64s appends a count and each value as 8 little-endian bytes: for
// hashes, which no shorter encoding shrinks.
func AppendUint64s(dst []byte, vs []uint64) []byte {
	dst = AppendUvarint(dst, uint64(len(vs)))
	for _, v := range vs {
		dst = binary.LittleEndian.AppendUint64(dst, v)
	}
	return dst
}

// AppendUint32s appends a count and each value as 4 little-endian bytes.
func AppendUint32s(dst []byte, vs []uint32) []byte {
	dst = AppendUvarint(dst, uint64(len(vs)))
	for _, v := range vs {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// AppendSorted32 appends a strictly increasing set of 32-bit values as its
// count, a Rice parameter and the Rice codes of the gaps between them. The
// values of a sketch are hashes, spread evenly below their largest, so their
// gaps are close to geometric: Rice codes take about log2(mean gap) + 2 bits
// a value where plain words take 32.
func AppendSorted32(dst []byte, vs []uint32) []byte {
	dst = AppendUvarint(dst, uint64(len(vs)))
	if len(vs) == 0 {
		return dst
	}
	k := riceParameter(uint64(vs[len(vs)-1])+1, len(vs))
	dst = append(dst, byte(k))
	w := bitWriter{buf: dst}
	prev := uint64(0)
	for i, v := range vs {
		gap := uint64(v) - prev
		if i > 0 {
			gap--
		}
		w.rice(gap, k)
		prev = uint64(v)
	}
	return w.flush()
}

// riceParameter returns the Rice parameter for n values spread below
// limit: the bit length of their mean gap, less one.
func riceParameter(limit uint64, n int) uint {
	mean := limit / uint64(n)
	if mean < 2 {
		return 0
	}
	return uint(bits.Len64(mean) - 1)
}

type bitWriter struct {
	buf  []byte
	acc  uint64 // bits not written yet, the first in the lowest place
	nacc uint   // how many; below 32 between calls
}

// bits writes the n low bits of v, n at most 32.
func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= (v & (1<<n - 1)) << w.nacc
	w.nacc += n
	if w.nacc >= 32 {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

// rice writes v>>k in unary (that many ones, then a zero) and the k low bits.
func (w *bitWriter) rice(v uint64, k uint) {
	q := v >> k
	for ; q >= 32; q -= 32 {
		w.bits(1<<32-1, 32)
	}
	w.bits(1<<q-1, uint(q)+1) // q ones, then a zero
	w.bits(v, k)
}

func (w *bitWriter) flush() []byte {
	for ; w.nacc > 0; w.nacc -= min(w.nacc, 8) {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
	}
	return w.buf
}

// Reader decodes values from a byte slice. The first error sticks: later
// calls return zero values, and Err reports it.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err returns the first decoding error.
func (r *Reader) Err() error { return r.err }

// Done returns the first decoding error, or one if bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes left over", len(r.b))
	}
	return r.err
}

func (r *Reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	r.b = nil
}

// Format reads a sketch part's format byte and returns it when it is one
// of oldest to newest, which the method (named in the error) reads; else an
// error wrapping ErrFormat and ErrCorrupt.
func (r *Reader) Format(method string, oldest, newest byte) (byte, error) {
	v := r.Byte()
	if r.Err() != nil || v < oldest || v > newest {
		return v, fmt.Errorf("%s: sketch format %d, this binary reads %d to %d: %w: %w", method, v, oldest, newest, ErrFormat, ErrCorrupt)
	}
	return v, nil
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Uint64 reads what AppendUint64 wrote.
func (r *Reader) Uint64() uint64 {
	if len(r.b) < 8 {
		r.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// Count reads a count of items that each take at least minBits bits of
// what follows, refusing one the remaining bytes cannot hold: a corrupt
// count never makes a decoder allocate more than its input justifies.
func (r *Reader) Count(minBits int) int {
	n := r.Uvarint()
	if r.err == nil && n > uint64(len(r.b))*8/uint64(max(minBits, 1)) {
		r.fail("count %d exceeds the %d bytes left", n, len(r.b))
		return 0
	}
	return int(n)
}

// Uint64s reads what AppendUint64s wrote.
func (r *Reader) Uint64s() []uint64 {
	n := r.Count(64)
	if n == 0 {
		return nil
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(r.b)
		r.b = r.b[8:]
	}
	return out
}

// Uint32s reads what AppendUint32s wrote.
func (r *Reader) Uint32s() []uint32 {
	n := r.Count(32)
	if n == 0 {
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(r.b)
		r.b = r.b[4:]
	}
	return out
}

// Sorted32 reads what AppendSorted32 wrote, checking that the values stay
// strictly increasing and within 32 bits.
func (r *Reader) Sorted32() []uint32 {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	k := uint(r.Byte())
	if r.err == nil && k > 32 {
		r.fail("rice parameter %d", k)
	}
	if r.err != nil {
		return nil
	}
	out := make([]uint32, n)
	br := bitReader{b: r.b}
	prev := uint64(0)
	for i := range out {
		gap, ok := br.rice(k)
		v := prev + gap
		if i > 0 {
			v++
		}
		if !ok || v > 1<<32-1 || v < prev {
			r.fail("bad set value %d", i)
			return nil
		}
		out[i], prev = uint32(v), v
	}
	r.b = r.b[br.used():]
	return out
}

type bitReader struct {
	b   []byte
	pos uint // bits consumed
}

// avail returns how many bits are left.
func (br *bitReader) avail() uint { return uint(len(br.b))*8 - br.pos }

// peek returns the next bits, the first in the lowest place: at least 57
// of them, or all that are left (the bits past the end read as zero).
func (br *bitReader) peek() uint64 {
	i := br.pos / 8
	var w uint64
	if i+8 <= uint(len(br.b)) {
		w = binary.LittleEndian.Uint64(br.b[i:])
	} else {
		var buf [8]byte
		copy(buf[:], br.b[i:])
		w = binary.LittleEndian.Uint64(buf[:])
	}
	return w >> (br.pos % 8)
}

// rice reads a value written by bitWriter.rice. A quotient that makes the
// value larger than 2^32 is refused: no gap of a 32-bit set is.
func (br *bitReader) rice(k uint) (uint64, bool) {
	var q uint64
	for {
		avail := min(br.avail(), 57)
		if avail == 0 {
			return 0, false
		}
		ones := uint(bits.TrailingZeros64(^br.peek()))
		if ones < avail {
			q += uint64(ones)
			br.pos += ones + 1
			break
		}
		q += uint64(avail)
		br.pos += avail
		if q > 1<<32 {
			return 0, false
		}
	}
	if q > 1<<32>>k || br.avail() < k { // q<<k past 2^32 is no 32-bit value
		return 0, false
	}
	v := q<<k | br.peek()&(1<<k-1)
	br.pos += k
	return v, true
}

// used returns the bytes the bits read occupy.
func (br *bitReader) used() int { return int((br.pos + 7) / 8) }
