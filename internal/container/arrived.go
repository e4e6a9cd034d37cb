package container

import "bufio"

// PeekArrived is br.Peek(n) for the start of a stream that may pause
// (standard input, a pipe): it returns up to n bytes, at least one unless
// the stream ends or fails first, and once it holds some it waits for no
// more than ready says have arrived: a writer that sends one record and
// waits has it read at once, not when n bytes have come. A nil ready is
// a stream that never pauses (a file): it is br.Peek(n). The error is
// Peek's: bufio.ErrBufferFull when fewer than n bytes are returned and the
// stream goes on.
func PeekArrived(br *bufio.Reader, n int, ready func() bool) ([]byte, error) {
	if ready == nil {
		return br.Peek(n)
	}
	for br.Buffered() < n && (br.Buffered() == 0 || ready()) {
		// One more read: Peek fills the buffer a read at a time.
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			break
		}
	}
	return br.Peek(min(n, max(br.Buffered(), 1)))
}
