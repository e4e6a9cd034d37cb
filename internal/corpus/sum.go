package corpus

import (
	"encoding/binary"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/zeebo/xxh3"

	"github.com/neardup/neardup/core"
)

// Sum returns a 64-bit hash of the record as read: its origin, its kind,
// its place (an archive member's position and archive, or standard input)
// and every byte and field it holds and decoding reads: a JSONL line, a
// text file's or a page's bytes, a CSV row's values and its file's header
// names, a Parquet row's values and its file's schema (columns' names,
// types, repetition, nesting), a feed item's fields and its date's instant
// and zone. Two readings of the same input give each record the same sum;
// a record that changed between them gives another, but for a chance of
// 2⁻⁶⁴. It does not decode the record; it is safe for concurrent use.
func (r Raw) Sum() uint64 {
	s := xxh3.HashString(r.Origin)
	s = sumInts(s, uint64(r.kind), uint64(r.size), boolBits(r.md, r.rows))
	s = xxh3.HashStringSeed(r.id, s)
	s = xxh3.HashStringSeed(r.note, s)
	s = xxh3.HashSeed(r.data, s)
	for _, f := range r.fields {
		s = xxh3.HashStringSeed(f, s)
	}
	if r.header != nil {
		s = sumInts(s, r.header.sum)
	}
	if r.pq != nil {
		s = sumInts(s, r.pq.sum)
	}
	if at := r.at; at != nil {
		s = sumInts(s, boolBits(at.stdin, true), uint64(int64(at.member)), uint64(len(at.archive)))
		s = xxh3.HashStringSeed(at.archive, s)
	}
	if r.page != nil {
		p := r.page
		s = sumInts(s, boolBits(p.http, p.tooLarge), uint64(len(p.url)), uint64(len(p.contentType)))
		s = xxh3.HashStringSeed(p.contentType, xxh3.HashStringSeed(p.url, s))
		if p.err != nil {
			s = xxh3.HashStringSeed(p.err.Error(), s)
		}
	}
	if it := r.item; it != nil {
		for _, f := range [...]string{it.id, it.url, it.title, it.text, it.author, it.source, it.unreadDate} {
			s = sumInts(s, uint64(len(f)))
			s = xxh3.HashStringSeed(f, s)
		}
		zone, offset := it.date.Zone()
		s = sumInts(s, uint64(it.date.UnixNano()), uint64(int64(offset)), boolBits(it.date.IsZero(), it.date.Location() == core.NoZone))
		s = xxh3.HashStringSeed(zone, s)
		if it.bad != nil {
			s = xxh3.HashStringSeed(it.bad.Error(), s)
		}
	}
	return sumRow(s, r.row)
}

// sumRow adds the values of a Parquet row to the sum s: each one's kind,
// levels and column, and its bytes.
func sumRow(s uint64, row parquet.Row) uint64 {
	var buf [8]byte
	for _, v := range row {
		s = sumInts(s, uint64(v.Kind()), uint64(v.RepetitionLevel())<<32|uint64(v.DefinitionLevel()), uint64(int64(v.Column())), boolBits(v.IsNull(), false))
		switch v.Kind() {
		case parquet.ByteArray, parquet.FixedLenByteArray, parquet.Int96:
			s = xxh3.HashSeed(v.ByteArray(), s)
		default:
			s = xxh3.HashSeed(v.AppendBytes(buf[:0]), s)
		}
	}
	return s
}

// sumStrings returns the hash of the strings, each told apart from the
// next by its length.
func sumStrings(strs ...string) uint64 {
	s := sumInts(0, uint64(len(strs)))
	for _, str := range strs {
		s = xxh3.HashStringSeed(str, sumInts(s, uint64(len(str))))
	}
	return s
}

// sumSchema returns the hash of a Parquet schema as text, but for the
// name of its root, which decoding does not read: the columns' names,
// types, repetition and nesting.
func sumSchema(schema *parquet.Schema) uint64 {
	var b strings.Builder
	if err := parquet.PrintSchema(&b, "", schema); err != nil {
		// A strings.Builder does not fail; a node that does not print is
		// told apart by the error.
		b.WriteString(err.Error())
	}
	return sumStrings(b.String())
}

// sumInts adds the numbers to the sum s.
func sumInts(s uint64, n ...uint64) uint64 {
	var buf [32]byte
	for len(n) > 0 {
		k := min(len(n), 4)
		for i, x := range n[:k] {
			binary.LittleEndian.PutUint64(buf[8*i:], x)
		}
		s = xxh3.HashSeed(buf[:8*k], s)
		n = n[k:]
	}
	return s
}

// boolBits is a and b as the bits 1 and 2 of a number.
func boolBits(a, b bool) uint64 {
	var n uint64
	if a {
		n |= 1
	}
	if b {
		n |= 2
	}
	return n
}
