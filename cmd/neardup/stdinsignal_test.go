package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/enginetest"
)

// stopDeadline bounds the wait for a child to exit once signalled: far
// more than it takes, so that a slow machine does not fail the tests; a
// child that waits for input ignoring the signal never exits.
const stopDeadline = 20 * time.Second

// jsonlDocs returns n JSON Lines documents with ids prefix0, prefix1, ….
func jsonlDocs(prefix string, n int) []byte {
	g := enginetest.NewTextGen(7)
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"id":"%s%d","text":%q}`+"\n", prefix, i, strings.Join(g.Sentences(6), " "))
	}
	return b.Bytes()
}

// waitStopped waits, up to stopDeadline, for cmd, signalled with sig, to
// exit with 128 + sig and say so on stderr; a child still running then is
// killed and fails the test.
func waitStopped(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, stderr *bytes.Buffer) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(stopDeadline):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("still running %v after %s, waiting for standard input; stderr:\n%s", stopDeadline, signalName(sig), stderr)
	}
	var exit *exec.ExitError
	if want := 128 + int(sig); !errors.As(err, &exit) || exit.ExitCode() != want {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, want, stderr)
	}
	if want := "stopped by " + signalName(sig); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}

// writeDrained writes data into the pipe w of cmd's standard input and
// waits, up to stopDeadline, until cmd has read all of it: the pipe holds
// nothing more (where the system tells: pipeTells).
func writeDrained(t *testing.T, cmd *exec.Cmd, w *os.File, data []byte, stderr *bytes.Buffer) {
	t.Helper()
	wrote := make(chan error, 1)
	go func() {
		_, err := w.Write(data)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatalf("writing: %v; stderr:\n%s", err, stderr)
		}
	case <-time.After(stopDeadline):
		cmd.Process.Kill()
		t.Fatalf("the child read nothing in %s", stopDeadline)
	}
	if !pipeTells {
		return
	}
	for end := time.Now().Add(stopDeadline); ; time.Sleep(5 * time.Millisecond) {
		n, err := pipeHolds(w)
		if err != nil {
			t.Fatalf("bytes in the pipe: %v", err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(end) {
			cmd.Process.Kill()
			t.Fatalf("the child left %d bytes in the pipe for %s; stderr:\n%s", n, stopDeadline, stderr)
		}
	}
}

// The first SIGINT or SIGTERM stops `index add -` while standard input,
// a pipe its writer holds open, gives nothing more: the chunks committed
// before stay stored, each printed, and the index is whole; nothing of the
// documents read since is stored, the index's chunks whole (regression: the add went on waiting for
// input until stdin closed).
func TestSignalStopsIndexAddWaitingForStdin(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "x.db")
			cmd := child(t, "index", "add", "--db", db, "--chunk", "50", "-")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			// A first batch, then nothing: the pipe stays open.
			const batch, committed = 1000, 500
			go stdin.Write(jsonlDocs("d", batch)) // what is read of it is checked below
			// The lines of documents stored come as their chunks commit.
			lines := bufio.NewScanner(stdout)
			lines.Buffer(nil, 1<<20)
			printed := map[string]bool{}
			seen := make(chan error, 1)
			go func() {
				for len(printed) < committed && lines.Scan() {
					var res struct{ ID, Status string }
					if err := json.Unmarshal(lines.Bytes(), &res); err != nil || res.Status != "added" {
						seen <- fmt.Errorf("line %q: %v", lines.Text(), err)
						return
					}
					printed[res.ID] = true
				}
				seen <- lines.Err()
			}()
			select {
			case err := <-seen:
				if err != nil || len(printed) < committed {
					t.Fatalf("%d documents printed (%v); stderr:\n%s", len(printed), err, &stderr)
				}
			case <-time.After(stopDeadline):
				cmd.Process.Kill()
				t.Fatalf("fewer than %d documents added in %s", committed, stopDeadline)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			// The rest of stdout: documents whose chunks committed
			// meanwhile.
			rest := make(chan error, 1)
			go func() {
				for lines.Scan() {
					var res struct{ ID string }
					if err := json.Unmarshal(lines.Bytes(), &res); err != nil {
						rest <- fmt.Errorf("line %q: %v", lines.Text(), err)
						return
					}
					printed[res.ID] = true
				}
				rest <- lines.Err()
			}()
			// Stdout read to its end before Wait, which closes it
			// (regression: "read |0: file already closed").
			select {
			case err := <-rest:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(stopDeadline):
				cmd.Process.Kill()
				t.Fatalf("stdout still open %s after %s; stderr:\n%s", stopDeadline, signalName(sig), &stderr)
			}
			waitStopped(t, cmd, sig, &stderr)
			ids, _ := storedIndex(t, db)
			if len(ids) != len(printed) {
				t.Errorf("%d documents stored, %d printed", len(ids), len(printed))
			}
			for id := range printed {
				if !ids[id] {
					t.Errorf("%s printed, not stored", id)
				}
			}
			verifyClean(t, db)
		})
	}
}

// Every command that reads standard input stops at the first SIGINT or
// SIGTERM while stdin, a pipe its writer holds open, gives nothing more,
// with 128 + the signal's number, a progress line saying "interrupted"
// (regressions: each went on waiting for input until stdin closed, diff
// --corpus - after the others; dedup's progress line said "stopped by an
// error").
func TestSignalStopsCommandsWaitingForStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stored, _ := writeCorpus(t, dir, 10)
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, stored)
	page := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(page, []byte("A page of a few words to compare with.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		progress string // what stderr says of the stage stopped, if anything
	}{
		{"dedup", []string{"dedup", "-", "-o", "out"}, "reading: interrupted after"},
		{"index query", []string{"index", "query", "--db", db, "-"}, ""},
		{"extract", []string{"extract", "-", "-o", "pages.jsonl"}, ""},
		{"diff", []string{"diff", "-", page}, ""},
		{"diff --corpus", []string{"diff", "--corpus", "-", "d1", "d2"}, ""},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+"/"+signalName(sig), func(t *testing.T) {
				t.Parallel()
				work := t.TempDir()
				cmd := child(t, tc.args...)
				cmd.Dir = work
				stdout, stdin, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				var stderr bytes.Buffer
				cmd.Stdin, cmd.Stdout, cmd.Stderr = stdout, io.Discard, &stderr
				err = cmd.Start()
				stdout.Close()
				if err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
				// A record begun: once the child has read it, it
				// catches signals and waits for the rest; no record is
				// under way in it, which a stop between records would
				// end, not the read's.
				begun := []byte(`{"id":"x","text":"a record begun`)
				if !pipeTells {
					// Four times what a pipe holds (64 KiB) and more:
					// once written, the child is reading, its signals
					// caught.
					begun = append(jsonlDocs("d", 400), begun...)
				}
				writeDrained(t, cmd, stdin, begun, &stderr)
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				waitStopped(t, cmd, sig, &stderr)
				if strings.Contains(stderr.String(), "stopped by an error") || !strings.Contains(stderr.String(), tc.progress) {
					t.Errorf("stderr does not say %q, or says the stage was stopped by an error:\n%s", tc.progress, &stderr)
				}
				if left := leftovers(t, work); len(left) > 0 {
					t.Errorf("left behind: %v", left)
				}
			})
		}
	}
}

// neardup eval, reading its truth or a prediction from a named pipe
// (`--pred <(zcat pairs.jsonl.gz)`) whose writer holds it open and sends
// nothing more, stops at the first SIGINT or SIGTERM with 128 + the
// signal's number. Regression: it read its files without a way to give up,
// and went on waiting.
func TestSignalStopsEvalWaitingForAPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	truth, pred := filepath.Join(dir, "truth.jsonl"), filepath.Join(dir, "pairs.jsonl")
	if err := os.WriteFile(truth, []byte(`{"id":"a","cluster":1}`+"\n"+`{"id":"b","cluster":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pred, []byte(`{"a":"a","b":"b","label":"duplicate"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, piped := range []string{"--truth", "--pred"} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(piped+"/"+signalName(sig), func(t *testing.T) {
				t.Parallel()
				fifo := filepath.Join(t.TempDir(), "pipe.jsonl")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skipf("no named pipes here: %v", err)
				}
				args := map[string]string{"--truth": truth, "--pred": pred}
				args[piped] = fifo
				cmd := child(t, "eval", "--truth", args["--truth"], "--pred", args["--pred"])
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = io.Discard, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// The open returns once the child opened the pipe to
				// read it: it catches signals by then.
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatal(err)
				}
				defer w.Close()
				if _, err := w.Write([]byte(`{"id":"a",`)); err != nil {
					t.Fatal(err)
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				waitStopped(t, cmd, sig, &stderr)
			})
		}
	}
}
