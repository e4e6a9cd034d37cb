package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// storedMethod returns the method the index at db holds ("" for none) and
// how many documents.
func storedMethod(t *testing.T, db string) (string, int) {
	t.Helper()
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var m store.Meta
	var n int
	err = st.View(t.Context(), func(r store.Reader) error {
		var err error
		if m, _, err = r.Meta(); err != nil {
			return err
		}
		c, err := r.Counts()
		n = c.Documents
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m.Method, n
}

// TestFirstAddThatStoresNothingBindsNoOptions: an index add that stores no
// document on a new index (every record malformed, or stopped by --strict
// at its first) leaves it bound to no method or options, on both engines:
// a rerun with another --method, or another threshold, adds as to a new
// index. Regression: the rerun was refused ("the index uses method minhash,
// not simhash; its method is fixed when it is created").
func TestFirstAddThatStoresNothingBindsNoOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"id\":\"a\",\"text\":\nnot json\n"), 0o644)
	corpus, docs := writeCorpus(t, dir, 12)
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			for _, tc := range []struct {
				name        string
				first, then []string
			}{
				{"malformed", []string{bad}, []string{"--method", "simhash", corpus}},
				{"strict", []string{"--strict", "--threshold", "0.9", bad, corpus}, []string{"--threshold", "0.6", corpus}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					db := storetest.DSN(t, e)
					if code := run(t.Context(), append([]string{"-q", "index", "add", "--db", db}, tc.first...)); code != 1 {
						t.Fatalf("the first add: exit code %d, want 1", code)
					}
					if method, n := storedMethod(t, db); method != "" || n != 0 {
						t.Fatalf("the first add stored nothing and left method %q, %d documents; want none", method, n)
					}
					runOK(t, append([]string{"index", "add", "--db", db}, tc.then...)...)
					if _, n := storedMethod(t, db); n != len(docs) {
						t.Errorf("%d documents stored, want %d", n, len(docs))
					}
				})
			}
		})
	}
}

// TestTwoProcessesFirstAddOtherMethods: two index add processes started
// together on a new index, with other methods: one stores every document
// of its own and its method, the other is refused as an index of another
// method is (exit 1), and nothing else is stored. With the same method both
// store theirs (TestTwoProcessesOneFile).
func TestTwoProcessesFirstAddOtherMethods(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, docs := writeCorpus(t, dir, 40)
	var halves [2]bytes.Buffer
	for i, d := range docs {
		line, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text})
		halves[i%2].Write(append(line, '\n'))
	}
	methods := []string{"minhash", "simhash"}
	for i := range halves {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("half%d.jsonl", i)), halves[i].Bytes(), 0o644)
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			for round := range 3 {
				db := storetest.DSN(t, e)
				var cmds []*exec.Cmd
				var stderrs [2]bytes.Buffer
				for i := range halves {
					cmd := child(t, "-q", "index", "add", "--db", db, "--method", methods[i], "--chunk", "5", filepath.Join(dir, fmt.Sprintf("half%d.jsonl", i)))
					cmd.Stderr = &stderrs[i]
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					cmds = append(cmds, cmd)
				}
				var failed []int
				for i, c := range cmds {
					if err := c.Wait(); err != nil {
						failed = append(failed, i)
					}
				}
				if len(failed) != 1 {
					t.Fatalf("round %d: processes %v failed, want one:\n%s\n%s", round, failed, stderrs[0].String(), stderrs[1].String())
				}
				won := 1 - failed[0]
				if msg := stderrs[failed[0]].String(); !strings.Contains(msg, "its method is fixed when it is created") {
					t.Errorf("round %d: the process refused says %q", round, msg)
				}
				method, n := storedMethod(t, db)
				if want := strings.Count(halves[won].String(), "\n"); method != methods[won] || n != want {
					t.Errorf("round %d: the index holds method %s and %d documents, want %s and %d", round, method, n, methods[won], want)
				}
				verifyClean(t, db)
			}
		})
	}
}
