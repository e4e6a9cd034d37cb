package candidates

// frozen is a read-only set of postings of 32-bit keys, built at once (see
// Postings.Freeze): each posting is one word, the key's mix in the high
// half and the document in the low, sorted, with a directory of where each
// prefix of the mix starts. It takes 8 bytes a posting, against about 31
// in the table, and builds by sorting instead of probing a table at random.
type frozen struct {
	recs  []uint64
	dir   []uint32 // dir[b]: the first record whose mix starts with b
	shift uint     // 32 - the directory's bits
	keys  int      // distinct keys
	max   int32    // the largest document
}

// mix32 is a bijection of 32-bit keys that spreads them evenly (the
// lowbias32 mixer), so that the directory's buckets fill evenly.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

func newFrozen(keys []uint32, docs []int32) *frozen {
	f := &frozen{recs: make([]uint64, len(keys)), max: -1}
	for i, k := range keys {
		f.recs[i] = uint64(mix32(k))<<32 | uint64(uint32(docs[i]))
		f.max = max(f.max, docs[i])
	}
	radixSortHigh(f.recs, make([]uint64, len(f.recs)), 32)
	bits := uint(1)
	for 1<<(bits+2) < len(keys) && bits < 30 {
		bits++ // about four postings a bucket
	}
	f.shift = 32 - bits
	f.dir = make([]uint32, 1<<bits+1)
	for i, r := range f.recs {
		if i == 0 || r>>32 != f.recs[i-1]>>32 {
			f.keys++
		}
		f.dir[uint32(r>>32)>>f.shift+1]++
	}
	for b := 1; b < len(f.dir); b++ {
		f.dir[b] += f.dir[b-1]
	}
	return f
}

// lookup returns the range of key's records, its documents in the order
// they were given.
func (f *frozen) lookup(key uint32) (lo, hi int) {
	h := uint64(mix32(key))
	b := uint32(h) >> f.shift
	lo, hi = int(f.dir[b]), int(f.dir[b+1])
	for lo < hi && f.recs[lo]>>32 < h {
		lo++
	}
	end := lo
	for end < hi && f.recs[end]>>32 == h {
		end++
	}
	return lo, end
}

func (f *frozen) doc(i int) int32 { return int32(uint32(f.recs[i])) }

// radixSortHigh sorts vs stably by their bits 32 to 32+bits, with tmp, of
// the same length, for scratch.
func radixSortHigh(vs, tmp []uint64, bits uint) {
	const digit = 8
	var count [1 << digit]int
	passes := 0
	for shift := uint(32); shift < 32+bits; shift += digit {
		clear(count[:])
		for _, v := range vs {
			count[(v>>shift)&(1<<digit-1)]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, v := range vs {
			d := (v >> shift) & (1<<digit - 1)
			tmp[count[d]] = v
			count[d]++
		}
		vs, tmp = tmp, vs
		passes++
	}
	if passes%2 == 1 {
		copy(tmp, vs) // the sorted values are in the caller's scratch
	}
}

// unmix32 is the inverse of mix32.
func unmix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x43021123
	x ^= x>>15 ^ x>>30
	x *= 0x1d69e2a5
	x ^= x >> 16
	return x
}
