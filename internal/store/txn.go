package store

import (
	"context"
	"database/sql"
	"fmt"
)

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
	// statement (see flush), before anything reads their tables that
	// cannot read them here.
	docs     []pendingDoc
	docAt    map[int64]int    // ord → index in docs
	docID    map[string]int64 // id → ord of the docs
	details  []detailRow
	detailAt map[int64]int // ord → index in details
	marks    []Mark
	// textKnown is set once textStored holds whether the index stores
	// texts (see storesText).
	textKnown, textStored bool
}

// pendingDoc is a document row not written yet.
type pendingDoc struct {
	d     Doc
	index []byte
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
