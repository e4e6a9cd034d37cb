package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/neardup/neardup/core"
)

// dialect is what differs between the SQL engines.
type dialect struct {
	name string
	// migrations build the schema; the schema version is how many ran.
	migrations []string
	// rebind rewrites a query's ? placeholders in the engine's syntax.
	rebind func(q string) string
	// lock takes the writer lock at the start of a write transaction
	// (nil: beginning the transaction took it).
	lock func(ctx context.Context, tx *sql.Tx) error
	// mapErr turns an engine error into one of the package's, when it
	// is one of theirs.
	mapErr func(err error) error
	// check returns the engine's own integrity faults.
	check func(ctx context.Context, db *sql.DB) ([]string, error)
	// tables lists the user tables of the database.
	tables func(ctx context.Context, db *sql.DB) ([]string, error)
	// hasVersionTable counts the schema_version tables (0 or 1).
	hasVersionTable string
}

// sqlStore is a Store over database/sql.
type sqlStore struct {
	db       *sql.DB
	d        *dialect
	readOnly bool
}

// inChunk bounds the values bound in one IN list: SQLite allows 32,766
// parameters, PostgreSQL 65,535.
const inChunk = 500

func (s *sqlStore) View(ctx context.Context, fn func(r Reader) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: s.d.snapshot()})
	if err != nil {
		return s.wrap("reading the index", err)
	}
	defer tx.Rollback()
	return s.wrap("reading the index", fn(&txn{ctx: ctx, tx: tx, s: s}))
}

// snapshot returns the isolation level of a View: SQLite's read
// transactions are snapshots as they are; PostgreSQL's need asking.
func (d *dialect) snapshot() sql.IsolationLevel {
	if d.lock == nil {
		return sql.LevelDefault
	}
	return sql.LevelRepeatableRead
}

func (s *sqlStore) Update(ctx context.Context, fn func(w Writer) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("writing to the index", err)
	}
	defer tx.Rollback()
	if s.d.lock != nil {
		if err := s.d.lock(ctx, tx); err != nil {
			return s.wrap("locking the index", err)
		}
	}
	t := &txn{ctx: ctx, tx: tx, s: s, write: true}
	defer t.closeStmts()
	if err := fn(t); err != nil {
		return s.wrap("writing to the index", err)
	}
	if err := t.flush(); err != nil {
		return s.wrap("writing to the index", err)
	}
	if err := t.flushCounters(); err != nil {
		return s.wrap("writing to the index", err)
	}
	t.closeStmts()
	return s.wrap("committing to the index", tx.Commit())
}

// wrap maps an engine error and names what was being done.
func (s *sqlStore) wrap(doing string, err error) error {
	if err == nil {
		return nil
	}
	if m := s.d.mapErr(err); m != nil {
		return fmt.Errorf("%s: %w (%v)", doing, m, err)
	}
	return err
}

func (s *sqlStore) Check(ctx context.Context) ([]string, error) {
	faults, err := s.d.check(ctx, s.db)
	return faults, s.wrap("checking the index", err)
}

func (s *sqlStore) Close() error { return s.db.Close() }

// migrate brings the schema to the current version in one transaction, or
// refuses a store that is newer or not an index.
func (s *sqlStore) migrate(ctx context.Context) error {
	version, err := s.version(ctx)
	if err != nil {
		return err
	}
	want := len(s.d.migrations)
	switch {
	case version > want:
		return fmt.Errorf("%w: schema version %d, this binary knows %d", ErrTooNew, version, want)
	case version == want:
		return nil
	case s.readOnly:
		return fmt.Errorf("%w: schema version %d must be upgraded to %d; open it once for writing", ErrReadOnly, version, want)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("upgrading the index", err)
	}
	defer tx.Rollback()
	if s.d.lock != nil {
		if err := s.d.lock(ctx, tx); err != nil {
			return s.wrap("upgrading the index", err)
		}
	}
	// Another process may have migrated while this one waited for the lock.
	var n int
	if err := tx.QueryRowContext(ctx, s.d.hasVersionTable).Scan(&n); err != nil {
		return s.wrap("upgrading the index", err)
	}
	version = 0
	if n > 0 {
		if err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version); err != nil {
			return s.wrap("upgrading the index", err)
		}
	}
	if version >= want {
		return nil
	}
	for v := version; v < want; v++ {
		for _, stmt := range splitStatements(s.d.migrations[v]) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return s.wrap(fmt.Sprintf("upgrading the index to schema version %d", v+1), err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE schema_version SET version = ?`), want); err != nil {
		return s.wrap("upgrading the index", err)
	}
	return s.wrap("upgrading the index", tx.Commit())
}

// version returns the schema version: 0 for an empty database, an error
// for one that holds other tables.
func (s *sqlStore) version(ctx context.Context) (int, error) {
	tables, err := s.d.tables(ctx, s.db)
	if err != nil {
		if m := s.d.mapErr(err); m != nil {
			return 0, fmt.Errorf("opening the index: %w (%v)", m, err)
		}
		return 0, err
	}
	has := false
	for _, t := range tables {
		has = has || t == "schema_version"
	}
	switch {
	case len(tables) == 0:
		return 0, nil
	case !has:
		if len(tables) > 5 {
			tables = append(tables[:5], "…")
		}
		return 0, fmt.Errorf("%w: it holds other tables (%s)", ErrNotIndex, strings.Join(tables, ", "))
	}
	var v int
	if err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("%w: reading its schema version: %v", ErrNotIndex, err)
	}
	return v, nil
}

// splitStatements splits a migration into statements at semicolons that end
// a line.
func splitStatements(script string) []string {
	var out []string
	for _, s := range strings.Split(script, ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, strings.TrimSuffix(s, ";"))
		}
	}
	return out
}

// txn is one transaction: a Reader, and a Writer when write is set.
type txn struct {
	ctx   context.Context
	tx    *sql.Tx
	s     *sqlStore
	write bool
	stmts map[string]*sql.Stmt
	// counters read and advanced in this transaction, written at its end.
	counters map[string]int64
	dirty    map[string]bool
	// rows inserted but not written yet: they are written many rows a
	// statement (see flush), before anything reads their tables.
	details  []detailRow
	detailAt map[int64]int // ord → index in details
	marks    []Mark
}

type detailRow struct {
	ord  int64
	data []byte
}

// batchRows is how many rows one buffered INSERT statement writes: a
// statement costs about as much as a row.
const batchRows = 64

func (t *txn) stmt(q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(t.ctx, t.s.d.rebind(q))
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[q] = st
	return st, nil
}

func (t *txn) closeStmts() {
	for q, st := range t.stmts {
		st.Close()
		delete(t.stmts, q)
	}
}

func (t *txn) exec(q string, args ...any) error {
	if !t.write {
		return errForbidden
	}
	st, err := t.stmt(q)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(t.ctx, args...)
	return err
}

func (t *txn) query(q string, args ...any) (*sql.Rows, error) {
	st, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(t.ctx, args...)
}

// counter returns a counter's value as this transaction sees it.
func (t *txn) counter(name string) (int64, error) {
	if v, ok := t.counters[name]; ok {
		return v, nil
	}
	var v int64
	st, err := t.stmt(`SELECT value FROM counters WHERE name = ?`)
	if err != nil {
		return 0, err
	}
	if err := st.QueryRowContext(t.ctx, name).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading counter %s: %w", name, err)
	}
	if t.counters == nil {
		t.counters, t.dirty = map[string]int64{}, map[string]bool{}
	}
	t.counters[name] = v
	return v, nil
}

// next advances a counter and returns its new value.
func (t *txn) next(name string) (int64, error) {
	v, err := t.counter(name)
	if err != nil {
		return 0, err
	}
	t.counters[name] = v + 1
	t.dirty[name] = true
	return v + 1, nil
}

func (t *txn) flushCounters() error {
	for name := range t.dirty {
		if err := t.exec(`UPDATE counters SET value = ? WHERE name = ?`, t.counters[name], name); err != nil {
			return err
		}
	}
	clear(t.dirty)
	return nil
}

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

func (t *txn) Init(m Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO meta(name, value) VALUES('index', ?)`, string(data))
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
	rows, err := t.query(`SELECT ord, sketch FROM docs WHERE ord > ? AND sketch IS NOT NULL ORDER BY ord`, after)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var ord int64
		var data sql.RawBytes
		if err := rows.Scan(&ord, &data); err != nil {
			return err
		}
		if err := fn(ord, data); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *txn) Removals(after int64) ([]Removal, error) {
	rows, err := t.query(`SELECT seq, ord, data FROM removals WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Removal
	for rows.Next() {
		var r Removal
		if err := rows.Scan(&r.Seq, &r.Ord, &r.Index); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t *txn) Detail(ord int64) ([]byte, error) {
	if i, ok := t.detailAt[ord]; ok {
		return t.details[i].data, nil
	}
	st, err := t.stmt(`SELECT data FROM sketch_detail WHERE ord = ?`)
	if err != nil {
		return nil, err
	}
	var data []byte
	switch err := st.QueryRowContext(t.ctx, ord).Scan(&data); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("%w: the sketch detail of document %d", ErrNotFound, ord)
	case err != nil:
		return nil, err
	}
	return data, nil
}

func (t *txn) Sketch(ord int64) (Sketch, error) {
	var sk Sketch
	st, err := t.stmt(`SELECT sketch FROM docs WHERE ord = ?`)
	if err != nil {
		return sk, err
	}
	switch err := st.QueryRowContext(t.ctx, ord).Scan(&sk.Index); {
	case errors.Is(err, sql.ErrNoRows):
		return sk, fmt.Errorf("%w: document %d", ErrNotFound, ord)
	case err != nil:
		return sk, err
	case sk.Index == nil:
		return sk, fmt.Errorf("%w: the sketch of document %d", ErrNotFound, ord)
	}
	sk.Detail, err = t.Detail(ord)
	if errors.Is(err, ErrNotFound) {
		err = nil // a method without a detail part
	}
	return sk, err
}

const docColumns = `ord, id, source, url, title, date, added, lang, hash, length, skip, cluster`

// scanDoc reads the docColumns of a row, and text when withText.
func scanDoc(rows interface{ Scan(...any) error }, d *Doc, withText bool) error {
	var date, cluster sql.NullInt64
	var hash int64
	var skip string
	var text sql.NullString
	dst := []any{&d.Ord, &d.ID, &d.Source, &d.URL, &d.Title, &date, &d.Added, &d.Lang, &hash, &d.Length, &skip, &cluster}
	if withText {
		dst = append(dst, &text)
	}
	if err := rows.Scan(dst...); err != nil {
		return err
	}
	d.Date, d.Cluster, d.Hash, d.Skip, d.Text = date.Int64, cluster.Int64, uint64(hash), core.SkipReason(skip), text.String
	return nil
}

// shortList is the longest list Docs and SetCluster look up a row at a
// time, with a statement prepared once, rather than by one query of a new
// IN list.
const shortList = 8

func (t *txn) Docs(ords []int64) ([]Doc, error) {
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
	var d Doc
	st, err := t.stmt(`SELECT ` + docColumns + `, (SELECT text FROM texts WHERE texts.ord = docs.ord) FROM docs WHERE id = ?`)
	if err != nil {
		return d, err
	}
	switch err := scanDoc(st.QueryRowContext(t.ctx, id), &d, true); {
	case errors.Is(err, sql.ErrNoRows):
		return d, fmt.Errorf("%w: no document %q", ErrNotFound, id)
	case err != nil:
		return d, err
	}
	return d, nil
}

const markColumns = `a, b, method, score, label, evidence, at`

func scanMarks(rows *sql.Rows, fn func(m *Mark) error) error {
	defer rows.Close()
	for rows.Next() {
		var m Mark
		var label, ev string
		if err := rows.Scan(&m.A, &m.B, &m.Method, &m.Score, &label, &ev, &m.At); err != nil {
			return err
		}
		m.Label, m.Evidence = core.Label(label), []byte(ev)
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
	err = scanMarks(rows, func(m *Mark) error { out = append(out, *m); return nil })
	return out, err
}

func (t *txn) Members(cluster int64) ([]int64, error) {
	return t.ords(`SELECT ord FROM docs WHERE cluster = ? ORDER BY ord`, cluster)
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
	q := `SELECT ` + docColumns + ` FROM docs ORDER BY ord`
	if withText {
		q = `SELECT ` + strings.ReplaceAll(docColumns, "ord", "docs.ord") + `, texts.text FROM docs LEFT JOIN texts ON texts.ord = docs.ord ORDER BY docs.ord`
	}
	rows, err := t.query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d Doc
		if err := scanDoc(rows, &d, withText); err != nil {
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
	return scanMarks(rows, fn)
}

func (t *txn) Older(before int64) ([]int64, error) {
	return t.ords(`SELECT ord FROM docs WHERE COALESCE(date, added) < ? ORDER BY ord`, before)
}

func (t *txn) Counts() (Counts, error) {
	if err := t.flushMarks(); err != nil {
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

func (t *txn) Insert(d *Doc, sk *Sketch) (int64, error) {
	ord, err := t.next("ord")
	if err != nil {
		return 0, err
	}
	var index []byte
	if sk != nil {
		index = sk.Index
	}
	err = t.exec(`INSERT INTO docs(`+docColumns+`, sketch) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		ord, d.ID, d.Source, d.URL, d.Title, nullable(d.Date), d.Added, d.Lang, int64(d.Hash), d.Length,
		string(d.Skip), nullable(d.Cluster), index)
	if err == nil && sk != nil && len(sk.Detail) > 0 {
		if t.detailAt == nil {
			t.detailAt = map[int64]int{}
		}
		t.detailAt[ord] = len(t.details)
		t.details = append(t.details, detailRow{ord, sk.Detail})
		if len(t.details) >= 16*batchRows {
			err = t.flushDetails()
		}
	}
	if err == nil && d.Text != "" {
		err = t.exec(`INSERT INTO texts(ord, text) VALUES(?, ?)`, ord, d.Text)
	}
	if err != nil {
		return 0, fmt.Errorf("storing document %q: %w", d.ID, err)
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
	if err := t.flushDetails(); err != nil {
		return err
	}
	return t.flushMarks()
}

func (t *txn) flushDetails() error {
	err := insertRows(t, `INSERT INTO sketch_detail(ord, data) VALUES`, 2, t.details, func(args []any, r detailRow) []any {
		return append(args, r.ord, r.data)
	})
	if err != nil {
		return fmt.Errorf("storing sketches: %w", err)
	}
	t.details = t.details[:0]
	clear(t.detailAt)
	return nil
}

func (t *txn) flushMarks() error {
	err := insertRows(t, `INSERT INTO marks(`+markColumns+`) VALUES`, 7, t.marks, func(args []any, m Mark) []any {
		return append(args, m.A, m.B, m.Method, m.Score, string(m.Label), string(m.Evidence), m.At)
	})
	if err != nil {
		return fmt.Errorf("storing marks: %w", err)
	}
	t.marks = t.marks[:0]
	return nil
}

// insertRows inserts rows of width columns each, batchRows a statement and
// the rest one a statement; args appends a row's values.
func insertRows[R any](t *txn, insert string, width int, rows []R, args func([]any, R) []any) error {
	one := "(" + marks(width) + ")"
	batch := insert + strings.TrimSuffix(strings.Repeat(one+",", batchRows), ",")
	vals := make([]any, 0, width*batchRows)
	for len(rows) >= batchRows {
		vals = vals[:0]
		for _, r := range rows[:batchRows] {
			vals = args(vals, r)
		}
		if err := t.exec(batch, vals...); err != nil {
			return err
		}
		rows = rows[batchRows:]
	}
	for _, r := range rows {
		if err := t.exec(insert+one, args(vals[:0], r)...); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) NewCluster() (int64, error) { return t.next("cluster") }

func (t *txn) SetCluster(ords []int64, cluster int64) error {
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
		for _, q := range []string{`DELETE FROM docs WHERE ord IN `,
			`DELETE FROM sketch_detail WHERE ord IN `, `DELETE FROM texts WHERE ord IN `,
			`DELETE FROM marks WHERE a IN `, `DELETE FROM marks WHERE b IN `} {
			if _, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(q+in), args...); err != nil {
				return nil, err
			}
		}
	}
	return clusters, nil
}

// logRemovals appends each stored document of ords to the change log with
// the index part of its sketch.
func (t *txn) logRemovals(ords []int64) error {
	for _, ord := range ords {
		var index []byte
		st, err := t.stmt(`SELECT sketch FROM docs WHERE ord = ?`)
		if err != nil {
			return err
		}
		if err := st.QueryRowContext(t.ctx, ord).Scan(&index); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		seq, err := t.next("removal")
		if err != nil {
			return err
		}
		if err := t.exec(`INSERT INTO removals(seq, ord, data) VALUES(?, ?, ?)`, seq, ord, index); err != nil {
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
