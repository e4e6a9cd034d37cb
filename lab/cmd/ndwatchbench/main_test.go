package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

// writeArchive writes n made-up articles in the BBC archive's layout.
func writeArchive(t *testing.T, n int) string {
	path := filepath.Join(t.TempDir(), "bbc.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	g := enginetest.NewTextGen(3)
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSuffix(g.Sentence(), "."))
		for range 4 {
			fmt.Fprintf(&b, "%s\n\n", strings.Join(g.Sentences(3), " "))
		}
		tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("bbc/news/%03d.txt", i), Mode: 0o644, Size: int64(b.Len()), Typeflag: tar.TypeReg})
		tw.Write([]byte(b.String()))
	}
	tw.Close()
	zw.Close()
	f.Close()
	return path
}

func TestBench(t *testing.T) {
	archive := writeArchive(t, 150)
	out := filepath.Join(t.TempDir(), "report.json")
	c := benchCmd{BBC: archive, Pages: 120, Sites: 4, Seed: 1, Workers: 4, Timeout: 300_000_000, Hanging: 1, JSON: out}
	if err := c.run(t.Context()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Pages != 120 || r.ItemsPerSec <= 0 || r.Stored == 0 || r.Pairs.Truth == 0 {
		t.Errorf("report %+v", r)
	}
	for kind, share := range r.Correct {
		if share < 0.9 {
			t.Errorf("%s: %.2f of the pages as expected: %v", kind, share, r.Outcomes[kind])
		}
	}
	if r.Pairs.DupPrecision < 0.95 || r.Pairs.ClusterRec < 0.9 || r.TextTokenF1 < 0.95 {
		t.Errorf("pairs %+v, text F1 %.3f", r.Pairs, r.TextTokenF1)
	}
}
