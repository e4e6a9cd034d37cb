package analysis

// Room returns buf emptied, with room for n elements in one array: buf's
// own when it has the room and is not far larger than needed, else a new
// one. Scratch buffers sized so grow once for a long text instead of by
// repeated doubling (each copy into fresh memory that must be faulted in),
// and a buffer grown for one huge text is let go after it rather than held
// for every text that follows.
func Room[T any](buf []T, n int) []T {
	n = max(n, 0)
	if c := cap(buf); c >= n && c <= max(4*n, roomKept) {
		return buf[:0]
	}
	return make([]T, 0, n)
}

// roomKept is how many elements Room keeps a buffer for whatever the need.
const roomKept = 1 << 16
