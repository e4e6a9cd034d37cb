//go:build unix

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/store"
)

// liveDeadline bounds the wait for a record written to a stream held open
// to be stored: far more than it takes, so that a slow machine does not
// fail the tests; a record held until the stream ends is never stored.
const liveDeadline = 60 * time.Second

// storedCount returns how many documents the index at db holds, -1 while
// it cannot be read (not created yet).
func storedCount(t *testing.T, db string) int {
	t.Helper()
	st, err := store.Open(t.Context(), db, store.Options{ReadOnly: true})
	if err != nil {
		return -1
	}
	defer st.Close()
	n := -1
	st.View(t.Context(), func(r store.Reader) error {
		c, err := r.Counts()
		if err == nil {
			n = c.Documents
		}
		return err
	})
	return n
}

// waitStored waits, up to liveDeadline, until the index at db holds want
// documents.
func waitStored(t *testing.T, db string, want int, stderr *bytes.Buffer) {
	t.Helper()
	for end := time.Now().Add(liveDeadline); ; time.Sleep(20 * time.Millisecond) {
		n := storedCount(t, db)
		if n == want {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d documents stored after %s with the stream open, want %d; stderr:\n%s", n, liveDeadline, want, stderr)
		}
	}
}

// TestIndexAddStoresRecordsOfLiveStream: `index add` of standard input or
// a named pipe that a writer holds open stores each record as it arrives,
// its chunk committed once read, while the stream waits for more.
// Regression: the check of the field names read the first 100 records
// ahead, and the decoding took them 256 at a time, so that a stream that
// gave fewer (one article, then a pause) had none stored until it ended.
func TestIndexAddStoresRecordsOfLiveStream(t *testing.T) {
	t.Parallel()
	record := jsonlDocs("live", 1)
	for _, tc := range []struct {
		name string
		fifo bool
		args []string
	}{
		{"stdin", false, nil},
		{"stdin, --format jsonl", false, []string{"--format", "jsonl"}},
		{"named pipe", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			db := filepath.Join(dir, "x.db")
			input := "-"
			if tc.fifo {
				input = filepath.Join(dir, "news.jsonl")
				if err := syscall.Mkfifo(input, 0o600); err != nil {
					t.Skipf("no named pipes here: %v", err)
				}
			}
			cmd := child(t, append([]string{"index", "add", "--db", db, "--chunk", "1", input}, tc.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			var w interface {
				Write([]byte) (int, error)
				Close() error
			}
			if !tc.fifo {
				in, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				w = in
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() }) // a child left waiting when the test fails
			if tc.fifo {
				f, err := os.OpenFile(input, os.O_WRONLY, 0) // waits for the child to open it
				if err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatal(err)
				}
				w = f
			}
			if _, err := w.Write(record); err != nil {
				t.Fatal(err)
			}
			waitStored(t, db, 1, &stderr)
			w.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v; stderr:\n%s", err, &stderr)
			}
		})
	}
}

// TestSignalStoresRecordsReadOfLiveStdin: a SIGINT while `index add` waits
// for standard input leaves stored the records it read, each chunk
// committed as it came. Regression: the records were held to check their
// field names until 100 came, and SIGINT stopped the run with none
// stored ("0 documents added").
func TestSignalStoresRecordsReadOfLiveStdin(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "x.db")
	cmd := child(t, "index", "add", "--db", db, "--chunk", "1", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() }) // a child left waiting when the test fails
	const n = 13
	if _, err := stdin.Write(jsonlDocs("sig", n)); err != nil {
		t.Fatal(err)
	}
	waitStored(t, db, n, &stderr)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, cmd, syscall.SIGINT, &stderr)
	if got := storedCount(t, db); got != n {
		t.Errorf("%d documents stored after SIGINT, want %d", got, n)
	}
	// The progress line says so, as docs/inputs.md promises; it read as
	// a run that finished.
	if want := fmt.Sprintf("adding: interrupted after %d docs", n); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant a line %q", &stderr, want)
	}
}

// TestIndexAddWarnsOfMissingFieldAtPause: `index add --text-col body -`
// whose first record, written alone while the stream stays open, has no
// "body" field warns at once, naming the field and the fields seen; at the
// stream's end, none of its records having it, it fails as a file would.
// Regression: nothing was said until 100 records or the stream's end.
func TestIndexAddWarnsOfMissingFieldAtPause(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "x.db")
	cmd := child(t, "index", "add", "--db", db, "--text-col", "body", "-")
	in, errs := startPiped(t, cmd, true)
	if _, err := in.Write(jsonlDocs("live", 1)); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(liveDeadline, func() { cmd.Process.Kill() }) // ends the read below
	defer timer.Stop()
	const want = `warning: stdin: the one record so far has no field "body" (the text; --text-col names it); fields seen: `
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	for !bytes.Contains(seen.Bytes(), []byte(want)) {
		n, err := errs.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			t.Fatalf("stderr ended without the warning (%v):\n%s", err, &seen)
		}
	}
	in.Close()
	rest, _ := io.ReadAll(errs)
	seen.Write(rest)
	if err := cmd.Wait(); err == nil || !bytes.Contains(seen.Bytes(), []byte(`its one record has no field "body" (the text)`)) {
		t.Errorf("exit %v at the stream's end, want the field error; stderr:\n%s", err, &seen)
	}
}

// TestLiveStreamAnswersAtDefaultChunk: `index add -` at its default chunk
// (1000) stores and prints a record that arrives alone while the stream
// stays open, and `index query -` answers one so: the chunk ends where the
// stream waits, also when the last record before the wait is skipped.
// Regression: a record waited for the chunk to fill or the stream to end,
// and `index query`, which has no --chunk, answered nothing until the end.
func TestLiveStreamAnswersAtDefaultChunk(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "x.db")
	for _, command := range []string{"add", "query"} {
		cmd := child(t, "index", command, "--db", db, "-")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		in, out := startPiped(t, cmd, false)
		// The record, and one skipped (an empty text) last before the
		// stream waits.
		if _, err := in.Write(append(jsonlDocs("live", 1), `{"id":"empty","text":""}`+"\n"...)); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(liveDeadline, func() { cmd.Process.Kill() }) // ends the read below
		line, err := bufio.NewReader(out).ReadString('\n')
		timer.Stop()
		if err != nil || !strings.Contains(line, `"id":"live0"`) {
			t.Fatalf("index %s: %q, %v with the stream open after one record, want its line", command, line, err)
		}
		if command == "add" && storedCount(t, db) != 1 {
			t.Errorf("index add: %d documents stored with the stream open after one record, want 1", storedCount(t, db))
		}
		in.Close()
		io.Copy(io.Discard, out)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("index %s: %v; stderr:\n%s", command, err, &stderr)
		}
	}
}
