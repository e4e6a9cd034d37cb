package store

import (
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Damage is what a scan of an index's records finds damaged (see
// Repairer.Damage): the records Check lists as not matching their
// checksums, grouped by what a repair does with them. Each item carries
// its fault as Check lists it.
type Damage struct {
	// Docs are the stored documents with a damaged record, sketch part or
	// text (or a text missing), by ordinal.
	Docs []DamagedDoc
	// Marks are the damaged marks (named by their A, B and Method).
	Marks []DamagedMark
	// Entries are the entries of the change log whose index part is
	// damaged.
	Entries []DamagedEntry
	// LeftOver are the detail parts and texts stored for no document.
	LeftOver []LeftOver
}

// Empty reports whether d lists no damage.
func (d *Damage) Empty() bool {
	return len(d.Docs) == 0 && len(d.Marks) == 0 && len(d.Entries) == 0 && len(d.LeftOver) == 0
}

// DamagedDoc is a stored document with damaged records.
type DamagedDoc struct {
	Ord int64
	// ID is the document's id as read, which a damaged record may have
	// changed.
	ID string
	// Record, Sketch and Text say what is damaged: its record (its row's
	// fields), a part of its sketch, its text (or its text is missing).
	Record, Sketch, Text bool
	// Place is the fault, also in Faults, of a record that matches its
	// checksum but holds a place no write stores (ChecksumError.BadPlace):
	// every other field of the record is sound, and ClearPlace mends it.
	// "" when there is none.
	Place string
	// Faults are its faults, one a line.
	Faults []string
}

// DamagedMark is a mark that does not match its checksum.
type DamagedMark struct {
	A, B   int64
	Method string
	Fault  string
}

// DamagedEntry is an entry of the change log whose index part does not
// match its checksum.
type DamagedEntry struct {
	Seq   int64
	Fault string
}

// LeftOver is a detail part or a text stored for no document.
type LeftOver struct {
	// Table is "sketch_detail" or "texts".
	Table string
	Ord   int64
	Fault string
}

// Repairer finds and mends damaged records (see index.Repair).
type Repairer interface {
	// Damage returns every damaged record Check would list, but for the
	// store's own faults (SQLite's integrity check).
	Damage() (Damage, error)
	// Mend deletes the marks and the rows left over that d lists, and
	// clears the index part of its entries of the change log: another
	// process that holds such a removed document loads the index again
	// rather than read it (see package index).
	Mend(d *Damage) error
	// Resketch replaces the sketch of stored document ord by sk, made
	// anew from its stored text where the stored one is damaged. Nothing
	// is logged: a process that holds the document loaded the same sketch
	// before the damage.
	Resketch(ord int64, sk *Sketch) error
	// ClearPlace stores no place for document ord whose record matches its
	// checksum but holds a place no write stores (DamagedDoc.Place), and
	// writes its checksum again for the record without one: the document
	// then ranks among those of its date by its ordinal (Doc.Rank). A
	// record whose place is possible is left as it is; one that does not
	// match its checksum is a *ChecksumError, and left too. Nothing is
	// logged: places are read from the store, not held in memory.
	ClearPlace(ord int64) error
}

func (t *txn) Damage() (Damage, error) {
	var d Damage
	if err := t.flush(); err != nil {
		return d, err
	}
	byOrd := map[int64]*DamagedDoc{}
	err := t.scanRecords(func(fl *flaw) {
		line := fl.line()
		switch fl.kind {
		case partLeft:
			d.LeftOver = append(d.LeftOver, LeftOver{Table: fl.table, Ord: fl.ord, Fault: line})
		case partLog:
			d.Entries = append(d.Entries, DamagedEntry{Seq: fl.seq, Fault: line})
		case partMark:
			d.Marks = append(d.Marks, DamagedMark{A: fl.mark.A, B: fl.mark.B, Method: fl.mark.Method, Fault: line})
		default:
			if fl.kind != partIndex && fl.kind != partRecord && fl.err.ID == "" {
				return // a part of no document stored: left over too
			}
			doc := byOrd[fl.err.Ord]
			if doc == nil {
				doc = &DamagedDoc{Ord: fl.err.Ord, ID: fl.err.ID}
				byOrd[fl.err.Ord] = doc
			}
			switch fl.kind {
			case partRecord:
				if fl.err.BadPlace {
					doc.Place = line
				} else {
					doc.Record = true
				}
			case partText:
				doc.Text = true
			default:
				doc.Sketch = true
			}
			doc.Faults = append(doc.Faults, line)
		}
	})
	if err != nil {
		return Damage{}, err
	}
	for _, o := range slices.Sorted(maps.Keys(byOrd)) {
		d.Docs = append(d.Docs, *byOrd[o])
	}
	return d, nil
}

func (t *txn) Mend(d *Damage) error {
	if !t.write {
		return errForbidden
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, m := range d.Marks {
		if err := t.exec(`DELETE FROM marks WHERE a = ? AND b = ? AND method = ?`, m.A, m.B, m.Method); err != nil {
			return err
		}
	}
	for _, e := range d.Entries {
		if err := t.exec(`UPDATE removals SET data = NULL, crc = NULL WHERE seq = ?`, e.Seq); err != nil {
			return err
		}
	}
	for _, l := range d.LeftOver {
		if l.Table != "sketch_detail" && l.Table != "texts" {
			return fmt.Errorf("store: mending a row of table %q", l.Table)
		}
		if err := t.exec(`DELETE FROM `+l.Table+` WHERE ord = ? AND ord NOT IN (SELECT ord FROM docs)`, l.Ord); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) Resketch(ord int64, sk *Sketch) error {
	if !t.write {
		return errForbidden
	}
	if err := t.flush(); err != nil {
		return err
	}
	res, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`UPDATE docs SET sketch = ?, sketch_crc = ? WHERE ord = ?`),
		sk.Index, recordSum(partIndex, ord, sk.Index), ord)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = fmt.Errorf("%w: document %d", ErrNotFound, ord)
		}
		return err
	}
	if err := t.exec(`DELETE FROM sketch_detail WHERE ord = ?`, ord); err != nil {
		return err
	}
	if len(sk.Detail) == 0 {
		return nil
	}
	return t.exec(`INSERT INTO sketch_detail(ord, data, crc) VALUES(?, ?, ?)`, ord, sk.Detail, recordSum(partDetail, ord, sk.Detail))
}

func (t *txn) ClearPlace(ord int64) error {
	if !t.write {
		return errForbidden
	}
	if err := t.flush(); err != nil {
		return err
	}
	var d Doc
	err := scanDocAnd(t.tx.QueryRowContext(t.ctx, t.s.d.rebind(`SELECT `+docColumns+` FROM docs WHERE ord = ?`), ord), &d)
	var ce *ChecksumError
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w: document %d", ErrNotFound, ord)
	case err == nil:
		return nil // a place a write stores, or none
	case !errors.As(err, &ce) || !ce.BadPlace:
		return err // the record itself is damaged
	}
	// The record matched its checksum with the place it holds (none
	// counted for 0): every other field is as written.
	d.Place = 0
	return t.exec(`UPDATE docs SET place = NULL, doc_crc = ? WHERE ord = ?`, docSum(&d), ord)
}
