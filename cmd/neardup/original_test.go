package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

// TestIndexOriginalPrinted: `index add` of a reprint and then of the
// story it copies, published first, prints the story as the original of
// its cluster and of its match; `index export` and `dedup` of the same
// file name it in clusters.jsonl and pairs.jsonl.
func TestIndexOriginalPrinted(t *testing.T) {
	dir := t.TempDir()
	g := enginetest.NewTextGen(35)
	s := g.Sentences(10)
	reprint := append([]string(nil), s...)
	reprint[3] = g.Sentence()
	var b bytes.Buffer
	for _, r := range []map[string]string{
		{"id": "reprint", "date": "2024-03-01T12:00:00Z", "text": strings.Join(reprint, " ")},
		{"id": "wire", "date": "2024-03-01T10:00:00Z", "text": strings.Join(s, " ")},
	} {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	in := filepath.Join(dir, "news.jsonl")
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "news.db")
	out, err := child(t, "-q", "index", "add", "--db", db, in).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	var got struct {
		ID, Original string
		Matches      []struct{ ID, Original string }
	}
	if len(lines) != 2 || json.Unmarshal(lines[1], &got) != nil {
		t.Fatalf("printed:\n%s", out)
	}
	if got.ID != "wire" || got.Original != "wire" || len(got.Matches) != 1 || got.Matches[0].ID != "reprint" || got.Matches[0].Original != "wire" {
		t.Errorf("the late original's line: %s", lines[1])
	}
	for _, run := range [][]string{{"index", "export", "--db", db, "-o", filepath.Join(dir, "export")}, {"dedup", in, "-o", filepath.Join(dir, "dedup")}} {
		if out, err := child(t, append([]string{"-q"}, run...)...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", run[0], err, out)
		}
		o := run[len(run)-1]
		clusters, _ := os.ReadFile(filepath.Join(o, "clusters.jsonl"))
		pairs, _ := os.ReadFile(filepath.Join(o, "pairs.jsonl"))
		if !bytes.Contains(clusters, []byte(`"original":"wire"`)) || !bytes.Contains(pairs, []byte(`"a":"reprint","b":"wire"`)) ||
			!bytes.Contains(pairs, []byte(`"label":"duplicate","original":"wire"`)) {
			t.Errorf("%s: clusters.jsonl %s\npairs.jsonl %s", o, clusters, pairs)
		}
	}
}
