package engine

import (
	"encoding/binary"

	"github.com/zeebo/xxh3"

	"github.com/neardup/neardup/core"
)

// ContentHash is a hash of a document's title and text with white space
// collapsed to single spaces between words and ASCII letters lower-cased:
// equal for an exact copy, as a crawler fetches a page twice under two
// URLs.
func ContentHash(d *core.Document) uint64 {
	h := hasher{d: xxh3.New()}
	h.b = h.buf[:0]
	for _, s := range [2]string{d.Title, d.Text} {
		words := 0
		for i := 0; i < len(s); {
			if byteClass[s[i]] == white {
				i++
				continue
			}
			if words > 0 {
				h.byte(' ')
			}
			words++
			for i < len(s) && byteClass[s[i]] != white {
				j := i // a run that needs no change is copied at once
				for j < len(s) && byteClass[s[j]] == plain {
					j++
				}
				h.write(s[i:j])
				if i = j; i < len(s) && byteClass[s[i]] == upper {
					h.byte(s[i] + 'a' - 'A')
					i++
				}
			}
		}
		h.byte(0)
	}
	h.d.Write(h.b)
	return h.d.Sum64()
}

// hasher buffers the bytes of a hash.
type hasher struct {
	d   *xxh3.Hasher
	buf [4096]byte
	b   []byte
}

func (h *hasher) byte(c byte) {
	if len(h.b) == cap(h.b) {
		h.d.Write(h.b)
		h.b = h.b[:0]
	}
	h.b = append(h.b, c)
}

func (h *hasher) write(s string) {
	for len(s) > 0 {
		if len(h.b) == cap(h.b) {
			h.d.Write(h.b)
			h.b = h.b[:0]
		}
		n := copy(h.b[len(h.b):cap(h.b)], s)
		h.b = h.b[:len(h.b)+n]
		s = s[n:]
	}
}

// The classes of bytes ContentHash treats apart.
const (
	plain = iota
	white
	upper
)

var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r\f\v") {
		t[c] = white
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = upper
	}
	return t
}()

// CopyKey is a hash of what a method with a Copies stage reads of a
// document, its title, text and date, byte for byte: two documents with the
// same key are sketched alike, and score alike against every other.
type CopyKey [16]byte

// CopyKeyOf returns doc's CopyKey.
func CopyKeyOf(doc *core.Document) CopyKey {
	h := xxh3.New()
	var b [17]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(len(doc.Title)))
	h.Write(b[:8])
	h.WriteString(doc.Title)
	h.WriteString(doc.Text)
	b[0] = 0
	if !doc.Date.IsZero() {
		b[0] = 1
		binary.LittleEndian.PutUint64(b[1:9], uint64(doc.Date.Unix()))
		binary.LittleEndian.PutUint64(b[9:], uint64(doc.Date.Nanosecond()))
	}
	h.Write(b[:])
	return h.Sum128().Bytes()
}
