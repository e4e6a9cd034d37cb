package store

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// SetCheckpointing makes the checkpointers of the stores a test opens look
// at the log every interval and copy it from the given size on, until the
// test ends. Tests that call it do not run in parallel with others.
func SetCheckpointing(t testing.TB, every time.Duration, from int64) {
	e, f := checkpointEvery, checkpointFrom
	checkpointEvery, checkpointFrom = every, from
	t.Cleanup(func() { checkpointEvery, checkpointFrom = e, f })
}

// PostgresMaxConns is how many connections a PostgreSQL store keeps.
const PostgresMaxConns = postgresMaxConns

// SchemaVersion is the version of the schema this binary writes.
var SchemaVersion = len(sqliteMigrations)

// OpenProtected opens the SQLite index at path as one this process may not
// write, for the reason why.
func OpenProtected(ctx context.Context, path, why string) (Store, error) {
	return openProtected(ctx, path, DefaultOptions(), why)
}

// LockPostgres takes a PostgreSQL index's writer lock in tx, waiting for
// another session's at most wait, as a write does.
func LockPostgres(ctx context.Context, tx *sql.Tx, wait time.Duration) error {
	return postgresDialect.lock(ctx, tx, wait)
}

// IndexSum is the checksum of an index part stored under ordinal ord.
func IndexSum(ord int64, data []byte) int32 { return recordSum(partIndex, ord, data) }

// RecordSum is the checksum a write stores with d's record (doc_crc).
func RecordSum(d *Doc) int32 { return docSum(d) }
