package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointEvery is how often a SQLite store that writes copies its log
// into the database file.
const checkpointEvery = time.Second

// checkpointer copies a SQLite store's log into the database file in the
// background, a passive checkpoint every checkpointEvery, in place of the
// writer doing it in the commit that made the log outgrow
// wal_autocheckpoint: that copy (tens of MiB and a sync of the file) stalled
// the add that crossed the mark, and every add waiting behind it. A passive
// checkpoint waits for nothing: it copies what no reader still needs while
// writers go on appending, and the log starts over once a checkpoint has
// copied all of it.
type checkpointer struct {
	stop context.CancelFunc
	done sync.WaitGroup
}

// startCheckpointer starts the checkpoints on a connection of db of their
// own: on one of the pool's, they would send the index's reads and writes
// to another connection meanwhile, whose page cache SQLite would then empty
// (see sqliteDSN).
func startCheckpointer(ctx context.Context, db *sql.DB) (*checkpointer, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	c := &checkpointer{stop: stop}
	c.done.Add(1)
	go func() {
		defer c.done.Done()
		defer conn.Close()
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A failure is the next tick's to retry; the writer's own
			// autocheckpoint bounds the log meanwhile.
			var busy, log, copied int
			_ = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &copied)
		}
	}()
	return c, nil
}

// close stops the checkpoints and waits for the one under way.
func (c *checkpointer) close() {
	c.stop()
	c.done.Wait()
}
