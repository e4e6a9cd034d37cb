package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimilarAboveThreshold pins --similar given above the threshold in
// force taken silently: dedup --similar 0.95 under minhash's --threshold
// 0.45 marked no pair below the threshold similar, and left out the
// duplicates a template rule refuses that score under 0.95 (two cities'
// weather bulletins, Jaccard 0.90: similar at the defaults, then no pair at
// all). Now it is a mistake in the command line, exit 2, naming both
// flags and values, in dedup (either profile) and index add, whose
// threshold may be an index's; a --similar at most the threshold (equal:
// the refused duplicates alone are similar) and a --threshold given below
// a default --similar are taken. Each method's thresholds and tfidf's
// rule are methodflags' TestSimilarAboveThreshold's.
func TestSimilarAboveThreshold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	for _, d := range []map[string]string{weatherBulletin("Tucson", "24", "30"), weatherBulletin("Raleigh", "26", "35")} {
		line, _ := json.Marshal(d)
		b.Write(append(line, '\n'))
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	indexed := filepath.Join(dir, "indexed.db")
	if code, _, errOut := runChild(t, "-q", "index", "add", "--db", indexed, "--threshold", "0.6", in); code != 0 {
		t.Fatalf("index add: exit %d\n%s", code, errOut)
	}
	fresh := filepath.Join(dir, "fresh.db")
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr; "" for exit 0
	}{
		{"minhash", []string{"dedup", in, "-o", out("m"), "--similar", "0.95"}, "neardup: --similar 0.95 is above --threshold 0.45: "},
		{"corpus profile", []string{"dedup", in, "-o", out("p"), "--profile", "corpus", "--similar", "0.95"}, "neardup: --similar 0.95 is above --threshold 0.45: "},
		{"a new index", []string{"index", "add", "--db", fresh, "--similar", "0.95", in}, "neardup: --similar 0.95 is above --threshold 0.45: "},
		{"an index's threshold", []string{"index", "add", "--db", indexed, "--similar", "0.65", in}, "--similar 0.65 is above --threshold 0.6: "},
		{"equal", []string{"dedup", in, "-o", out("equal"), "--similar", "0.45"}, ""},
		{"a threshold below the default similar", []string{"dedup", in, "-o", out("t"), "--threshold", "0.2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runChild(t, append([]string{"-q"}, tc.args...)...)
			switch {
			case tc.want == "" && code != 0:
				t.Errorf("exit %d, want 0\n%s", code, errOut)
			case tc.want != "" && (code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "Give --similar at most")):
				t.Errorf("exit %d, stderr:\n%s\nwant 2 and %q", code, errOut, tc.want)
			}
		})
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("the refused index add made %s: %v", fresh, err)
	}
	// At the threshold, the bulletins a rule refuses stay similar.
	var pair struct{ Label string }
	if err := json.Unmarshal(mustRead(t, filepath.Join(out("equal"), "pairs.jsonl")), &pair); err != nil || pair.Label != "similar" {
		t.Errorf("--similar 0.45: pair %+v, %v; want similar", pair, err)
	}
}
