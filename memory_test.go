package neardup_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// TestDedupMemory: under a memory budget Dedup and DedupSeq find what they
// find without one, with every sketch or some spilled to WorkDir, which is
// left empty; a method that cannot spill refuses a budget. While the run
// spills (matching), WorkDir holds no name either: the spill files' names
// are removed as they are made, so that a run killed leaves none there.
func TestDedupMemory(t *testing.T) {
	docs := corpus(300, 120)
	for _, tc := range []struct {
		name   string
		method neardup.MethodOptions
		memory int64
		all    bool // every sketch spilled
	}{
		{name: "minhash, all spilled", memory: 1, all: true},
		{name: "minhash, some spilled", memory: 64 << 10},
		{name: "simhash, all spilled", method: simhash.Defaults(), memory: 1, all: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: tc.method})
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Pairs) < 20 {
				t.Fatalf("only %d pairs: the corpus does not exercise matching", len(want.Pairs))
			}
			work := t.TempDir()
			var seen int // matching's progress calls, each a look at WorkDir
			o := neardup.Options{Method: tc.method, Memory: tc.memory, WorkDir: work, OnProgress: func(p neardup.Progress) {
				if p.Stage != "matching" || runtime.GOOS == "windows" {
					return
				}
				seen++
				if left, err := os.ReadDir(work); err != nil || len(left) != 0 {
					t.Errorf("matching %d of %d: WorkDir holds %v (%v), want nothing", p.Done, p.Total, left, err)
				}
			}}
			for name, dedup := range map[string]func() (*neardup.Result, error){
				"Dedup":    func() (*neardup.Result, error) { return neardup.Dedup(t.Context(), docs, o) },
				"DedupSeq": func() (*neardup.Result, error) { return neardup.DedupSeq(t.Context(), seq(t, docs), o) },
			} {
				seen = 0
				got, err := dedup()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if seen == 0 && runtime.GOOS != "windows" {
					t.Errorf("%s: no progress while matching, WorkDir not looked at", name)
				}
				if !reflect.DeepEqual(got.Pairs, want.Pairs) || !reflect.DeepEqual(got.Clusters, want.Clusters) ||
					!reflect.DeepEqual(got.Kept, want.Kept) {
					t.Errorf("%s under a budget differs from a run without one", name)
				}
				switch sp := got.Stats.Spilled; {
				case tc.all && sp != len(docs):
					t.Errorf("%s: %d of %d sketches spilled, want all", name, sp, len(docs))
				case !tc.all && (sp == 0 || sp == len(docs)):
					t.Errorf("%s: %d of %d sketches spilled, want some", name, sp, len(docs))
				}
				if left, err := os.ReadDir(work); err != nil || len(left) != 0 {
					t.Errorf("%s left %v in WorkDir (%v)", name, left, err)
				}
			}
		})
	}
	work := t.TempDir()
	_, err := neardup.Dedup(t.Context(), docs[:10], neardup.Options{Method: tfidf.Defaults(), Memory: 1 << 30, WorkDir: work})
	if err == nil || !strings.Contains(err.Error(), "minhash and simhash can") {
		t.Errorf("tfidf under a budget: err = %v, want a refusal naming the methods that can", err)
	}
	if left, err := os.ReadDir(work); err != nil || len(left) != 0 {
		t.Errorf("a refused budget left %v in WorkDir (%v)", left, err)
	}
}

// TestDedupMemoryRefusesAMissingWorkDir: a WorkDir that cannot hold the
// spill files is refused before a document is read. Regression: the error
// came once the budget was met, after the whole input was read.
func TestDedupMemoryRefusesAMissingWorkDir(t *testing.T) {
	read := 0
	docs := func(yield func(neardup.Document, error) bool) {
		read++
		yield(neardup.Document{ID: "a", Text: "The council approved the harbour bridge on Tuesday after a long debate."}, nil)
	}
	_, err := neardup.DedupSeq(t.Context(), docs, neardup.Options{Memory: 1 << 20, WorkDir: filepath.Join(t.TempDir(), "missing")})
	if err == nil || !strings.Contains(err.Error(), "work directory") || read != 0 {
		t.Errorf("DedupSeq with a missing WorkDir: %v, the documents read %d times; want an error before reading", err, read)
	}
}
