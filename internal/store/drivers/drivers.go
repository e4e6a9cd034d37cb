// Package drivers registers the database drivers of package store: SQLite
// (modernc.org/sqlite, pure Go) and PostgreSQL (pgx). A program that opens
// stores imports it for its side effect:
//
//	import _ "github.com/neardup/neardup/internal/store/drivers"
package drivers

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"

	"github.com/neardup/neardup/internal/store"
)

func init() {
	store.Register("sqlite", store.Driver{Open: openSQLite, Code: sqliteCode})
	store.Register("postgres", store.Driver{Open: openPostgres, Code: postgresCode, Lost: postgresLost})
}

func openSQLite(dsn string) (*sql.DB, string, error) {
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

func openPostgres(dsn string) (*sql.DB, string, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, "", err
	}
	return stdlib.OpenDB(*cfg), fmt.Sprintf("%s:%d/%s", cfg.Host, cfg.Port, cfg.Database), nil
}

// postgresLost reports whether err says the server cannot be reached or
// closed the connection: it failed to connect, or used a connection that
// was closed under it.
func postgresLost(err error) bool {
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || errors.Is(err, pgconn.ErrConnClosed)
}

func postgresCode(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	return pe.Code
}
