package diff

import "strings"

// slide moves the edits of one side only along the stretch of units their
// matches leave them free to take, to where they best start and end a
// sentence or paragraph, and returns ms so changed (in place). An edit of
// one side only lies between two matches adjacent on the other side; when
// its last unit equals the last unit of the match before it, the same
// alignment holds with the edit one unit earlier, and so on (and likewise
// later). The aligner picks one of those places by chance: a paragraph
// moved down past one that starts with the same word ("The …", "The …")
// was aligned with that word left matched in place, the passage cut from
// its first word; the passage then no longer equals the one it was moved
// from, and the shared count missed a word. Slid to where a paragraph
// starts, the edit is the passage whole. Each match keeps one unit at
// least; ties keep the aligner's place.
func (d *Diff) slide(ms []match) []match {
	for x := 0; x+1 < len(ms); x++ {
		p, n := &ms[x], &ms[x+1]
		var s *Side
		var lo, hi int // the edit's units on s
		switch {
		case p.a+p.n == n.a && p.b+p.n < n.b:
			s, lo, hi = &d.B, p.b+p.n, n.b
		case p.b+p.n == n.b && p.a+p.n < n.a:
			s, lo, hi = &d.A, p.a+p.n, n.a
		default:
			continue
		}
		key := func(i int) uint64 { return s.units[i].key }
		left, right := 0, 0
		for left < p.n-1 && key(lo-1-left) == key(hi-1-left) {
			left++
		}
		for right < n.n-1 && key(lo+right) == key(hi+right) {
			right++
		}
		best, score := 0, s.edge(lo)+s.edge(hi)
		for k := -left; k <= right; k++ {
			if sc := s.edge(lo+k) + s.edge(hi+k); sc > score {
				best, score = k, sc
			}
		}
		p.n += best
		n.a, n.b, n.n = n.a+best, n.b+best, n.n-best
	}
	return ms
}

// edge scores the place before unit i as an edit's start or end: 2 where a
// paragraph ends (see paragraphEnds) or the text does, 1 where a sentence
// ends (the gap before the unit holds a full stop, question or exclamation
// mark), 0 inside a sentence.
func (s *Side) edge(i int) int {
	switch {
	case i <= 0 || i >= len(s.units) || s.paragraphEnds(i):
		return 2
	case strings.ContainsAny(s.gapBefore(i), ".!?…"):
		return 1
	}
	return 0
}
