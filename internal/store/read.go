package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/neardup/neardup/core"
)

func (t *txn) Meta() (Meta, bool, error) {
	var m Meta
	var data string
	st, err := t.stmt(`SELECT value FROM meta WHERE name = 'index'`)
	if err != nil {
		return m, false, err
	}
	switch err := st.QueryRowContext(t.ctx).Scan(&data); {
	case errors.Is(err, sql.ErrNoRows):
		return m, false, nil
	case err != nil:
		return m, false, err
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return m, false, fmt.Errorf("%w: its settings: %v", ErrCorrupt, err)
	}
	return m, true, nil
}

// metaRow reads the settings q (a database or a transaction) holds, as
// Meta does, in a store of any schema version: Open reads them before it
// upgrades the schema (see Options.Accept).
func metaRow(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}) (Meta, bool, error) {
	var m Meta
	var data string
	switch err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE name = 'index'`).Scan(&data); {
	case errors.Is(err, sql.ErrNoRows):
		return m, false, nil
	case err != nil:
		return m, false, err
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return m, false, fmt.Errorf("%w: its settings: %v", ErrCorrupt, err)
	}
	return m, true, nil
}

func (t *txn) Head() (int64, int64, error) {
	ord, err := t.counter("ord")
	if err != nil {
		return 0, 0, err
	}
	rem, err := t.counter("removal")
	return ord, rem, err
}

func (t *txn) Indexes(after int64, fn func(ord int64, index []byte) error) error {
	if err := t.flushDocs(); err != nil {
		return err
	}
	rows, err := t.query(`SELECT ord, sketch, sketch_crc FROM docs WHERE ord > ? AND sketch IS NOT NULL ORDER BY ord`, after)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var ord int64
		var data sql.RawBytes
		var crc nullInt32
		if err := rows.Scan(&ord, &data, &crc); err != nil {
			return err
		}
		if !sumOK(partIndex, ord, data, crc) {
			rows.Close()
			return t.sumError(ord, partName[partIndex], !crc.Valid)
		}
		if err := fn(ord, data); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *txn) Removals(after int64) ([]Removal, error) {
	rows, err := t.query(`SELECT seq, ord, data, crc FROM removals WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Removal
	for rows.Next() {
		var r Removal
		var crc nullInt32
		if err := rows.Scan(&r.Seq, &r.Ord, &r.Index, &crc); err != nil {
			return nil, err
		}
		if (r.Index != nil || crc.Valid) && !sumOK(partIndex, r.Ord, r.Index, crc) {
			// The document is removed: no id to name.
			return nil, &ChecksumError{Ord: abs(r.Ord), What: removalPart, Missing: !crc.Valid}
		}
		if r.Index == nil && crc.Valid {
			r.Index = []byte{} // a part logged, if empty: nil is none
		}
		if r.Ord < 0 { // logged by SetSketch (logSketched)
			r.Ord, r.Sketched = -r.Ord, true
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t *txn) Detail(ord int64) ([]byte, error) {
	if i, ok := t.detailAt[ord]; ok {
		return t.details[i].data, nil
	}
	st, err := t.stmt(`SELECT data, crc FROM sketch_detail WHERE ord = ?`)
	if err != nil {
		return nil, err
	}
	var data []byte
	var crc nullInt32
	switch err := st.QueryRowContext(t.ctx, ord).Scan(&data, &crc); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("%w: the sketch detail of document %d", ErrNotFound, ord)
	case err != nil:
		return nil, err
	}
	return data, t.checkSum(partDetail, ord, data, crc)
}

func (t *txn) Sketch(ord int64) (Sketch, error) {
	var sk Sketch
	var err error
	if sk.Index, err = t.IndexPart(ord); err != nil {
		return sk, err
	}
	sk.Detail, err = t.Detail(ord)
	if errors.Is(err, ErrNotFound) {
		err = nil // a method without a detail part
	}
	return sk, err
}

func (t *txn) IndexPart(ord int64) ([]byte, error) {
	if i, ok := t.docAt[ord]; ok {
		if t.docs[i].index == nil {
			return nil, fmt.Errorf("%w: the sketch of document %d", ErrNotFound, ord)
		}
		return t.docs[i].index, nil
	}
	st, err := t.stmt(`SELECT sketch, sketch_crc FROM docs WHERE ord = ?`)
	if err != nil {
		return nil, err
	}
	var index []byte
	var crc nullInt32
	switch err := st.QueryRowContext(t.ctx, ord).Scan(&index, &crc); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("%w: document %d", ErrNotFound, ord)
	case err != nil:
		return nil, err
	case index == nil:
		return nil, fmt.Errorf("%w: the sketch of document %d", ErrNotFound, ord)
	}
	if err := t.checkSum(partIndex, ord, index, crc); err != nil {
		return nil, err
	}
	return index, nil
}

// docColumns are a document's columns in docs, its record's checksum
// (docSum) last.
const docColumns = `ord, id, source, url, title, date, added, lang, hash, length, skip, cluster, place, doc_crc`

// scanDoc reads the docColumns of a row, and text when withText.
func scanDoc(rows interface{ Scan(...any) error }, d *Doc, withText bool) error {
	var text sql.NullString
	if !withText {
		return scanDocAnd(rows, d)
	}
	if err := scanDocAnd(rows, d, &text); err != nil {
		return err
	}
	d.Text = text.String
	return nil
}

// scanDocText reads the docColumns of a row, its text and the text's
// checksum, and returns nil when they match, or when there is no text and
// none is due: stored tells whether the index stores texts, where a
// document of a length above 0 has one.
func scanDocText(rows interface{ Scan(...any) error }, d *Doc, stored bool) error {
	var text []byte
	var crc nullInt32
	if err := scanDocAnd(rows, d, &text, &crc); err != nil {
		return err
	}
	d.Text = string(text)
	switch {
	case text == nil && !crc.Valid && stored && d.Length > 0:
		return &ChecksumError{Ord: d.Ord, ID: d.ID, What: partName[partText], Lost: true}
	case text == nil && !crc.Valid || sumOK(partText, d.Ord, text, crc):
		return nil
	}
	return &ChecksumError{Ord: d.Ord, ID: d.ID, What: partName[partText], Missing: !crc.Valid}
}

// storesText reports whether the index stores texts, as its settings say,
// reading them once a transaction.
func (t *txn) storesText() (bool, error) {
	if t.textKnown {
		return t.textStored, nil
	}
	m, _, err := t.Meta()
	if err != nil {
		return false, err
	}
	t.textKnown, t.textStored = true, m.StoreText
	return m.StoreText, nil
}

// scanDocAnd reads the docColumns of a row into d and the columns after
// them into more; a *ChecksumError when the record does not match its
// checksum, or holds a place no write stores (a place is the ordinal of
// an earlier version, between 0 and the row's own; none is NULL), which
// the checksum of a record without one would not tell from none: that one
// is BadPlace, said as an impossible place, not a checksum.
func scanDocAnd(rows interface{ Scan(...any) error }, d *Doc, more ...any) error {
	var date, cluster, place sql.NullInt64
	var hash int64
	var skip string
	var crc nullInt32
	dst := append([]any{&d.Ord, &d.ID, &d.Source, &d.URL, &d.Title, &date, &d.Added, &d.Lang, &hash, &d.Length, &skip, &cluster,
		&place, &crc}, more...)
	if err := rows.Scan(dst...); err != nil {
		return err
	}
	d.Date, d.Cluster, d.Place, d.Hash, d.Skip = date.Int64, cluster.Int64, place.Int64, uint64(hash), core.SkipReason(skip)
	if !crc.Valid || crc.V != docSum(d) {
		return &ChecksumError{Ord: d.Ord, ID: d.ID, What: partName[partRecord], Missing: !crc.Valid}
	}
	if place.Valid && (place.Int64 <= 0 || place.Int64 >= d.Ord) {
		return &ChecksumError{Ord: d.Ord, ID: d.ID, What: partName[partRecord], BadPlace: true, Place: place.Int64}
	}
	return nil
}

// shortList is the longest list Docs and SetCluster look up a row at a
// time, with a statement prepared once, rather than by one query of a new
// IN list.
const shortList = 8

func (t *txn) Docs(ords []int64) ([]Doc, error) {
	if len(t.docAt) > 0 {
		return t.docsBuffered(ords)
	}
	return t.docsStored(ords)
}

// docsStored is Docs of documents written to the database.
func (t *txn) docsStored(ords []int64) ([]Doc, error) {
	if len(ords) <= shortList {
		return t.docsOneByOne(ords)
	}
	byOrd := map[int64]Doc{}
	for lo := 0; lo < len(ords); lo += inChunk {
		part := ords[lo:min(lo+inChunk, len(ords))]
		rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(`SELECT `+docColumns+` FROM docs WHERE ord IN (`+marks(len(part))+`)`), anys(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var d Doc
			if err := scanDoc(rows, &d, false); err != nil {
				rows.Close()
				return nil, err
			}
			byOrd[d.Ord] = d
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
	}
	out := make([]Doc, 0, len(byOrd))
	for _, o := range ords {
		if d, ok := byOrd[o]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// docsBuffered is Docs with some documents not written yet.
func (t *txn) docsBuffered(ords []int64) ([]Doc, error) {
	var stored []int64
	for _, o := range ords {
		if _, ok := t.docAt[o]; !ok {
			stored = append(stored, o)
		}
	}
	read, err := t.docsStored(stored)
	if err != nil {
		return nil, err
	}
	byOrd := make(map[int64]Doc, len(ords))
	for _, d := range read {
		byOrd[d.Ord] = d
	}
	out := make([]Doc, 0, len(ords))
	for _, o := range ords {
		if i, ok := t.docAt[o]; ok {
			out = append(out, t.docs[i].d)
		} else if d, ok := byOrd[o]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

func (t *txn) docsOneByOne(ords []int64) ([]Doc, error) {
	st, err := t.stmt(`SELECT ` + docColumns + ` FROM docs WHERE ord = ?`)
	if err != nil {
		return nil, err
	}
	out := make([]Doc, 0, len(ords))
	for _, o := range ords {
		var d Doc
		switch err := scanDoc(st.QueryRowContext(t.ctx, o), &d, false); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, err
		default:
			out = append(out, d)
		}
	}
	return out, nil
}

// marks returns n comma-separated placeholders.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func anys[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func (t *txn) Lookup(ids []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(t.docID) > 0 {
		var rest []string
		for _, id := range ids {
			if ord, ok := t.docID[id]; ok {
				out[id] = ord
			} else {
				rest = append(rest, id)
			}
		}
		ids = rest
	}
	for lo := 0; lo < len(ids); lo += inChunk {
		part := ids[lo:min(lo+inChunk, len(ids))]
		rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(`SELECT id, ord FROM docs WHERE id IN (`+marks(len(part))+`)`), anys(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			var ord int64
			if err := rows.Scan(&id, &ord); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = ord
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (t *txn) Doc(id string) (Doc, error) {
	if err := t.flushDocs(); err != nil {
		return Doc{}, err
	}
	var d Doc
	st, err := t.stmt(`SELECT ` + strings.ReplaceAll(docColumns, "ord", "docs.ord") + `, texts.text, texts.crc FROM docs LEFT JOIN texts ON texts.ord = docs.ord WHERE docs.id = ?`)
	if err != nil {
		return d, err
	}
	stored, err := t.storesText()
	if err != nil {
		return d, err
	}
	err = scanDocText(st.QueryRowContext(t.ctx, id), &d, stored)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return d, fmt.Errorf("%w: no document %q", ErrNotFound, id)
	case err != nil:
		return Doc{}, err
	}
	return d, nil
}

const markColumns = `a, b, method, score, label, evidence, at, crc`

// scanMarks calls fn with each mark rows reads, checked against its
// checksum.
func (t *txn) scanMarks(rows *sql.Rows, fn func(m *Mark) error) error {
	defer rows.Close()
	for rows.Next() {
		var m Mark
		var label, ev string
		var crc nullInt32
		if err := rows.Scan(&m.A, &m.B, &m.Method, &m.Score, &label, &ev, &m.At, &crc); err != nil {
			return err
		}
		m.Label, m.Evidence = core.Label(label), []byte(ev)
		if !crc.Valid || crc.V != markSum(&m) {
			rows.Close()
			return t.markError(&m, !crc.Valid)
		}
		if err := fn(&m); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *txn) MarksOf(ord int64) ([]Mark, error) {
	if err := t.flushMarks(); err != nil {
		return nil, err
	}
	rows, err := t.query(`SELECT `+markColumns+` FROM marks WHERE a = ? UNION ALL SELECT `+markColumns+` FROM marks WHERE b = ?`, ord, ord)
	if err != nil {
		return nil, err
	}
	var out []Mark
	err = t.scanMarks(rows, func(m *Mark) error { out = append(out, *m); return nil })
	return out, err
}

func (t *txn) MethodMarks(method string, ords []int64) ([]Mark, error) {
	if err := t.flushMarks(); err != nil {
		return nil, err
	}
	var out []Mark
	for lo := 0; lo < len(ords); lo += inChunk {
		part := ords[lo:min(lo+inChunk, len(ords))]
		in := `(` + marks(len(part)) + `)`
		args := append(append([]any{method}, anys(part)...), anys(part)...)
		q := `SELECT ` + markColumns + ` FROM marks WHERE method = ? AND (a IN ` + in + ` OR b IN ` + in + `)`
		rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(q), args...)
		if err != nil {
			return nil, err
		}
		if err := t.scanMarks(rows, func(m *Mark) error { out = append(out, *m); return nil }); err != nil {
			return nil, err
		}
	}
	// A mark of two documents of different chunks is read twice.
	slices.SortFunc(out, func(x, y Mark) int { return cmp.Or(cmp.Compare(x.B, y.B), cmp.Compare(x.A, y.A)) })
	return slices.CompactFunc(out, func(x, y Mark) bool { return x.A == y.A && x.B == y.B }), nil
}

func (t *txn) Members(cluster int64) ([]int64, error) {
	if err := t.flushDocs(); err != nil {
		return nil, err
	}
	return t.ords(`SELECT ord FROM docs WHERE cluster = ? ORDER BY ord`, cluster)
}

func (t *txn) First(cluster int64) (ord, rank int64, err error) {
	if err := t.flushDocs(); err != nil {
		return 0, 0, err
	}
	rows, err := t.query(`SELECT ord, COALESCE(NULLIF(place, 0), ord) FROM docs WHERE cluster = ? ORDER BY 2 LIMIT 1`, cluster)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, 0, err
		}
		return 0, 0, fmt.Errorf("%w: no cluster %d", ErrNotFound, cluster)
	}
	if err := rows.Scan(&ord, &rank); err != nil {
		return 0, 0, err
	}
	return ord, rank, rows.Err()
}

// publicationOrder is the SQL order of documents by publication (see
// cluster.Published): the dated by date before the undated, then by
// place (Doc.Rank: of a place of 0, which scanDoc refuses, too).
const publicationOrder = `CASE WHEN date IS NULL OR date = 0 THEN 1 ELSE 0 END, date, COALESCE(NULLIF(place, 0), ord)`

func (t *txn) Original(cluster int64) (Doc, error) {
	var d Doc
	if err := t.flushDocs(); err != nil {
		return d, err
	}
	st, err := t.stmt(`SELECT ` + docColumns + ` FROM docs WHERE cluster = ? ORDER BY ` + publicationOrder + ` LIMIT 1`)
	if err != nil {
		return d, err
	}
	switch err := scanDoc(st.QueryRowContext(t.ctx, cluster), &d, false); {
	case errors.Is(err, sql.ErrNoRows):
		return d, fmt.Errorf("%w: no cluster %d", ErrNotFound, cluster)
	case err != nil:
		return d, err
	}
	return d, nil
}

// ords runs a query of one integer column and returns its values.
func (t *txn) ords(q string, args ...any) ([]int64, error) {
	rows, err := t.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var o int64
		if err := rows.Scan(&o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func (t *txn) EachDoc(withText bool, fn func(d *Doc) error) error {
	if err := t.flushDocs(); err != nil {
		return err
	}
	q := `SELECT ` + docColumns + ` FROM docs ORDER BY ord`
	if withText {
		q = `SELECT ` + strings.ReplaceAll(docColumns, "ord", "docs.ord") + `, texts.text, texts.crc FROM docs LEFT JOIN texts ON texts.ord = docs.ord ORDER BY docs.ord`
	}
	stored := false
	if withText {
		var err error
		if stored, err = t.storesText(); err != nil {
			return err
		}
	}
	rows, err := t.query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d Doc
		if !withText {
			if err := scanDoc(rows, &d, false); err != nil {
				return err
			}
		} else if err := scanDocText(rows, &d, stored); err != nil {
			return err
		}
		if err := fn(&d); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *txn) EachMark(fn func(m *Mark) error) error {
	if err := t.flushMarks(); err != nil {
		return err
	}
	rows, err := t.query(`SELECT ` + markColumns + ` FROM marks ORDER BY b, a, method`)
	if err != nil {
		return err
	}
	return t.scanMarks(rows, fn)
}

func (t *txn) Older(before int64) ([]int64, error) {
	if err := t.flushDocs(); err != nil {
		return nil, err
	}
	return t.ords(`SELECT ord FROM docs WHERE COALESCE(date, added) < ? ORDER BY ord`, before)
}

func (t *txn) Counts() (Counts, error) {
	if err := t.flush(); err != nil {
		return Counts{}, err
	}
	c := Counts{Skipped: map[core.SkipReason]int{}, Marks: map[core.Label]int{}}
	if err := t.groupCount(`SELECT skip, count(*) FROM docs GROUP BY skip`, func(k string, n int) {
		c.Documents += n
		if k != "" {
			c.Skipped[core.SkipReason(k)] = n
		}
	}); err != nil {
		return c, err
	}
	if err := t.groupCount(`SELECT label, count(*) FROM marks GROUP BY label`, func(k string, n int) {
		c.Marks[core.Label(k)] = n
	}); err != nil {
		return c, err
	}
	st, err := t.stmt(`SELECT count(DISTINCT cluster), count(cluster) FROM docs WHERE cluster IS NOT NULL`)
	if err != nil {
		return c, err
	}
	return c, st.QueryRowContext(t.ctx).Scan(&c.Clusters, &c.Clustered)
}

func (t *txn) groupCount(q string, fn func(k string, n int)) error {
	rows, err := t.query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return err
		}
		fn(k, n)
	}
	return rows.Err()
}
