package main

import (
	"unicode"
	"unicode/utf8"
)

// kindFloor is the floor under any method that reads every word of every
// document: the baseline's reading and decoding, and one hash of every
// word 5-gram of each document's title and text (the peer's shingles),
// with nothing kept and nothing compared. No such method can take less,
// so the peer's time over the floor's, in the same run, is the largest
// ratio against the peer that any of them can show.
const kindFloor = "floor"

// The floor's hashes: FNV-1a over each lower-cased word, and the words of
// a shingle combined in order by multiplying by fnvPrime.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// shingleHashes hashes every 5-gram of text's words, the peer's words
// (runs of letters and digits, lower-cased), and returns how many it
// hashed and the sum of the hashes (which keeps the work from being
// optimised away).
func shingleHashes(text string) (n int64, sum uint64) {
	var ring [peerShingle]uint64
	words := 0
	push := func(h uint64) {
		ring[words%peerShingle] = h
		words++
		if words < peerShingle {
			return
		}
		s := uint64(fnvOffset)
		for j := range peerShingle {
			s = (s ^ ring[(words+j)%peerShingle]) * fnvPrime
		}
		sum += s
		n++
	}
	h, in := uint64(fnvOffset), false
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			h, in = (h^uint64(unicode.ToLower(r)))*fnvPrime, true
			continue
		}
		if in {
			push(h)
			h, in = fnvOffset, false
		}
	}
	if in {
		push(h)
	}
	return n, sum
}
