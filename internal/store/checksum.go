package store

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unsafe"

	"github.com/neardup/neardup/core"
)

// Record checksums. Every document's record (its row in docs but its
// cluster: id, title, URL, …), every stored part of its sketch (the index
// part in docs and in the removal log, the detail part), every text and
// every mark carries a CRC-32C of its content, written with it and checked
// whenever it is read and by Check, so that a record damaged on disk or
// edited behind the store's back is an error naming its document, never
// different evidence. The SQLite and PostgreSQL engines check their pages
// (where they do) but not what a page holds: a byte changed inside a
// record reads back without a complaint.
//
// A checksum covers the part's tag and the key the record is stored under
// as well as its content, so that a record copied into another's place
// does not match either. It is stored as a signed 32-bit integer (the bits
// of the CRC), which both engines keep in four bytes.
//
// CRC-32C rather than a 64-bit hash: hash/crc32 computes it with the
// processor's CRC instruction (amd64, arm64) at several GB/s, it detects
// every error burst of up to 32 bits, and any other change escapes it with
// a chance of 2^-32: what is asked of it is to notice damage, not to resist
// forgery.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// The parts a checksum covers, each summed with its own tag.
const (
	partIndex  = 'i'
	partDetail = 'd'
	partText   = 't'
	partMark   = 'm'
	partRecord = 'r'
)

// partName names a part in messages.
var partName = map[byte]string{
	partIndex:  "the index part of its sketch",
	partDetail: "the detail part of its sketch",
	partText:   "its text",
	partRecord: "its record", // every field of its row in docs but its cluster
}

// removalPart names the index part of a removed document's sketch, kept in
// the removal log.
const removalPart = "the index part of its sketch in the removal log"

// recordSum returns the checksum of a document's part.
func recordSum(part byte, ord int64, data []byte) int32 {
	var key [9]byte
	key[0] = part
	binary.LittleEndian.PutUint64(key[1:], uint64(ord))
	return int32(crc32.Update(crc32.Update(0, castagnoli, key[:]), castagnoli, data))
}

// textSum returns the checksum of a document's text, read in place: a
// copy of the text cost more than its checksum (BenchmarkChecksums).
func textSum(ord int64, text string) int32 {
	return recordSum(partText, ord, unsafe.Slice(unsafe.StringData(text), len(text))) // only read
}

// docSum returns the checksum of a document's record: every field of its
// row in docs but its cluster, which changes as documents join it; its
// place only when it has one, so that a record stored before places were
// (schema version 12) keeps its checksum.
func docSum(d *Doc) int32 {
	b := make([]byte, 0, 6*binary.MaxVarintLen64+len(d.ID)+len(d.Source)+len(d.URL)+len(d.Title)+len(d.Lang)+len(d.Skip)+4*8)
	for _, s := range []string{d.ID, d.Source, d.URL, d.Title, d.Lang, string(d.Skip)} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, v := range []int64{d.Date, d.Added, int64(d.Hash), int64(d.Length)} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	if d.Place != 0 {
		b = binary.LittleEndian.AppendUint64(b, uint64(d.Place))
	}
	return recordSum(partRecord, d.Ord, b)
}

// markSum returns the checksum of a mark: every field of it.
func markSum(m *Mark) int32 {
	var buf [64]byte
	b := append(buf[:0], partMark)
	b = binary.LittleEndian.AppendUint64(b, uint64(m.A))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.B))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Score))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.At))
	b = binary.AppendUvarint(b, uint64(len(m.Method)))
	b = append(b, m.Method...)
	b = binary.AppendUvarint(b, uint64(len(m.Label)))
	b = append(b, m.Label...)
	return int32(crc32.Update(crc32.Update(0, castagnoli, b), castagnoli, m.Evidence))
}

// A ChecksumError is a stored record that does not match its checksum (or
// has none, or matches it but holds a place no write stores): the index's
// file or database was damaged, or edited other than through neardup. It
// wraps ErrCorrupt.
type ChecksumError struct {
	// Ord and ID are the document's ordinal and id (ID is "" when the
	// document is not stored, as for a removal).
	Ord int64
	ID  string
	// What is the record: "the detail part of its sketch", "its text", "its
	// mark with document 12 (minhash)", ...
	What string
	// Missing is set when the record has no checksum at all.
	Missing bool
	// Lost is set when the record itself is not there, where the index
	// keeps one (a text in an index that stores texts).
	Lost bool
	// BadPlace is set when the document's record matches its checksum but
	// holds a place no write stores, Place: one not above 0 and below
	// the document's ordinal (a write stores none as NULL, whose checksum
	// a place of 0 has too).
	BadPlace bool
	// Place is the impossible place the record holds, when BadPlace (0,
	// below 0, the document's own ordinal or above it); unset otherwise.
	Place int64
}

// Fault describes the damage as a line of a verify report.
func (e *ChecksumError) Fault() string {
	doc := fmt.Sprintf("document %q (ordinal %d)", e.ID, e.Ord)
	if e.ID == "" {
		doc = fmt.Sprintf("document of ordinal %d", e.Ord)
	}
	if e.Lost {
		return fmt.Sprintf("%s: %s is missing", doc, e.What)
	}
	if e.Missing {
		return fmt.Sprintf("%s: %s has no checksum", doc, e.What)
	}
	if e.BadPlace {
		return fmt.Sprintf("%s: %s holds place %d, impossible (a place is an ordinal above 0 and below the document's own, %d)",
			doc, e.What, e.Place, e.Ord)
	}
	return fmt.Sprintf("%s: %s does not match its checksum", doc, e.What)
}

// Error says what is damaged and what lists and mends it: an add, a query
// or an export that reads the record fails with it. The error of a damaged
// schema (see schemaDamage) points to verify alone, which lists it: repair
// does not mend what SQLite's own check finds.
func (e *ChecksumError) Error() string {
	return "store: " + e.Fault() + ": the index is damaged: " + damagedAdvice
}

// damagedAdvice says how to list and mend a damaged record.
const damagedAdvice = "neardup index verify lists its faults, neardup index repair mends them"

// Unwrap returns ErrCorrupt.
func (e *ChecksumError) Unwrap() error { return ErrCorrupt }

// sumOK reports whether data matches the stored checksum crc (NULL when
// not valid) of the part of document ord.
func sumOK(part byte, ord int64, data []byte, crc nullInt32) bool {
	return crc.Valid && crc.V == recordSum(part, ord, data)
}

// checkSum returns a *ChecksumError when data does not match the stored
// checksum crc of the part of document ord.
func (t *txn) checkSum(part byte, ord int64, data []byte, crc nullInt32) error {
	if sumOK(part, ord, data, crc) {
		return nil
	}
	return t.sumError(ord, partName[part], !crc.Valid)
}

// markError returns the ChecksumError of a mark, named by its later
// document.
func (t *txn) markError(m *Mark, missing bool) error {
	return t.sumError(m.B, markPart(m.A, t.idOf(m.A), m.Method), missing)
}

// markPart names a mark of a document, with the earlier document a.
func markPart(a int64, id, method string) string {
	return fmt.Sprintf("its mark with document %q (ordinal %d, %s)", id, a, method)
}

// sumError returns the ChecksumError of document ord, with its id when it
// can be read.
func (t *txn) sumError(ord int64, what string, missing bool) error {
	return &ChecksumError{Ord: ord, ID: t.idOf(ord), What: what, Missing: missing}
}

// idOf returns the id of document ord, or "" when it cannot be read.
func (t *txn) idOf(ord int64) string {
	var id string
	if st, err := t.stmt(`SELECT id FROM docs WHERE ord = ?`); err == nil {
		st.QueryRowContext(t.ctx, ord).Scan(&id)
	}
	return id
}

// checkRecords adds to f a fault for every record that does not match its
// checksum.
func (t *txn) checkRecords(f *Faults) error {
	return t.scanRecords(func(fl *flaw) { f.Add(fl.line()) })
}

// A flaw is one damaged record scanRecords found.
type flaw struct {
	// kind is the record's part (partIndex, partDetail, partText,
	// partRecord, partMark), partLog for an entry of the removal log, or
	// partLeft for a detail part or text stored for no document.
	kind byte
	// err names the document and the part (nil for partLeft).
	err *ChecksumError
	// mark is the damaged mark (partMark).
	mark Mark
	// seq is the entry of the removal log (partLog).
	seq int64
	// table and ord name a row stored for no document (partLeft).
	table string
	ord   int64
}

// Kinds of flaw other than a document's part.
const (
	partLog  = 'l'
	partLeft = 'x'
)

// line is the flaw as a line of a verify report.
func (fl *flaw) line() string {
	if fl.kind == partLeft {
		return fmt.Sprintf("document of ordinal %d: %s is stored, but the document is not", fl.ord, fl.leftWhat())
	}
	return fl.err.Fault()
}

// leftWhat names the part of a row stored for no document.
func (fl *flaw) leftWhat() string {
	if fl.table == "texts" {
		return partName[partText]
	}
	return partName[partDetail]
}

// scanRecords calls fn with every record that does not match its checksum
// (or has none, or holds a place no write stores), every text missing
// from an index that stores texts and every detail part or text stored for
// no document: sketch parts, texts and removal-log entries first, then
// documents' records, texts missing, rows left over and marks. A part of a document no longer stored is
// reported as damaged when it does not match, and as left over.
func (t *txn) scanRecords(fn func(fl *flaw)) error {
	for _, q := range []struct {
		part  byte
		what  string
		query string
	}{
		{partIndex, partName[partIndex], `SELECT ord, id, sketch, sketch_crc, 0 FROM docs WHERE sketch IS NOT NULL OR sketch_crc IS NOT NULL`},
		{partDetail, partName[partDetail], `SELECT s.ord, COALESCE(d.id, ''), s.data, s.crc, 0 FROM sketch_detail s LEFT JOIN docs d ON d.ord = s.ord`},
		{partText, partName[partText], `SELECT s.ord, COALESCE(d.id, ''), s.text, s.crc, 0 FROM texts s LEFT JOIN docs d ON d.ord = s.ord`},
		{partLog, removalPart, `SELECT ord, '', data, crc, seq FROM removals WHERE data IS NOT NULL OR crc IS NOT NULL`},
	} {
		err := t.each(q.query, func(rows *sql.Rows) error {
			var e ChecksumError
			var data []byte
			var crc nullInt32
			var seq int64
			if err := rows.Scan(&e.Ord, &e.ID, &data, &crc, &seq); err != nil {
				return err
			}
			sum := q.part
			if sum == partLog {
				sum = partIndex
			}
			if !sumOK(sum, e.Ord, data, crc) {
				// A row of the removal log under a negated ordinal is a
				// document given a sketch (logSketched): named as it.
				e.Ord, e.What, e.Missing = abs(e.Ord), q.what, !crc.Valid
				fn(&flaw{kind: q.part, err: &e, seq: seq})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	err := t.each(`SELECT `+docColumns+` FROM docs`, func(rows *sql.Rows) error {
		var d Doc
		var ce *ChecksumError
		if err := scanDocAnd(rows, &d); errors.As(err, &ce) {
			fn(&flaw{kind: partRecord, err: ce})
		} else if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := t.checkTexts(func(e *ChecksumError) { fn(&flaw{kind: partText, err: e}) }); err != nil {
		return err
	}
	if err := t.leftOver(fn); err != nil {
		return err
	}
	return t.each(`SELECT m.a, m.b, m.method, m.score, m.label, m.evidence, m.at, m.crc, COALESCE(b.id, ''), COALESCE(a.id, '')`+
		` FROM marks m LEFT JOIN docs b ON b.ord = m.b LEFT JOIN docs a ON a.ord = m.a`, func(rows *sql.Rows) error {
		var m Mark
		var label, ev, idB, idA string
		var crc nullInt32
		if err := rows.Scan(&m.A, &m.B, &m.Method, &m.Score, &label, &ev, &m.At, &crc, &idB, &idA); err != nil {
			return err
		}
		m.Label, m.Evidence = core.Label(label), []byte(ev)
		if !crc.Valid || crc.V != markSum(&m) {
			fn(&flaw{kind: partMark, mark: m, err: &ChecksumError{Ord: m.B, ID: idB, What: markPart(m.A, idA, m.Method), Missing: !crc.Valid}})
		}
		return nil
	})
}

// checkTexts calls add for every document of a text of its own (a length
// above 0) that has no text, in an index that stores texts.
func (t *txn) checkTexts(add func(e *ChecksumError)) error {
	stored, err := t.storesText()
	if err != nil || !stored {
		return err
	}
	return t.each(`SELECT d.ord, d.id FROM docs d LEFT JOIN texts s ON s.ord = d.ord WHERE s.ord IS NULL AND d.length > 0`,
		func(rows *sql.Rows) error {
			e := ChecksumError{What: partName[partText], Lost: true}
			if err := rows.Scan(&e.Ord, &e.ID); err != nil {
				return err
			}
			add(&e)
			return nil
		})
}

// leftOver calls fn with every detail part of a sketch and every text
// stored for no document: rows a removal should have deleted with it.
func (t *txn) leftOver(fn func(fl *flaw)) error {
	for _, table := range []string{"sketch_detail", "texts"} {
		err := t.each(`SELECT ord FROM `+table+` WHERE ord NOT IN (SELECT ord FROM docs) ORDER BY ord`, func(rows *sql.Rows) error {
			fl := flaw{kind: partLeft, table: table}
			if err := rows.Scan(&fl.ord); err != nil {
				return err
			}
			fn(&fl)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// each calls fn with each row of query q.
func (t *txn) each(q string, fn func(rows *sql.Rows) error) error {
	rows, err := t.query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// nullInt32 is a checksum as read: Valid is false for NULL.
type nullInt32 struct {
	V     int32
	Valid bool
}

// Scan reads an integer column (as the engines return it, an int64).
func (n *nullInt32) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*n = nullInt32{}
	case int64:
		*n = nullInt32{V: int32(v), Valid: true} // out of range, it cannot match
	default:
		return fmt.Errorf("store: a checksum of type %T", v)
	}
	return nil
}

// abs returns the ordinal o without its sign.
func abs(o int64) int64 {
	if o < 0 {
		return -o
	}
	return o
}
