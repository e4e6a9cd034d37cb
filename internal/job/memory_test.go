package job

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// resultFiles are the files a memory budget must leave byte for byte as
// they are.
var resultFiles = []string{output.PairsFile, output.ClustersFile, output.KeptFile, output.RemovedFile, output.RejectsFile}

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
				var got []string
				for _, name := range resultFiles {
					data, err := os.ReadFile(filepath.Join(out, name))
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, string(data))
				}
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
			for i, name := range resultFiles {
				if got[i] != want[i] {
					t.Errorf("%s differs from the run without a budget", name)
				}
			}
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
