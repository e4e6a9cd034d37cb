package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/neardup/neardup/core"
)

// fills are the steps of migrations that SQL alone cannot make, by the
// schema version whose statements they follow, in the same transaction.
var fills = map[int]func(ctx context.Context, tx *sql.Tx, d *dialect) error{
	5:  fillChecksums,
	9:  fillDocSums,
	11: fillClaimedURLKeys,
}

// fillBatch is how many rows one step of fillChecksums reads and updates.
const fillBatch = 500

// sumTable is a table whose rows carry the checksum of one part of a
// document, keyed by an integer.
type sumTable struct {
	table, key, data, crc string
	part                  byte
}

// fillChecksums computes the checksums of the records stored before schema
// version 5 (see checksum.go), a batch of rows at a time.
func fillChecksums(ctx context.Context, tx *sql.Tx, d *dialect) error {
	for _, st := range []sumTable{
		{"docs", "ord", "sketch", "sketch_crc", partIndex},
		{"sketch_detail", "ord", "data", "crc", partDetail},
		{"texts", "ord", "text", "crc", partText},
		{"removals", "seq", "data", "crc", partIndex},
	} {
		if err := fillTable(ctx, tx, d, st); err != nil {
			return fmt.Errorf("checksums of %s: %w", st.table, err)
		}
	}
	if err := fillMarks(ctx, tx, d); err != nil {
		return fmt.Errorf("checksums of marks: %w", err)
	}
	return nil
}

func fillTable(ctx context.Context, tx *sql.Tx, d *dialect, st sumTable) error {
	sel := d.rebind(fmt.Sprintf(`SELECT %s, ord, %s FROM %s WHERE %s > ? AND %s IS NOT NULL ORDER BY %s LIMIT %d`,
		st.key, st.data, st.table, st.key, st.data, st.key, fillBatch))
	after := int64(-1 << 62)
	for {
		var vals []any
		rows, err := tx.QueryContext(ctx, sel, after)
		if err != nil {
			return err
		}
		for rows.Next() {
			var key, ord int64
			var data []byte
			if err := rows.Scan(&key, &ord, &data); err != nil {
				rows.Close()
				return err
			}
			vals = append(vals, key, recordSum(st.part, ord, data))
			after = key
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if len(vals) == 0 {
			return nil
		}
		n := len(vals) / 2
		q := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = v.column2 FROM (VALUES %[3]s) AS v WHERE %[1]s.%[4]s = v.column1`,
			st.table, st.crc, valueRows(n, "CAST(? AS BIGINT), CAST(? AS INTEGER)"), st.key)
		if _, err := tx.ExecContext(ctx, d.rebind(q), vals...); err != nil {
			return err
		}
	}
}

func fillMarks(ctx context.Context, tx *sql.Tx, d *dialect) error {
	sel := d.rebind(`SELECT a, b, method, score, label, evidence, at FROM marks WHERE (b, a, method) > (?, ?, ?)` +
		fmt.Sprintf(` ORDER BY b, a, method LIMIT %d`, fillBatch))
	var last Mark
	for {
		var vals []any
		rows, err := tx.QueryContext(ctx, sel, last.B, last.A, last.Method)
		if err != nil {
			return err
		}
		for rows.Next() {
			var m Mark
			var label, ev string
			if err := rows.Scan(&m.A, &m.B, &m.Method, &m.Score, &label, &ev, &m.At); err != nil {
				rows.Close()
				return err
			}
			m.Label, m.Evidence = core.Label(label), []byte(ev)
			vals = append(vals, m.B, m.A, m.Method, markSum(&m))
			last = m
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if len(vals) == 0 {
			return nil
		}
		q := `UPDATE marks SET crc = v.column4 FROM (VALUES ` +
			valueRows(len(vals)/4, "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS INTEGER)") +
			`) AS v WHERE marks.b = v.column1 AND marks.a = v.column2 AND marks.method = v.column3`
		if _, err := tx.ExecContext(ctx, d.rebind(q), vals...); err != nil {
			return err
		}
	}
}

// valueRows returns n rows of a VALUES list, each (row).
func valueRows(n int, row string) string {
	return strings.TrimSuffix(strings.Repeat("("+row+"),", n), ",")
}

// fillDocSums computes the checksums of the documents' records stored
// before schema version 9 (docSum), a batch of rows at a time.
func fillDocSums(ctx context.Context, tx *sql.Tx, d *dialect) error {
	sel := d.rebind(`SELECT ord, id, source, url, title, date, added, lang, hash, length, skip FROM docs WHERE doc_crc IS NULL AND ord > ? ORDER BY ord LIMIT ` + strconv.Itoa(fillBatch))
	after := int64(-1 << 62)
	for {
		var vals []any
		rows, err := tx.QueryContext(ctx, sel, after)
		if err != nil {
			return fmt.Errorf("checksums of docs: %w", err)
		}
		for rows.Next() {
			var doc Doc
			var date sql.NullInt64
			var hash int64
			var skip string
			if err := rows.Scan(&doc.Ord, &doc.ID, &doc.Source, &doc.URL, &doc.Title, &date, &doc.Added, &doc.Lang, &hash, &doc.Length, &skip); err != nil {
				rows.Close()
				return fmt.Errorf("checksums of docs: %w", err)
			}
			doc.Date, doc.Hash, doc.Skip = date.Int64, uint64(hash), core.SkipReason(skip)
			vals = append(vals, doc.Ord, docSum(&doc))
			after = doc.Ord
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("checksums of docs: %w", err)
		}
		if len(vals) == 0 {
			return nil
		}
		q := fmt.Sprintf(`UPDATE docs SET doc_crc = v.column2 FROM (VALUES %s) AS v WHERE docs.ord = v.column1`,
			valueRows(len(vals)/2, "CAST(? AS BIGINT), CAST(? AS INTEGER)"))
		if _, err := tx.ExecContext(ctx, d.rebind(q), vals...); err != nil {
			return fmt.Errorf("checksums of docs: %w", err)
		}
	}
}
