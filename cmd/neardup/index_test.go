package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestMain lets the test binary stand in for the neardup binary: with
// NEARDUP_TEST_CHILD set it runs the command line after "--" and exits.
func TestMain(m *testing.M) {
	if os.Getenv("NEARDUP_TEST_CHILD") != "" {
		if n, err := strconv.ParseUint(os.Getenv("NEARDUP_TEST_FSIZE"), 10, 64); err == nil {
			// A file size limit stands in for a full disk: writes past it
			// fail (EFBIG) instead of killing the process.
			signal.Ignore(syscall.SIGXFSZ)
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				panic(err)
			}
		}
		if uid, err := strconv.Atoi(os.Getenv("NEARDUP_TEST_UID")); err == nil {
			// Another user stands in for one who may not write a file:
			// root may write whatever its mode says.
			if err := syscall.Setgroups(nil); err != nil {
				panic(err)
			}
			if err := syscall.Setgid(uid); err != nil {
				panic(err)
			}
			if err := syscall.Setuid(uid); err != nil {
				panic(err)
			}
		}
		for i, a := range os.Args {
			if a == "--" {
				ctx, stop := signalContext()
				code := run(ctx, os.Args[i+1:])
				stop()
				os.Exit(code)
			}
		}
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// long reports whether the long tests run: CI sets NEARDUP_LONG.
func long() bool { return os.Getenv("NEARDUP_LONG") != "" }

// child returns the command that runs neardup with args in a process of
// its own.
func child(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	// A child killed on purpose leaves its temporary files in its test's
	// own directory, which the test removes, not in the system's.
	cmd.Env = append(os.Environ(), "NEARDUP_TEST_CHILD=1", "TMPDIR="+t.TempDir())
	return cmd
}

// startPiped starts cmd with a pipe to its standard input and one from its
// standard output, or from its standard error when fromStderr, and kills it
// when the test ends (a child left waiting by a failed test).
func startPiped(t *testing.T, cmd *exec.Cmd, fromStderr bool) (io.WriteCloser, io.ReadCloser) {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pipe := cmd.StdoutPipe
	if fromStderr {
		pipe = cmd.StderrPipe
	}
	out, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return in, out
}

// writeCorpus writes n documents, every third followed by a copy with one
// sentence changed, as JSONL, and returns the path and the documents.
func writeCorpus(t *testing.T, dir string, n int) (string, []core.Document) {
	t.Helper()
	docs := enginetest.Copies(enginetest.NewTextGen(31), n, 8)
	var b bytes.Buffer
	for _, d := range docs {
		line, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text, "source": d.Source})
		b.Write(append(line, '\n'))
	}
	path := filepath.Join(dir, "corpus.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, docs
}

// runOK runs neardup in-process and fails the test on a non-zero exit.
func runOK(t *testing.T, args ...string) {
	t.Helper()
	if code := run(t.Context(), append([]string{"-q"}, args...)); code != 0 {
		t.Fatalf("neardup %s: exit code %d", strings.Join(args, " "), code)
	}
}

// storedIndex opens the index at db and returns its document ids and its
// marks as "a~b label".
func storedIndex(t *testing.T, db string) (ids map[string]bool, marks map[string]core.Label) {
	t.Helper()
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ids, marks = map[string]bool{}, map[string]core.Label{}
	err = st.View(t.Context(), func(r store.Reader) error {
		byOrd := map[int64]string{}
		if err := r.EachDoc(false, func(d *store.Doc) error {
			ids[d.ID], byOrd[d.Ord] = true, d.ID
			return nil
		}); err != nil {
			return err
		}
		return r.EachMark(func(m *store.Mark) error {
			marks[byOrd[m.A]+"~"+byOrd[m.B]] = m.Label
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, marks
}

func verifyClean(t *testing.T, db string) {
	t.Helper()
	x, err := index.Open(t.Context(), db, store.Options{}, methods.All, index.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	faults, err := x.Verify(t.Context(), nil)
	if err != nil || faults.Total > 0 {
		t.Fatalf("verify: %v %v", faults, err)
	}
}

// batchPairs returns the duplicate pairs neardup dedup finds in path.
func batchPairs(t *testing.T, path string) map[string]core.Label {
	t.Helper()
	out := t.TempDir()
	runOK(t, "dedup", path, "-o", out)
	f, err := os.Open(filepath.Join(out, "pairs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pairs := map[string]core.Label{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p struct{ A, B, Label string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		pairs[p.A+"~"+p.B] = core.Label(p.Label)
	}
	return pairs
}

// TestIndexAddSurvivesKill kills `neardup index add` with SIGKILL at random
// moments: after each kill every document whose line was printed is stored
// with its marks, the index verifies clean, and a run to the end leaves the
// pairs an uninterrupted run, and neardup dedup, find.
func TestIndexAddSurvivesKill(t *testing.T) {
	t.Parallel()
	n, kills := 400, 1
	if long() {
		n, kills = 30000, 6 // 40,000 documents with their copies
	}
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, n)
	db := filepath.Join(dir, "news.db")
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	reported := map[string]bool{}
	for k := range kills {
		// Kill once a random number of further documents is reported,
		// plus a random delay: at a random moment of a chunk's work.
		target := len(reported) + 1 + r.IntN(max(1, (len(docs)-len(reported))/2))
		cmd := child(t, "-q", "index", "add", "--db", db, "--chunk", "100", corpus)
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		reached := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var m struct{ ID, Status string }
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Errorf("a line of index add: %v: %s", err, sc.Bytes())
				}
				mu.Lock()
				if m.Status == string(index.Added) {
					reported[m.ID] = true
				}
				if len(reported) >= target && target > 0 {
					close(reached)
					target = -1
				}
				mu.Unlock()
			}
		}()
		select {
		case <-reached:
			time.Sleep(time.Duration(r.IntN(40)) * time.Millisecond)
		case <-done:
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		cmd.Wait()
		ids, _ := storedIndex(t, db)
		mu.Lock()
		for id := range reported {
			if !ids[id] {
				t.Fatalf("kill %d: %s was reported added but is not stored", k, id)
			}
		}
		t.Logf("kill %d: %d documents reported, %d stored", k, len(reported), len(ids))
		mu.Unlock()
		verifyClean(t, db)
	}
	runOK(t, "index", "add", "--db", db, "--chunk", "100", corpus)
	verifyClean(t, db)
	ids, marks := storedIndex(t, db)
	if len(ids) != len(docs) {
		t.Fatalf("%d documents stored, want %d", len(ids), len(docs))
	}
	if want := batchPairs(t, corpus); !maps.Equal(marks, want) {
		t.Errorf("after the kills the index holds %d pairs, neardup dedup finds %d", len(marks), len(want))
	}
}

// Two `neardup index add` processes on one SQLite file: each waits for the
// other's transactions, both finish, and the pairs across their inputs are
// found.
func TestTwoProcessesOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := 300
	if long() {
		n = 1500
	}
	_, docs := writeCorpus(t, dir, n)
	var halves [2]bytes.Buffer
	for i, d := range docs {
		line, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text})
		halves[i%2].Write(append(line, '\n'))
	}
	db := filepath.Join(dir, "news.db")
	var cmds []*exec.Cmd
	var stderrs [2]bytes.Buffer
	for i := range halves {
		p := filepath.Join(dir, fmt.Sprintf("half%d.jsonl", i))
		os.WriteFile(p, halves[i].Bytes(), 0o644)
		cmd := child(t, "-q", "index", "add", "--db", db, "--chunk", "20", p)
		cmd.Stderr = &stderrs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, stderrs[i].String())
		}
	}
	verifyClean(t, db)
	ids, marks := storedIndex(t, db)
	if len(ids) != len(docs) {
		t.Errorf("%d documents stored, want %d", len(ids), len(docs))
	}
	missed := 0
	for _, d := range docs {
		if strings.HasPrefix(d.ID, "c") {
			orig := "d" + d.ID[1:]
			if marks[orig+"~"+d.ID] != core.Duplicate && marks[d.ID+"~"+orig] != core.Duplicate {
				missed++
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d copies added by one process were not paired with their original, added by the other", missed)
	}
}

func TestIndexCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 90)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, "--store-text", corpus)
	runOK(t, "index", "verify", "--db", db)
	out := filepath.Join(dir, "out")
	runOK(t, "index", "export", "--db", db, "-o", out)
	for _, f := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "stats.json"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("export %s: %v", f, err)
		}
	}
	kept, _ := os.ReadFile(filepath.Join(out, "kept.jsonl"))
	if n := bytes.Count(kept, []byte("\n")); n != 90 || !bytes.Contains(kept, []byte(`"text":`)) {
		t.Errorf("kept.jsonl: %d lines (want the 90 originals) with texts: %v", n, bytes.Contains(kept, []byte(`"text":`)))
	}
	_, marks := storedIndex(t, db)
	if want := batchPairs(t, corpus); !maps.Equal(marks, want) {
		t.Errorf("index add found %d pairs, neardup dedup %d", len(marks), len(want))
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"other options refused", []string{"index", "add", "--db", db, "--threshold", "0.6", corpus}, 1},
		{"other method refused", []string{"index", "add", "--db", db, "--method", "sentences", corpus}, 1},
		{"an option of another method", []string{"index", "add", "--db", db, "--max-sentence-docs", "5", corpus}, 2},
		{"the same options", []string{"index", "add", "--db", db, "--threshold", "0.45", corpus}, 0},
		{"query", []string{"index", "query", "--db", db, corpus}, 0},
		{"remove", []string{"index", "remove", "--db", db, "c0", "d3"}, 0},
		{"remove what is gone", []string{"index", "remove", "--db", db, "c0"}, 1},
		// An id given twice was counted as a document not stored, naming none.
		{"remove an id twice", []string{"index", "remove", "--db", db, "d6", "d6"}, 0},
		{"expire nothing", []string{"index", "expire", "--db", db, "--older-than", "3650d"}, 0},
		{"expire badly", []string{"index", "expire", "--db", db, "--older-than", "soon"}, 2},
		{"stats", []string{"index", "stats", "--db", db}, 0},
		{"rescore", []string{"index", "rescore", "--db", db}, 0},
		{"verify", []string{"index", "verify", "--db", db}, 0},
		{"no index", []string{"index", "stats", "--db", filepath.Join(dir, "none.db")}, 1},
		{"not an index", []string{"index", "stats", "--db", corpus}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(t.Context(), append([]string{"-q"}, tc.args...)); got != tc.want {
				t.Errorf("exit code %d, want %d", got, tc.want)
			}
		})
	}
	said, err := child(t, "index", "remove", "--db", db, "d7", "nope", "d7").CombinedOutput()
	if code := exitCodeOf(err); code != 1 || !strings.Contains(string(said), "1 of 2 documents removed") ||
		!strings.Contains(string(said), `not stored: "nope"`+"\n") {
		t.Errorf("remove d7 nope d7: exit code %d, output:\n%s\nwant 1, one of two removed, and only nope not stored", code, said)
	}
	ids, _ := storedIndex(t, db)
	if ids["c0"] || ids["d3"] || ids["d6"] || ids["d7"] || len(ids) != len(docs)-4 {
		t.Errorf("after remove: %d documents, c0 %v, d3 %v, d6 %v, d7 %v", len(ids), ids["c0"], ids["d3"], ids["d6"], ids["d7"])
	}
}

// A write that fails for want of space (a file size limit here) fails the
// add with a clear message and leaves what was stored before intact.
func TestIndexAddOnAFullDisk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 600)
	db := filepath.Join(dir, "news.db")
	first := filepath.Join(dir, "first.jsonl")
	data, _ := os.ReadFile(corpus)
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(first, bytes.Join(lines[:100], nil), 0o644)
	runOK(t, "index", "add", "--db", db, first)
	before, _ := storedIndex(t, db)
	fi, _ := os.Stat(db)
	cmd := child(t, "-q", "index", "add", "--db", db, "--chunk", "50", corpus)
	cmd.Env = append(cmd.Env, fmt.Sprintf("NEARDUP_TEST_FSIZE=%d", fi.Size()+200<<10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("add past the limit: %v, want exit code 1\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "could not be read or written") {
		t.Errorf("the message does not say what failed:\n%s", stderr.String())
	}
	verifyClean(t, db)
	after, _ := storedIndex(t, db)
	for id := range before {
		if !after[id] {
			t.Errorf("%s was lost", id)
		}
	}
	if len(after) >= len(docs) {
		t.Errorf("%d documents stored past the limit", len(after))
	}
	runOK(t, "index", "add", "--db", db, corpus) // with room again, the rest goes in
	if ids, _ := storedIndex(t, db); len(ids) != len(docs) {
		t.Errorf("%d documents after the retry, want %d", len(ids), len(docs))
	}
}

// A damaged index file is reported, by verify with exit code 1.
func TestCorruptIndexIsReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 600)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	junk := bytes.Repeat([]byte{0xA5}, 8192)
	if _, err := f.WriteAt(junk, fi.Size()/2/8192*8192); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if code := run(t.Context(), []string{"-q", "index", "verify", "--db", db}); code != 1 {
		t.Errorf("verify of a damaged file: exit code %d, want 1", code)
	}
}

// TestTruncatedIndexLeftAlone pins commands that, failing on a truncated
// index, left an empty -wal and a -shm file beside it: each fails, and the
// file stays as it was with nothing created beside it.
func TestTruncatedIndexLeftAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 600)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:len(data)-4096]
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"index", "verify"}, {"index", "stats"}, {"index", "export", "-o", filepath.Join(dir, "out")}, {"index", "add", corpus},
	} {
		t.Run(args[1], func(t *testing.T) {
			if code := run(t.Context(), append(append([]string{"-q"}, args...), "--db", db)); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if now, err := os.ReadFile(db); err != nil || !bytes.Equal(now, data) {
				t.Errorf("the file changed (%v)", err)
			}
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(db + side); err == nil {
					t.Errorf("%s left beside the index", side)
					os.Remove(db + side)
				}
			}
		})
	}
}

// TestCutShortUnderLogNotWritten pins feeds add on a copy of an index in
// use whose file is cut short while its log (the -wal file) is whole: it
// added the feed, where every command that reads the documents failed on
// the pages gone. Every command that writes fails naming the file and
// saying it is cut short, exit code 1, and the file and its log stay as
// they were.
func TestCutShortUnderLogNotWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, _ := writeCorpus(t, t.TempDir(), 600)
	more, _ := writeCorpus(t, t.TempDir(), 800)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, first)
	// A reader keeps the log from being copied into the file and removed
	// when the adds end, as a server does.
	reader, err := store.Open(t.Context(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := reader.View(t.Context(), func(store.Reader) error { return nil }); err != nil {
		t.Fatal(err)
	}
	runOK(t, "index", "add", "--db", db, more)
	cut := filepath.Join(t.TempDir(), "copy.db")
	for _, side := range []string{"", "-wal"} {
		data, err := os.ReadFile(db + side)
		if err != nil {
			t.Fatal(err)
		}
		if side == "" {
			data = data[:len(data)/2]
		}
		if err := os.WriteFile(cut+side, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reader.Close()
	read := func() []byte {
		data, err := os.ReadFile(cut)
		if err != nil {
			t.Fatal(err)
		}
		wal, err := os.ReadFile(cut + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return append(data, wal...)
	}
	feeds := filepath.Join(dir, "feeds.yaml")
	if err := os.WriteFile(feeds, []byte("version: 1\nfeeds:\n  - url: https://example.com/feed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := read()
	for _, args := range [][]string{
		{"feeds", "add", "--no-check", "https://example.com/feed.xml"},
		{"feeds", "import", feeds},
		{"index", "add", more},
		{"index", "remove", "x"},
	} {
		out, err := child(t, append(append([]string{"-q"}, args...), "--db", cut)...).CombinedOutput()
		if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), cut+": the index file is damaged: it is cut short") {
			t.Errorf("%s: exit code %d, output %q; want 1 and an error saying %s is cut short", strings.Join(args[:2], " "), code, out, cut)
		}
		if !bytes.Equal(read(), before) {
			t.Fatalf("%s changed the file or its log", strings.Join(args[:2], " "))
		}
	}
}

// An input that is not there fails `index add` and `index query` before
// the index is touched (exit 2, a mistake in the command line): no index is created for it, and a stored one keeps
// what it holds.
func TestMissingInputLeavesIndexAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	missing := filepath.Join(dir, "nope.jsonl")
	for _, cmd := range []string{"add", "query"} {
		if code := run(t.Context(), []string{"-q", "index", cmd, "--db", db, missing}); code != 2 {
			t.Errorf("index %s of a missing input: exit code %d, want 2", cmd, code)
		}
		if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("index %s of a missing input left %s: %v", cmd, db, err)
		}
	}
	corpus, docs := writeCorpus(t, dir, 20)
	runOK(t, "index", "add", "--db", db, corpus)
	if code := run(t.Context(), []string{"-q", "index", "add", "--db", db, corpus, missing}); code != 2 {
		t.Errorf("index add with a missing input: exit code %d, want 2", code)
	}
	if ids, _ := storedIndex(t, db); len(ids) != len(docs) {
		t.Errorf("the index holds %d documents, want the %d stored before", len(ids), len(docs))
	}
}

// TestStoreTextOfAnIndexWithout: `index add --store-text` to an index made
// with --no-store-text warns that the index keeps its choice and how to
// store texts (a new index), under -q too, and adds as the index stores,
// exit 0, as --no-store-text to an index with texts warns. Regression: it
// was ignored without a word under -q, and said only the note of an index
// without texts otherwise.
func TestStoreTextOfAnIndexWithout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 6)
	bare := filepath.Join(dir, "bare.db")
	runOK(t, "index", "add", "--db", bare, "--no-store-text", corpus)
	want := "warning: --store-text: " + bare + " stores no texts, as it was created to (with --no-store-text); an existing index " +
		"keeps its own choice: add the documents to a new index to store their texts\n"
	code, _, errOut := runChild(t, "-q", "index", "add", "--db", bare, "--store-text", corpus)
	if code != 0 || errOut != want {
		t.Errorf("exit %d, stderr %q; want 0, %q", code, errOut, want)
	}
	// Not given, the choice is not warned of: --store-text is the default.
	if code, _, errOut := runChild(t, "-q", "index", "add", "--db", bare, corpus); code != 0 || errOut != "" {
		t.Errorf("without --store-text: exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
	x, err := index.Open(t.Context(), bare, store.Options{}, methods.All, index.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Meta().StoreText {
		t.Error("the index stores texts after --store-text")
	}
}

// TestIndexNewcomer pins what a first index shows: `index add` as the
// README writes it stores the texts (serve can diff them), --no-store-text
// does not and a later add says so; `index stats` gives created in RFC
// 3339; `index export` says what it wrote and where.
func TestIndexNewcomer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 9)
	db, bare := filepath.Join(dir, "news.db"), filepath.Join(dir, "bare.db")
	runOK(t, "index", "add", "--db", db, corpus)
	runOK(t, "index", "add", "--db", bare, "--no-store-text", corpus)
	for file, want := range map[string]bool{db: true, bare: false} {
		x, err := index.Open(t.Context(), file, store.Options{}, methods.All, index.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := x.Meta().StoreText; got != want {
			t.Errorf("%s: stores texts %v, want %v", filepath.Base(file), got, want)
		}
		x.Close()
	}
	out, err := child(t, "index", "add", "--db", bare, corpus).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "stores no texts (it was created with --no-store-text)") {
		t.Errorf("an add to an index without texts: %v\n%s", err, out)
	}
	// --no-store-text given to an index that stores texts is named, not
	// ignored without a word.
	out, err = child(t, "index", "add", "--db", db, "--no-store-text", corpus).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "warning: --no-store-text: "+db+" stores texts, as it was created to") {
		t.Errorf("--no-store-text to an index with texts: %v\n%s", err, out)
	}
	out, err = child(t, "index", "stats", "--db", db).Output()
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Created   string `json:"created"`
		Documents int    `json:"documents"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c, err := time.Parse(time.RFC3339, st.Created); err != nil || time.Since(c) > time.Hour || st.Documents == 0 {
		t.Errorf("stats: created %q (%v), %d documents", st.Created, err, st.Documents)
	}
	exported := filepath.Join(dir, "exported")
	out, err = child(t, "index", "export", "--db", db, "-o", exported).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "→ "+exported+" (pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl, stats.json)") ||
		!strings.Contains(string(out), fmt.Sprintf("%d documents, ", st.Documents)) {
		t.Errorf("export said: %v\n%s", err, out)
	}
}

// TestIndexAddPrintsTheAPIShape: index add prints each document's matches
// as the HTTP API answers them (api.Result), each match naming the stored document by
// "id" (it printed core pairs, "a" and "b" without "id", before), and the pair's
// "a" and "b" as index export writes it.
func TestIndexAddPrintsTheAPIShape(t *testing.T) {
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 3)
	cmd := child(t, "-q", "index", "add", "--db", filepath.Join(dir, "news.db"), corpus)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(lines) != len(docs) {
		t.Fatalf("%d lines for %d documents:\n%s", len(lines), len(docs), out)
	}
	var got struct {
		ID      string
		Matches []struct {
			ID, A, B, Label, Method string
			Evidence                json.RawMessage
		}
	}
	if err := json.Unmarshal(lines[1], &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != docs[1].ID || len(got.Matches) != 1 || got.Matches[0].ID != docs[0].ID || got.Matches[0].Label == "" ||
		got.Matches[0].Method == "" || len(got.Matches[0].Evidence) == 0 {
		t.Errorf("the copy's line %s, want a match with id %q", lines[1], docs[0].ID)
	}
	if m := got.Matches; len(m) == 1 && (m[0].A != docs[0].ID || m[0].B != docs[1].ID) {
		t.Errorf("the copy's line %s, want its pair a %q, b %q", lines[1], docs[0].ID, docs[1].ID)
	}
}

// TestIndexAddReplacedReadsAsExport: a new version (--replace) stands where
// the version it replaced stood, before a copy stored since: index add's
// line names it the "a" of their pair, its evidence read that way round
// (containment_ab of the new version), as index export writes the pair.
// Regression: the add named it the pair's b, its containments swapped.
func TestIndexAddReplacedReadsAsExport(t *testing.T) {
	dir := t.TempDir()
	story := enginetest.NewTextGen(53).Sentences(12)
	write := func(name string, docs ...core.Document) string {
		var b bytes.Buffer
		for _, d := range docs {
			line, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text})
			b.Write(append(line, '\n'))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	db := filepath.Join(dir, "news.db")
	stored := write("stored.jsonl", enginetest.Doc("W", story), enginetest.Doc("C", story[:11]))
	if out, err := child(t, "-q", "index", "add", "--db", db, stored).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	corrected := write("corrected.jsonl",
		enginetest.Doc("W", append(slices.Clone(story), "Officials named Halvorsen Brightwater and Kettleby Marsh.")))
	out, err := child(t, "-q", "index", "add", "--replace", "--db", db, corrected).Output()
	if err != nil {
		t.Fatal(err)
	}
	var added struct {
		Status  string
		Matches []struct {
			ID, A, B string
			Evidence map[string]any
		}
	}
	if err := json.Unmarshal(out, &added); err != nil || added.Status != "replaced" || len(added.Matches) != 1 {
		t.Fatalf("the add printed %s (%v), want W replaced with one match", out, err)
	}
	if out, err := child(t, "-q", "index", "export", "--db", db, "-o", filepath.Join(dir, "ex")).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ex", "pairs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var exported struct {
		A, B     string
		Evidence map[string]any
	}
	if err := json.Unmarshal(data, &exported); err != nil || exported.A != "W" || exported.B != "C" {
		t.Fatalf("exported %s (%v), want the pair W~C", data, err)
	}
	m := added.Matches[0]
	if m.ID != "C" || m.A != exported.A || m.B != exported.B {
		t.Errorf("the add printed the match %q as a %q, b %q; the export writes a %q, b %q", m.ID, m.A, m.B, exported.A, exported.B)
	}
	if !maps.EqualFunc(m.Evidence, exported.Evidence, func(x, y any) bool { return fmt.Sprint(x) == fmt.Sprint(y) }) {
		t.Errorf("the add printed the evidence %v, the export %v", m.Evidence, exported.Evidence)
	}
}

// TestIndexAddSkipsRefusedRecords: a record the index refuses is skipped
// with its line, field and why, and the others are stored. Refused: an id
// the HTTP API could not name (over core.MaxIDBytes bytes, a control
// character, blank: of spaces or zero-width characters alone) or the web
// UI could not link to ("." and ".."); a title, URL or source longer than the API takes
// (core.MaxTitleBytes, MaxURLBytes, MaxSourceBytes, measured as stored: a
// NUL is stored as U+FFFD); a URL that is not http or https. Regressions:
// an overlong source was stored, and the web UI's link to its documents
// answered 400 (the filter takes no longer source); a "javascript:" URL
// was stored, and shown as a link to nowhere; ids "..", "." and "\u200b"
// were stored, and the first two could not be opened in the web UI.
func TestIndexAddSkipsRefusedRecords(t *testing.T) {
	text := "The council approved the new budget for the river bridge on Monday after a long debate about the costs."
	for _, tc := range []struct {
		name    string
		records []map[string]string // each given an id "d<line-1>" unless it has one, and a text
		refused []string            // ":<line>: <message>" in stderr
		stored  []string
	}{
		{
			name: "ids",
			records: []map[string]string{
				{"id": strings.Repeat("x", core.MaxIDBytes+1)}, {"id": "ctl\u0001id"}, {"id": "  "},
				{"id": strings.Repeat("y", core.MaxIDBytes)}, {"id": "ok"},
				{"id": "\u200b"}, {"id": " \u200b\u2060 "}, {"id": ".."}, {"id": "."}, {"id": "..."},
			},
			refused: []string{
				`:1: field "id": an index stores no id that is longer than 512 bytes`,
				`:2: field "id": an index stores no id that holds a control character`,
				`:3: field "id": an index stores no id that is blank`,
				`:6: field "id": an index stores no id that is blank`,
				`:7: field "id": an index stores no id that is blank`,
				`:8: field "id": an index stores no id that is "..", which a URL reads as a step in its path, not as a name`,
				`:9: field "id": an index stores no id that is ".", which a URL reads as a step in its path, not as a name`,
			},
			stored: []string{strings.Repeat("y", core.MaxIDBytes), "ok", "..."},
		},
		{
			name: "overlong fields",
			records: []map[string]string{
				{"source": strings.Repeat("s", core.MaxSourceBytes+1)},
				{"title": strings.Repeat("t", core.MaxTitleBytes+1)},
				{"url": "https://example.com/" + strings.Repeat("u", core.MaxURLBytes)},
				{"source": strings.Repeat("s", core.MaxSourceBytes-10) + strings.Repeat("\x00", 10)},
				{"source": strings.Repeat("s", core.MaxSourceBytes), "title": strings.Repeat("t", core.MaxTitleBytes)},
			},
			refused: []string{
				`:1: field "source": an index stores no source longer than 256 bytes`,
				`:2: field "title": an index stores no title longer than 4096 bytes`,
				`:3: field "url": an index stores no url longer than 4096 bytes`,
				`:4: field "source": an index stores no source longer than 256 bytes`,
			},
			stored: []string{"d4"},
		},
		{
			name:    "urls of other schemes",
			records: []map[string]string{{"url": "javascript:alert(1)"}, {"url": "https://example.com/news/1"}, {"url": ""}},
			refused: []string{`:1: field "url": an index stores no URL of another scheme than http or https`},
			stored:  []string{"d1", "d2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			for i, f := range tc.records {
				if _, ok := f["id"]; !ok {
					f["id"] = fmt.Sprint("d", i)
				}
				f["text"] = text + " " + f["id"]
				line, _ := json.Marshal(f)
				b.Write(append(line, '\n'))
			}
			in, db := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "in.db")
			if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runChild(t, "index", "add", "--db", db, in)
			if code != 0 {
				t.Fatalf("exit code %d: %s", code, errOut)
			}
			for _, want := range tc.refused {
				if !strings.Contains(errOut, in+want) {
					t.Errorf("no %q in\n%s", in+want, errOut)
				}
			}
			ids, _ := storedIndex(t, db)
			want := map[string]bool{}
			for _, id := range tc.stored {
				want[id] = true
			}
			if !maps.Equal(ids, want) {
				t.Errorf("stored %v, want %v", slices.Collect(maps.Keys(ids)), tc.stored)
			}
		})
	}
}

// A PostgreSQL URL whose search_path names no schema that exists (a name
// mistyped, a schema not created yet) is refused by every index command
// with an error saying so, naming the search_path; PostgreSQL's own
// message, "no schema has been selected to create in", said neither, and
// read commands (stats) gave the same.
func TestPostgresMissingSchema(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	missing := q.Get("search_path") + "_missing"
	q.Set("search_path", missing)
	u.RawQuery = q.Encode()
	corpus, _ := writeCorpus(t, t.TempDir(), 20)
	for _, args := range [][]string{
		{"index", "add", "--db", u.String(), corpus},
		{"index", "stats", "--db", u.String()},
	} {
		code, _, stderr := runChild(t, append([]string{"-q"}, args...)...)
		if want := "no schema that the search_path (" + missing + ") names exists"; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit code %d, %q; want 1 and %q", strings.Join(args[:2], " "), code, stderr, want)
		}
	}
}

// No message of an index command shows the password of a PostgreSQL URL,
// given before the host or as its password parameter: index add's note
// on an index without texts printed the URL as given, and the error of a
// schema without an index (index stats of one that holds feeds alone)
// showed a password parameter.
func TestIndexCommandsHidePassword(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := u.User.Password(); ok {
		t.Skip("$NEARDUP_TEST_POSTGRES holds a password; the test gives one of its own")
	}
	const password = "s3cret-pw"
	before := *u
	before.User = url.UserPassword(u.User.Username(), password)
	param := *u
	q := param.Query()
	q.Set("password", password)
	param.RawQuery = q.Encode()
	corpus, _ := writeCorpus(t, t.TempDir(), 20)
	for _, run := range []struct {
		args []string
		code int
	}{
		{[]string{"feeds", "add", "--no-check", "--db", param.String(), "https://example.com/feed"}, 0},
		{[]string{"index", "stats", "--db", param.String()}, 1}, // no index there yet, feeds alone
		{[]string{"index", "add", "--db", before.String(), "--no-store-text", corpus}, 0},
		{[]string{"index", "add", "--db", before.String(), corpus}, 0},
		{[]string{"index", "add", "--db", param.String(), corpus}, 0},
	} {
		code, stdout, stderr := runChild(t, run.args...)
		if strings.Contains(stderr, "password authentication failed") {
			t.Skip("the server checks passwords; the test gives one of its own")
		}
		if code != run.code || strings.Contains(stdout+stderr, password) {
			t.Errorf("%s: exit code %d (want %d), output shows the password or fails:\n%s", strings.Join(run.args[:2], " "), code, run.code, stderr)
		}
	}
}

// TestReplaceCountsPairsOnce: index add --replace of documents stored
// already counts each pair once in its summary, as many as the index marks:
// a document replaced after its partner was paired with it again, and the
// summary said 14 pairs of 7. The documents are given again at other
// URLs, so that they are replaced; given again as they are, they are left
// unchanged.
func TestReplaceCountsPairsOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "news.db")
	code, _, first := runChild(t, "index", "add", "--db", db, "../../examples/news.jsonl")
	if code != 0 || !strings.Contains(first, "; 7 duplicate and 0 similar pairs") {
		t.Fatalf("the first add: exit code %d\n%s", code, first)
	}
	code, _, same := runChild(t, "index", "add", "--replace", "--db", db, "../../examples/news.jsonl")
	if code != 0 || !strings.Contains(same, "0 documents added, 13 unchanged; 0 duplicate and 0 similar pairs") {
		t.Errorf("add --replace of the same documents: exit code %d, want 13 unchanged\n%s", code, same)
	}
	b, err := os.ReadFile("../../examples/news.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i, host := range []string{"m.", "amp."} {
		moved := filepath.Join(dir, fmt.Sprintf("moved%d.jsonl", i))
		if err := os.WriteFile(moved, bytes.ReplaceAll(b, []byte(`"url": "https://`), []byte(`"url": "https://`+host)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, again := runChild(t, "index", "add", "--replace", "--db", db, moved)
		if code != 0 || !strings.Contains(again, "0 documents added, 13 replaced; 7 duplicate and 0 similar pairs") {
			t.Errorf("add --replace: exit code %d, want 7 pairs as the first add\n%s", code, again)
		}
	}
}

// TestRemoveNamesFewNotStored pins index remove and feeds remove of
// thousands of operands not stored: the message named every one of them on
// one line (3,000 ids made a line of 35 kB). Now it names the first few and counts the
// rest, and the exit code is still 1.
func TestRemoveNamesFewNotStored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 3)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	runOK(t, "feeds", "add", "--db", db, "--no-check", "https://example.com/rss.xml")
	ids := make([]string, 3000)
	urls := make([]string, len(ids))
	for i := range ids {
		ids[i] = fmt.Sprintf("gone%d", i)
		urls[i] = fmt.Sprintf("https://gone.example/%d", i)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"index remove", append([]string{"-q", "index", "remove", "--db", db}, ids...),
			`neardup: not stored: "gone0", "gone1", "gone2", "gone3", "gone4" and 2995 more` + "\n"},
		{"feeds remove", append([]string{"feeds", "remove", "--db", db}, urls...),
			"neardup: 0 of 3000 feeds removed; watch: no such feed: https://gone.example/0 https://gone.example/1 " +
				"https://gone.example/2 https://gone.example/3 https://gone.example/4 and 2995 more\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runChild(t, tc.args...)
			if code != 1 || errOut != tc.want {
				t.Errorf("exit %d, stderr (%d bytes) %.300q; want 1, %q", code, len(errOut), errOut, tc.want)
			}
		})
	}
}

// TestIndexAddStrictStoresTheRecordsBefore: `index add --strict` stops at
// the first bad record having stored, and printed, every record before it,
// whatever --chunk is, and fails naming the record (file:line and why) as
// other errors do. Regression: the records read before the bad one in the
// chunk being filled were dropped, so that 50 good records then a bad one
// stored none with --chunk 100 and all 50 with --chunk 10; and the error
// began "job: bad record in strict mode: ".
func TestIndexAddStrictStoresTheRecordsBefore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "kb.jsonl")
	var b strings.Builder
	for i := range 80 {
		if i == 50 {
			b.WriteString(`{"id":"broken` + "\n")
			continue
		}
		line, _ := json.Marshal(map[string]string{"id": fmt.Sprint("d", i), "title": "t",
			"text": fmt.Sprintf("Report %d: the council met on day %d and voted %d to %d on item %d.", i, i, i*7, i+3, i*13)})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 7, 10, 50, 100} {
		t.Run(fmt.Sprint("chunk", chunk), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			code, out, errOut := runChild(t, "-q", "index", "add", "--db", db, "--strict", "--chunk", fmt.Sprint(chunk), in)
			want := "neardup: " + in + ":51: malformed JSON at byte 13: unexpected end of JSON input (--strict stops at the first bad record)\n"
			if code != 1 || errOut != want {
				t.Errorf("exit %d, stderr %q; want 1, %q", code, errOut, want)
			}
			if n := strings.Count(out, "\n"); n != 50 {
				t.Errorf("%d lines printed, want the 50 of the records before line 51", n)
			}
			if ids, _ := storedIndex(t, db); len(ids) != 50 || !ids["d0"] || !ids["d49"] {
				t.Errorf("%d documents stored, want d0 to d49", len(ids))
			}
		})
	}
}

// TestIndexAddStrictWarnsOfTheRecordsBefore: the warnings of a strict add
// stopped at a bad record count the records before it, not those its
// workers decoded ahead. Regression: with lines a (good), broken and c
// (good, "date":"yesterday"), it warned `dates not read: 1 (e.g.
// "yesterday" at kd.jsonl:3)` of a record never added.
func TestIndexAddStrictWarnsOfTheRecordsBefore(t *testing.T) {
	t.Parallel()
	text := "The council approved the new budget for the river bridge on Monday after a long debate about the costs"
	for _, tc := range []struct {
		name  string
		first string // the date of line 1
		want  string // the warning of dates, "" for none
	}{
		{name: "after", first: ""},
		{name: "before and after", first: "last week", want: `warning: dates not read: 1 (e.g. "last week" at %s:1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "kd.jsonl")
			a, _ := json.Marshal(map[string]string{"id": "a", "text": text + ".", "date": tc.first})
			c, _ := json.Marshal(map[string]string{"id": "c", "text": text + " again.", "date": "yesterday"})
			if err := os.WriteFile(in, []byte(string(a)+"\n{\"id\":\"broken\n"+string(c)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runChild(t, "-q", "index", "add", "--db", filepath.Join(dir, "s.db"), "--strict", in)
			if code != 1 || !strings.Contains(errOut, in+":2: ") {
				t.Fatalf("exit %d, stderr %q; want 1 and an error naming %s:2", code, errOut, in)
			}
			if strings.Contains(errOut, "yesterday") || strings.Contains(errOut, in+":3") {
				t.Errorf("a warning names line 3, after the stop:\n%s", errOut)
			}
			if want := fmt.Sprintf(tc.want, in); tc.want != "" && !strings.Contains(errOut, want) {
				t.Errorf("no %q in\n%s", want, errOut)
			}
			if tc.want == "" && strings.Contains(errOut, "dates not read") {
				t.Errorf("dates warned of:\n%s", errOut)
			}
		})
	}
}

// TestRemovePartlyExitsOne: `index remove a nosuch` removes a, says "1 of 2
// documents removed", names nosuch and exits 1, and `index remove --help`
// says so, as docs/index.md does; and `index expire --help` says that an
// expiry commits in transactions of up to 10,000 documents. Regression:
// neither --help said it, and docs/index.md had expire remove in one
// transaction.
func TestRemovePartlyExitsOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 3)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	code, _, errOut := runChild(t, "index", "remove", "--db", db, docs[0].ID, "nosuch")
	if want := "1 of 2 documents removed\nneardup: not stored: \"nosuch\"\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errOut, want)
	}
	if ids, _ := storedIndex(t, db); ids[docs[0].ID] || len(ids) != len(docs)-1 {
		t.Errorf("stored %v, want all but %s", ids, docs[0].ID)
	}
	for cmd, want := range map[string]string{
		"remove": `makes the exit code 1, the others removed all the same`,
		"expire": `removed in transactions of up to 10,000`,
	} {
		_, out, _ := runChild(t, "index", cmd, "--help")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("index %s --help does not say %q:\n%s", cmd, want, out)
		}
	}
}
