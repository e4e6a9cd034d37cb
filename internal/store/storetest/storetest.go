// Package storetest gives tests a store to run against: a SQLite file in
// the test's temporary directory, or a schema of its own in the PostgreSQL
// server named by $NEARDUP_TEST_POSTGRES, so that every suite runs against
// both engines. .ci/run starts a throw-away server and sets the variable,
// with NEARDUP_REQUIRE_POSTGRES=1 so that a missing server fails instead of
// skipping.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make and drop schemas
	_ "modernc.org/sqlite"             // the "sqlite" driver, to hold a file's write lock
)

// Engines are the names of the store engines a test runs against.
var Engines = []string{"sqlite", "postgres"}

// DSN returns the address of a new, empty store of the engine for t, removed
// when t ends. A PostgreSQL store is skipped when no server is configured
// (and fails the test when one is required).
func DSN(t testing.TB, engine string) string {
	t.Helper()
	if engine == "sqlite" {
		return filepath.Join(t.TempDir(), "index.db")
	}
	return PostgresDSN(t)
}

// PostgresDSN returns the URL of a new schema in the test server, dropped
// when t ends.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv("NEARDUP_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("NEARDUP_REQUIRE_POSTGRES") != "" {
			t.Fatal("NEARDUP_REQUIRE_POSTGRES is set but NEARDUP_TEST_POSTGRES names no server")
		}
		t.Skip("no PostgreSQL server: set NEARDUP_TEST_POSTGRES=postgres://... (.ci/run starts one) to run this test")
	}
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PingContext(context.Background()); err != nil {
		if os.Getenv("NEARDUP_REQUIRE_POSTGRES") != "" {
			t.Fatalf("PostgreSQL at $NEARDUP_TEST_POSTGRES: %v", err)
		}
		t.Skipf("PostgreSQL at $NEARDUP_TEST_POSTGRES is not reachable: %v", err)
	}
	schema := fmt.Sprintf("test_%d", rand.Uint64()>>1)
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// openDirect opens the database of the store at dsn with its driver alone.
func openDirect(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	driver := "sqlite"
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Overwrite returns SQL, for the engine of dsn, that overwrites sixteen
// bytes (0xA5) from the ninth of column of table's rows where where holds:
// a blob damaged in place, as a failing disk damages it.
func Overwrite(dsn, table, column, where string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return `UPDATE ` + table + ` SET ` + column + ` = overlay(` + column + ` placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16) WHERE ` + where
	}
	return `UPDATE ` + table + ` SET ` + column + ` = CAST(substr(` + column + `, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(` + column + `, 25) AS BLOB) WHERE ` + where
}

// Exec runs SQL statements on the store at dsn directly, bypassing package
// store: a test damages an index as a failing disk or a hand-made edit
// would.
func Exec(t testing.TB, dsn string, stmts ...string) {
	t.Helper()
	db := openDirect(t, dsn)
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// Rows runs query on the store at dsn directly, bypassing package store,
// and returns its rows, each the values of its columns.
func Rows(t testing.TB, dsn, query string) [][]any {
	t.Helper()
	db := openDirect(t, dsn)
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// HoldWriteLock takes the write lock of the SQLite index at path on a
// connection of its own, as another process writing to the index holds it,
// until release is called or the test ends.
func HoldWriteLock(t testing.TB, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		conn.Close()
		db.Close()
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
				t.Error(err)
			}
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}
