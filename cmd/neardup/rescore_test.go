package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/enginetest"
)

// TestRescoreKeepsTheWindow pins a rescore that ignored the window: an index
// added to with --window 3d gained, on rescore, the duplicates dated 400
// days apart that the window had ruled out. Rescored with the same
// --window, it keeps the pairs of dedup with that window; without one, it
// pairs as dedup without one.
func TestRescoreKeepsTheWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	docs := enginetest.Copies(enginetest.NewTextGen(7), 30, 8)
	base := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	copies := 0
	for _, d := range docs {
		date := base
		if d.ID[0] == 'c' {
			if copies++; copies%2 == 0 {
				date = base.AddDate(0, 0, 400) // a copy far outside the window
			}
		}
		line, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text, "date": date.Format(time.RFC3339)})
		b.Write(append(line, '\n'))
	}
	corpus := filepath.Join(dir, "dated.jsonl")
	if err := os.WriteFile(corpus, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	windowed := windowPairs(t, corpus, "--window", "3d")
	all := windowPairs(t, corpus)
	if len(windowed) == 0 || len(windowed) >= len(all) {
		t.Fatalf("dedup: %d pairs with a window of 3d, %d without: want fewer, not none", len(windowed), len(all))
	}
	db := filepath.Join(dir, "w.db")
	runOK(t, "index", "add", "--db", db, "--window", "3d", corpus)
	for _, tc := range []struct {
		name string
		args []string
		want map[string]bool
	}{
		{"the same window", []string{"--window", "3d"}, windowed},
		{"no window", nil, all},
		{"the window again", []string{"--window", "3d"}, windowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runOK(t, append([]string{"index", "rescore", "--db", db}, tc.args...)...)
			_, marks := storedIndex(t, db)
			got := map[string]bool{}
			for k, l := range marks {
				if l == "duplicate" {
					got[k] = true
				}
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("after rescore %v: %d duplicate pairs, want dedup's %d", tc.args, len(got), len(tc.want))
			}
		})
	}
	if code := run(t.Context(), []string{"-q", "index", "rescore", "--db", db, "--window", "soon"}); code != 2 {
		t.Errorf("rescore --window soon: exit code %d, want 2", code)
	}
}

// windowPairs returns the duplicate pairs dedup finds in path with the
// extra flags given.
func windowPairs(t *testing.T, path string, flags ...string) map[string]bool {
	t.Helper()
	out := t.TempDir()
	runOK(t, append([]string{"dedup", path, "-o", out}, flags...)...)
	data, err := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]bool{}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var p struct{ A, B, Label string }
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatal(err)
		}
		if p.Label == "duplicate" {
			pairs[p.A+"~"+p.B] = true
		}
	}
	return pairs
}
