package job

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

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
// collector's limit is lifted, and the warning, written once, names the
// budget, the live heap and a budget that would do.
func TestBudgetWatch(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 30)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	w := &budgetWatch{limit: 1 << 30}
	if !w.check(900<<20) || w.Over() != 0 {
		t.Fatalf("given up at 900 MiB of 1 GiB (over %d)", w.Over())
	}
	if w.warning(10, 0) != "" {
		t.Fatal("a warning while the budget is kept")
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Fatalf("collector's limit %d while the budget is kept, want 1 GiB", got)
	}
	if w.check(1000<<20) || w.Over() != 1000<<20 {
		t.Fatalf("kept at 1000 MiB of 1 GiB (over %d)", w.Over())
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("collector's limit %d once the budget is given up, want none", got)
	}
	msg := w.warning(1234, 0.5)
	for _, want := range []string{"budget of 1.0 GiB is too small", "after 1234 documents", "live heap is 1000 MiB", "A budget of 4.0 GiB would do"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q lacks %q", msg, want)
		}
	}
	if again := w.warning(2000, 0.6); again != "" {
		t.Errorf("warned twice: %q", again)
	}
	if w.check(0) {
		t.Error("still watching after giving up")
	}
	for _, tc := range []struct {
		live  int64
		share float64
		want  int64
	}{
		{live: 1, want: MinMemory},
		{live: 58 << 20, want: 128 << 20},
		{live: 58 << 20, share: 0.25, want: 512 << 20},
		{live: 3 << 30, share: 1, want: 8 << 30},
	} {
		if got := suggestBudget(tc.live, tc.share); got != tc.want {
			t.Errorf("suggestBudget(%d, %g) = %d, want %d", tc.live, tc.share, got, tc.want)
		}
	}
}

// TestMemoryBudgetGivenUp runs under a budget far below what the run holds:
// it warns, says so in its statistics, gives the results of a run without
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
	if !strings.Contains(warn.String(), "budget of 1.0 MiB is too small") || strings.Count(warn.String(), "too small") != 1 {
		t.Errorf("warnings %q, want one that the budget is too small", warn.String())
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
