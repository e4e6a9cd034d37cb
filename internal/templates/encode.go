package templates

import (
	"fmt"

	"github.com/neardup/neardup/internal/codec"
)

// AppendContext appends c's encoding to dst: the figures (Rice-coded), the
// date (zig-zag varint), the dateline's date, the title hash and the rerun
// mark (varints), the title's figures (Rice-coded), the names' masks and
// shingles, the slotted figures and the fills (fixed width), when words
// is set the filter of its words (fixed width, empty when c has none) and,
// when letters is set, the names' letters. A method that stores a context in its sketch says so in its
// sketch format's changelog: a change here is a change of every such
// format.
func AppendContext(dst []byte, c *Context, words, letters bool) []byte {
	dst = codec.AppendSorted32(dst, c.Nums)
	dst = codec.AppendUvarint(dst, uint64(c.Date<<1^c.Date>>63))
	dst = codec.AppendUvarint(codec.AppendUvarint(dst, uint64(c.Dateline)), uint64(c.Title))
	rerun := uint64(0)
	if c.Rerun {
		rerun = 1
	}
	dst = codec.AppendSorted32(codec.AppendUvarint(dst, rerun), c.TitleNums)
	masks, shingles := make([]uint64, len(c.Names)), make([]uint32, len(c.Names))
	for i, n := range c.Names {
		masks[i], shingles[i] = n.Mask, n.Shingle
	}
	dst = codec.AppendUint64s(codec.AppendUint32s(codec.AppendUint64s(dst, masks), shingles), c.Slots)
	dst = codec.AppendUint64s(dst, c.Fills)
	if words {
		dst = codec.AppendUint32s(dst, c.WordFilter)
	}
	if letters {
		ls := make([]uint32, len(c.Names))
		for i, n := range c.Names {
			ls[i] = n.Letters
		}
		dst = codec.AppendUint32s(dst, ls)
	}
	return dst
}

// ReadContext reads what AppendContext wrote into c. An error wraps
// codec.ErrCorrupt; a read past the end is left for r.Done to report.
// fills false reads an encoding written before the slots' fills were kept
// (it ends at the slots), leaving c.Fills empty; words false one written
// without the filter of its words (AppendContext's words), leaving
// c.WordFilter nil; letters false one written without the names' letters,
// leaving each Name.Letters 0.
func ReadContext(r *codec.Reader, c *Context, fills, words, letters bool) error {
	c.Nums = r.Sorted32()
	date := r.Uvarint()
	c.Date = int64(date>>1) ^ -int64(date&1)
	dateline, title, rerun := r.Uvarint(), r.Uvarint(), r.Uvarint()
	c.TitleNums = r.Sorted32()
	masks, shingles := r.Uint64s(), r.Uint32s()
	c.Slots = r.Uint64s()
	c.Fills, c.WordFilter = nil, nil
	if fills {
		c.Fills = r.Uint64s()
	}
	if words {
		c.WordFilter = r.Uint32s()
	}
	ls := make([]uint32, len(masks))
	if letters {
		ls = r.Uint32s()
	}
	if r.Err() != nil {
		return nil
	}
	if dateline > 12<<5|31 || title > 1<<32-1 || rerun > 1 || len(masks) != len(shingles) || len(ls) != len(masks) {
		return fmt.Errorf("%w: dateline %d, title %d, rerun %d, %d name masks, %d shingles and %d letter masks",
			codec.ErrCorrupt, dateline, title, rerun, len(masks), len(shingles), len(ls))
	}
	c.Dateline, c.Title, c.Rerun = uint16(dateline), uint32(title), rerun == 1
	c.Names = nil
	for i := range masks {
		if masks[i]>>kindShift > uint64(Tag) {
			return fmt.Errorf("%w: name kind %d", codec.ErrCorrupt, masks[i]>>kindShift)
		}
		c.Names = append(c.Names, Name{Mask: masks[i], Shingle: shingles[i], Letters: ls[i]})
	}
	return nil
}
