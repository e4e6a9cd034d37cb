package dedup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpandRefusesInputsNotRead wants Expand, where the pipeline is
// built, to refuse an input the pipeline would not read as the batch does,
// naming it: a file not there (it failed inside the runner, its name at
// the end of a long trace), a directory (the same), a file of another
// format by its name (each of its lines was a malformed record, and the
// job succeeded), a file given twice (each record was read twice and
// paired with itself).
func TestExpandRefusesInputsNotRead(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.jsonl", "b.jsonl.gz", "c.ndjson.zst", "d.json", "part-00000", "e.tar.gz",
		"news.csv", "news.parquet", "news.tsv.gz", "reut2-000.sgm", "page.html", "more/f.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	link := filepath.Join(t.TempDir(), "link") // to dir
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	t.Run("read", func(t *testing.T) {
		inputs := []string{in("a.jsonl"), in("b.jsonl.gz"), in("c.ndjson.zst"), in("d.json"), in("part-00000"), in("e.tar.gz"), in("more/*.jsonl")}
		files, err := Expand(context.Background(), inputs)
		if err != nil || len(files) != len(inputs) {
			t.Fatalf("Expand(%q) = %q, %v; want the %d files", inputs, files, err, len(inputs))
		}
	})
	tests := []struct {
		name   string
		inputs []string
		usage  bool   // an *InputError
		want   string // in the message
	}{
		{"missing file", []string{in("a.jsonl"), in("nope.jsonl")}, false, "nope.jsonl: no such file"},
		{"directory", []string{in("more")}, true, "more: is a directory"},
		{"directory matched by a glob", []string{in("*")}, true, "more: is a directory"},
		{"csv", []string{in("news.csv")}, true, "news.csv: is csv"},
		{"parquet", []string{in("news.parquet")}, true, "news.parquet: is parquet"},
		{"compressed tsv", []string{in("news.tsv.gz")}, true, "news.tsv.gz: is tsv"},
		{"sgml", []string{in("reut2-000.sgm")}, true, "is sgml"},
		{"html", []string{in("page.html")}, true, "is html"},
		{"given twice", []string{in("a.jsonl"), dir + "/./a.jsonl"}, true, "given twice"},
		{"given and matched", []string{in("more/f.jsonl"), in("more/*.jsonl")}, true, "given twice"},
		{"given through a link", []string{in("a.jsonl"), filepath.Join(link, "a.jsonl")}, true, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Expand(context.Background(), tt.inputs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Expand(%q) = %v, want an error saying %q", tt.inputs, err, tt.want)
			}
			var ie *InputError
			if got := errors.As(err, &ie); got != tt.usage {
				t.Errorf("Expand(%q) = %v: an InputError %v, want %v", tt.inputs, err, got, tt.usage)
			}
		})
	}
}
