package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestResumeAfterKill kills `neardup dedup --resume` with SIGKILL during
// its first reading, once a checkpoint is written, resumes it with the
// same command, and compares its results byte for byte with those of a run
// never interrupted, for methods whose limits the rejects name by the
// documents' texts. Regression: a resumed run replayed its checkpoint's
// documents without their texts, so that every document the checkpoint
// held and the method did not compare was rejected as "a text of fewer
// than 30 characters" (rarewords' --min-words) or "no words left"
// (sentences' --min-sentence-chars).
func TestResumeAfterKill(t *testing.T) {
	const (
		fewWords   = "not compared: fewer than 30 words (--min-words)"
		shortLines = "not compared: no sentence of 20 characters or more (--min-sentence-chars)"
	)
	for _, tc := range []struct {
		name  string
		flags []string
		// rejects gives what rejects.jsonl says of each document of the
		// checkpoint the methods treat apart ("": it is compared and kept).
		rejects map[string]string
	}{
		{"minhash", nil, map[string]string{"few-words": "", "short-lines": ""}},
		// --threshold 0.5: the generated stories share enough rare words
		// that each pairs with every other above rarewords' 0.1.
		{"rarewords", []string{"--method", "rarewords", "--min-words", "30", "--threshold", "0.5"},
			map[string]string{"few-words": fewWords, "short-lines": fewWords}},
		{"sentences", []string{"--method", "sentences"}, map[string]string{"few-words": "", "short-lines": shortLines}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in, docs := writeCorpus(t, dir, 6000)
			// Documents of enough characters for --min-text that the
			// method does not compare, first: in the checkpoint.
			notCompared := `{"id":"few-words","text":"A story told in some forty characters and nine words."}` + "\n" +
				`{"id":"short-lines","text":"Milk. Eggs. Bread. Butter. Flour. Sugar. Apples. Tea."}` + "\n"
			if err := os.WriteFile(in, append([]byte(notCompared), mustRead(t, in)...), 0o644); err != nil {
				t.Fatal(err)
			}
			resumeAfterKill(t, dir, in, len(docs)+2, tc.flags)
			rejects := jsonlByID(t, filepath.Join(dir, "resumed", "rejects.jsonl"), "error")
			kept := jsonlByID(t, filepath.Join(dir, "resumed", "kept.jsonl"), "id")
			for id, want := range tc.rejects {
				got, rejected := rejects[id]
				switch {
				case want == "" && (rejected || kept[id] == ""):
					t.Errorf("%s: rejected %v (%q), kept %v; want it compared and kept", id, rejected, got, kept[id] != "")
				case want != "" && !strings.HasPrefix(got, want):
					t.Errorf("%s: rejects.jsonl says %q, want %q", id, got, want)
				}
			}
		})
	}
}

// jsonlByID reads the JSON lines at path and returns each line's field, a
// string, by the line's "id".
func jsonlByID(t *testing.T, path, field string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for line := range bytes.Lines(mustRead(t, path)) {
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		id, _ := v["id"].(string)
		out[id], _ = v[field].(string)
	}
	return out
}

// resumeAfterKill runs dedup of in with flags into dir/whole, and into
// dir/resumed killed once a checkpoint of part of the reading's records
// is written and resumed, and compares their results.
func resumeAfterKill(t *testing.T, dir, in string, records int, flags []string) {
	whole, resumed := filepath.Join(dir, "whole"), filepath.Join(dir, "resumed")
	runOK(t, append([]string{"dedup", in, "-o", whole}, flags...)...)

	cmd := child(t, append([]string{"dedup", in, "-o", resumed, "--resume", "--checkpoint-every", "200", "-q"}, flags...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ckPath := filepath.Join(dir, ".resumed.work", "checkpoint", "checkpoint.json")
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(ckPath); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("no checkpoint written within a minute")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	var ck struct {
		Records int  `json:"records"`
		Done    bool `json:"done"`
	}
	data, err := os.ReadFile(ckPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ck); err != nil {
		t.Fatal(err)
	}
	if ck.Done || ck.Records == 0 || ck.Records >= records {
		t.Fatalf("killed with a checkpoint of %d records of %d (done %v): not during the reading", ck.Records, records, ck.Done)
	}
	if _, err := os.Stat(resumed); !os.IsNotExist(err) {
		t.Fatalf("results in place after the kill: %v", err)
	}

	runOK(t, append([]string{"dedup", in, "-o", resumed, "--resume"}, flags...)...)
	for _, name := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "removed.jsonl", "rejects.jsonl"} {
		want, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(resumed, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s after resuming differs from the run never interrupted:\n%.2000s\nwant:\n%.2000s", name, got, want)
		}
	}
	if bytes.Count(mustRead(t, filepath.Join(whole, "pairs.jsonl")), []byte("\n")) == 0 {
		t.Fatal("no pairs: the corpus does not exercise matching")
	}
	if _, err := os.Stat(filepath.Join(dir, ".resumed.work")); !os.IsNotExist(err) {
		t.Errorf("the work folder is left after the resumed run: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
