package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// closedPipe returns the write end of a pipe whose read end is closed, as
// `2>&1 | head -1` leaves it once head has ended.
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// TestClosedStderrDoesNotKillARun is the regression test of a run whose
// stderr was a pipe closed under it (neardup dedup ... 2>&1 | head -1): the
// first warning after it killed the process by SIGPIPE, exit 141, leaving
// its lock and its temporary directory beside the output. The warnings are
// dropped and the run ends as it would have.
func TestClosedStderrDoesNotKillARun(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeCorpus(t, dir, 30)
	f, err := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("{\"id\": \"broken\", \"text\": \n", 200)) // a warning each
	f.Close()
	out := filepath.Join(dir, "out")
	cmd := child(t, "dedup", "-q", in, "-o", out)
	cmd.Stderr = closedPipe(t)
	if err := cmd.Run(); err != nil {
		t.Fatalf("neardup dedup with its stderr closed: %v, want success", err)
	}
	if _, err := os.Stat(filepath.Join(out, "pairs.jsonl")); err != nil {
		t.Errorf("no results: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".out*"))
	if len(left) > 0 {
		t.Errorf("left beside the output: %q", left)
	}
}

// TestClosedStdoutEndsARun wants a command writing its results on a stdout
// closed under it (neardup index add ... | head -0) to end as SIGPIPE
// ended it, exit 141 and not a word on stderr (a reviewer's regression:
// "neardup: writing matches: write /dev/stdout: broken pipe", exit 1),
// but having stopped on its own: what it committed stays sound.
func TestClosedStdoutEndsARun(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeCorpus(t, dir, 30)
	db := filepath.Join(dir, "n.db")
	cmd := child(t, "index", "add", "-q", "--db", db, in)
	cmd.Stdout = closedPipe(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 141 {
		t.Fatalf("neardup index add with its stdout closed: %v, want exit 141 (stderr %q)", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
	verify := child(t, "index", "verify", "--db", db)
	if out, err := verify.CombinedOutput(); err != nil {
		t.Errorf("index verify after the stop: %v\n%s", err, out)
	}
}
