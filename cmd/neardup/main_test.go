package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	out := t.TempDir()
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"help", []string{"--help"}, 0},
		{"command help", []string{"dedup", "--help"}, 0},
		{"unknown command", []string{"bogus"}, 2},
		{"bad threshold", []string{"dedup", "-q", "--threshold", "1.5", example, "-o", out}, 2},
		{"bad method", []string{"dedup", "-q", "--method", "magic", example, "-o", out}, 2},
		{"bands need more MinHash values", []string{"dedup", "-q", "--bands", "20x9", example, "-o", out}, 2},
		{"bands not BxR", []string{"dedup", "-q", "--bands", "twenty", example, "-o", out}, 2},
		{"bad shingle unit", []string{"dedup", "-q", "--shingle-unit", "bytes", example, "-o", out}, 2},
		{"word shingles", []string{"-q", "dedup", "--shingle-unit", "words", example, "-o", t.TempDir()}, 0},
		{"missing input", []string{"dedup", "-q", filepath.Join(out, "nope.jsonl"), "-o", out}, 1},
		{"example", []string{"-q", "dedup", example, "-o", out}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(t.Context(), tc.args); got != tc.want {
				t.Errorf("exit code %d, want %d", got, tc.want)
			}
		})
	}
	for _, f := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "stats.json"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
