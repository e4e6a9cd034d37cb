package candidates

import "sync"

// Postings maps 64-bit keys to the documents (int32 ordinals) added under
// them, in an open-addressing table with the lists in one arena. It is built
// for tens of millions of keys: 16 bytes a slot, at most 70 % of slots in
// use, plus 8 bytes a posting, and no pointers for the garbage collector to
// scan.
//
// A Postings is not safe for concurrent use, but for Visit and Count,
// which may run on many goroutines at once while nothing adds, removes or
// freezes. The zero value is ready.
type Postings struct {
	slots []slot // power-of-two length; key 0 is stored out of band
	used  int
	zero  slot // the list of key 0
	nodes []node
	// anchors holds the first document of each key whose list grew past a
	// Visit limit: rare, so a map beside the table rather than a field in
	// every slot. amu guards it: Visits that run at once may each fill it.
	anchors map[uint64]int32
	amu     sync.Mutex
	// frozen holds the postings given to Freeze, older than every one
	// added after; dead marks its documents removed since.
	frozen *frozen
	dead   []uint64
	nDead  int
}

// Freeze records docs[i] under keys[i] for every i, keys below 2^32,
// documents in increasing order, on an empty Postings: a read-only part that
// later Adds, Visits and Removes see as if the same Adds had made it, built
// by sorting (several times faster for millions of postings, as when an
// index opens) in a quarter of the memory.
func (p *Postings) Freeze(keys []uint32, docs []int32) {
	p.FreezeEach(len(keys), 1, func(_ int, yield func(key uint32, doc int32)) {
		for i, k := range keys {
			yield(k, docs[i])
		}
	})
}

// FreezeEach is Freeze of the n postings that each yields, parts by parts
// goroutines at once: each(part, yield) yields the part-th of parts
// disjoint shares of them (for instance of the documents), and is called
// twice for each part. The postings need not be held in memory besides the
// frozen part (8 bytes each) being built; the index does not depend on how
// they were split.
func (p *Postings) FreezeEach(n, parts int, each func(part int, yield func(key uint32, doc int32))) {
	if p.used > 0 || p.zero.count > 0 || p.frozen != nil {
		panic("candidates: Freeze of a Postings in use")
	}
	p.frozen = newFrozen(n, parts, each)
}

// VisitBucket calls fn with the positions, among the n members of an LSH
// bucket that came before a document (in the order they were added), of
// those the document is compared with under limit: all of them, newest
// first, when there are at most limit; otherwise the limit-1 newest, newest
// first, then the first one (the anchor). A limit <= 0 means no cap. It is
// the one rule of a bucket limit: a Postings applies it, and so does a
// pipeline that groups a bucket's members by key (beam/).
func VisitBucket(n, limit int, fn func(i int)) {
	first := 0
	if limit > 0 && n > limit {
		first = n - (limit - 1)
	}
	for i := n - 1; i >= first; i-- {
		fn(i)
	}
	if first > 0 {
		fn(0) // the anchor
	}
}

// frozenRange returns key's records in the frozen part.
func (p *Postings) frozenRange(key uint64) (lo, hi int) {
	if p.frozen == nil || key>>32 != 0 {
		return 0, 0
	}
	return p.frozen.lookup(uint32(key))
}

func (p *Postings) isDead(doc int32) bool {
	return int(doc>>6) < len(p.dead) && p.dead[doc>>6]&(1<<(doc&63)) != 0
}

// frozenLive counts the live documents of a frozen range.
func (p *Postings) frozenLive(lo, hi int) int {
	if p.nDead == 0 {
		return hi - lo
	}
	n := 0
	for i := lo; i < hi; i++ {
		if !p.isDead(p.frozen.doc(i)) {
			n++
		}
	}
	return n
}

type slot struct {
	key   uint64 // 0 when the slot is free
	head  int32  // most recent node
	count int32  // 0 when every document under key was removed
}

type node struct {
	doc  int32
	next int32 // -1 ends the list
}

// Add records doc under key.
func (p *Postings) Add(key uint64, doc int32) {
	p.push(p.slotFor(key, true), doc)
}

func (p *Postings) push(s *slot, doc int32) {
	next := int32(-1)
	if s.count > 0 {
		next = s.head
	}
	p.nodes = append(p.nodes, node{doc: doc, next: next})
	s.head = int32(len(p.nodes) - 1)
	s.count++
}

// Reserve makes room for keys distinct keys and postings postings without
// further growth; a batch that knows its size avoids rehashing and copying.
func (p *Postings) Reserve(keys, postings int) {
	n := 1024
	for !fits(keys, n) {
		n *= 2
	}
	if n > len(p.slots) {
		old := p.slots
		p.slots = make([]slot, n)
		p.rehashInto(old)
	}
	if cap(p.nodes) < postings {
		p.nodes = append(make([]node, 0, postings), p.nodes...)
	}
}

// Remove takes doc off key's list, if it is there. The slot and node stay
// allocated until the table is rebuilt; a removed anchor is forgotten. A
// document of the frozen part (see Freeze) leaves every key at once: remove
// a document from all its keys.
func (p *Postings) Remove(key uint64, doc int32) {
	if p.frozen != nil && doc <= p.frozen.max {
		if lo, hi := p.frozenRange(key); lo < hi && !p.isDead(doc) {
			for int(doc>>6) >= len(p.dead) {
				p.dead = append(p.dead, 0)
			}
			p.dead[doc>>6] |= 1 << (doc & 63)
			p.nDead++
		}
		return
	}
	s := p.slotFor(key, false)
	if s == nil || s.count == 0 {
		return
	}
	prev := int32(-1)
	for i := s.head; i >= 0; prev, i = i, p.nodes[i].next {
		if p.nodes[i].doc != doc {
			continue
		}
		if prev < 0 {
			s.head = p.nodes[i].next
		} else {
			p.nodes[prev].next = p.nodes[i].next
		}
		s.count--
		p.amu.Lock()
		if a, ok := p.anchors[key]; ok && a == doc {
			delete(p.anchors, key)
		}
		p.amu.Unlock()
		return
	}
}

// Count returns how many documents were added under key.
func (p *Postings) Count(key uint64) int {
	n := p.frozenLive(p.frozenRange(key))
	if s := p.slotFor(key, false); s != nil {
		n += int(s.count)
	}
	return n
}

// Visit calls fn for the documents under key: all of them, newest first,
// when there are at most limit; otherwise the first one added (the anchor)
// and the limit-1 newest. Capping keeps a huge bucket from costing a
// comparison with every member, while linking every member to the anchor
// keeps the bucket one connected group. A limit <= 0 means no cap.
func (p *Postings) Visit(key uint64, limit int, fn func(doc int32)) {
	lo, hi := p.frozenRange(key)
	s := p.slotFor(key, false)
	if lo == hi {
		if s != nil && s.count > 0 {
			p.visit(s, key, limit, fn)
		}
		return
	}
	dyn := 0
	if s != nil {
		dyn = int(s.count)
	}
	live := p.frozenLive(lo, hi)
	capped := limit > 0 && dyn+live > limit
	left := dyn + live
	if capped {
		left = limit - 1
	}
	for i := s.headOr(); i >= 0 && left > 0; i = p.nodes[i].next {
		fn(p.nodes[i].doc)
		left--
	}
	for i := hi - 1; i >= lo && left > 0; i-- {
		if d := p.frozen.doc(i); !p.isDead(d) {
			fn(d)
			left--
		}
	}
	if capped {
		for i := lo; i < hi; i++ { // the anchor: the oldest live one
			if d := p.frozen.doc(i); !p.isDead(d) {
				fn(d)
				return
			}
		}
	}
}

// headOr returns the slot's most recent node, or -1 for no slot or list.
func (s *slot) headOr() int32 {
	if s == nil || s.count == 0 {
		return -1
	}
	return s.head
}

// VisitAdd is Visit followed by Add(key, doc) with one table probe: the
// query-then-index step of matching a document.
func (p *Postings) VisitAdd(key uint64, limit int, doc int32, fn func(doc int32)) {
	if p.frozen != nil {
		p.Visit(key, limit, fn)
		p.Add(key, doc)
		return
	}
	s := p.slotFor(key, true)
	if s.count > 0 {
		p.visit(s, key, limit, fn)
	}
	p.push(s, doc)
}

func (p *Postings) visit(s *slot, key uint64, limit int, fn func(doc int32)) {
	if limit <= 0 || int(s.count) <= limit {
		for i := s.head; i >= 0; i = p.nodes[i].next {
			fn(p.nodes[i].doc)
		}
		return
	}
	i := s.head
	for range limit - 1 {
		fn(p.nodes[i].doc)
		i = p.nodes[i].next
	}
	fn(p.anchor(key, i))
}

// anchor returns the first document added under key, walking the list from
// node i once and remembering the answer.
func (p *Postings) anchor(key uint64, i int32) int32 {
	p.amu.Lock()
	defer p.amu.Unlock()
	if a, ok := p.anchors[key]; ok {
		return a
	}
	for p.nodes[i].next >= 0 {
		i = p.nodes[i].next
	}
	if p.anchors == nil {
		p.anchors = map[uint64]int32{}
	}
	p.anchors[key] = p.nodes[i].doc
	return p.nodes[i].doc
}

// Keys returns the number of distinct keys with documents.
func (p *Postings) Keys() int {
	n := 0
	p.EachKey(func(uint64, int) { n++ })
	return n
}

// EachKey calls fn with every key and its count: the table's keys in table
// order, then the frozen ones the table lacks.
func (p *Postings) EachKey(fn func(key uint64, count int)) {
	if p.zero.count > 0 {
		fn(0, int(p.zero.count)+p.frozenLive(p.frozenRange(0)))
	}
	for _, s := range p.slots {
		if s.count > 0 {
			fn(s.key, int(s.count)+p.frozenLive(p.frozenRange(s.key)))
		}
	}
	if p.frozen == nil {
		return
	}
	for lo := 0; lo < len(p.frozen.recs); {
		h := p.frozen.recs[lo] >> 32
		hi := lo
		for hi < len(p.frozen.recs) && p.frozen.recs[hi]>>32 == h {
			hi++
		}
		key := uint64(unmix32(uint32(h)))
		if s := p.slotFor(key, false); s == nil || s.count == 0 {
			if n := p.frozenLive(lo, hi); n > 0 {
				fn(key, n)
			}
		}
		lo = hi
	}
}

func (p *Postings) slotFor(key uint64, create bool) *slot {
	if key == 0 {
		if p.zero.count == 0 && !create {
			return nil
		}
		return &p.zero
	}
	if create && !fits(p.used+1, len(p.slots)) {
		p.grow()
	}
	if len(p.slots) == 0 {
		return nil
	}
	mask := uint64(len(p.slots) - 1)
	for i := spread(key) & mask; ; i = (i + 1) & mask {
		s := &p.slots[i]
		if s.key == 0 {
			if !create {
				return nil
			}
			*s = slot{key: key}
			p.used++
			return s
		}
		if s.key == key {
			return s
		}
	}
}

func (p *Postings) grow() {
	old := p.slots
	n := 1024
	if len(old) > 0 {
		n = len(old) * 2
	}
	p.slots = make([]slot, n)
	p.rehashInto(old)
}

func (p *Postings) rehashInto(old []slot) {
	mask := uint64(len(p.slots) - 1)
	p.used = 0
	for _, s := range old {
		if s.count == 0 {
			continue // free, or emptied by Remove: dropped
		}
		i := spread(s.key) & mask
		for p.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		p.slots[i] = s
		p.used++
	}
}

// fits reports whether keys keys fit a table of n slots within the load
// limit of 70 %, which keeps linear probing short while a 20-million-key
// table takes 512 MB rather than 1 GB.
func fits(keys, n int) bool { return keys*10 <= n*7 }

// spread mixes a key so that keys differing only in high bits spread over
// the table.
func spread(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}
