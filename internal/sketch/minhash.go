package sketch

import "math/bits"

// mix64 is a fixed 64-bit finaliser (the SplitMix64 output function). It is
// part of the persisted format: changing it changes every signature.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// empty marks a bin no shingle fell into before densification.
const empty = ^uint32(0)

// MinHash makes one-permutation MinHash signatures of K values.
//
// Each element is hashed once: the hash picks a bin and gives the value kept
// as that bin's minimum, so a signature costs O(d + K) for d elements instead
// of K hash evaluations per element. Empty bins are then filled by optimal
// densification: bin i borrows from the first non-empty bin on a probe
// sequence that depends only on i and the seed, so two documents borrow
// alike and the probability that bin i agrees stays the Jaccard similarity.
//
// A MinHash is immutable after New and safe for concurrent use.
type MinHash struct {
	k    int
	seed uint64
}

// NewMinHash returns a MinHash of k values (k > 0) seeded with seed.
func NewMinHash(k int, seed uint64) *MinHash {
	if k <= 0 {
		panic("sketch: MinHash size must be positive")
	}
	return &MinHash{k: k, seed: mix64(seed ^ 0x6a09e667f3bcc908)}
}

// Size returns the number of values in a signature.
func (m *MinHash) Size() int { return m.k }

// Signature writes the signature of the set given by elems (hashes of its
// elements; duplicates allowed) into dst, which it grows to Size and returns.
// An empty set yields a signature of all 0xFFFFFFFF values.
func (m *MinHash) Signature(elems []uint64, dst []uint32) []uint32 {
	dst = m.Start(dst)
	m.Add(dst, elems)
	return m.Finish(dst)
}

// Start begins a signature in dst, which it grows to Size and returns: the
// signature of a set given in parts is Start, Add of each part, then
// Finish, and equals Signature of the parts joined. A long document's
// shingles are signed a block at a time.
func (m *MinHash) Start(dst []uint32) []uint32 {
	if cap(dst) < m.k {
		dst = make([]uint32, m.k)
	}
	dst = dst[:m.k]
	for i := range dst {
		dst[i] = empty
	}
	return dst
}

// Add adds the elements elems to sig, a signature begun by Start and not
// yet finished.
func (m *MinHash) Add(sig []uint32, elems []uint64) {
	sig = sig[:m.k]
	k := uint64(m.k)
	for _, e := range elems {
		h := mix64(e ^ m.seed)
		bin, _ := bits.Mul64(h, k)
		// The low bits are independent of the bin choice (high bits);
		// empty itself becomes the value below it. No branch depends on
		// the data: bins are chosen at random.
		v := min(uint32(h), empty-1)
		sig[bin] = min(sig[bin], v)
	}
}

// Finish completes sig, begun by Start, and returns it: the bins no
// element fell into are filled (see densify).
func (m *MinHash) Finish(sig []uint32) []uint32 {
	filled := 0
	for _, v := range sig {
		if v != empty {
			filled++
		}
	}
	if filled == 0 || filled == m.k {
		return sig
	}
	m.densify(sig)
	return sig
}

// densify fills each empty bin from a bin that was non-empty before
// densification, chosen by a probe sequence seeded by the empty bin's index,
// the same for every document.
func (m *MinHash) densify(sig []uint32) {
	var small [16]uint64
	full := small[:]
	if n := (len(sig) + 63) / 64; n > len(small) {
		full = make([]uint64, n)
	}
	for i, v := range sig {
		if v != empty {
			full[i/64] |= 1 << (i % 64)
		}
	}
	k := uint64(m.k)
	for i, v := range sig {
		if v != empty {
			continue
		}
		for attempt := uint64(1); ; attempt++ {
			j, _ := bits.Mul64(mix64(m.seed^uint64(i)<<32^attempt), k)
			if full[j/64]&(1<<(j%64)) != 0 {
				sig[i] = sig[j]
				break
			}
		}
	}
}
