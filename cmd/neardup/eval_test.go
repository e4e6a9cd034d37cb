package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// TestEvalCommandLine pins `neardup eval --truth T --pred P`, as the
// README and --help write it. Regression: --help wrote `eval pairs`.
func TestEvalCommandLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	truth, pred := filepath.Join(dir, "t.jsonl"), filepath.Join(dir, "p,run 2.jsonl") // a comma splits no --pred
	os.WriteFile(truth, nil, 0o644)
	os.WriteFile(pred, nil, 0o644)
	var c cli
	parser, err := newParser(&c, kong.Exit(func(int) { t.Fatal("exit") }))
	if err != nil {
		t.Fatal(err)
	}
	kctx, err := parser.Parse([]string{"eval", "--truth", truth, "--pred", pred, "--by", "ops"})
	if err != nil {
		t.Fatal(err)
	}
	if kctx.Command() != "eval" || c.Eval.By != "ops" || c.Eval.Truth != truth || !slices.Equal(c.Eval.Pred, []string{pred}) {
		t.Errorf("command %q, flags %+v", kctx.Command(), c.Eval)
	}
}

func TestRunEvalPairs(t *testing.T) {
	dir := t.TempDir()
	truth := filepath.Join(dir, "truth.jsonl")
	os.WriteFile(truth, []byte(`{"id":"a","cluster":"a","ops":[]}
{"id":"b","cluster":"a","ops":["truncate"]}
{"id":"c","cluster":"c","ops":[]}
`), 0o644)
	withBOM := filepath.Join(dir, "bom.jsonl")
	os.WriteFile(withBOM, []byte("\ufeff"+`{"id":"a","cluster":"a"}`+"\r\n"+`{"id":"b","cluster":"a"}`+"\r\n"), 0o644)
	predBOM := filepath.Join(dir, "clusters-bom.jsonl")
	os.WriteFile(predBOM, []byte("\ufeff"+`{"cluster":1,"members":["a","b"]}`+"\r\n"), 0o644)
	labelled := filepath.Join(dir, "labelled.jsonl")
	os.WriteFile(labelled, []byte(`{"a":"a","b":"b","label":"duplicate","stratum":"hi"}
{"a":"a","b":"c","label":"different","stratum":"lo"}
`), 0o644)
	notUTF8 := filepath.Join(dir, "not-utf8.jsonl")
	os.WriteFile(notUTF8, []byte("{\"id\":\"d\xff1\",\"cluster\":\"A\"}\n{\"id\":\"d\xfe1\",\"cluster\":\"B\"}\n"), 0o644)
	pred := filepath.Join(dir, "pairs.jsonl")
	os.WriteFile(pred, []byte(`{"a":"a","b":"b","method":"minhash","score":0.9,"label":"duplicate"}
{"a":"a","b":"c","method":"minhash","score":0.4,"label":"similar"}
`), 0o644)
	nothing := filepath.Join(dir, "nothing.jsonl") // a run that found no pair
	os.WriteFile(nothing, nil, 0o644)
	tests := []struct {
		name    string
		o       evalOptions
		want    []string
		wantErr string
	}{
		{"text", evalOptions{truth: truth, preds: []string{pred}, by: "ops"},
			[]string{"3 documents in 2 clusters, 1 duplicate pair", "1.0000  1.0000  1.0000", "1.0000 (1)", "recall by ops"}, ""},
		{"similar", evalOptions{truth: truth, preds: []string{pred}, includeSimilar: true, json: true},
			[]string{`"precision": 0.5`, `"recall": 1`}, ""},
		{"missing prediction", evalOptions{truth: truth, preds: []string{filepath.Join(dir, "none.jsonl")}},
			nil, "none.jsonl"},
		{"bad truth", evalOptions{truth: pred, preds: []string{pred}}, nil, "pairs.jsonl: reading truth: line 2: label \"similar\""},
		// Regression: an output directory given for a file was read as
		// one ("after line 0: read out: is a directory").
		{"prediction a directory", evalOptions{truth: truth, preds: []string{dir}},
			nil, "--pred " + dir + ": a directory; name its pairs.jsonl or clusters.jsonl"},
		// Regression: a byte order mark (Notepad's, PowerShell's) that
		// dedup reads was refused: "invalid character 'ï'".
		{"byte order mark", evalOptions{truth: withBOM, preds: []string{predBOM}},
			[]string{"2 documents in 1 cluster, 1 duplicate pair", "1.0000  1.0000  1.0000"}, ""},
		// Regression: on labelled pairs --direct was ignored, and
		// --without said no document had a value its pairs had.
		{"direct on labelled pairs", evalOptions{truth: labelled, preds: []string{pred}, by: "stratum", direct: true},
			nil, "labelled.jsonl holds labelled pairs"},
		// Regression: bytes that are not UTF-8 were read as U+FFFD, so
		// that two ids were one: "line 2: id "d\ufffd1" repeated".
		{"invalid UTF-8", evalOptions{truth: notUTF8, preds: []string{pred}},
			nil, notUTF8 + `: reading truth: line 1: field "id": invalid UTF-8`},
		{"without on labelled pairs", evalOptions{truth: labelled, preds: []string{pred}, by: "stratum", without: []string{"hi"}},
			nil, "labelled.jsonl holds labelled pairs"},
		// Regression: with nothing predicted the precision, undefined,
		// was 1.0000 (1 in JSON), where the breakdown's was "-".
		{"nothing predicted", evalOptions{truth: truth, preds: []string{nothing}},
			[]string{"nothing.jsonl  pairs          0        0          -  0.0000  0.0000"}, ""},
		{"nothing predicted, JSON", evalOptions{truth: labelled, preds: []string{nothing}, json: true},
			[]string{`"precision": null,` + "\n        \"recall\": 0,", `"correct": 0,` + "\n        \"precision\": null,\n        \"recall\": {"}, ""},
		{"nothing predicted, by stratum", evalOptions{truth: labelled, preds: []string{nothing}, by: "stratum"},
			[]string{"nothing.jsonl  pairs          0        0          -  0.0000  0.0000",
				"nothing.jsonl          0           1        0          -  0.0000 (0.0000-0.0000)",
				"0.0000 (0)          -\n"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			tc.o.out = &out
			err := runEvalPairs(context.Background(), tc.o)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestEvalErrorsShowControlCharacters: eval's messages show what they
// quote of the inputs (a field of the truth, a file's name) with its
// control characters escaped, as its report does.
func TestEvalErrorsShowControlCharacters(t *testing.T) {
	dir := t.TempDir()
	truth := filepath.Join(dir, "t\x1b[31mbad.jsonl")
	if err := os.WriteFile(truth, []byte(`{"id":"a","cluster":"1","f\u001b[31mX":"v"}`+"\n"+`{"id":"b","cluster":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pred := filepath.Join(dir, "p.jsonl")
	if err := os.WriteFile(pred, []byte(`{"a":"a","b":"b","label":"duplicate"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runChild(t, "eval", "--truth", truth, "--pred", pred, "--by", "nope")
	if code == 0 || strings.ContainsAny(stderr, "\x1b") || !strings.Contains(stderr, `f\x1b[31mX`) {
		t.Errorf("exit %d, stderr %q: want an error showing the field's escape", code, stderr)
	}
}
