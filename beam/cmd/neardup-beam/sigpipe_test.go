package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the program itself, not the tests, in a child started with
// NEARDUP_BEAM_TEST_MAIN=1 by a test that needs a process of its own.
func TestMain(m *testing.M) {
	if os.Getenv("NEARDUP_BEAM_TEST_MAIN") == "1" {
		os.Args = append([]string{os.Args[0]}, strings.Fields(os.Getenv("NEARDUP_BEAM_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestClosedStderrDoesNotKillARun is the regression test of a run whose
// stderr was a pipe closed under it (neardup-beam dedup ... 2>&1 | head
// -1): its first warning killed it by SIGPIPE, exit 141, leaving an empty
// output directory, its lock and its temporary directory. The warnings are
// dropped and the run ends as it would have.
func TestClosedStderrDoesNotKillARun(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	lines := `{"id":"a","text":"` + text + `"}` + "\n" + "not a JSON line\n" + `{"id":"b","text":"` + text + `"}` + "\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "NEARDUP_BEAM_TEST_MAIN=1", "NEARDUP_BEAM_TEST_ARGS=dedup "+in+" -o "+out, "TMPDIR="+tmp)
	cmd.Stderr = w
	if err := cmd.Run(); err != nil {
		t.Fatalf("neardup-beam dedup with its stderr closed: %v, want success", err)
	}
	if _, err := os.Stat(filepath.Join(out, "pairs.jsonl")); err != nil {
		t.Errorf("no results: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out*")); len(left) > 0 {
		t.Errorf("left beside the output: %q", left)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
