package simhash

import (
	"fmt"
	"math/bits"
)

// tables derives the candidate keys of a fingerprint. The 64 bits are cut
// into b blocks of nearly equal width; two fingerprints within Hamming
// distance k differ in at most k blocks, so they agree on all of the other
// b−k blocks of at least one choice of k blocks. There is a table for each
// such choice, keyed by the bits of the blocks it keeps: two fingerprints
// within k share the key of at least one table. (Sorting permuted copies of
// the fingerprints, each with one choice of blocks in its top bits, is the
// same search; a hash table over the masked bits does it without sorting.)
type tables struct {
	k     int
	masks []uint64 // the bits each table keeps
	bits  int      // the shortest key, in bits
}

// newTables returns the tables for distance k over b blocks.
func newTables(k, b int) tables {
	block := make([]uint64, b)
	for j := range block {
		lo, hi := j*64/b, (j+1)*64/b
		block[j] = (^uint64(0) >> (64 - (hi - lo))) << lo
	}
	t := tables{k: k, bits: 64}
	// Every choice of b−k kept blocks, as a bit set over the blocks.
	keep := b - k
	var choose func(from int, mask uint64, left int)
	choose = func(from int, mask uint64, left int) {
		if left == 0 {
			t.masks = append(t.masks, mask)
			t.bits = min(t.bits, bits.OnesCount64(mask))
			return
		}
		for j := from; j <= b-left; j++ {
			choose(j+1, mask|block[j], left-1)
		}
	}
	choose(0, 0, keep)
	return t
}

// String describes the tables: "distance 3: 10 tables of 25-26 bits".
func (t tables) String() string {
	return fmt.Sprintf("distance %d: %d tables, keys of %d+ bits", t.k, len(t.masks), t.bits)
}

// keys appends the fingerprint's key in every table. A key is 32 bits: the
// kept bits and the table's number, mixed. Two fingerprints that share kept
// bits share the key; two that do not share it only by a chance collision,
// a candidate that the distance check drops.
func (t tables) keys(fp uint64, dst []uint32) []uint32 {
	for i, m := range t.masks {
		dst = append(dst, uint32(mix(fp&m^uint64(i)*0x9e3779b97f4a7c15)>>32))
	}
	return dst
}

// within reports whether two fingerprints are candidates.
func (t tables) within(a, b uint64) bool { return distance(a, b) <= t.k }

// distance returns the Hamming distance of two fingerprints.
func distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// mix is the murmur3 64-bit finaliser: every input bit moves every output
// bit.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
