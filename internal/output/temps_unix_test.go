//go:build unix

package output

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// TestWriteAtomicRemovesKilledRunsTemps: the temporary file of a run
// killed while writing (kill -9) stayed beside the output for good; a
// later write of the same file removes it, and leaves the one of a run
// still writing, which holds its lock.
func TestWriteAtomicRemovesKilledRunsTemps(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "res[1].jsonl") // a name with glob characters
	killed := filepath.Join(dir, ".res[1].jsonl.3158029176.tmp")
	if err := os.WriteFile(killed, []byte(`{"id":"a"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	running, err := os.CreateTemp(dir, ".res[1].jsonl.*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	if err := syscall.Flock(int(running.Fd()), syscall.LOCK_EX); err != nil { // as a run writing it holds it
		t.Fatal(err)
	}
	other := filepath.Join(dir, ".other.jsonl.1.tmp")      // another output's
	users := filepath.Join(dir, ".res[1].jsonl.notes.tmp") // a user's, of a name no run makes
	for _, p := range []string{other, users} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteAtomic(out, func(w *bufio.Writer) error { _, err := w.WriteString("{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("the killed run's %s is left: %v", filepath.Base(killed), err)
	}
	for _, p := range []string{running.Name(), other, users} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s is removed: %v", filepath.Base(p), err)
		}
	}
	if got, err := os.ReadFile(out); err != nil || string(got) != "{}\n" {
		t.Errorf("output %q, %v", got, err)
	}
}

// TestWriteAtomicConcurrentWithCleanup: runs writing one output while
// others remove the temporary files of killed runs lose none of theirs.
// Regression: the file was unlocked (closed) before its rename, and
// another run's cleanup removed it in between ("rename …: no such file").
func TestWriteAtomicConcurrentWithCleanup(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res.jsonl")
	done := make(chan struct{})
	var cleaned sync.WaitGroup
	cleaned.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
				removeDeadTemps(out)
			}
		}
	})
	for i := range 500 {
		if err := WriteAtomic(out, func(w *bufio.Writer) error { _, err := fmt.Fprintf(w, "%d\n", i); return err }); err != nil {
			t.Errorf("write %d: %v", i, err)
			break
		}
	}
	close(done)
	cleaned.Wait()
}
