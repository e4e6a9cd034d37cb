package analysis

import (
	"strings"
	"sync"

	"github.com/zeebo/xxh3"
)

// stopTable maps the hash of every stop word to the languages whose list
// holds it: open addressing with linear probing over the hash bits, which
// are already uniform (a quarter of the cost of a Go map on the hot path
// of DetectLangTokens). Key 0 marks an empty slot.
type stopTable struct {
	keys  []uint64
	masks []langMask
}

var stopTables = sync.OnceValue(func() *stopTable {
	n := 0
	for _, list := range stopWordLists {
		n += len(strings.Fields(list))
	}
	size := 1
	for size < 4*n {
		size <<= 1
	}
	t := &stopTable{keys: make([]uint64, size), masks: make([]langMask, size)}
	for i, list := range stopWordLists {
		for _, w := range strings.Fields(list) {
			t.add(HashWordString(w), 1<<i)
		}
	}
	return t
})

// add records that the word of hash h is a stop word of languages m.
func (t *stopTable) add(h uint64, m langMask) {
	mask := uint64(len(t.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if t.keys[i] == h || t.keys[i] == 0 {
			t.keys[i] = h
			t.masks[i] |= m
			return
		}
	}
}

// get returns the languages of the stop word of hash h, or 0.
func (t *stopTable) get(h uint64) langMask {
	mask := uint64(len(t.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case h:
			return t.masks[i]
		case 0:
			return 0
		}
	}
}

// HashWordString is HashWord for a string.
func HashWordString(normalised string) uint64 {
	return xxh3.HashStringSeed(normalised, hashSeed)
}

// IsStopWord reports whether normalisedWord (the output of Normalize for
// one word) is a stop word of lang. The lists come from stopwords-iso
// 1.1.0 for every known language; they are broad (the English one also
// holds words such as "new", "year" or "information"), which suits
// dropping low-information words before weighting. It is false for
// Unknown.
func IsStopWord(lang Lang, normalisedWord string) bool {
	return isStopHash(lang, HashWordString(normalisedWord))
}

// IsStopToken is IsStopWord for a token, by its hash: no normalisation,
// no allocation.
func IsStopToken(lang Lang, t Token) bool {
	return isStopHash(lang, t.Hash)
}

func isStopHash(lang Lang, h uint64) bool {
	i := langIndex(lang)
	return i >= 0 && stopTables().get(h)&(1<<i) != 0
}
