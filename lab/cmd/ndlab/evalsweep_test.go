package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/lab/internal/sweep"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
)

// sweepCorpus writes a labelled corpus of five documents: a story, its
// reprint with a changed last sentence, and three unrelated stories.
func sweepCorpus(t *testing.T) (docs, truth string) {
	t.Helper()
	dir := t.TempDir()
	story := "The port authority approved a new container terminal on Monday. " +
		"It will add six cranes and about two thousand jobs. Construction is to begin in March. " +
		"Residents of the district asked for a noise barrier along the access road. "
	docs, truth = filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "truth.jsonl")
	os.WriteFile(docs, []byte(`{"id":"a","text":"`+story+`The state will lend part of the money."}
{"id":"b","text":"`+story+`Officials said the review found no lasting harm."}
{"id":"c","text":"Oil prices fell on Friday as traders worried that producers were pumping above their quotas. Brent lost two dollars."}
{"id":"d","text":"The league leaders signed a young striker for a record fee on Monday. He scored thirty goals last season."}
{"id":"e","text":"A space probe sent back its first close images of an icy moon after passing a thousand kilometers above it."}
`), 0o644)
	os.WriteFile(truth, []byte(`{"id":"a","cluster":"a"}
{"id":"b","cluster":"a"}
{"id":"c","cluster":"c"}
{"id":"d","cluster":"d"}
{"id":"e","cluster":"e"}
`), 0o644)
	return docs, truth
}

func TestRunEvalSweep(t *testing.T) {
	docs, truth := sweepCorpus(t)
	dir := t.TempDir()
	ts, _ := sweep.Range(0.2, 0.9, 0.1)
	csvPath, svgPath := filepath.Join(dir, "sweep.csv"), filepath.Join(dir, "sweep.svg")
	var out, progress bytes.Buffer
	err := runEvalSweep(context.Background(), evalSweepOptions{inputs: []string{docs}, truth: truth,
		sweep: sweep.Options{Methods: []engine.Config{minhash.Defaults(), sentences.Defaults()}, Thresholds: ts},
		csv:   csvPath, plot: svgPath, out: &out, progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"truth: 5 documents in 4 clusters, 1 duplicate pairs", "minhash: threshold on the Jaccard",
		"sentences: threshold on the Jaccard of the sentence sets", "default (0.45)", "best F1 1.0000 at 0.2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(progress.String(), "sweep: minhash done") {
		t.Errorf("progress: %q", progress.String())
	}
	csv, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(csv), "\n"); n != 1+2*(len(ts)+1) {
		t.Errorf("CSV has %d lines, want a header and %d rows", n, 2*(len(ts)+1))
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil || !bytes.HasPrefix(svg, []byte("<svg ")) {
		t.Errorf("plot: %v %.40q", err, svg)
	}
}

func TestEvalSweepFlags(t *testing.T) {
	docs, truth := sweepCorpus(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
	}{
		{"runs", []string{"-q", "sweep", "--truth", truth, "--methods", "sentences", docs}, 0},
		{"bad range", []string{"-q", "sweep", "--truth", truth, "--from", "0.9", "--to", "0.5", docs}, 2},
		{"containment of minhash", []string{"-q", "sweep", "--truth", truth, "--methods", "minhash", "--vary", "containment", docs}, 0},
		{"containment of sentences", []string{"-q", "sweep", "--truth", truth, "--vary", "containment", docs}, 2},
		{"unknown method", []string{"-q", "sweep", "--truth", truth, "--methods", "nosuch", docs}, 2},
		{"bad option", []string{"-q", "sweep", "--truth", truth, "--shingle", "99", docs}, 2},
		{"missing truth file", []string{"-q", "sweep", "--truth", truth + ".none", docs}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout := os.Stdout
			os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			code := run(context.Background(), tc.args)
			os.Stdout = stdout
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d", code, tc.wantCode)
			}
		})
	}
}

// TestEvalSweepParses pins the flags of `sweep`.
func TestEvalSweepParses(t *testing.T) {
	var c cli
	parser, err := newParser(&c, kong.Exit(func(int) { t.Fatal("exit") }))
	if err != nil {
		t.Fatal(err)
	}
	kctx, err := parser.Parse([]string{"sweep", "--truth", "t.jsonl", "--methods", "minhash,cosine", "--csv", "s.csv", "docs.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sweep
	if kctx.Command() != "sweep <input>" || s.Truth != "t.jsonl" || len(s.Methods) != 2 || s.CSV != "s.csv" || s.From != 0.1 {
		t.Errorf("command %q, flags %+v", kctx.Command(), s)
	}
}
