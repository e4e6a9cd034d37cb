package sketch

import (
	"iter"
	"math"
	"slices"
)

// Complete is the cut-off of a sample that holds every value of its set.
const Complete = math.MaxUint32

// A Bottomer takes consistent samples of sets of hashes, reusing its scratch
// space from call to call. The zero value is ready to use; a Bottomer is not
// safe for concurrent use.
type Bottomer struct {
	tmp    []uint32
	counts []int32
}

// Bottom returns the k smallest distinct values of hs, sorted ascending, in
// dst's storage (grown when it lacks the room: room for k is enough), and
// their cut-off: the largest value kept when values were left out, or
// Complete when every distinct value is kept. hs is not modified and may
// hold duplicates.
//
// When values are uniform hashes, the values at or below a cut-off are a
// random sample of the set that is consistent across sets: two samples
// restricted to the smaller of their cut-offs are the two sets restricted to
// the same random part of the hash space, so Jaccard and containment over
// them estimate the scores of the whole sets (see
// similarity.ScoresBelow). Keeping k values bounds the memory a long
// document costs.
//
// The work is linear in len(hs) plus a sort of about k values: values above
// an estimated cut-off are never sorted.
func (b *Bottomer) Bottom(hs []uint32, k int, dst []uint32) ([]uint32, uint32) {
	return bottom(b, hs, k, dst)
}

// BottomLow is Bottom over the low 32 bits of each of hs, read in place: a
// sketch samples its shingles' hashes without a copy of their halves.
func (b *Bottomer) BottomLow(hs []uint64, k int, dst []uint32) ([]uint32, uint32) {
	return bottom(b, hs, k, dst)
}

// bottom is Bottom over the low 32 bits of each of hs.
func bottom[H uint32 | uint64](b *Bottomer, hs []H, k int, dst []uint32) ([]uint32, uint32) {
	dst = dst[:0]
	if k <= 0 {
		return dst, 0
	}
	if len(hs) > k {
		// Uniform values: about 1.25k+32 of them lie below this estimate,
		// or 2k+4 for a small k (a lead's 16: 36, fewer than 16 one time
		// in several thousand), so that a few values are sorted.
		want := 1.25*float64(k) + 32
		if k <= maxFew {
			want = 2*float64(k) + 4
		}
		est := want / float64(len(hs)) * (1 << 32)
		if est < math.MaxUint32 {
			limit := uint32(est)
			dst = below(hs, limit, slices.Grow(dst, int(want+want/8)))
			b.sortUniform(dst, limit)
			dst = slices.Compact(dst)
			switch {
			case len(dst) > k:
				return dst[:k], dst[k-1]
			case len(dst) == k && hasAbove(hs, dst[k-1]):
				return dst, dst[k-1]
			case len(dst) == k:
				return dst, Complete
			}
			dst = dst[:0] // too few below the estimate: take them all
		}
	}
	dst = slices.Grow(dst, len(hs))
	for _, h := range hs {
		dst = append(dst, uint32(h))
	}
	b.sortUniform(dst, math.MaxUint32)
	dst = slices.Compact(dst)
	if len(dst) > k {
		return dst[:k], dst[k-1]
	}
	return dst, Complete
}

// A BottomStream takes Bottom's sample of a set whose hashes come in
// parts: a long document's shingles, made a block at a time. It keeps
// the most+1 smallest distinct values seen (most is the largest k it
// will be asked for), sorted, and the values added since, up to half as
// many, not every hash: values above the most+1 smallest are dropped as
// they come, and each value kept is sorted once. The zero value is ready
// for Reset; a BottomStream is not safe for concurrent use.
type BottomStream struct {
	b      Bottomer
	vals   []uint32 // sorted and distinct up to sorted, then the values added since
	sorted int
	keep   int    // most+1
	room   int    // how many values are added before they are sorted
	limit  uint32 // values above it are not kept
}

// Reset begins a set whose sample is then asked for at most most values,
// kept in dst's storage when it has the room and is not far larger (the
// storage of a long document's sample is let go after it).
func (s *BottomStream) Reset(most int, dst []uint32) {
	s.keep = max(most, 0) + 1
	s.room = max(s.keep/2, 2*streamPart)
	if n := s.keep + s.room; cap(dst) < n || cap(dst) > 4*n {
		dst = make([]uint32, 0, n)
	}
	s.vals, s.sorted, s.limit = dst[:0], 0, math.MaxUint32
}

// streamPart is the fewest values a BottomStream reads at a time before
// it sorts those it added: a part shorter would cost more in calls than
// in values.
const streamPart = 1 << 12

// AddLow adds the low 32 bits of each of hs to the set.
func (s *BottomStream) AddLow(hs []uint64) {
	for len(hs) > 0 {
		left := s.room - (len(s.vals) - s.sorted)
		if left < streamPart {
			s.compact()
			left = s.room
		}
		part := hs[:min(len(hs), left)]
		s.vals = below(part, s.limit, s.vals) // in the room left: below grows no further
		hs = hs[len(part):]
	}
}

// compact sorts the values added since the last compaction and merges
// them into the sorted, distinct values kept before them, dropping
// repeats; of more than keep it keeps the keep smallest and lowers the
// limit to the largest of them. Only the values added are sorted: a long
// set is compacted many times.
func (s *BottomStream) compact() {
	kept, added := s.vals[:s.sorted], s.vals[s.sorted:]
	if len(added) == 0 {
		return
	}
	src := s.b.sorted(added, s.limit)
	// Merged from the largest down to the end of s.vals: the next place
	// written is above every kept value not yet read.
	w, i, j := len(s.vals), len(kept)-1, len(src)-1
	for i >= 0 || j >= 0 {
		var v uint32
		if j < 0 || i >= 0 && kept[i] >= src[j] {
			v, i = kept[i], i-1
		} else {
			v, j = src[j], j-1
		}
		if w == len(s.vals) || s.vals[w] != v {
			w--
			s.vals[w] = v
		}
	}
	s.vals = s.vals[:copy(s.vals, s.vals[w:])]
	if len(s.vals) > s.keep {
		s.vals = s.vals[:s.keep]
		s.limit = s.vals[s.keep-1]
	}
	s.sorted = len(s.vals)
}

// Sample returns what Bottom returns for the set added since Reset and k,
// at most Reset's most, in the storage given to Reset.
func (s *BottomStream) Sample(k int) ([]uint32, uint32) {
	if k >= s.keep {
		panic("sketch: a BottomStream asked for a larger sample than it keeps")
	}
	s.compact()
	switch {
	case k <= 0:
		return s.vals[:0], 0
	case len(s.vals) > k:
		// Values were dropped only once keep > k were kept.
		return s.vals[:k], s.vals[k-1]
	}
	return s.vals, Complete
}

// SampleBlocks is Sample of the set whose hashes blocks yields, of
// size(n) values for its n hashes: Reset for most values (size of the
// hashes expected, a text's about one a byte), the blocks added, and
// read again when size(n) is larger (characters that normalise into
// several). The sample is in dst's storage, as Reset keeps it; each, when
// not nil, is given every block of the first reading; total is n.
func (s *BottomStream) SampleBlocks(blocks iter.Seq[[]uint64], most int, size func(int) int, dst []uint32, each func([]uint64)) (sample []uint32, cut uint32, total int) {
	s.Reset(most, dst)
	for b := range blocks {
		if each != nil {
			each(b)
		}
		s.AddLow(b)
		total += len(b)
	}
	k := size(total)
	if k > most {
		s.Reset(k, nil)
		for b := range blocks {
			s.AddLow(b)
		}
	}
	sample, cut = s.Sample(k)
	return sample, cut, total
}

// maxFew is the largest k whose estimated cut-off keeps a smaller margin
// (see bottom).
const maxFew = 32

// below appends the values of hs (their low 32 bits) at most limit to dst,
// in their order.
// Whether a value is kept is a coin toss a processor cannot predict, so
// each value is stored and the end moved on by arithmetic on the
// comparison, without a branch (BenchmarkBottom/bottom-375-of-many). The
// values are read in blocks, so that dst needs room for the values kept
// and one block, not for all of hs: a long document's sample is a quarter
// of its shingles.
func below[H uint32 | uint64](hs []H, limit uint32, dst []uint32) []uint32 {
	const block = 1 << 12
	for len(hs) > 0 {
		part := hs[:min(len(hs), block)]
		hs = hs[len(part):]
		n := len(dst)
		dst = slices.Grow(dst, len(part))[:n+len(part)]
		for _, h := range part {
			v := uint32(h)
			dst[n] = v
			n += int((uint64(v) - uint64(limit) - 1) >> 63) // 1 when v <= limit
		}
		dst = dst[:n]
	}
	return dst
}

// hasAbove reports whether any value of hs (its low 32 bits) exceeds t.
func hasAbove[H uint32 | uint64](hs []H, t uint32) bool {
	for _, h := range hs {
		if uint32(h) > t {
			return true
		}
	}
	return false
}

// sortUniform sorts values spread about evenly over [0, limit] in linear
// expected time: a counting pass scatters them into len(vs) buckets of
// equal width, after which each value is at most a few places from its
// own, and an insertion sort finishes. Any values sort correctly; skewed
// ones only cost more time.
func (b *Bottomer) sortUniform(vs []uint32, limit uint32) {
	if len(vs) < 32 {
		slices.Sort(vs)
		return
	}
	copy(vs, b.sorted(vs, limit))
}

// sorted is sortUniform into b's scratch space: it returns vs's values
// sorted, valid until b sorts again, and leaves vs as it was.
func (b *Bottomer) sorted(vs []uint32, limit uint32) []uint32 {
	n := len(vs)
	if c := cap(b.counts); c < n+1 || c > max(4*(n+1), 1<<16) {
		// Sized for this call; scratch a huge set grew is let go.
		b.counts = make([]int32, n+1)
		b.tmp = make([]uint32, n)
	}
	counts, tmp := b.counts[:n+1], b.tmp[:n]
	if n < 32 {
		copy(tmp, vs)
		slices.Sort(tmp)
		return tmp
	}
	clear(counts)
	// bucket is about v·n/(limit+1), by a multiplication: scale is
	// n·2³²/(limit+1) rounded down, so buckets grow with v and stay below
	// n for v ≤ limit.
	scale := uint64(n) << 32 / (uint64(limit) + 1)
	bucket := func(v uint32) uint64 { return min(uint64(v)*scale>>32, uint64(n-1)) }
	for _, v := range vs {
		counts[bucket(v)+1]++
	}
	sum := int32(0)
	for i, c := range counts {
		sum += c
		counts[i] = sum
	}
	for _, v := range vs {
		i := bucket(v)
		tmp[counts[i]] = v
		counts[i]++
	}
	for i := 1; i < n; i++ {
		v, j := tmp[i], i
		for ; j > 0 && tmp[j-1] > v; j-- {
			tmp[j] = tmp[j-1]
		}
		tmp[j] = v
	}
	return tmp
}
