package simhash

import (
	"math"
	"math/bits"
	"slices"
)

// fingerprinter computes SimHash fingerprints, reusing its scratch space; it
// is not safe for concurrent use.
type fingerprinter struct {
	seed      uint64
	weighting string
	sorted    []uint64
}

// logScale is the fixed-point scale of LogTF weights: the weights are
// integers, so a fingerprint is the same on every machine.
const logScale = 1024

// fingerprint returns the SimHash of a bag of shingle hashes (repeats
// count): each distinct shingle, hashed again with the seed, adds its weight
// to the bits set in its hash and takes it from the others; the
// fingerprint's bit i is set when the sum of bit i is positive. Documents
// whose weighted shingles mostly agree get fingerprints a few bits apart:
// the chance that one bit differs is the angle between their weight
// vectors over π.
func (f *fingerprinter) fingerprint(shingles []uint64) uint64 {
	if f.weighting == TF {
		var c bitCounter
		f.count(&c, shingles)
		return c.majority()
	}
	f.sorted = append(f.sorted[:0], shingles...)
	slices.Sort(f.sorted)
	if f.weighting == Binary {
		var c bitCounter
		for i, h := range f.sorted {
			if i == 0 || h != f.sorted[i-1] {
				c.add(mix(h ^ f.seed))
			}
		}
		return c.majority()
	}
	var sums [64]int64
	for i := 0; i < len(f.sorted); {
		j := i + 1
		for j < len(f.sorted) && f.sorted[j] == f.sorted[i] {
			j++
		}
		w := f.weight(j - i)
		h := mix(f.sorted[i] ^ f.seed)
		for b := range 64 {
			// +w for a set bit, -w for a clear one, without a branch.
			sums[b] += (int64(h>>b&1)*2 - 1) * w
		}
		i = j
	}
	var fp uint64
	for b, s := range sums {
		if s > 0 {
			fp |= 1 << b
		}
	}
	return fp
}

// count adds the votes of shingles, weighed TF, to c: every occurrence
// votes once, with no need to count repeats, so that the fingerprint of a
// bag given in parts is the majority of c after each part is counted.
func (f *fingerprinter) count(c *bitCounter, shingles []uint64) {
	for _, h := range shingles {
		c.add(mix(h ^ f.seed))
	}
}

// bitCounter counts, for each of 64 bit positions, how many of the words
// added have the bit set: a bit-sliced binary counter, plane i holding bit
// i of every position's count, so adding a word is a ripple of carries over
// the planes, two on average, instead of 64 additions.
type bitCounter struct {
	planes [64]uint64
	n      int
}

// add counts the set bits of x.
func (c *bitCounter) add(x uint64) {
	for i := 0; x != 0; i++ {
		carry := c.planes[i] & x
		c.planes[i] ^= x
		x = carry
	}
	c.n++
}

// majority returns the word whose bit b is set when more than half the
// words added have bit b set: the sign of the sum of ±1 votes.
func (c *bitCounter) majority() uint64 {
	var fp uint64
	for b := range 64 {
		count := 0
		for i := 0; i < 64 && i < bits.Len(uint(c.n)); i++ {
			count |= int(c.planes[i]>>b&1) << i
		}
		if 2*count > c.n {
			fp |= 1 << b
		}
	}
	return fp
}

// weight returns the weight of a shingle occurring n times.
func (f *fingerprinter) weight(n int) int64 {
	switch f.weighting {
	case Binary:
		return 1
	case LogTF:
		return logScale + int64(math.Round(logScale*math.Log(float64(n))))
	}
	return int64(n)
}
