package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMinText: dedup skips texts under --min-text characters and gallery
// captions, each with its reason in stats.json, and pairs them with
// --min-text 0; index add skips them alike.
func TestMinText(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"id":"g1","text":"Смотреть все фото к статье (18)"}
{"id":"g2","text":"Смотреть все фото к статье (18)"}
{"id":"s1","text":"Shares closed higher today."}
{"id":"s2","text":"Shares closed higher today."}
`), 0o644)
	for _, tc := range []struct {
		args           []string
		short, gallery int
		duplicatePairs int
	}{
		{nil, 2, 2, 0},
		{[]string{"--min-text", "0"}, 0, 0, 2},
	} {
		out := filepath.Join(dir, "out"+strings.Join(tc.args, ""))
		runOK(t, append([]string{"dedup", "--method", "minhash", in, "-o", out}, tc.args...)...)
		var st struct {
			Skipped map[string]int `json:"skipped"`
			Pairs   map[string]int `json:"pairs"`
		}
		b, err := os.ReadFile(filepath.Join(out, "stats.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		if st.Skipped["too-short"] != tc.short || st.Skipped["gallery"] != tc.gallery || st.Pairs["duplicate"] != tc.duplicatePairs {
			t.Errorf("%v: skipped %v, pairs %v", tc.args, st.Skipped, st.Pairs)
		}
	}
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, in)
	ids, marks := storedIndex(t, db)
	if len(ids) != 4 || len(marks) != 0 {
		t.Errorf("index add: stored %v, marks %v; want all four stored, none marked", ids, marks)
	}
}
