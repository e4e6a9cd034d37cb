package analysis

import (
	"iter"
	"math"
	"slices"
)

// CharShingleBlocks yields the hashes CharShingles appends for text
// (FoldedCharShingles' when fold is set), in their order, a block of at
// most about size of them at a time: their concatenation is CharShingles'
// slice. A block is valid until the next one is yielded; the Analyzer must
// not be used meanwhile. Where CharShingles holds a hash for each of the
// text's characters at once, the blocks hold about size (and the n before
// them), whatever the text's length: a long text is sketched a block at a
// time (see sketch.MinHash.Add and sketch.BottomStream).
func (a *Analyzer) CharShingleBlocks(text string, tokens []Token, n int, fold bool, size int) iter.Seq[[]uint64] {
	return func(yield func([]uint64) bool) {
		n, size := max(n, 1), max(size, 1)
		// The text is read whole where charShingles reads it whole, else
		// by its words.
		whole := isASCII(text) && (fold || len(text) <= math.MaxInt32)
		hs := Room(a.block, n+size+1)
		defer func() { a.block = hs[:0] }()
		at, next := 0, 0 // the text's bytes read, or its tokens
		for {
			// The characters' hashes are appended after the n carried
			// from the block before, as charShingles appends them: the
			// same paths over the next part of the text.
			if whole {
				part := text[at:min(len(text), at+size)]
				if fold {
					hs = appendFolded(hs, part)
				} else {
					hs = appendASCIIChars(hs, part)
				}
				at += len(part)
			} else {
				end, bytes := next, 0
				for ; end < len(tokens) && bytes < size; end++ {
					bytes += int(tokens[end].End - tokens[end].Start)
				}
				hs = a.appendCharHashes(hs, text, tokens[next:end], fold)
				next = end
			}
			if whole && at == len(text) || !whole && next == len(tokens) {
				if len(hs) > 0 {
					yield(hashWindowsInPlace(hs, n, charSalt))
				}
				return
			}
			// Appending may still change the last hash (an "r" becomes
			// "m" when an "n" follows: see appendFolded), so the windows
			// are those before it, and the last n hashes are carried
			// over: the rest of a window that ends past this block, and
			// the last one.
			if len(hs)-1 < n {
				continue
			}
			m := len(hs) - n
			if !yield(hashWindowsInPlace(hs[:len(hs)-1], n, charSalt)) {
				return
			}
			hs = hs[:copy(hs, hs[m:])] // windows write only below m
		}
	}
}

// appendASCIIChars appends to hs the hash of each letter and digit of the
// ASCII string text, lower-cased (see asciiCharHash). Every byte's hash
// is stored and only a letter's or digit's kept: no branch a text's spaces
// and punctuation mispredict.
func appendASCIIChars(hs []uint64, text string) []uint64 {
	k := len(hs)
	all := slices.Grow(hs, len(text))[:k+len(text)]
	for i := 0; i < len(text); i++ {
		h := asciiCharHash[text[i]]
		all[k] = h
		if h != 0 {
			k++
		}
	}
	return all[:k]
}
