package container

import (
	"bufio"
	"bytes"
)

// PeekArrived is br.Peek(n) for the start of a stream that may pause
// (standard input, a pipe): it returns up to n bytes, at least one whole
// line holding more than white space and a byte-order mark unless the
// stream ends or fails first, and once it holds that it waits for no more
// than ready says have arrived: a writer that sends one record and waits
// has it read at once, not when n bytes have come, and one that sends a
// blank line, a byte-order mark or half a CSV header first is not judged
// by it. A nil ready is a stream that never pauses (a file): it is
// br.Peek(n). The error is Peek's: bufio.ErrBufferFull when fewer than n
// bytes are returned and the stream goes on.
func PeekArrived(br *bufio.Reader, n int, ready func() bool) ([]byte, error) {
	if ready == nil {
		return br.Peek(n)
	}
	for br.Buffered() < n && (br.Buffered() == 0 || ready() || !wholeLine(peekBuffered(br))) {
		// One more read: Peek fills the buffer a read at a time.
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			break
		}
	}
	return br.Peek(min(n, max(br.Buffered(), 1)))
}

// peekBuffered returns the bytes br holds, without reading.
func peekBuffered(br *bufio.Reader) []byte {
	b, _ := br.Peek(br.Buffered())
	return b
}

// wholeLine reports whether b, a stream's start, is enough to judge it
// by: a line end after a character other than white space and a
// byte-order mark (in UTF-16, by its units), or the start of no text (a
// compressed or binary stream, told by its magic or a NUL byte), where a
// line means nothing.
func wholeLine(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		return wholeLine16(b[2:], 0)
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return wholeLine16(b[2:], 1)
	case Magic(b) != Unknown || bytes.IndexByte(b, 0) >= 0:
		return true
	}
	i := bytes.IndexFunc(b, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' })
	return i >= 0 && bytes.IndexByte(b[i:], '\n') >= 0
}

// wholeLine16 is wholeLine for UTF-16 after its byte-order mark, the byte
// of each unit's low half at lo (0 little-endian, 1 big-endian).
func wholeLine16(b []byte, lo int) bool {
	text := false
	for i := 0; i+1 < len(b); i += 2 {
		c, hi := b[i+lo], b[i+1-lo]
		switch {
		case hi == 0 && c == '\n':
			if text {
				return true
			}
		case hi == 0 && (c == ' ' || c == '\t' || c == '\r'):
		default:
			text = true
		}
	}
	return false
}
