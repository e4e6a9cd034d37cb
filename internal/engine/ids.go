package engine

import "hash/maphash"

// idIndex finds the ordinal of a document by its id among the ids of a
// docTable: an open-addressing table of one word a slot, the id's hash in
// the high half and its ordinal + 1 in the low (0: a free slot), at most
// half full. It holds no strings, only their places in ids, so a million
// ids cost the collector nothing to scan, and a look-up that misses, as
// every new document's does, probes the table once for both the look-up
// and the insertion.
type idIndex struct {
	slots []uint64
	used  int
	seed  maphash.Seed
}

// addOrFind returns the ordinal of id among ids, or records that id is
// ids[ord] and returns ord and false: ord must be len(ids) as it will be
// once id is appended.
func (x *idIndex) addOrFind(ids []string, id string, ord int32) (int32, bool) {
	if 2*(x.used+1) > len(x.slots) {
		x.grow()
	}
	h := uint32(maphash.String(x.seed, id) >> 32)
	mask := uint32(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			x.slots[i] = uint64(h)<<32 | uint64(ord+1)
			x.used++
			return ord, false
		}
		if uint32(s>>32) == h && ids[int32(uint32(s))-1] == id {
			return int32(uint32(s)) - 1, true
		}
	}
}

// grow doubles the table (from 1024 slots), placing the slots again by
// the hashes they hold.
func (x *idIndex) grow() {
	if x.slots == nil {
		x.seed = maphash.MakeSeed()
	}
	old := x.slots
	x.slots = make([]uint64, max(1024, 2*len(old)))
	mask := uint32(len(x.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := uint32(s>>32) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
	}
}
