package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// openProtected opens the SQLite file at path, which this process may not
// write for the reason why, read-only: every read works, every write fails
// with ErrReadOnly naming the file and why. SQLite would open it for
// writing all the same, and fail the first write; and in WAL mode it
// creates a log and a shared-memory file beside it, where the directory
// allows, that it leaves there, with the file's own permissions (a
// shared-memory file that no one may write refuses every later write,
// even once the file may be written again), or fails to open it at all
// where the directory does not allow them. So the file is read in one of
// two ways, chosen again whenever its writer comes or goes (see
// protectedFile):
//
//   - with the log and shared-memory file of a process that writes it
//     beside it, through them, read-only (SQLite's "read-only WAL", which
//     takes the writer's locks: each read a snapshot, whatever the writer
//     does meanwhile);
//   - with no log beside it, no process is writing it: it is read as
//     immutable, which creates nothing beside it, and with no lock.
func openProtected(ctx context.Context, path string, o Options, why string) (Store, error) {
	o.ReadOnly = true
	drv, err := driver("sqlite")
	if err != nil {
		return nil, err
	}
	if err := peekSQLite(ctx, drv, path, o); err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path) // the log is beside the file a link leads to
	if err != nil {
		real = path
	}
	s := &sqlStore{name: path, d: &sqliteDialect, readOnly: true, protected: why}
	s.file = &protectedFile{s: s, drv: drv, real: real, o: o}
	pool, err := s.file.open(ctx)
	if err != nil {
		return nil, err
	}
	s.db = pool.db
	s.file.cur.Store(pool)
	return s, nil
}

// protectedFile is a SQLite file this process may not write, read through
// a pool of connections that is opened anew when the file's writer comes
// or goes (see stale). Read as immutable, SQLite reads the file with no
// lock and keeps its pages cached from one read to the next: once another
// process has written it, a read mixes pages of before and after, finds
// the file "malformed", or counts what it no longer holds. So a read that
// finds the file changed once it ended fails (ErrWrittenMeanwhile), and
// the next read goes through a pool opened anew. (It is not run again:
// what a read hands on as it reads, an export's lines, would be handed on
// twice.)
type protectedFile struct {
	s    *sqlStore
	drv  Driver
	real string // the file's path, a link followed
	o    Options
	mu   sync.Mutex // held while the pool is replaced
	cur  atomic.Pointer[roPool]
}

// roPool is one pool of connections to a protected file.
type roPool struct {
	db *sql.DB
	// users counts the reads running on the pool, and the file's own hold
	// on its current pool (one): the pool is closed when it drops to 0,
	// so that a read never finds its pool closed under it.
	users atomic.Int64
	// was is the file as it was when the pool opened.
	was fs.FileInfo
	// immutable is set when the pool reads the file as immutable (no log
	// was beside it), unset when it reads through its writer's log.
	immutable bool
}

// ErrWrittenMeanwhile is the error of a read of a SQLite index this
// process may not write, read as immutable (see openProtected), that
// another process began to write while the read ran: the read would mix
// what the file held before and after. The next read reads the file as
// it is then.
var ErrWrittenMeanwhile = errors.New("store: another process began to write the index while this one, which may not write it, read it: run again")

// read runs fn on the pool of the file as it is now; it fails with
// ErrWrittenMeanwhile when fn read a file read as immutable that changed
// meanwhile.
func (p *protectedFile) read(ctx context.Context, fn func(db *sql.DB) error) error {
	pool, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	defer p.release(pool)
	err = fn(pool.db)
	if pool.immutable && p.changed(pool.was) {
		return named(p.s.name, ErrWrittenMeanwhile) // what fn read, or the damage it found, is a mix
	}
	return err
}

// acquire returns the pool to read the file through (see fresh), counted
// as in use until release.
func (p *protectedFile) acquire(ctx context.Context) (*roPool, error) {
	for {
		pool, err := p.fresh(ctx)
		if err != nil {
			return nil, err
		}
		if n := pool.users.Load(); n > 0 && pool.users.CompareAndSwap(n, n+1) {
			return pool, nil
		}
		// Replaced and closed since fresh returned it: take the new one.
	}
}

// release ends a read's use of pool, closing it when it was replaced and
// this was its last read.
func (p *protectedFile) release(pool *roPool) {
	if pool.users.Add(-1) == 0 {
		pool.db.Close()
	}
}

// fresh returns the pool to read the file through, opening a new one when
// the file's writer came or went since the current one opened.
func (p *protectedFile) fresh(ctx context.Context) (*roPool, error) {
	pool := p.cur.Load()
	if !p.stale(pool) {
		return pool, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := p.cur.Load(); now != pool {
		return now, nil // another read opened it
	}
	next, err := p.open(ctx)
	if err != nil {
		return nil, err
	}
	p.cur.Store(next)
	p.release(pool) // closed once the reads running on it end
	return next, nil
}

// stale reports whether pool no longer reads the file as it should: read
// as immutable, when the file changed or a writer's log is beside it; read
// through a log, when the log is gone (no connection of the pool held the
// file open) or the path leads to another file.
func (p *protectedFile) stale(pool *roPool) bool {
	if pool.immutable {
		return p.changed(pool.was) || logged(p.real)
	}
	now, err := os.Stat(p.real)
	if err != nil || !os.SameFile(now, pool.was) {
		return true
	}
	_, err = os.Stat(p.real + "-wal")
	return err != nil
}

// changed reports whether the file is no longer as was describes it.
func (p *protectedFile) changed(was fs.FileInfo) bool {
	now, err := os.Stat(p.real)
	return err != nil || !os.SameFile(now, was) || now.Size() != was.Size() || !now.ModTime().Equal(was.ModTime())
}

// logged reports whether a log and a shared-memory file are beside the
// file at real: a process writes it, or did and left them.
func logged(real string) bool {
	_, wal := os.Stat(real + "-wal")
	_, shm := os.Stat(real + "-shm")
	return wal == nil && shm == nil
}

// open opens a pool of connections to the file, read through its writer's
// log when one is beside it, else as immutable, and checks the schema
// version it holds.
func (p *protectedFile) open(ctx context.Context) (*roPool, error) {
	for try := 0; ; try++ {
		was, err := os.Stat(p.real)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		pool := &roPool{was: was, immutable: !logged(p.real)}
		pool.users.Store(1) // the file's hold: its current pool
		// readonly_shm: SQLite never creates the shared-memory file,
		// should the writer remove it before the pool reads.
		dsn := sqliteDSN(p.s.name, p.o) + "&mode=ro&readonly_shm=1"
		if pool.immutable {
			dsn = sqliteDSN(p.s.name, p.o) + "&mode=ro&immutable=1"
		}
		if pool.db, _, err = p.drv.Open(dsn); err != nil {
			return nil, fmt.Errorf("store: opening %s: %w", p.s.name, err)
		}
		pool.db.SetMaxOpenConns(5)
		pool.db.SetMaxIdleConns(5)
		s := &sqlStore{name: p.s.name, db: pool.db, d: p.s.d, readOnly: true, protected: p.s.protected}
		err = s.migrate(ctx)
		if err == nil {
			return pool, nil
		}
		pool.db.Close()
		if pool.immutable || try == 2 || !errors.Is(err, ErrReadOnly) {
			return nil, named(p.s.name, err)
		}
		// The writer removed its log and shared-memory file before the
		// pool read: SQLite made a new log, empty, where the directory
		// allows, which is this process's to remove.
		dropOwnLog(p.real)
	}
}

// close closes the current pool, at once: the store is closed.
func (p *protectedFile) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur.Load().db.Close()
}
