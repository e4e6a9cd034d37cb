package analysis

import (
	"math/bits"
	"slices"

	"github.com/zeebo/xxh3"
)

// HashVersion names the hashing scheme of this package: the normalisation
// of Normalize, the word segmentation of Words, the seed and the way token
// hashes are combined into sentence and shingle hashes. Token, sentence
// and shingle hashes are persisted by the index; any change to one of
// those parts must increment HashVersion so that stored hashes are
// recognised as stale.
//
// Changelog:
//   - 1: first version. Character shingles (CharShingles) came later
//     within it: they are new hashes, salted apart from word shingles,
//     and no existing token, sentence or word-shingle hash changed. So did
//     folded character shingles (FoldedCharShingles): those of a text with
//     look-alikes are new, and no CharShingles hash changed.
const HashVersion = 1

// hashSeed is the fixed xxh3 seed of word hashes ("neardup" and version 1).
const hashSeed uint64 = 0x6e65617264757001

// seqPrime is the odd multiplier of the polynomial combining token hashes
// into sequence hashes.
const seqPrime uint64 = 0x9e3779b97f4a7c15

// HashWord returns the hash of an already normalised word, the value a
// Token of that word carries. Callers that start from raw text use
// Analyzer.Words instead.
func HashWord(normalised []byte) uint64 {
	return xxh3.HashSeed(normalised, hashSeed)
}

// HashTokens returns the order-sensitive hash of a sequence of tokens: the
// value of Sentence.Hash for a sentence made of exactly these tokens and of
// the single shingle Shingles gives for fewer tokens than its window. It
// is 0 only for an empty sequence.
func HashTokens(tokens []Token) uint64 {
	if len(tokens) == 0 {
		return 0
	}
	return finishSeq(seqSum(tokens), len(tokens))
}

// seqSum is the polynomial of a sequence's token hashes.
func seqSum(tokens []Token) uint64 {
	var h uint64
	for _, t := range tokens {
		h = h*seqPrime + t.Hash
	}
	return h
}

// finishSeq turns the polynomial sum of n token hashes into a well-mixed
// sequence hash: the murmur3 64-bit finaliser over the sum and the length,
// mapped away from 0 so that 0 can mean "no words".
func finishSeq(h uint64, n int) uint64 { return fmix(h ^ lengthKey(n)) }

// lengthKey is what finishSeq mixes into the sum of n hashes: a loop over
// windows of one length computes it once.
func lengthKey(n int) uint64 { return bits.RotateLeft64(uint64(n)*0xc2b2ae3d27d4eb4f, 31) }

// fmix is the finaliser of finishSeq, mapped away from 0.
func fmix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	if h == 0 {
		h = 1
	}
	return h
}

// Shingles appends to dst the hash of every window of n consecutive
// tokens, in order and not deduplicated, and returns the extended slice:
// len(tokens)-n+1 hashes. With fewer than n tokens (but at least one) it
// appends one shingle of all of them, equal to HashTokens(tokens); with no
// tokens it appends nothing. n < 1 is treated as 1.
//
// A window hash is a polynomial in the token hashes (order-sensitive,
// updated in O(1) per step) passed through a 64-bit finaliser; token bytes
// are never re-hashed.
func Shingles(tokens []Token, n int, dst []uint64) []uint64 {
	return appendWindows(dst, tokens, n, 0)
}

// appendWindows appends to dst the hash of every window of n consecutive
// tokens (one hash of them all when there are fewer than n, none when there
// are none): a polynomial in the token hashes, updated in O(1) per step,
// with salt mixed in before the finaliser so that different kinds of
// shingles never share hashes by design.
func appendWindows(dst []uint64, tokens []Token, n int, salt uint64) []uint64 {
	n = max(n, 1)
	if len(tokens) == 0 {
		return dst
	}
	if len(tokens) <= n {
		return append(dst, finishSeq(seqSum(tokens)^salt, len(tokens)))
	}
	var h, top uint64 = 0, 1 // top = seqPrime^(n-1)
	for i := 0; i < n; i++ {
		h = h*seqPrime + tokens[i].Hash
		if i > 0 {
			top *= seqPrime
		}
	}
	key := salt ^ lengthKey(n)
	dst, out := extend(dst, len(tokens)-n+1)
	out[0] = fmix(h ^ key)
	rest := out[1:]
	leaving, coming := tokens[:len(rest)], tokens[n:]
	coming = coming[:len(rest)]
	for i := range rest {
		h = (h-leaving[i].Hash*top)*seqPrime + coming[i].Hash
		rest[i] = fmix(h ^ key)
	}
	return dst
}

// extend lengthens dst by m values and returns it with the new part, to be
// written by index in a loop that a check of capacity per value would slow.
func extend(dst []uint64, m int) (all, added []uint64) {
	n := len(dst)
	dst = slices.Grow(dst, m)[:n+m]
	return dst, dst[n:]
}
