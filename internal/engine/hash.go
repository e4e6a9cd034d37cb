package engine

import (
	"unicode/utf8"

	"github.com/zeebo/xxh3"

	"github.com/neardup/neardup/core"
)

// ContentHash is a hash of a document's title and text with white space
// collapsed and letters lower-cased (ASCII): equal for an exact copy, as
// a crawler fetches a page twice under two URLs.
func ContentHash(d *core.Document) uint64 {
	h := xxh3.New()
	var buf [4096]byte
	b := buf[:0]
	for _, s := range [2]string{d.Title, d.Text} {
		space := true
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				if !space {
					b = append(b, ' ')
				}
				space = true
				continue
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			}
			b = append(b, c)
			space = false
			if len(b) >= len(buf)-utf8.UTFMax {
				h.Write(b)
				b = b[:0]
			}
		}
		b = append(b, 0)
	}
	h.Write(b)
	return h.Sum64()
}
