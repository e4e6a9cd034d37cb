package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestResumeAfterKill kills `neardup dedup --resume` with SIGKILL during
// its first reading, once a checkpoint is written, resumes it with the
// same command, and compares its results byte for byte with those of a run
// never interrupted.
func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	in, docs := writeCorpus(t, dir, 6000)
	whole, resumed := filepath.Join(dir, "whole"), filepath.Join(dir, "resumed")
	runOK(t, "dedup", in, "-o", whole)

	cmd := child(t, "dedup", in, "-o", resumed, "--resume", "--checkpoint-every", "200", "-q")
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
	if ck.Done || ck.Records == 0 || ck.Records >= len(docs) {
		t.Fatalf("killed with a checkpoint of %d records of %d (done %v): not during the reading", ck.Records, len(docs), ck.Done)
	}
	if _, err := os.Stat(resumed); !os.IsNotExist(err) {
		t.Fatalf("results in place after the kill: %v", err)
	}

	runOK(t, "dedup", in, "-o", resumed, "--resume")
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
			t.Errorf("%s after resuming differs from the run never interrupted", name)
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
