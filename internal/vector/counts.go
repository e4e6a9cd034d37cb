// Package vector owns what the vector methods (tfidf, cosine) share: the
// terms of a document's title and body (Terms), their counts as sketched and
// encoded (Counts), and a Field, which numbers the terms of one document
// field, counts their document frequencies, weighs each document into an
// L2-normalised sparse vector (Weighting) and finds candidate pairs with an
// exact cosine join over those vectors.
//
// A document's vector is weighed with the statistics as they stand when it
// is vectorised: in a Batch, which seals the field once every document is
// added, the final ones; in an Index, those of the documents added so far,
// the document itself included. A vector never changes afterwards; removing
// a document lowers the statistics that later documents are weighed with.
// Field.Cosines weighs documents again with the statistics as they stand,
// for an Index to score them as a Batch would.
package vector

import (
	"fmt"
	"math"
	"slices"

	"github.com/neardup/neardup/internal/codec"
)

// Counts is one field of a document as sketched: its distinct term hashes
// in increasing order and how often each occurs (TFs[i] is the count of
// Hashes[i], at least 1).
type Counts struct {
	Hashes []uint64
	TFs    []uint32
}

// Count returns the distinct values of hs, which it sorts, with their
// counts, in fresh slices.
func Count(hs []uint64) Counts {
	slices.Sort(hs)
	n := 0
	for i := range hs {
		if i == 0 || hs[i] != hs[i-1] {
			n++
		}
	}
	c := Counts{Hashes: make([]uint64, 0, n), TFs: make([]uint32, 0, n)}
	for i, h := range hs {
		if i > 0 && h == hs[i-1] {
			c.TFs[len(c.TFs)-1]++
			continue
		}
		c.Hashes = append(c.Hashes, h)
		c.TFs = append(c.TFs, 1)
	}
	return c
}

// Total returns the number of occurrences of all terms.
func (c *Counts) Total() int {
	n := 0
	for _, tf := range c.TFs {
		n += int(tf)
	}
	return n
}

// AppendCounts appends c: its hashes (codec.AppendUint64s), then each
// count as a varint.
func AppendCounts(dst []byte, c *Counts) []byte {
	dst = codec.AppendUint64s(dst, c.Hashes)
	for _, tf := range c.TFs {
		dst = codec.AppendUvarint(dst, uint64(tf))
	}
	return dst
}

// ReadCounts reads what AppendCounts wrote. Input the reader refuses
// (truncated, a count larger than the input) leaves its error in r; hashes
// out of order or a count of 0 or past 32 bits are an error wrapping
// codec.ErrCorrupt.
func ReadCounts(r *codec.Reader) (Counts, error) {
	c := Counts{Hashes: r.Uint64s()}
	if len(c.Hashes) == 0 {
		return Counts{}, nil
	}
	c.TFs = make([]uint32, len(c.Hashes))
	for i := range c.TFs {
		tf := r.Uvarint()
		if r.Err() != nil {
			return Counts{}, nil
		}
		if tf == 0 || tf > math.MaxUint32 {
			return Counts{}, fmt.Errorf("vector: term count %d: %w", tf, codec.ErrCorrupt)
		}
		c.TFs[i] = uint32(tf)
	}
	for i := 1; i < len(c.Hashes); i++ {
		if c.Hashes[i] <= c.Hashes[i-1] {
			return Counts{}, fmt.Errorf("vector: term hashes out of order: %w", codec.ErrCorrupt)
		}
	}
	return c, nil
}
