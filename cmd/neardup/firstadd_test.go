package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

// TestFailedFirstAddLeavesNoIndex: an add that creates a SQLite index and
// stores no document, as it fails, leaves no file (nor a log or
// shared-memory file), so that the next add chooses the method and its
// options again; an add that fails on a file that was there, empty, or on
// an index made before, leaves it. Regression (a tester's finding): a
// first add of a field the records lack left an index of 0 documents whose
// --threshold 0.6 refused the corrected add's 0.5, and a rarewords add
// refused for its missing sources left one that refused the --same-source
// its error suggests.
func TestFailedFirstAddLeavesNoIndex(t *testing.T) {
	t.Parallel()
	g := enginetest.NewTextGen(83)
	var plain bytes.Buffer
	for i := range 6 {
		line, _ := json.Marshal(map[string]string{"id": string(rune('a' + i)), "text": strings.Join(g.Sentences(30), " ")})
		plain.Write(append(line, '\n'))
	}
	for _, tc := range []struct {
		name string
		// before writes what is there before the add: "" nothing, "empty"
		// an empty file, "index" an index of the records.
		before    string
		input     string
		args      []string
		wantError string
		left      bool     // the file is there after the failed add
		again     []string // an add of the plain records that then succeeds
	}{
		{name: "no such text field", input: plain.String(), args: []string{"--threshold", "0.6", "--text-col", "body"},
			wantError: `has a field "body"`, again: []string{"--threshold", "0.5"}},
		{name: "every record malformed", input: "{not json\n{\"id\": 1,\n", args: []string{"--threshold", "0.6"},
			wantError: "no documents", again: []string{"--threshold", "0.5"}},
		{name: "rarewords without sources", input: plain.String(), args: []string{"--method", "rarewords"},
			wantError: "no document has a source", again: []string{"--method", "rarewords", "--same-source"}},
		{name: "an empty file that was there", before: "empty", input: plain.String(), args: []string{"--text-col", "body"},
			wantError: `has a field "body"`, left: true},
		{name: "an index made before", before: "index", input: plain.String(), args: []string{"--text-col", "body"},
			wantError: `has a field "body"`, left: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in, good := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "good.jsonl")
			if err := os.WriteFile(in, []byte(tc.input), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(good, plain.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "x.db")
			switch tc.before {
			case "empty":
				if err := os.WriteFile(db, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			case "index":
				runOK(t, "index", "add", "--db", db, "--only-matches", good)
			}
			code, _, stderr := runChild(t, append([]string{"index", "add", "--db", db, in}, tc.args...)...)
			if code != 1 || !strings.Contains(stderr, tc.wantError) {
				t.Fatalf("exit code %d, want 1 and %q:\n%s", code, tc.wantError, stderr)
			}
			_, err := os.Stat(db)
			if tc.left {
				if err != nil {
					t.Errorf("the file that was there is gone: %v", err)
				}
				return
			}
			if left := leftovers(t, dir, "in.jsonl", "good.jsonl"); len(left) > 0 {
				t.Errorf("left behind: %v\n%s", left, stderr)
			}
			if strings.Contains(stderr, "keeps the options it was made with") {
				t.Errorf("the error says the index keeps its options, but there is none:\n%s", stderr)
			}
			runOK(t, append([]string{"index", "add", "--db", db, "--only-matches", good}, tc.again...)...)
		})
	}
}

// TestStoppedFirstAddLeavesNoIndex: a first add that SIGINT stops before
// it stores a document leaves no index.
func TestStoppedFirstAddLeavesNoIndex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	// --no-store-text makes the add say, once the index is open, that it
	// stores no texts: then it waits for its input.
	cmd := child(t, "index", "add", "--no-store-text", "--db", db, "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var said []string
	for sc.Scan() && !strings.Contains(sc.Text(), "stores no texts") {
		said = append(said, sc.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// The end of its input lets the add, blocked reading it, end: stopped
	// (130), or, should it read the end before it sees the signal, with
	// no documents (1); either way it stored none.
	stdin.Close()
	for sc.Scan() {
		said = append(said, sc.Text())
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 && ee.ExitCode() != 1 {
		t.Fatalf("the add ended with %v, want exit code 130:\n%s", err, strings.Join(said, "\n"))
	}
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index is there: %v", err)
	}
	if left := leftovers(t, dir); !slices.Equal(left, nil) {
		t.Errorf("left behind: %v", left)
	}
}
