package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/store"
)

// The log of a SQLite index is copied into the file in the background once
// it holds a few megabytes, well before the commit that outgrows its mark
// (tens of megabytes) would copy it: the file grows by what the log held,
// while nothing writes.
func TestLogCopiedInTheBackground(t *testing.T) {
	const from = 1 << 20 // the mark, 8 MB in use
	store.SetCheckpointing(t, 20*time.Millisecond, from)
	path := filepath.Join(t.TempDir(), "x.db")
	st := open(t, path)
	text := strings.Repeat("word ", 20000) // 100 kB
	update(t, st, func(w store.Writer) error {
		for i := range 15 {
			if _, err := w.Insert(&store.Doc{ID: fmt.Sprint("d", i), Text: text}, nil); err != nil {
				return err
			}
		}
		return nil
	})
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	if wal := size(path + "-wal"); wal < from*5/4 {
		t.Fatalf("the log holds %d bytes, want at least %d", wal, from*5/4)
	}
	before := size(path)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if size(path) >= before+from {
			return
		}
	}
	t.Errorf("the file grew from %d to %d bytes in 10 s: the log was not copied into it", before, size(path))
}
