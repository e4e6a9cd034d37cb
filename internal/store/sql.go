package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// dialect is what differs between the SQL engines.
type dialect struct {
	name string
	// migrations build the schema; the schema version is how many ran.
	migrations []string
	// rebind rewrites a query's ? placeholders in the engine's syntax.
	rebind func(q string) string
	// lock takes the writer lock at the start of a write transaction,
	// waiting for another session's at most wait, then failing with an
	// error mapErr maps to ErrLocked (nil: beginning the transaction took
	// it, with a wait of its own).
	lock func(ctx context.Context, tx *sql.Tx, wait time.Duration) error
	// mapErr turns an engine error into one of the package's, when it
	// is one of theirs.
	mapErr func(err error) error
	// check returns the engine's own integrity faults; when damage stops
	// it part way, those found until then with the error.
	check func(ctx context.Context, db *sql.DB) ([]string, error)
	// tables lists the user tables of the database.
	tables func(ctx context.Context, db *sql.DB) ([]string, error)
	// hasVersionTable counts the schema_version tables (0 or 1).
	hasVersionTable string
	// match, search and searchCount build a full-text search (see
	// search.go).
	match       func(q Query) (string, []any)
	search      func(match string) string
	searchCount func(match string) string
	searchFloor func(match string) string
	// searchDelete, when not "", creates the trigger docs_search_delete,
	// which takes a document removed out of a full-text index that keeps
	// none of its content (SQLite's FTS5 of external content): given
	// other values than it indexed, it damages that index, so a removal
	// of a document whose title or text damage changed goes without it
	// and builds the full-text index again (see txn.Remove).
	searchDelete string
}

// sqlStore is a Store over database/sql.
type sqlStore struct {
	// name is what errors call the index: the SQLite file's path, or
	// "PostgreSQL at" the server, the database and the schema the URL's
	// search_path names (postgresWhere).
	name     string
	db       *sql.DB
	d        *dialect
	readOnly bool
	// protected, when not "", says why the process may not write the
	// index (its file's or directory's permissions): writes fail with
	// ErrReadOnly naming the index and why.
	protected string
	// accept is Options.Accept, which migrate calls.
	accept func(m Meta, ok bool) error
	// existing is Options.Existing: migrate creates no schema.
	existing bool
	// file, when not nil, is the SQLite file of a protected store, read
	// through a pool of its own, opened anew when its writer comes or goes
	// (db is the first).
	file *protectedFile
	// writer, when not nil, is the one connection writes go through, one
	// at a time (wmu). SQLite empties a connection's page cache when it
	// begins a transaction after another connection's commit: with one
	// connection for writes, none of the process's other connections
	// writes, and the pages each write reads again (the ends of the tables
	// and indexes, the full-text index's newest segments) stay in its
	// cache from one write to the next, whatever reads run between them.
	writer *sql.Conn
	wmu    sync.Mutex
	// checkpoints, when not nil, copies a SQLite log into its file in the
	// background.
	checkpoints *checkpointer
	// lockWait bounds the wait of dialect.lock for another session's
	// writer lock.
	lockWait time.Duration
	// closed is set by Close: every call after it is ErrClosed.
	closed atomic.Bool
}

// inChunk bounds the values bound in one IN list: SQLite allows 32,766
// parameters, PostgreSQL 65,535.
const inChunk = 500

func (s *sqlStore) View(ctx context.Context, fn func(r Reader) error) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.file != nil {
		return s.file.read(ctx, func(db *sql.DB) error { return s.view(ctx, db, fn) })
	}
	return s.view(ctx, s.db, fn)
}

// view runs fn in a read-only transaction of db.
func (s *sqlStore) view(ctx context.Context, db *sql.DB, fn func(r Reader) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: s.d.snapshot()})
	if err != nil {
		return s.wrap("reading the index", err)
	}
	err = fn(&txn{ctx: ctx, tx: tx, s: s})
	tx.Rollback() // before wrap, which may ask the server (reachable) on a connection of the pool
	return s.wrap("reading the index", cancelled(ctx, err))
}

// snapshot returns the isolation level of a View: SQLite's read
// transactions are snapshots as they are; PostgreSQL's need asking.
func (d *dialect) snapshot() sql.IsolationLevel {
	if d.lock == nil {
		return sql.LevelDefault
	}
	return sql.LevelRepeatableRead
}

func (s *sqlStore) Writable() error {
	switch {
	case s.closed.Load():
		return ErrClosed
	case s.protected != "":
		return named(s.name, fmt.Errorf("%w: %s", ErrReadOnly, s.protected))
	case s.readOnly:
		return ErrReadOnly
	}
	return nil
}

func (s *sqlStore) Update(ctx context.Context, fn func(w Writer) error) error {
	return cancelled(ctx, s.update(ctx, fn))
}

func (s *sqlStore) update(ctx context.Context, fn func(w Writer) error) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.Writable(); err != nil {
		return err
	}
	var tx *sql.Tx
	var err error
	// The process's own writers wait for each other without a bound, as
	// they would inside one transaction's time: the bound of the writer
	// lock (lockWait, SQLite's busy timeout) is for other processes'.
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.writer != nil {
		tx, err = s.writer.BeginTx(ctx, nil)
	} else {
		tx, err = s.db.BeginTx(ctx, nil)
	}
	if err != nil {
		return s.wrap("writing to the index", err)
	}
	defer tx.Rollback()
	if s.d.lock != nil {
		if err := s.d.lock(ctx, tx, s.lockWait); err != nil {
			return s.wrap("locking the index", err)
		}
	}
	t := &txn{ctx: ctx, tx: tx, s: s, write: true}
	defer t.closeStmts()
	// The transaction ends before wrap, which may ask the server
	// (reachable) on a connection of the pool.
	failed := func(err error) error {
		t.closeStmts()
		tx.Rollback()
		return s.wrap("writing to the index", err)
	}
	if err := fn(t); err != nil {
		return failed(err)
	}
	if err := t.flush(); err != nil {
		return failed(err)
	}
	if err := t.flushCounters(); err != nil {
		return failed(err)
	}
	t.closeStmts()
	return s.wrap("committing to the index", tx.Commit())
}

// cancelled returns err as ctx's error when ctx is done and err does not
// wrap it already: database/sql closes a transaction, and the statements
// prepared in it, as soon as its context is done, so that a statement run
// again after that fails with "sql: statement is closed", a commit with
// sql.ErrTxDone, which a caller could not tell from a fault of the index.
func cancelled(ctx context.Context, err error) error {
	cause := ctx.Err()
	if err == nil || cause == nil || errors.Is(err, cause) {
		return err
	}
	return fmt.Errorf("%w (%v)", cause, err)
}

// wrap maps an engine error and names what was being done, and the
// index when the error is one of damage (a record that does not match its
// checksum, or a SQLite schema not as neardup made it, see schemaDamage,
// too), of a full disk (ErrDiskFull), of another process's lock
// (ErrLocked), of a connection to the server lost (ErrLost), or any other
// of the engine's. Every error of a read or write passes here, once.
func (s *sqlStore) wrap(doing string, err error) error {
	if err == nil {
		return nil
	}
	namedErr := func(err error) bool {
		return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrIO) || errors.Is(err, ErrDiskFull) || errors.Is(err, ErrLocked) ||
			errors.Is(err, ErrReadOnly)
	}
	if m := s.d.mapErr(err); m != nil {
		if namedErr(m) {
			return named(s.name, &doingError{doing: doing, err: m, cause: err})
		}
		return fmt.Errorf("%s: %w (%v)", doing, m, err)
	} else if s.closed.Load() && (errors.Is(err, sql.ErrConnDone) || err.Error() == "sql: database is closed") {
		return fmt.Errorf("%s: %w", doing, ErrClosed) // closed while it ran
	} else if surely, maybe := connLost(s.d.name, err); surely || maybe && !s.reachable() {
		return named(s.name, fmt.Errorf("%w while %s: %w", ErrLost, doing, err))
	} else if damage := s.schemaDamage(err); damage != nil {
		return named(s.name, &doingError{doing: doing, err: damage, cause: err})
	}
	if namedErr(err) {
		return named(s.name, err)
	}
	if errCode(s.d.name, err) != "" {
		return named(s.name, fmt.Errorf("%s: %w", doing, err)) // the engine's, of the index
	}
	return err
}

// doingError is the error of a store's driver (cause) that wrap maps to
// one of the package's errors (err) and names by the index (NamedError),
// with what the store was doing: it reads
// "writing to the index: another process is writing to the index
// (database is locked …)", without err's "store: ", which the name of the
// index before it carries (NamedError).
type doingError struct {
	doing      string
	err, cause error
}

func (e *doingError) Error() string {
	return fmt.Sprintf("%s: %s (%v)", e.doing, strings.TrimPrefix(e.err.Error(), "store: "), e.cause)
}

// Unwrap returns the package's error.
func (e *doingError) Unwrap() error { return e.err }

// reachable reports whether the server answers a ping within
// reachableWait: an EOF or a network error was the connection's when it
// does not.
func (s *sqlStore) reachable() bool {
	ctx, cancel := context.WithTimeout(context.Background(), reachableWait)
	defer cancel()
	return s.db.PingContext(ctx) == nil
}

// reachableWait is how long reachable waits for the server's answer.
const reachableWait = 3 * time.Second

// Check returns the engine's own faults (SQLite's integrity check), then
// every record that does not match its checksum (or holds a place no
// write stores).
//
// Damage that stops a check part way (SQLite's integrity check, or a
// record it cannot read, fails with ErrCorrupt) leaves the faults found
// until then, returned with the error: they are what a damaged index that
// cannot be read whole still shows.
func (s *sqlStore) Check(ctx context.Context) (Faults, error) {
	var f Faults
	if s.closed.Load() {
		return f, ErrClosed
	}
	var engine []string
	check := func(db *sql.DB) (err error) {
		engine, err = s.d.check(ctx, db)
		return err
	}
	var err error
	if s.file != nil {
		err = s.file.read(ctx, check)
	} else {
		err = check(s.db)
	}
	if errors.Is(err, ErrWrittenMeanwhile) {
		return f, err // the faults found are a mix's
	}
	for _, line := range engine {
		f.Add(line)
	}
	f.Engine = len(engine)
	if err != nil {
		return f, s.wrap("checking the index", err)
	}
	err = s.View(ctx, func(r Reader) error { return r.(*txn).checkRecords(&f) })
	return f, s.wrap("checking the index", err)
}

func (s *sqlStore) Close() error {
	s.closed.Store(true)
	if s.checkpoints != nil {
		s.checkpoints.close()
	}
	if s.writer != nil {
		s.wmu.Lock()
		s.writer.Close()
		s.wmu.Unlock()
	}
	if s.file != nil {
		return s.file.close()
	}
	return s.db.Close()
}

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
	case version == 0 && s.existing:
		return named(s.name, ErrNoIndex)
	case s.protected != "" && version == 0:
		return fmt.Errorf("%w: it holds no index yet, and %s", ErrReadOnly, s.protected)
	case s.protected != "":
		return fmt.Errorf("%w: schema version %d must be upgraded to %d, and %s", ErrReadOnly, version, want, s.protected)
	case s.readOnly:
		return fmt.Errorf("%w: schema version %d must be upgraded to %d; open it once for writing", ErrReadOnly, version, want)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("upgrading the index", err)
	}
	defer tx.Rollback()
	if s.d.lock != nil {
		if err := s.d.lock(ctx, tx, s.lockWait); err != nil {
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
		if err := badVersion(version); err != nil {
			return err // damaged meanwhile
		}
	}
	if version >= want {
		return nil
	}
	if version > 0 && s.accept != nil {
		// An index whose settings this process refuses is not upgraded.
		m, ok, err := metaRow(ctx, tx)
		if err != nil {
			return s.wrap("reading the index's settings", err)
		}
		if err := s.accept(m, ok); err != nil {
			return &refusal{err}
		}
	}
	for v := version; v < want; v++ {
		for _, stmt := range splitStatements(s.d.migrations[v]) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return s.wrap(fmt.Sprintf("upgrading the index to schema version %d", v+1), err)
			}
		}
		if fill := fills[v+1]; fill != nil {
			if err := fill(ctx, tx, s.d); err != nil {
				return s.wrap(fmt.Sprintf("upgrading the index to schema version %d", v+1), err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE schema_version SET version = ?`), want); err != nil {
		return s.wrap("upgrading the index", err)
	}
	if version == 0 && s.accept != nil {
		// A new index: settings refused roll its schema back. None are
		// stored: its first documents store them (see Options.Accept).
		if err := s.accept(Meta{}, false); err != nil {
			return &refusal{err}
		}
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
	return v, badVersion(v)
}

// badVersion refuses a schema version read from a schema_version table
// that no index holds: below 1, as only a damaged table reads (the table
// is created, and its version set to how many migrations ran, in the
// transaction of the first one).
func badVersion(v int) error {
	if v >= 1 {
		return nil
	}
	return fmt.Errorf("%w: its schema version reads %d, which no version of neardup writes (the table schema_version is damaged); "+
		"nothing is written to it: restore it from a backup, or add its documents to a new index", ErrCorrupt, v)
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
