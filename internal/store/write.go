package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/neardup/neardup/core"
)

func (t *txn) Init(m Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	t.textKnown = false
	return t.exec(`INSERT INTO meta(name, value) VALUES('index', ?)`, string(data))
}

func (t *txn) Insert(d *Doc, sk *Sketch) (int64, error) {
	if !t.write {
		return 0, errForbidden
	}
	ord, err := t.next("ord")
	if err != nil {
		return 0, err
	}
	if _, ok := t.docID[d.ID]; ok {
		return 0, fmt.Errorf("storing document %q: the id is stored already", d.ID)
	}
	if d.Place < 0 || d.Place >= ord {
		// Every read refuses such a record (scanDocAnd): refuse to write it.
		return 0, fmt.Errorf("storing document %q: place %d is not an earlier ordinal than its own, %d", d.ID, d.Place, ord)
	}
	row := pendingDoc{d: *d}
	row.d.Ord, row.d.Text = ord, ""
	if t.docAt == nil {
		t.docAt, t.docID, t.detailAt = map[int64]int{}, map[string]int64{}, map[int64]int{}
	}
	if sk != nil {
		row.index = sk.Index
		if len(sk.Detail) > 0 {
			t.detailAt[ord] = len(t.details)
			t.details = append(t.details, detailRow{ord, sk.Detail})
		}
	}
	t.docAt[ord], t.docID[d.ID] = len(t.docs), ord
	t.docs = append(t.docs, row)
	if d.Text != "" {
		if err := t.exec(`INSERT INTO texts(ord, text, crc) VALUES(?, ?, ?)`, ord, d.Text, textSum(ord, d.Text)); err != nil {
			return 0, fmt.Errorf("storing the text of %q: %w", d.ID, err)
		}
	}
	if len(t.docs) >= 16*batchRows {
		if err := t.flush(); err != nil {
			return 0, fmt.Errorf("storing document %q: %w", d.ID, err)
		}
	}
	return ord, nil
}

// nullable stores 0 as NULL.
func nullable(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

func (t *txn) AddMarks(ms []Mark) error {
	if !t.write {
		return errForbidden
	}
	t.marks = append(t.marks, ms...)
	if len(t.marks) >= 16*batchRows {
		return t.flushMarks()
	}
	return nil
}

// flush writes the buffered rows.
func (t *txn) flush() error {
	if err := t.flushDocs(); err != nil {
		return err
	}
	if err := t.flushDetails(); err != nil {
		return err
	}
	return t.flushMarks()
}

func (t *txn) flushDocs() error {
	err := insertRows(t, `INSERT INTO docs(`+docColumns+`, sketch, sketch_crc) VALUES`, 16, t.docs, func(args []any, r pendingDoc) []any {
		d := &r.d
		var crc any
		if r.index != nil {
			crc = recordSum(partIndex, d.Ord, r.index)
		}
		return append(args, d.Ord, d.ID, d.Source, d.URL, d.Title, nullable(d.Date), d.Added, d.Lang, int64(d.Hash),
			d.Length, string(d.Skip), nullable(d.Cluster), nullable(d.Place), docSum(d), r.index, crc)
	})
	if err != nil {
		return fmt.Errorf("storing documents: %w", err)
	}
	clear(t.docs)
	t.docs = t.docs[:0]
	clear(t.docAt)
	clear(t.docID)
	return nil
}

func (t *txn) flushDetails() error {
	err := insertRows(t, `INSERT INTO sketch_detail(ord, data, crc) VALUES`, 3, t.details, func(args []any, r detailRow) []any {
		return append(args, r.ord, r.data, recordSum(partDetail, r.ord, r.data))
	})
	if err != nil {
		return fmt.Errorf("storing sketches: %w", err)
	}
	t.details = t.details[:0]
	clear(t.detailAt)
	return nil
}

func (t *txn) flushMarks() error {
	err := insertRows(t, `INSERT INTO marks(`+markColumns+`) VALUES`, 8, t.marks, func(args []any, m Mark) []any {
		return append(args, m.A, m.B, m.Method, m.Score, string(m.Label), string(m.Evidence), m.At, markSum(&m))
	})
	if err != nil {
		return fmt.Errorf("storing marks: %w", err)
	}
	t.marks = t.marks[:0]
	return nil
}

// insertRows inserts rows of width columns each, up to batchRows a
// statement; args appends a row's values.
//
// The rest of a transaction's rows go in one statement too, not one a row:
// in SQLite each statement that writes documents begins with a savepoint,
// at which the full-text index writes what it has gathered as a segment of
// its own, and a segment a document made the full-text index's merging
// (rewriting small segments into larger ones) most of an add's cost.
func insertRows[R any](t *txn, insert string, width int, rows []R, args func([]any, R) []any) error {
	one := "(" + marks(width) + ")"
	vals := make([]any, 0, width*min(len(rows), batchRows))
	for len(rows) > 0 {
		n := min(len(rows), batchRows)
		vals = vals[:0]
		for _, r := range rows[:n] {
			vals = args(vals, r)
		}
		if err := t.exec(insert+strings.TrimSuffix(strings.Repeat(one+",", n), ","), vals...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

func (t *txn) NewCluster() (int64, error) { return t.next("cluster") }

func (t *txn) SetCluster(ords []int64, cluster int64) error {
	var rest []int64
	for _, o := range ords {
		if i, ok := t.docAt[o]; ok {
			t.docs[i].d.Cluster = cluster
		} else {
			rest = append(rest, o)
		}
	}
	ords = rest
	if len(ords) <= shortList {
		for _, o := range ords {
			if err := t.exec(`UPDATE docs SET cluster = ? WHERE ord = ?`, nullable(cluster), o); err != nil {
				return err
			}
		}
		return nil
	}
	for lo := 0; lo < len(ords); lo += inChunk {
		part := ords[lo:min(lo+inChunk, len(ords))]
		if !t.write {
			return errForbidden
		}
		args := append([]any{nullable(cluster)}, anys(part)...)
		if _, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`UPDATE docs SET cluster = ? WHERE ord IN (`+marks(len(part))+`)`), args...); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) MoveCluster(from, to int64) error {
	if err := t.flushDocs(); err != nil {
		return err
	}
	return t.exec(`UPDATE docs SET cluster = ? WHERE cluster = ?`, nullable(to), from)
}

func (t *txn) Remove(ords []int64) ([]int64, error) {
	if !t.write {
		return nil, errForbidden
	}
	if err := t.flush(); err != nil {
		return nil, err
	}
	var clusters []int64
	for lo := 0; lo < len(ords); lo += inChunk {
		part := ords[lo:min(lo+inChunk, len(ords))]
		in, args := `(`+marks(len(part))+`)`, anys(part)
		rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(`SELECT DISTINCT cluster FROM docs WHERE cluster IS NOT NULL AND ord IN `+in), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var c int64
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			clusters = append(clusters, c)
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
		if err := t.logRemovals(part); err != nil {
			return nil, err
		}
		if err := t.removeExact(in, args); err != nil {
			return nil, err
		}
		rebuild, err := t.unindexDamaged(in, args)
		if err != nil {
			return nil, err
		}
		for _, q := range []string{`DELETE FROM docs WHERE ord IN `,
			`DELETE FROM sketch_detail WHERE ord IN `, `DELETE FROM texts WHERE ord IN `,
			`DELETE FROM marks WHERE a IN `, `DELETE FROM marks WHERE b IN `} {
			if _, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(q+in), args...); err != nil {
				return nil, err
			}
		}
		if rebuild {
			if err := t.reindexSearch(); err != nil {
				return nil, err
			}
		}
	}
	return clusters, nil
}

// unindexDamaged drops the trigger that takes removed documents out of
// the full-text index (dialect.searchDelete) when a document of the
// removal (ords IN in, args) has a record or text that does not match its
// checksum: the values the trigger would give are not those indexed. It
// reports whether it did: the caller then calls reindexSearch.
func (t *txn) unindexDamaged(in string, args []any) (bool, error) {
	if t.s.d.searchDelete == "" {
		return false, nil
	}
	stored, err := t.storesText()
	if err != nil {
		return false, err
	}
	rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(`SELECT `+strings.ReplaceAll(docColumns, "ord", "docs.ord")+
		`, texts.text, texts.crc FROM docs LEFT JOIN texts ON texts.ord = docs.ord WHERE docs.ord IN `+in), args...)
	if err != nil {
		return false, err
	}
	damaged := false
	for rows.Next() && !damaged {
		var d Doc
		err := scanDocText(rows, &d, stored)
		if errors.As(err, new(*ChecksumError)) {
			damaged = true
		} else if err != nil {
			rows.Close()
			return false, err
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil || !damaged {
		return false, err
	}
	return true, t.exec(`DROP TRIGGER docs_search_delete`)
}

// reindexSearch creates again the trigger unindexDamaged dropped, and
// builds the full-text index again from the documents stored: it reads
// every title and text.
func (t *txn) reindexSearch() error {
	if _, err := t.tx.ExecContext(t.ctx, t.s.d.searchDelete); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO search(search) VALUES ('rebuild')`)
	return err
}

func (t *txn) SetSketch(ord int64, skip core.SkipReason, sk *Sketch) error {
	if !t.write {
		return errForbidden
	}
	if err := t.flush(); err != nil {
		return err
	}
	docs, err := t.docsOneByOne([]int64{ord})
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return fmt.Errorf("%w: document %d", ErrNotFound, ord)
	}
	if _, err := t.IndexPart(ord); !errors.Is(err, ErrNotFound) {
		if err == nil {
			err = fmt.Errorf("store: document %d has a sketch already", ord)
		}
		return err
	}
	d := &docs[0]
	d.Skip = skip
	var index, crc any
	if sk != nil {
		index, crc = sk.Index, recordSum(partIndex, ord, sk.Index)
	}
	if err := t.exec(`UPDATE docs SET skip = ?, sketch = ?, sketch_crc = ?, doc_crc = ? WHERE ord = ?`,
		string(skip), index, crc, docSum(d), ord); err != nil {
		return err
	}
	if sk == nil {
		return nil
	}
	if len(sk.Detail) > 0 {
		if err := t.exec(`INSERT INTO sketch_detail(ord, data, crc) VALUES(?, ?, ?)`, ord, sk.Detail, recordSum(partDetail, ord, sk.Detail)); err != nil {
			return err
		}
	}
	return t.logSketched(ord, sk.Index)
}

// logSketched appends to the change log that document ord, stored, was
// given a sketch whose index part is index: under the ordinal negated,
// which tells it from a removal without another column (see Removals),
// with the checksum of the row as stored (the negated ordinal's), so that
// a binary that knows no such rows reads it as the removal of a document
// it never held, a row that matches its checksum.
func (t *txn) logSketched(ord int64, index []byte) error {
	seq, err := t.next("removal")
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO removals(seq, ord, data, crc) VALUES(?, ?, ?, ?)`, seq, -ord, index, recordSum(partIndex, -ord, index))
}

// logRemovals appends each stored document of ords to the change log with
// the index part of its sketch and its checksum. A part that does not
// match its checksum is logged as none, so that the log holds no damage:
// another process that holds the document loads the index again rather
// than take it out by a damaged part (see package index).
func (t *txn) logRemovals(ords []int64) error {
	for _, ord := range ords {
		var index []byte
		var crc nullInt32
		st, err := t.stmt(`SELECT sketch, sketch_crc FROM docs WHERE ord = ?`)
		if err != nil {
			return err
		}
		if err := st.QueryRowContext(t.ctx, ord).Scan(&index, &crc); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var stored any
		if crc.Valid {
			stored = crc.V
		}
		if (index != nil || crc.Valid) && !sumOK(partIndex, ord, index, crc) {
			index, stored = nil, nil
		}
		seq, err := t.next("removal")
		if err != nil {
			return err
		}
		if err := t.exec(`INSERT INTO removals(seq, ord, data, crc) VALUES(?, ?, ?, ?)`, seq, ord, index, stored); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) DeleteMarks(method string) error {
	if err := t.flushMarks(); err != nil {
		return err
	}
	return t.exec(`DELETE FROM marks WHERE method = ?`, method)
}
