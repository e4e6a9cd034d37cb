package diff

// This file counts the words each side shares with the other: those the
// alignment matched in place, and those of passages found elsewhere in the
// other text (moved).

// minMovedWords is the fewest words in a row, aligning by word, that count
// as found elsewhere in the other text when the alignment did not match
// them in place: a phrase of five words rarely recurs by chance, as "of
// the" or "said on" do.
const minMovedWords = 5

// minMoved returns how many units in a row a moved passage has at least:
// minMovedWords words, or one sentence or line.
func minMoved(by By) int {
	if by == ByWord {
		return minMovedWords
	}
	return 1
}

// countShared sets Shared and Moved of both sides from the matches of the
// alignment of unit keys ka and kb, before cleanup merges short matches
// into the edits around them for display: a word matched in place is
// shared whatever the view shows.
func (d *Diff) countShared(ms []match, ka, kb []uint64, k int) {
	inA, inB := make([]bool, len(ka)), make([]bool, len(kb))
	for _, m := range ms {
		for i := range m.n {
			inA[m.a+i], inB[m.b+i] = true, true
		}
		d.A.Shared += d.A.wordCount(m.a, m.a+m.n)
		d.B.Shared += d.B.wordCount(m.b, m.b+m.n)
	}
	d.A.Moved = d.A.moved(inA, ka, kb, k)
	d.B.Moved = d.B.moved(inB, kb, ka, k)
	d.A.Shared += d.A.Moved
	d.B.Shared += d.B.Moved
}

// moved returns the words of the side's units that are not matched in place
// (inPlace false) but lie in a run of k units, keys own, that the other
// side's keys hold too. It takes time linear in the units.
func (s *Side) moved(inPlace []bool, own, other []uint64, k int) int {
	if len(own) < k || len(other) < k || !hasFalse(inPlace) {
		return 0
	}
	grams := make(map[uint64]struct{}, len(other)-k+1)
	for i := 0; i+k <= len(other); i++ {
		grams[gram(other[i:i+k])] = struct{}{}
	}
	n, covered := 0, 0 // covered: units up to this index lie in a run found
	for i := 0; i+k <= len(own); i++ {
		if _, ok := grams[gram(own[i:i+k])]; !ok {
			continue
		}
		for j := max(i, covered); j < i+k; j++ {
			if !inPlace[j] {
				n += s.units[j].words
			}
		}
		covered = i + k
	}
	return n
}

// gram hashes a run of unit keys.
func gram(keys []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, k := range keys {
		h = (h ^ k) * 1099511628211
		h ^= h >> 29
	}
	return h
}

func hasFalse(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return true
		}
	}
	return false
}
