package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
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

// TestServeOnANewIndexKeepsItsSettings: serve taking writes on a new
// index stores its settings as it opens, so that an index add started
// after it with another method is refused (exit 1) and serve goes on
// taking documents, its stats naming the method stored. Regression: serve
// stored none until its first document, the add stored simhash, and every
// POST /v1/documents and /v1/query of serve answered 500 from then on.
func TestServeOnANewIndexKeepsItsSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 12)
	db, tokens := filepath.Join(dir, "served.db"), filepath.Join(dir, "tokens.txt")
	const token = "s3cret-token-for-tests"
	if err := os.WriteFile(tokens, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, stop := serveInProcess(t, "--db", db, "--token-file", tokens)
	out, err := child(t, "-q", "index", "add", "--db", db, "--method", "simhash", corpus).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "its method is fixed when it is created") {
		t.Errorf("index add --method simhash beside serve: %v, %s; want it refused", err, out)
	}
	text := strings.Join(enginetest.NewTextGen(8).Sentences(10), " ")
	for _, path := range []string{"/v1/documents", "/v1/query"} {
		r, _ := http.NewRequest("POST", base+path, strings.NewReader(fmt.Sprintf(`{"id": "a", "text": %q}`, text)))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("POST %s: %d %s", path, resp.StatusCode, body)
		}
	}
	if c := stop(); c != 0 {
		t.Errorf("serve exit code %d", c)
	}
	if method, n := storedMethod(t, db); method != "minhash" || n != 1 {
		t.Errorf("the index holds method %q and %d documents, want minhash and 1", method, n)
	}
}

// TestReadOnlyServeOfAnEmptyIndexBoundSince: serve without writes, started
// on an index that holds nothing (its first add stored nothing), is ready;
// once another process's first add gives the index a method, which that
// server cannot take up, /readyz answers 503 saying to restart it, as its
// queries do, and a restarted server reads the documents. Regression:
// /readyz kept answering ready while every query answered 503.
func TestReadOnlyServeOfAnEmptyIndexBoundSince(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("not json\n"), 0o644)
	corpus, docs := writeCorpus(t, dir, 12)
	db := filepath.Join(dir, "served.db")
	if code := run(t.Context(), []string{"-q", "index", "add", "--db", db, bad}); code != 1 {
		t.Fatalf("the first add: exit code %d, want 1", code)
	}
	base, stop := serveInProcess(t, "--db", db)
	runOK(t, "index", "add", "--db", db, corpus)
	if c, body := httpGet(t, base+"/readyz"); c != 503 || !strings.Contains(body, "restarted") {
		t.Errorf("/readyz once another process gave the index its method: %d %s; want 503 saying to restart", c, body)
	}
	resp, err := http.Post(base+"/v1/query", "application/json", strings.NewReader(fmt.Sprintf(`{"id": "q", "text": %q}`, docs[0].Text)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(body), "restarted") {
		t.Errorf("a query once another process gave the index its method: %d %s; want 503 saying to restart", resp.StatusCode, body)
	}
	if c := stop(); c != 0 {
		t.Errorf("serve exit code %d", c)
	}
	base, stop = serveInProcess(t, "--db", db)
	defer stop()
	if c, body := httpGet(t, base+"/v1/documents/"+docs[0].ID); c != 200 {
		t.Errorf("a read after the restart: %d %s", c, body)
	}
}

// httpGet returns the status code and body of a GET of u (0 and the error
// when it fails).
func httpGet(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestStoreTextOfAFirstAddThatLostTheRace: an index add --no-store-text
// that opened a new index before another add stored its first documents,
// with texts, adds as the index stores, with texts, and warns of it as it
// does when it opens an index with texts. Regression: the warning was
// decided at the open, before the other add bound the index, and skipped.
func TestStoreTextOfAFirstAddThatLostTheRace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 6)
	db := filepath.Join(dir, "x.db")
	cmd := child(t, "index", "add", "--db", db, "--no-store-text", "-")
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
	said := bufio.NewReader(stderr)
	first, err := said.ReadString('\n') // its note of no texts: it has opened the index
	if !strings.HasPrefix(first, "note: ") {
		t.Fatalf("the add said %q, %v; want its note of an index without texts", first, err)
	}
	runOK(t, "index", "add", "--db", db, corpus) // stores texts, first
	stdin.Write([]byte(`{"id": "late", "text": "` + strings.Repeat("a late document of its own words ", 8) + `"}` + "\n"))
	stdin.Close()
	rest, _ := io.ReadAll(said)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the add: %v\n%s%s", err, first, rest)
	}
	if !strings.Contains(string(rest), "warning: --no-store-text: ") {
		t.Errorf("the add that took the other's texts said %q%q, want its warning", first, rest)
	}
}
