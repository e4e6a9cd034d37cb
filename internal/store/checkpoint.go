package store

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"time"
)

// checkpointEvery is how often a checkpointer looks at the log, and
// checkpointFrom the size of the log from which it copies it into the file
// (variables only so that a test can look sooner at a smaller log).
var (
	checkpointEvery       = time.Second
	checkpointFrom  int64 = 8 << 20
)

// checkpointer copies a SQLite file's log into the file in the background
// (a passive checkpoint, on a connection of the pool), once a second while
// the log holds more than checkpointFrom bytes, beside the writer.
//
// The commit that makes the log outgrow its mark (wal_autocheckpoint, see
// sqliteDSN) still copies it, and only then can SQLite start the log over
// (a checkpoint beside a steady flow of writes never finds it wholly
// copied); but it finds most of it copied and synced already, and copies
// the rest, where it copied the whole log (tens of MB, then a sync of the
// file) while every add of its batch, and those waiting, waited.
type checkpointer struct {
	stop     chan struct{}
	stopOnce sync.Once
	done     sync.WaitGroup
}

func startCheckpointer(db *sql.DB, path string) *checkpointer {
	c := &checkpointer{stop: make(chan struct{})}
	c.done.Add(1)
	go func() {
		defer c.done.Done()
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-t.C:
			}
			if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() < checkpointFrom {
				continue
			}
			// A failure (the file busy, or closing) is the next tick's to
			// try again: the writer's own checkpoints keep the log bounded.
			db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}()
	return c
}

// close stops the checkpointer and waits for it; a second call does
// nothing more.
func (c *checkpointer) close() {
	c.stopOnce.Do(func() { close(c.stop) })
	c.done.Wait()
}
