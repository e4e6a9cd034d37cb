package vector

// termIDs maps term hashes to term ids: an open-addressing table with
// linear probing in one array of hash and id pairs, so that a look-up
// usually reads one cache line where a map reads two or three (a field's
// terms, words and bigrams, outgrow the caches). A term's slot is the top
// bits of its hash times an odd constant (home): the hashes are uniform,
// but a document's terms come in increasing order (Counts), and by their
// own top bits the first of them would crowd the table's start into one
// run that every later term walks (a document of 400,000 distinct words
// took seconds). The zero value is empty and ready to use.
type termIDs struct {
	slots []termSlot
	n     int // terms held
	shift uint
}

// termSlot holds a term's hash and its id plus one; 0 marks a free slot.
type termSlot struct {
	hash uint64
	id1  uint32
}

// mix is the odd multiplier that scatters hashes over the slots (2^64
// divided by the golden ratio): hashes in order land in no order.
const mix = 0x9e3779b97f4a7c15

// home returns the slot where h's run starts.
func (t *termIDs) home(h uint64) int { return int((h * mix) >> t.shift) }

// get returns h's id and whether h is held.
func (t *termIDs) get(h uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(h); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id1 == 0 {
			return 0, false
		}
		if s.hash == h {
			return s.id1 - 1, true
		}
	}
}

// put sets h's id; h must not be held.
func (t *termIDs) put(h uint64, id uint32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow() // at three quarters full: as much memory a term as a map
	}
	mask := len(t.slots) - 1
	i := t.home(h)
	for t.slots[i].id1 != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = termSlot{h, id + 1}
	t.n++
}

// remove drops h, if held, moving back the terms after it in its run so
// that no look-up meets a free slot before its term (no tombstones).
func (t *termIDs) remove(h uint64) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(h)
	for t.slots[i].hash != h {
		if t.slots[i].id1 == 0 {
			return
		}
		i = (i + 1) & mask
	}
	if t.slots[i].id1 == 0 {
		return // a free slot whose stale hash is h
	}
	for j := (i + 1) & mask; t.slots[j].id1 != 0; j = (j + 1) & mask {
		home := t.home(t.slots[j].hash)
		// The term at j may move to the hole at i when its home is not
		// in the cyclic range (i, j].
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = termSlot{}
	t.n--
}

// len returns how many terms are held.
func (t *termIDs) len() int { return t.n }

// grow doubles the table (or makes its first one) and moves every term.
func (t *termIDs) grow() {
	old := t.slots
	size := max(2*len(old), 1024)
	t.slots = make([]termSlot, size)
	t.shift = uint(64 - log2(size))
	t.n = 0
	for _, s := range old {
		if s.id1 != 0 {
			t.put(s.hash, s.id1-1)
		}
	}
}

// log2 returns the base-2 logarithm of n, a power of two.
func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}
