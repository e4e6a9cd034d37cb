package job

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// resultFiles are the files a memory budget must leave byte for byte as
// they are.
var resultFiles = []string{output.PairsFile, output.ClustersFile, output.KeptFile, output.RemovedFile, output.RejectsFile}

// readResults reads the resultFiles of the run that wrote out.
func readResults(t *testing.T, out string) []string {
	t.Helper()
	var got []string
	for _, name := range resultFiles {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	return got
}

// sameResults reports each of the resultFiles whose contents got, of a run
// under a budget, differ from want, of the run without one.
func sameResults(t *testing.T, got, want []string) {
	t.Helper()
	for i, name := range resultFiles {
		if got[i] != want[i] {
			t.Errorf("%s differs from the run without a budget", name)
		}
	}
}

// writeCrowded appends to path 50 exact copies of one story, more than a
// bucket's limit of members compared, and a few records the method skips.
func writeCrowded(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text := strings.Repeat("The council voted on the budget for the harbour again today. ", 12)
	for i := range 50 {
		fmt.Fprintf(f, `{"id":"crowd%d","text":%q,"date":"2024-03-%02dT10:00:00Z"}`+"\n", i, text, 1+i%28)
	}
	fmt.Fprintf(f, `{"id":"short","text":"Too short."}`+"\n"+`{"id":"empty","text":""}`+"\n")
}

// TestMemoryBudgetSamePairs pins that a run under a memory budget gives
// the pairs, clusters, kept, removed and rejected documents of the run
// without one, byte for byte: with every sketch spilled (a budget of one
// byte), with some spilled, and under a window, whose candidates outside
// it are left out.
func TestMemoryBudgetSamePairs(t *testing.T) {
	dir := t.TempDir()
	in := writeManyCopies(t, dir, 300)
	writeCrowded(t, in)
	for _, tc := range []struct {
		name   string
		method string
		memory int64
		window time.Duration
		all    bool // every sketch spilled
	}{
		{name: "all spilled", method: "minhash", memory: 1, all: true},
		{name: "some spilled", method: "minhash", memory: 1 << 20},
		{name: "all spilled under a window", method: "minhash", memory: 1, window: 72 * time.Hour, all: true},
		{name: "simhash, all spilled", method: "simhash", memory: 1, all: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := methods.Lookup(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			run := func(memory int64) ([]string, int, int) {
				out := filepath.Join(dir, fmt.Sprintf("out-%s-%d-%v", tc.method, memory, tc.window))
				st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Memory: memory, Window: tc.window, Method: spec.Defaults()})
				if err != nil {
					t.Fatal(err)
				}
				got := readResults(t, out)
				if _, err := os.Stat(filepath.Join(dir, "."+filepath.Base(out)+".work")); !os.IsNotExist(err) {
					t.Errorf("the work folder is left after the run: %v", err)
				}
				return got, st.Spilled, st.Documents
			}
			want, _, _ := run(0)
			if n := strings.Count(want[0], "\n"); n < 200 {
				t.Fatalf("only %d pairs: the corpus does not exercise matching", n)
			}
			got, spilled, docs := run(tc.memory)
			switch {
			case tc.all && spilled != docs:
				t.Errorf("%d of %d documents spilled, want all", spilled, docs)
			case !tc.all && (spilled == 0 || spilled == docs):
				t.Errorf("%d of %d documents spilled, want some", spilled, docs)
			}
			sameResults(t, got, want)
		})
	}
}

// TestMemoryBudgetRefused pins that a method that cannot spill refuses a
// budget, saying which can.
func TestMemoryBudgetRefused(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	spec, err := methods.Lookup("tfidf")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Memory: 1 << 30, Method: spec.Defaults()})
	if err == nil || !strings.Contains(err.Error(), "minhash and simhash can") {
		t.Fatalf("err = %v, want a refusal naming minhash and simhash", err)
	}
	if bytes.Contains([]byte(fmt.Sprint(err)), []byte("engine: engine")) {
		t.Errorf("err = %v", err)
	}
}

// TestBudgetWatch pins when a budget is given up: past 90 % of it the
// collector's limit is lifted, the warning, written once, names the budget
// and the live heap, and the watch goes on to the end of the run for the
// peak, by which its advice names a budget that would do.
func TestBudgetWatch(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 30)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	w := &budgetWatch{limit: 1 << 30}
	if !w.check(900<<20) || w.Over() != 0 {
		t.Fatalf("given up at 900 MiB of 1 GiB (over %d)", w.Over())
	}
	if w.warning(10) != "" || w.advice(true) != "" {
		t.Fatal("a warning while the budget is kept")
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Fatalf("collector's limit %d while the budget is kept, want 1 GiB", got)
	}
	if !w.check(1000<<20) || w.Over() != 1000<<20 {
		t.Fatalf("kept at 1000 MiB of 1 GiB, or stopped watching (over %d)", w.Over())
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("collector's limit %d once the budget is given up, want none", got)
	}
	msg := w.warning(1234)
	for _, want := range []string{"budget of 1.0 GiB is too small", "after 1234 documents", "live heap is 1000 MiB", "names one that would do at its end"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q lacks %q", msg, want)
		}
	}
	if again := w.warning(2000); again != "" {
		t.Errorf("warned twice: %q", again)
	}
	w.check(1800 << 20)
	w.check(1500 << 20)
	msg = w.advice(true)
	for _, want := range []string{"budget of 1.0 GiB was too small", "peaked at 1.8 GiB", "of which 1.3 GiB could not spill", "--memory 3584MiB would do"} {
		if !strings.Contains(msg, want) {
			t.Errorf("advice %q lacks %q", msg, want)
		}
	}
	w.stop()
	if w.check(0) {
		t.Error("still watching once stopped")
	}
}

// TestBudgetAdviceWithoutWarning: a budget given up after the run's last
// look at it (while the results are written) is still named at its end.
func TestBudgetAdviceWithoutWarning(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	w := &budgetWatch{limit: 224 << 20}
	w.check(208 << 20)
	if msg := w.advice(true); !strings.Contains(msg, "--memory 256MiB would do") {
		t.Errorf("advice %q, want one naming 256MiB", msg)
	}
}

// TestSuggestBudget pins the budget the advice names. Under a budget the
// sketches held take half of it, so a run that spilled needs room for
// what could not spill (its peak less that half) besides half of the new
// budget, within 90 % of it: a run of 250,000 generated documents under
// 64 MiB peaks at a live heap of 133 MiB and is suggested 256 MiB, where
// the live heap projected from the documents read when the budget was
// given up (17,408) named 2 GiB. A run that spilled nothing needs its
// peak within 90 %. The figure is rounded up to a quarter of a power of
// two and written as --memory reads it back.
func TestSuggestBudget(t *testing.T) {
	for _, tc := range []struct {
		name        string
		peak, limit int64
		spilled     bool
		want        int64
		wantText    string
	}{
		{name: "generated corpus under 64MiB", peak: 133 << 20, limit: 64 << 20, spilled: true, want: 256 << 20, wantText: "256MiB"},
		{name: "generated corpus under 128MiB", peak: 161 << 20, limit: 128 << 20, spilled: true, want: 256 << 20, wantText: "256MiB"},
		{name: "a higher peak", peak: 138 << 20, limit: 64 << 20, spilled: true, want: 320 << 20, wantText: "320MiB"},
		{name: "nothing spilled", peak: 190 << 20, limit: 200 << 20, want: 224 << 20, wantText: "224MiB"},
		{name: "a quarter step past a GiB", peak: 1200 << 20, limit: 1 << 30, spilled: true, want: 1792 << 20, wantText: "1792MiB"},
		{name: "tens of GiB", peak: 9 << 30, limit: 8 << 30, spilled: true, want: 14 << 30, wantText: "14GiB"},
		{name: "tiny", peak: 1 << 20, limit: 1 << 20, spilled: true, want: MinMemory, wantText: "64MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := suggestBudget(tc.peak, tc.limit, tc.spilled)
			if got != tc.want {
				t.Errorf("suggestBudget(%d, %d, %v) = %d MiB, want %d MiB", tc.peak, tc.limit, tc.spilled, got>>20, tc.want>>20)
			}
			text := budgetString(got)
			if text != tc.wantText {
				t.Errorf("budgetString(%d) = %q, want %q", got, text, tc.wantText)
			}
			if n, err := humanize.ParseBytes(text); err != nil || int64(n) != got {
				t.Errorf("%q reads back as %d (%v), want %d", text, n, err, got)
			}
		})
	}
}

// TestMemoryBudgetGivenUp runs under a budget far below what the run holds:
// it warns, names at its end the peak and a budget that would do, says so
// in its statistics, gives the results of a run without
// a budget, and leaves the collector's limit as it found it.
func TestMemoryBudgetGivenUp(t *testing.T) {
	dir := t.TempDir()
	in := writeManyCopies(t, dir, 300)
	run := func(memory int64, warn *bytes.Buffer) ([]string, int64) {
		out := filepath.Join(dir, fmt.Sprintf("out-%d", memory))
		st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Memory: memory, Warn: warn})
		if err != nil {
			t.Fatal(err)
		}
		return readResults(t, out), st.OverBudget
	}
	want, _ := run(0, nil)
	before := debug.SetMemoryLimit(-1)
	var warn bytes.Buffer
	got, over := run(1<<20, &warn)
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("collector's limit %d after the run, %d before", after, before)
	}
	if over <= 0 {
		t.Errorf("over_budget_bytes = %d, want the live heap at which the budget was given up", over)
	}
	if !strings.Contains(warn.String(), "budget of 1.0 MiB is too small") || strings.Count(warn.String(), "is too small") != 1 {
		t.Errorf("warnings %q, want one that the budget is too small", warn.String())
	}
	if !strings.Contains(warn.String(), "budget of 1.0 MiB was too small for this run: its live heap peaked at ") ||
		strings.Count(warn.String(), "would do.") != 1 || !strings.HasSuffix(warn.String(), "would do.\n") {
		t.Errorf("warnings %q, want one at the end naming the peak and a budget that would do", warn.String())
	}
	sameResults(t, got, want)
}

// TestStaleSpillsRemoved: the sketches a killed run spilled to its work
// folder are removed by the next run that puts its results in place, with
// a memory budget or without one, and the work folder with them.
func TestStaleSpillsRemoved(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	for _, memory := range []int64{0, 1} {
		out := filepath.Join(dir, fmt.Sprint("out", memory))
		stale := filepath.Join(dir, "."+filepath.Base(out)+".work", "spill-123")
		if err := os.MkdirAll(stale, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(stale, "keys-07"), []byte("sketches of a killed run"), 0o644)
		if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Memory: memory}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
			t.Errorf("memory %d: the work folder with an earlier run's spill is left: %v", memory, err)
		}
	}
}

// TestBudgetSpillFilesLeaveNoName pins that the files a memory budget
// spills to have no name in the output's work folder while the run writes
// and reads them: a run killed (kill -9) left them there until the next
// run into the same output.
func TestBudgetSpillFilesLeaveNoName(t *testing.T) {
	out, err := output.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Abort()
	var g engine.Grouping
	_, done, err := budget(out, 1<<40, &g)
	if err != nil {
		t.Fatal(err)
	}
	f, err := g.Spill("keys-00")
	if err != nil {
		done()
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("spilled")); err != nil {
		t.Fatal(err)
	}
	work := out.WorkPath()
	if runtime.GOOS != "windows" {
		if left, err := os.ReadDir(work); err != nil || len(left) != 0 {
			t.Errorf("while a spill file is open, the work folder holds %v (%v), want nothing", left, err)
		}
	}
	b := make([]byte, 7)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "spilled" {
		t.Errorf("read back %q, %v; want %q", b, err, "spilled")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	done()
	if _, err := os.Stat(work); !os.IsNotExist(err) {
		t.Errorf("the work folder is still there after the run: %v", err)
	}
}
