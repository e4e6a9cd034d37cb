package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/neardup/neardup/internal/container"
)

// sqliteMigrations build the SQLite schema. Each is one step of the schema
// version; a store records how many ran. Never edit a released step: append.
//
// Changelog:
//   - 1: documents (with their clusters and the index parts of their
//     sketches), texts, the detail parts of sketches, marks (keyed by the
//     later document, which a new add appends, with an index on the
//     earlier one), counters, settings and the removal log. No index on
//     dates: a bulk add in any date order would write one at random pages,
//     and expiry, occasional, scans the documents instead.
//   - 2: feeds (their settings and polling state as JSON), the items seen
//     of each feed, and the exact keys (content hash, canonical URL) of the
//     documents added with them, which find exact copies without a sketch.
//   - 3: full-text search over titles and texts: an FTS5 index whose
//     content is the view search_source (no second copy of the texts), kept
//     in step by triggers on docs. A document's text is stored before its
//     row in docs and deleted after it, so both triggers read it.
//   - 4: an index on the documents' sources (in SQLite its entries are
//     ordered by ordinal within a source): the latest documents of one
//     source are read from it, newest first, instead of by a scan of
//     every document.
//   - 5: a checksum (CRC-32C, see checksum.go) in every row of docs (of
//     its sketch's index part), sketch_detail, texts, marks and removals,
//     computed for the rows stored before (fillChecksums).
//   - 6: an index on the documents feed items were made into: when a
//     document arrives that was published before a stored copy of it, the
//     copy's items become duplicates (RelabelItems) in the transaction
//     that stores it, without a scan of every item.
//   - 7: nothing here (PostgreSQL's search vectors made again).
//   - 8: host_pauses, the hosts that asked the feed watcher to wait
//     (Retry-After) and until when (Unix seconds), so that a later run
//     (watch --once from cron) waits too; a host's row is deleted by the
//     first write after its pause ended.
//   - 9: a checksum of each document's record (every field of its row in
//     docs but its cluster; docSum), computed for the rows stored before
//     (fillDocSums).
//   - 10: nothing here (PostgreSQL's search reads every ASCII punctuation
//     mark as a space).
//   - 11: the exact keys but the content hash of each document whose id
//     is an http(s) URL and whose URL names another page are deleted
//     (fillClaimedURLKeys): the watcher stored an article under the URL its
//     page named as its own until this version, and such a URL's key, or
//     its slug's, would make any article later fetched there an exact copy
//     of the page that named it.
//   - 12: a document's place among those of its date (Doc.Place), the
//     place of the version of its id it replaced: that version's own
//     place when it had one, else its ordinal; NULL, as in every row
//     stored before, for one that replaced none: its place is its own
//     ordinal.
var sqliteMigrations = []string{`
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (0);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counters VALUES ('ord', 0), ('removal', 0), ('cluster', 0);
CREATE TABLE docs (
	ord INTEGER PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	source TEXT NOT NULL,
	url TEXT NOT NULL,
	title TEXT NOT NULL,
	date INTEGER,
	added INTEGER NOT NULL,
	lang TEXT NOT NULL,
	hash INTEGER NOT NULL,
	length INTEGER NOT NULL,
	skip TEXT NOT NULL,
	cluster INTEGER,
	sketch BLOB
);
CREATE INDEX docs_cluster ON docs (cluster) WHERE cluster IS NOT NULL;
CREATE TABLE texts (ord INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE sketch_detail (ord INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE marks (
	a INTEGER NOT NULL,
	b INTEGER NOT NULL,
	method TEXT NOT NULL,
	score REAL NOT NULL,
	label TEXT NOT NULL,
	evidence TEXT NOT NULL,
	at INTEGER NOT NULL,
	PRIMARY KEY (b, a, method)
) WITHOUT ROWID;
CREATE INDEX marks_a ON marks (a);
CREATE TABLE removals (seq INTEGER PRIMARY KEY, ord INTEGER NOT NULL, data BLOB)
`, `
CREATE TABLE feeds (
	id INTEGER PRIMARY KEY,
	url TEXT NOT NULL UNIQUE,
	config TEXT NOT NULL,
	state TEXT NOT NULL,
	next_poll INTEGER NOT NULL
);
CREATE TABLE feed_items (
	feed INTEGER NOT NULL,
	item TEXT NOT NULL,
	seen INTEGER NOT NULL,
	outcome TEXT NOT NULL,
	doc TEXT NOT NULL,
	lang TEXT NOT NULL,
	tries INTEGER NOT NULL,
	detail TEXT NOT NULL,
	PRIMARY KEY (feed, item)
) WITHOUT ROWID;
CREATE TABLE exact (key INTEGER PRIMARY KEY, ord INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counters VALUES ('feed', 0)
`, `
CREATE VIEW search_source AS SELECT docs.ord AS ord, docs.title AS title, COALESCE(texts.text, '') AS text
	FROM docs LEFT JOIN texts ON texts.ord = docs.ord;
CREATE VIRTUAL TABLE search USING fts5(title, text, content='search_source', content_rowid='ord',
	tokenize='unicode61 remove_diacritics 2');
INSERT INTO search(search) VALUES ('rebuild');
CREATE TRIGGER docs_search_insert AFTER INSERT ON docs BEGIN INSERT INTO search(rowid, title, text)
	VALUES (new.ord, new.title, COALESCE((SELECT text FROM texts WHERE ord = new.ord), '')); END;
` + sqliteSearchDelete + `
`, `
CREATE INDEX docs_source ON docs (source)
`, `
ALTER TABLE docs ADD COLUMN sketch_crc INTEGER;
ALTER TABLE sketch_detail ADD COLUMN crc INTEGER;
ALTER TABLE texts ADD COLUMN crc INTEGER;
ALTER TABLE marks ADD COLUMN crc INTEGER;
ALTER TABLE removals ADD COLUMN crc INTEGER
`, `
CREATE INDEX feed_items_doc ON feed_items (doc)
`, `
SELECT 1 -- version 7 reads "<", ">" and "&" as spaces in PostgreSQL's search; SQLite's tokenizer did already
`, `
CREATE TABLE host_pauses (host TEXT PRIMARY KEY, not_before INTEGER NOT NULL) WITHOUT ROWID
`, `
ALTER TABLE docs ADD COLUMN doc_crc INTEGER
`, `
SELECT 1 -- version 10 reads every ASCII punctuation mark as a space in PostgreSQL's search; SQLite's tokenizer did already
`, claimedURLKeys, `
ALTER TABLE docs ADD COLUMN place INTEGER
`}

// claimedURLKeys, the statements of schema version 11 on both engines,
// are none: its step is made in Go (fillClaimedURLKeys), which decides
// document by document whose URL may be one its page claimed.
const claimedURLKeys = `
SELECT 1 -- version 11 deletes the keys of claimed URLs in Go (fillClaimedURLKeys)
`

var sqliteDialect = dialect{
	name:       "sqlite",
	migrations: sqliteMigrations,
	rebind:     func(q string) string { return q },
	mapErr:     sqliteErr,
	check:      sqliteCheck,
	tables: func(ctx context.Context, db *sql.DB) ([]string, error) {
		return stringRows(ctx, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	},
	hasVersionTable: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`,
	searchDelete:    sqliteSearchDelete,
	match:           sqliteMatch,
	search:          sqliteSearch,
	searchCount:     sqliteSearchCount,
	searchFloor:     sqliteSearchFloor,
}

// openSQLite opens (creating it when missing) the SQLite file at path in
// WAL mode: readers never wait for the writer, and a commit is one append
// to the log.
func openSQLite(ctx context.Context, path string, o Options) (Store, error) {
	if o.Sync == "" {
		o.Sync = DefaultOptions().Sync
	}
	if o.Sync != "full" && o.Sync != "normal" {
		return nil, fmt.Errorf("store: sync %q is not full or normal", o.Sync)
	}
	if path == ":memory:" || strings.HasPrefix(path, "file:") {
		// ":memory:" would be a database of its own on each connection,
		// the schema made on one missing on the next.
		return nil, fmt.Errorf("store: %s is SQLite's name of a database, not the path of a file: an index is a file "+
			"(one in a temporary directory for an index of one run)", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("store: %s is a directory, not an index file", path)
	} else if err == nil && !fi.Mode().IsRegular() {
		// A named pipe would block the open until a writer came, a
		// device read as a disk error.
		return nil, fmt.Errorf("store: %s is not a regular file (%s), not an index file", path, container.FileKind(fi.Mode()))
	} else if err != nil && o.ReadOnly {
		return nil, fmt.Errorf("store: %w", err)
	} else if errors.Is(err, fs.ErrNotExist) {
		// A new index: its directory must be there (SQLite's "cannot
		// open" would read as a file that cannot be written). Through a
		// symbolic link that leads nowhere, SQLite creates the file the
		// link names, in that file's directory.
		end, via := linkEnd(path), ""
		if end != path {
			via = fmt.Sprintf(" (a symbolic link to %s)", end)
		}
		if _, err := os.Stat(filepath.Dir(end)); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("store: %s%s: no directory %s to create the index in", path, via, filepath.Dir(end))
		}
		if why := uncreatable(end); why != "" { // SQLite says "unable to open database file"
			return nil, named(path, fmt.Errorf("%w: %s", ErrReadOnly, why))
		}
	} else if err == nil && !o.ReadOnly {
		// An index this process may not write is read, and only read
		// (see openProtected).
		if why := unwritable(path); why != "" {
			return openProtected(ctx, path, o, why)
		}
	}
	// A file another process is creating (its schema, or the switch to
	// WAL, which SQLite makes under an exclusive lock) refuses a new
	// connection at once, without waiting as a writer waits for another:
	// the open is tried again until the busy timeout has passed.
	busy := busyMillis(o)
	deadline := time.Now().Add(time.Duration(busy) * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		s, err := openSQLiteOnce(ctx, path, o)
		if err == nil || !errors.Is(err, ErrLocked) || time.Now().Add(wait).After(deadline) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// linkEnd returns the path a chain of symbolic links from path ends at, a
// file that is not a link or is missing; path itself when it is no link,
// or when a link cannot be read or the chain is too long (the open that
// follows says why).
func linkEnd(path string) string {
	p := path
	for range 40 {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p
		}
		to, err := os.Readlink(p)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			// Relative to the link's directory as the file system finds
			// it: through a linked directory, ".." is that directory's
			// parent, not the parent the path spells.
			dir := filepath.Dir(p)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			to = filepath.Join(dir, to)
		}
		p = to
	}
	return path
}

// openSQLiteOnce is one try of openSQLite.
func openSQLiteOnce(ctx context.Context, path string, o Options) (Store, error) {
	drv, err := driver("sqlite")
	if err != nil {
		return nil, err
	}
	if err := peekSQLite(ctx, drv, path, o); err != nil {
		return nil, err
	}
	db, _, err := drv.Open(sqliteDSN(path, o))
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	// Four connections for reads, one for writes (see sqlStore.writer),
	// all kept open: a connection opened anew runs the pragmas and reads
	// the schema again, and checks running at once use all four.
	db.SetMaxOpenConns(5)
	db.SetMaxIdleConns(5)
	s := &sqlStore{name: path, db: db, d: &sqliteDialect, readOnly: o.ReadOnly, accept: o.Accept, existing: o.Existing}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, named(path, err)
	}
	if !o.ReadOnly {
		if err := tuneSearch(ctx, db); err != nil {
			db.Close()
			return nil, named(path, s.wrap("setting up the full-text index", err))
		}
		if s.writer, err = db.Conn(ctx); err == nil {
			_, err = s.writer.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = -%d`, writerCacheKiB))
		}
		if err != nil {
			s.Close()
			return nil, named(path, s.wrap("opening the index", err))
		}
		s.checkpoints = startCheckpointer(db, path)
	}
	return s, nil
}

// sqliteHeader is how every SQLite database file begins.
const sqliteHeader = "SQLite format 3\x00"

// SQLiteHeader reports whether head, a file's first bytes, begins as every
// SQLite database file does: a file that may be an index, whatever its
// name.
func SQLiteHeader(head []byte) bool {
	return bytes.HasPrefix(head, []byte(sqliteHeader))
}

// peekSQLite checks, without writing to it, that the file at path is
// missing, empty, a neardup index of a schema version this binary knows, or
// a SQLite database that holds nothing of another program: the connections
// of an index change the file as they open it (the switch to WAL bumps its
// change counter), and a file of another program must stay byte for byte as
// it was.
//
// A file in WAL mode with no log beside it is read as immutable, which
// creates no log and no shared-memory file (a read-only connection
// otherwise creates both and leaves them); no process has it open, or its
// log would be there. Should one begin writing meanwhile, it writes to a
// new log, not to the file, and a read that fails is tried again the
// usual way; one that fails on a file no process began writing is the
// file's damage, returned as it is.
func peekSQLite(ctx context.Context, drv Driver, path string, o Options) error {
	var h [100]byte
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	n, err := io.ReadFull(f, h[:])
	f.Close()
	switch {
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("store: %w", err)
	case n == 0 && o.Existing:
		return named(path, ErrNoIndex)
	case n == 0:
		return nil // a new index in an empty file
	case n < len(h) || !SQLiteHeader(h[:]):
		return named(path, fmt.Errorf("%w: it is not a SQLite database", ErrNotIndex))
	}
	err = peekFile(ctx, drv, path, h[:], o)
	if errors.Is(err, ErrCorrupt) && !errors.As(err, new(*CutShortError)) {
		// SQLite refuses a file shorter than its header says as
		// "malformed": say why.
		if cut := checkHeaderLength(path, h[:]); errors.As(cut, new(*CutShortError)) {
			return named(path, cut)
		}
	}
	return err
}

// peekFile is peekSQLite's read of the SQLite file at path, whose first
// 100 bytes are h.
func peekFile(ctx context.Context, drv Driver, path string, h []byte, o Options) error {
	q := "?mode=ro&_pragma=busy_timeout(" + strconv.Itoa(busyMillis(o)) + ")"
	if _, err := os.Stat(path + "-wal"); h[18] == 2 && errors.Is(err, fs.ErrNotExist) {
		before, _ := os.Stat(path)
		err := peekVersion(ctx, drv, path, q+"&immutable=1", o)
		if err == nil || errors.Is(err, ErrNotIndex) || errors.Is(err, ErrTooNew) || untouched(path, before) {
			return err
		}
	}
	err := peekVersion(ctx, drv, path, q, o)
	if errors.Is(err, ErrReadOnly) {
		if lone := loneLog(path); lone != nil {
			return lone
		}
	}
	return err
}

// loneLog returns the error of a SQLite file at path whose log is beside
// it without the shared-memory file that SQLite reads a log through, which
// this process may not create there (a copy of an index in use, made
// without it, in a directory this process may not write): SQLite cannot
// read such a file ("unable to open database file"), which read as an
// index that cannot be written. It returns nil for any other file.
func loneLog(path string) error {
	real, err := filepath.EvalSymlinks(path) // the log is beside the file a link leads to
	if err != nil {
		real = path
	}
	if _, err := os.Stat(real + "-wal"); err != nil {
		return nil
	}
	if _, err := os.Stat(real + "-shm"); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	why := uncreatable(real + "-shm")
	if why == "" {
		return nil
	}
	return named(path, fmt.Errorf("%w: its log %s is beside it without the shared-memory file %s that SQLite reads a log "+
		"through, and %s: open the index once as a user who may create files there (any neardup index command makes "+
		"the file again), or copy %s and %s together into a directory this process may write",
		ErrUnreadable, real+"-wal", real+"-shm", why, real, real+"-wal"))
}

// untouched reports whether the file at path, as before describes it, has
// no log beside it and is unchanged: no process began writing it, so a
// read of it as immutable that failed found the file damaged, and a read
// the usual way would only leave a log and a shared-memory file beside it.
func untouched(path string, before fs.FileInfo) bool {
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	after, err := os.Stat(path)
	return err == nil && before != nil && after.Size() == before.Size() && after.ModTime().Equal(before.ModTime())
}

// peekVersion reads the schema version of the file at path through a
// connection of the URI parameters q, and refuses a file that is not an
// index or is newer than this binary, one whose settings o.Accept refuses,
// and, unless o is ReadOnly, an index file cut short (see checkLength).
func peekVersion(ctx context.Context, drv Driver, path, q string, o Options) error {
	write := !o.ReadOnly
	db, _, err := drv.Open("file:" + escapeSQLitePath(path) + q)
	if err != nil {
		return fmt.Errorf("store: opening %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	s := &sqlStore{name: path, db: db, d: &sqliteDialect, readOnly: true}
	v, err := s.version(ctx)
	switch {
	case err != nil:
		return named(path, err)
	case v > len(sqliteMigrations):
		return named(path, fmt.Errorf("%w: schema version %d, this binary knows %d", ErrTooNew, v, len(sqliteMigrations)))
	case v > 0 && o.Accept != nil:
		m, ok, err := metaRow(ctx, db)
		if err != nil {
			return named(path, s.wrap("reading the index's settings", err))
		}
		if err := o.Accept(m, ok); err != nil {
			return &refusal{err}
		}
	}
	switch {
	case v > 0 && write:
		return peekLength(ctx, db, path)
	case v > 0:
		return nil
	}
	// No tables: a new index, unless the header marks the file as
	// another program's.
	var app, user int64
	if err := db.QueryRowContext(ctx, `SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version)`).Scan(&app, &user); err != nil {
		return named(path, s.wrap("opening the index", err))
	}
	switch {
	case app != 0 || user != 0:
		return named(path, fmt.Errorf("%w: an empty database of another program (application id %d, user version %d)", ErrNotIndex, app, user))
	case o.Existing:
		return named(path, ErrNoIndex)
	}
	return nil
}

// peekLength returns a *CutShortError, named, when the index file at path,
// open as db, is cut short.
func peekLength(ctx context.Context, db *sql.DB, path string) error {
	var pages, pageSize int64
	if err := db.QueryRowContext(ctx, `SELECT (SELECT page_count FROM pragma_page_count), (SELECT page_size FROM pragma_page_size)`).Scan(&pages, &pageSize); err != nil {
		s := &sqlStore{name: path, db: db, d: &sqliteDialect, readOnly: true}
		return named(path, s.wrap("opening the index", err))
	}
	return named(path, checkLength(path, pageSize, pages))
}

// searchAutomerge is how many segments of one level the full-text index
// merges into one (FTS5's automerge; its default is 4).
//
// Every add's transaction writes a new segment of the full-text index and
// then does some of the merging this calls for, and at four a level most
// of an add's cost under a steady flow of small transactions went to
// merging: a posting is rewritten once a level, and there are
// log(segments)/log(automerge) levels. At eight it is rewritten a third
// less often; a search reads up to seven segments of a level where it
// read three.
const searchAutomerge = 8

// tuneSearch records searchAutomerge in the full-text index's settings
// (which the index keeps), unless it is there already.
func tuneSearch(ctx context.Context, db *sql.DB) error {
	var v int
	switch err := db.QueryRowContext(ctx, `SELECT v FROM search_config WHERE k = 'automerge'`).Scan(&v); {
	case err == nil && v == searchAutomerge:
		return nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	}
	_, err := db.ExecContext(ctx, `INSERT INTO search(search, rank) VALUES ('automerge', ?)`, searchAutomerge)
	return err
}

// sqliteDSN builds the driver's DSN: a file URI (so names holding ? or #
// stay names) and the pragmas every connection runs.
func sqliteDSN(path string, o Options) string {
	name := escapeSQLitePath(path)
	busy := busyMillis(o)
	// A page of 8 KiB holds seven documents' sketch details where one of 4
	// KiB holds three: less space left over. It applies to a new file,
	// before WAL mode fixes it: the driver runs the _pragma list sorted by
	// name, and the _journal_mode key after it.
	// The writer's page cache holds 128 MiB (see writerCacheKiB), a
	// reader's 8 MiB (SQLite's default is 2): a read transaction after
	// another connection's commit begins with an empty cache, and emptying
	// it holds a lock every connection's page cache takes (SQLite's page
	// caches share one), while it frees the pages one at a time: emptying
	// 128 MiB (as after opening the index, which reads every sketch) held
	// every request of a loaded server for seconds. The log is copied into the file every 10,000 pages (80 MiB) rather than
	// every 1,000, so that the pages every add touches (the ends of the
	// tables and indexes) are copied ten times less often. The commit that
	// outgrows the mark copies it: a checkpoint made elsewhere never finds
	// the log wholly copied when a write begins under a steady flow of adds,
	// which is when SQLite starts the log over (tried alone, every second on
	// a connection of its own: the log grew without end, 400 MiB in a
	// minute, every read of a page searching it). A checkpointer copies most
	// of it before, in the background (see checkpointer).
	//
	// SQLite empties a connection's page cache when it begins a
	// transaction after another connection's commit: writes go through a
	// connection of their own (see sqlStore.writer), whose cache no other
	// connection's commit empties; a read after a commit reads its pages
	// anew.
	//
	// A read-only store leaves the file's journal mode as it is (an index
	// is in WAL mode once opened for writing) and changes nothing.
	q := fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=page_size(8192)&_pragma=synchronous(%s)"+
		"&_pragma=cache_size(-%d)&_pragma=wal_autocheckpoint(10000)&_journal_mode=WAL&_txlock=immediate", busy, o.Sync, readerCacheKiB)
	if o.ReadOnly {
		q = fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=cache_size(-%d)&_pragma=query_only(1)", busy, readerCacheKiB)
	}
	return "file:" + name + q
}

// escapeSQLitePath escapes path as the name of a file URI, so that names
// holding ? or # stay names.
func escapeSQLitePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// busyMillis returns o's busy timeout, or the default one.
func busyMillis(o Options) int {
	if o.BusyTimeoutMillis <= 0 {
		return DefaultOptions().BusyTimeoutMillis
	}
	return o.BusyTimeoutMillis
}

// The page caches of the writer's connection and of the others, in KiB.
// The writer's holds what each write reads again: the ends of the tables
// and indexes, the full-text index's newest segments, recent candidates.
const (
	writerCacheKiB = 128 << 10
	readerCacheKiB = 8 << 10
)

// SQLite's primary result codes (the low byte of an extended one): they
// are part of its stable interface.
const (
	sqlitePerm     = 3
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// sqliteErr maps SQLite result codes to the package's errors. A NULL read
// where the schema allows none (as the zeros of a page cut short read
// back) is damage too: SQLite returns whatever a page holds, and neardup
// wrote none such.
func sqliteErr(err error) error {
	if msg := err.Error(); strings.HasPrefix(msg, "sql: Scan error") && strings.Contains(msg, "converting NULL") {
		return ErrCorrupt
	}
	code, e := strconv.Atoi(errCode("sqlite", err))
	if e != nil {
		return nil
	}
	switch code & 0xff {
	case sqliteBusy, sqliteLocked:
		return ErrLocked
	case sqliteReadOnly, sqliteCantOpen, sqlitePerm:
		return ErrReadOnly
	case sqliteCorrupt:
		return ErrCorrupt
	case sqliteNotADB:
		return ErrNotIndex
	case sqliteFull:
		return ErrDiskFull
	case sqliteIOErr:
		return ErrIO
	}
	return nil
}

// sqliteCheck returns the faults of the schema (sqliteSchemaFaults) and
// of SQLite's integrity check, one a line: none when the schema is
// neardup's and the check says "ok", and those listed before damage stopped
// it with the error. A row may hold several lines, the first naming the
// database ("*** in database main ***"), which is left out. The check
// stops at sqliteMaxFaults rows.
//
// The check runs in a read transaction that reads the full-text index
// first: SQLite's check of an FTS5 table uses the table's structure as
// the connection last read it, so that a connection of the pool that had
// searched before another connection (the writer) added documents
// reported a sound file's full-text index as damaged ("fts5: checksum
// mismatch"). A read of the table in the same transaction reads its
// structure afresh (TestVerifyAfterSearch).
func sqliteCheck(ctx context.Context, db *sql.DB) ([]string, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	schema, err := sqliteSchemaFaults(ctx, tx)
	if err != nil {
		return nil, err
	}
	var faults []string
	for _, f := range schema {
		faults = append(faults, f.line)
	}
	// An error here (the table damaged, or missing) is the check's to
	// report.
	var ord int64
	_ = tx.QueryRowContext(ctx, `SELECT rowid FROM search LIMIT 1`).Scan(&ord)
	rows, err := stringRows(ctx, tx, fmt.Sprintf(`PRAGMA integrity_check(%d)`, sqliteMaxFaults))
	if err == nil && len(rows) == 1 && rows[0] == "ok" {
		return faults, nil
	}
	for _, r := range rows {
		for line := range strings.Lines(r) {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "*** in database ") {
				faults = append(faults, line)
			}
		}
	}
	return faults, err
}

// sqliteMaxFaults is the most faults SQLite's integrity check reports
// (its own default is 100, which made a count of 100 look exact).
const sqliteMaxFaults = 100000

// stringRows returns the one column of the rows of query q; on an error
// part way, those read until then with it.
func stringRows(ctx context.Context, db interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// sqliteSearchDelete is the trigger that takes a document removed out of
// the full-text index, with the title and text it was indexed with: what
// the tables hold, unless damage changed them (see txn.Remove).
const sqliteSearchDelete = `CREATE TRIGGER docs_search_delete AFTER DELETE ON docs BEGIN INSERT INTO search(search, rowid, title, text)
	VALUES ('delete', old.ord, old.title, COALESCE((SELECT text FROM texts WHERE ord = old.ord), '')); END`
