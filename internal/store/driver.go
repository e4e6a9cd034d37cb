package store

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// A Driver connects the store to one database engine's Go driver: the SQL,
// the schema and its migrations are the store's; opening connections and
// reading the engine's error codes are the driver's. Open chooses the
// engine by the DSN (see IsPostgres).
type Driver struct {
	// Open returns a pool of connections to dsn and where it leads, for
	// messages (for PostgreSQL the server, database and schema, see
	// postgresWhere; "" for SQLite, whose callers name its file).
	Open func(dsn string) (db *sql.DB, where string, err error)
	// Code returns the engine's code of the error err carries (SQLite's
	// extended result code in decimal, PostgreSQL's SQLSTATE), or "".
	Code func(err error) string
	// Lost reports whether err says the connection to the database is
	// lost or cannot be made (see Unreachable); nil for an engine with no
	// server.
	Lost func(err error) bool
}

// drivers are the store's engines: SQLite (modernc.org/sqlite, pure Go)
// and PostgreSQL (pgx).
var drivers = map[string]Driver{
	"sqlite":   {Open: sqliteOpen, Code: sqliteCode},
	"postgres": {Open: postgresOpen, Code: postgresCode, Lost: postgresLost},
}

// driver returns the driver of engine.
func driver(engine string) (Driver, error) {
	d, ok := drivers[engine]
	if !ok {
		return Driver{}, fmt.Errorf("store: no driver for the engine %q", engine)
	}
	return d, nil
}

// errCode returns the code of err by the driver of engine, or "".
func errCode(engine string, err error) string {
	d, e := driver(engine)
	if e != nil || d.Code == nil {
		return ""
	}
	return d.Code(err)
}

// connLost reports whether err, of a store of engine, says its connection
// to the server was lost: surely (the driver's Lost, a connection
// database/sql found bad), or maybe (an EOF or a network error: where a
// reply was due, or from the caller's own work inside a transaction, as a
// client gone while an export streamed to it). Both are false for an
// engine without a server, and for a cancelled context's error.
func connLost(engine string, err error) (surely, maybe bool) {
	d, e := driver(engine)
	if e != nil || d.Lost == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false, false
	}
	if d.Lost(err) || errors.Is(err, sqldriver.ErrBadConn) {
		return true, true
	}
	var op *net.OpError
	return false, errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.As(err, &op)
}

// lost reports whether a driver takes err for a lost connection.
func lost(err error) bool {
	for _, d := range drivers {
		if d.Lost != nil && d.Lost(err) {
			return true
		}
	}
	return false
}

func sqliteOpen(dsn string) (*sql.DB, string, error) {
	db, err := sql.Open("sqlite", dsn)
	return db, "", err
}

func sqliteCode(err error) string {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return ""
	}
	return strconv.Itoa(se.Code())
}

func postgresOpen(dsn string) (*sql.DB, string, error) {
	if err := CheckURL(dsn); err != nil {
		return nil, "", err
	}
	cfg, err := postgresConfig(dsn)
	if err != nil {
		return nil, "", parseError(dsn, err)
	}
	return stdlib.OpenDB(*cfg), postgresWhere(cfg), nil
}

// postgresConfig reads a PostgreSQL URL, its scheme in any case, with
// connecting bounded by postgresConnectTimeout unless the URL or the
// environment sets the wait.
func postgresConfig(dsn string) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(lowerScheme(dsn))
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 && !explicitTimeout(dsn) {
		cfg.ConnectTimeout = postgresConnectTimeout
	}
	return cfg, nil
}

// postgresWhere returns where cfg leads, for messages: the server and the
// database, and the schema when the URL's search_path names one (the
// search_path itself when it names several), so that indexes in schemas
// of one database read apart; never the password.
func postgresWhere(cfg *pgx.ConnConfig) string {
	where := net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))) + "/" + cfg.Database
	path := cfg.RuntimeParams["search_path"]
	switch names := searchPathNames(path, cfg.User); {
	case len(names) == 1 && names[0] != "":
		where += ", schema " + names[0]
	case len(names) > 1:
		where += ", search_path " + strings.TrimSpace(path)
	}
	return where
}

// postgresLost reports whether err says the server cannot be reached or
// closed the connection: it failed to connect, used a connection that
// was closed under it, or the server ended the session as it shut down
// (SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
// cannot_connect_now).
func postgresLost(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	switch postgresCode(err) {
	case "57P01", "57P02", "57P03":
		return true
	}
	return false
}

func postgresCode(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	return pe.Code
}
