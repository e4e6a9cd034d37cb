package store

import (
	"database/sql"
	"fmt"
	"sync"
)

// A Driver connects the store to one database engine's Go driver: the SQL,
// the schema and its migrations are the store's; opening connections and
// reading the engine's error codes are the driver's. Package
// internal/store/drivers registers the SQLite and PostgreSQL drivers; a
// program that opens stores imports it, so that code which only handles
// stored documents (the methods, the batch) links no database driver.
type Driver struct {
	// Open returns a pool of connections to dsn and where it leads, for
	// messages: a SQLite driver DSN, or a PostgreSQL URL.
	Open func(dsn string) (db *sql.DB, where string, err error)
	// Code returns the engine's code of the error err carries (SQLite's
	// extended result code in decimal, PostgreSQL's SQLSTATE), or "".
	Code func(err error) string
	// Lost reports whether err says the connection to the database is
	// lost or cannot be made (see Unreachable); nil for an engine with no
	// server.
	Lost func(err error) bool
}

var (
	driversMu sync.RWMutex
	drivers   = map[string]Driver{}
)

// Register makes d the driver of engine, "sqlite" or "postgres", for Open.
func Register(engine string, d Driver) {
	driversMu.Lock()
	defer driversMu.Unlock()
	drivers[engine] = d
}

// driver returns the registered driver of engine.
func driver(engine string) (Driver, error) {
	driversMu.RLock()
	defer driversMu.RUnlock()
	d, ok := drivers[engine]
	if !ok {
		return Driver{}, fmt.Errorf("store: this program was built without the %s driver (import internal/store/drivers)", engine)
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

// lost reports whether a registered driver takes err for a lost
// connection.
func lost(err error) bool {
	driversMu.RLock()
	defer driversMu.RUnlock()
	for _, d := range drivers {
		if d.Lost != nil && d.Lost(err) {
			return true
		}
	}
	return false
}
